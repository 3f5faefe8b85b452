#!/usr/bin/env python3
"""Behaviour cloning baseline in NumPy (no PyTorch): data, training, arena — one command each.

Budget of the shipped ``learned`` bot (docs/rl.md): 2,000 hands of 4 × ``expert`` self-play
(85,049 decisions; 12 minutes on 2 workers), then this script (a few CPU-minutes).

    shangrao dataset --bots expert --hands 2000 --seed 1001 --workers 2 --out data/expert
    python examples/train_bc.py data/expert --out learned.npz --epochs 12
    shangrao arena --bots policy:learned.npz,ukeire --deals 600 --seed 77 --workers 2

The rows are streamed shard by shard (``--buffer-shards`` at a time in memory, shuffled together):
the memory is bounded whatever the dataset's size (docs/performance.md, "Decision datasets").

Checkpoints: ``--every K`` saves ``OUT.epochK.npz`` after every K epochs (for learning curves:
``examples/learning_curve.py``).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from shangrao.train import train_bc


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dataset", nargs="+", help="directories written by shangrao dataset (trained on together)")
    ap.add_argument("--out", default="bc.npz", help="the checkpoint to write (.npz; play it as policy:OUT)")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--hidden", default="256", help="hidden layer sizes, e.g. 256 or 512,256")
    ap.add_argument("--arch", default="mlp-features", choices=["mlp", "mlp-features"])
    ap.add_argument(
        "--feature-version",
        type=int,
        default=2,
        choices=[1, 2],
        help="mlp-features: the per-action features' version (2: with the win on offer; 1: the shipped learned's)",
    )
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--batch-size", type=int, default=512)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--buffer-shards",
        type=int,
        default=4,
        help="shards in memory at once, shuffled together (memory is bounded by it, not by the dataset)",
    )
    ap.add_argument("--every", type=int, default=0, help="also save a checkpoint every K epochs")
    ap.add_argument(
        "--min-hand-points",
        type=int,
        default=None,
        help="keep only decisions of hands the acting seat ended with at least these points",
    )
    args = ap.parse_args()
    hidden = tuple(int(x) for x in args.hidden.split(",") if x)
    out = Path(args.out)
    t0 = time.perf_counter()

    def checkpoint(ep: int, policy) -> None:
        if args.every and ep % args.every == 0:
            policy.save(out.with_suffix(f".epoch{ep}.npz"))

    policy, _history = train_bc(
        args.dataset,
        hidden=hidden,
        arch=args.arch,
        epochs=args.epochs,
        batch_size=args.batch_size,
        lr=args.lr,
        seed=args.seed,
        min_hand_points=args.min_hand_points,
        feature_version=args.feature_version,
        on_epoch=lambda ep, rec: print(json.dumps(rec), flush=True),
        checkpoint=checkpoint,
        buffer_shards=args.buffer_shards,
    )
    policy.meta["seconds"] = round(time.perf_counter() - t0, 1)
    policy.save(out)
    print(f"wrote {out} ({out.stat().st_size / 1024:.0f} kB) in {policy.meta['seconds']} s")


if __name__ == "__main__":
    main()
