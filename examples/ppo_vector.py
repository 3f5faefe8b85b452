#!/usr/bin/env python3
"""PPO on the batched environment (shangrao.ppo), resumable: run it again with the same --out to go on.

    python examples/ppo_vector.py --out runs/ppo-vec --updates 200 --envs 64 --steps 32
    python examples/ppo_vector.py --out runs/ppo-vec --updates 200 --anchor src/shangrao/bots/data/bc-mlp.npz --kl 0.05
    shangrao arena --bots policy:runs/ppo-vec/ppo-0200.npz,ukeire --deals 300 --engine fast

Kill it at any point (Ctrl-C, kill -9): the next run with the same --out and settings resumes from
out/state.npz (the last checkpoint) and ends with the same weights as a run never stopped.
Settings that differ from the stored run's are refused (another --out starts afresh).
"""

from __future__ import annotations

import os

# BLAS threads: set before NumPy loads (the trainer also caps them); 4-14x faster on small matrices
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import sys  # noqa: E402

from shangrao.ppo import PPOConfig, PPOConfigError, train_ppo  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="run folder: checkpoints ppo-UUUU.npz and state.npz")
    p.add_argument("--updates", type=int, default=100)
    p.add_argument("--envs", type=int, default=64, help="games stepped together")
    p.add_argument("--steps", type=int, default=32, help="learner decisions per game per update")
    p.add_argument(
        "--seats",
        default="learner,ukeire,ukeire,ukeire",
        help="4 names: learner or a core bot (random, greedy, ukeire)",
    )
    p.add_argument("--hidden", default="256", help="trunk widths, e.g. 256 or 512,256")
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--minibatch", type=int, default=512)
    p.add_argument("--ent", default="0.01,0.001", help="entropy bonus start,end (linear)")
    p.add_argument("--anchor", default=None, help="a .npz policy (arch mlp): the start and the KL anchor")
    p.add_argument("--kl", type=float, default=0.0, help="KL(pi || anchor) weight")
    p.add_argument("--every", type=int, default=10, help="updates between checkpoints")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    try:
        ent = [float(v) for v in a.ent.split(",")]
        cfg = PPOConfig(
            seats=tuple(s.strip() for s in a.seats.split(",")),  # type: ignore[arg-type]
            num_envs=a.envs,
            steps=a.steps,
            hidden=tuple(int(h) for h in a.hidden.split(",")),
            lr=a.lr,
            epochs=a.epochs,
            minibatch=a.minibatch,
            ent_start=ent[0],
            ent_end=ent[-1],
            anchor=a.anchor,
            kl_coef=a.kl,
            updates=a.updates,
            checkpoint_every=a.every,
            seed=a.seed,
        )
        train_ppo(cfg, a.out)
    except (PPOConfigError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
