#!/usr/bin/env python3
"""Learning curve of a run's checkpoints: points/hand of each against 3 × ukeire in the arena.

    python examples/learning_curve.py runs/ppo --deals 100 --seed 90 --png docs/rl-learning-curve.png

Plays ``shangrao arena`` (duplicate deals, the same deals for every checkpoint) for every
``*.npz`` of the directory in name order, prints a Markdown table and draws the PNG
(matplotlib, only for the picture).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from shangrao.arena import run_arena


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("run", help="a directory of .npz checkpoints")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=90)
    ap.add_argument("--opponent", default="ukeire")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--png", default=None)
    args = ap.parse_args()
    rows = []
    for ck in sorted(Path(args.run).glob("*.npz")):
        spec = f"policy:{ck}"
        res = run_arena([spec] + [args.opponent] * 3, deals=args.deals, seed=args.seed, workers=args.workers)
        b = res["bots"][0]
        rows.append((ck.stem, b["points_per_hand"], b["ci95"][0], b["ci95"][1], b["win_rate"]))
        print(
            f"| {ck.stem} | {b['points_per_hand']:+.3f} | [{b['ci95'][0]:+.3f}, {b['ci95'][1]:+.3f}] | "
            f"{100 * b['win_rate']:.1f} % |",
            flush=True,
        )
    if args.png and rows:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        xs = list(range(len(rows)))
        fig, ax = plt.subplots(figsize=(6, 3.2), dpi=110)
        ax.errorbar(
            xs,
            [r[1] for r in rows],
            yerr=[[r[1] - r[2] for r in rows], [r[3] - r[1] for r in rows]],
            marker="o",
            capsize=3,
        )
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xticks(xs, [r[0] for r in rows], rotation=30, fontsize=7)
        ax.set_ylabel(f"points/hand vs 3x {args.opponent}")
        ax.set_title(f"{Path(args.run).name}: {args.deals} deals x 4 rotations, seed {args.seed}", fontsize=9)
        fig.tight_layout()
        fig.savefig(args.png)
        print(f"wrote {args.png}")


if __name__ == "__main__":
    main()
