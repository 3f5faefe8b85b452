#!/usr/bin/env python3
"""The recipe of the shipped ``learned`` bot (issue 36): behaviour cloning of ``expert`` self-play with
the version-2 per-action features (the win on offer, what declining it keeps).

    python examples/train_learned.py --out runs/learned --workers 2
    cp runs/learned/learned.npz src/shangrao/bots/data/learned.npz

Steps: five chunks of 1,000 hands of four ``expert`` seats (seeds 3701, 3703 … 3709; about 0.58 CPU-s a
hand on the Python engine), then :func:`shangrao.train.train_bc` over all of them (12 epochs, 256 hidden,
streamed shard by shard; about 3 minutes), with a checkpoint every ``--every`` epochs for the learning curve
(``examples/learning_curve.py``).

**Resumable:** a chunk is written to a hidden directory and renamed when complete, so a run killed at any
point starts again at the first missing chunk, and a chunk's rows depend only on its seed: the resumed
data equal an uninterrupted run's.  Cloning is deterministic (seed 0, one BLAS thread) and short, so it
simply runs again.  docs/rl.md has a run that was interrupted and resumed, and its weights.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before NumPy loads: BLAS threads are 4-14x slower here

import argparse
import json
import shutil
import time
from pathlib import Path

from shangrao.data import write_selfplay
from shangrao.train import train_bc

SEEDS = (3701, 3703, 3705, 3707, 3709)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="runs/learned", help="the run's directory (data/, checkpoints, learned.npz)")
    ap.add_argument("--seeds", default=",".join(map(str, SEEDS)), help="one data chunk per seed")
    ap.add_argument("--hands", type=int, default=1000, help="hands of self-play per chunk")
    ap.add_argument("--bots", default="expert", help="the teacher (all four seats)")
    ap.add_argument("--workers", type=int, default=1, help="processes for the self-play (the same rows for any)")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--every", type=int, default=2, help="a checkpoint every K epochs (learned.epochKK.npz)")
    args = ap.parse_args()
    try:
        seeds = [int(x) for x in args.seeds.split(",") if x.strip()]
    except ValueError:
        ap.error(f"--seeds: comma-separated integers, got {args.seeds!r}")
    if not seeds or args.hands < 1 or args.epochs < 1:
        ap.error("--seeds needs at least one seed; --hands and --epochs at least 1")
    out = Path(args.out)
    data = out / "data"
    data.mkdir(parents=True, exist_ok=True)
    chunks = []
    for seed in seeds:
        done = data / f"e{seed}"
        chunks.append(done)
        if (done / "meta.json").is_file():
            print(f"chunk {seed}: done before, kept", flush=True)
            continue
        part = data / f".e{seed}.partial"
        shutil.rmtree(part, ignore_errors=True)
        meta = write_selfplay(part, args.hands, seed, bots=(args.bots,) * 4, workers=args.workers)
        part.rename(done)
        print(f"chunk {seed}: {meta['hands']} hands, {meta['decisions']} decisions, {meta['seconds']} s", flush=True)
    t0 = time.perf_counter()

    def checkpoint(ep: int, policy) -> None:
        if args.every and ep % args.every == 0:
            policy.save(out / f"learned.epoch{ep:02d}.npz")

    policy, _history = train_bc(
        [str(c) for c in chunks],
        hidden=(256,),
        arch="mlp-features",
        epochs=args.epochs,
        batch_size=512,
        lr=1e-3,
        seed=0,
        feature_version=2,
        on_epoch=lambda ep, rec: print(json.dumps(rec), flush=True),
        checkpoint=checkpoint,
        buffer_shards=4,
    )
    policy.meta["recipe"] = "examples/train_learned.py"
    policy.meta["seeds"] = args.seeds
    policy.meta["seconds"] = round(time.perf_counter() - t0, 1)
    policy.save(out / "learned.npz")
    print(f"wrote {out / 'learned.npz'} in {policy.meta['seconds']} s of cloning")


if __name__ == "__main__":
    main()
