"""Strength of the ``search`` bot against its budget (issue 35's Must show): points a hand over three
``ukeire`` at several budgets (worlds = play-outs per option), each on the same deals.

    python benchmarks/bench_search_budget.py [--budgets 16,64,256,1024] [--deals 300] [--seed 9101]
        [--workers 1] [--opts z=2:margin=1] [--out docs/img/search_budget] [--json]

Each budget ``W`` plays ``shangrao arena --engine fast --bots search:W[:OPTS],ukeire --deals D --seed S``
(the compiled core; every budget meets the same deals, so the differences between budgets are
paired).  Prints a Markdown table (budget, mean points a hand, 95 % t interval over deals, 1 %-trimmed
mean, win %, wins declined, seconds) and writes it to ``OUT.md``; with matplotlib installed also
``OUT.png`` (mean and interval against the budget, log axis), else says so.  Seeds 3501–3504 are kept
for the final evaluations: tune on others.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def trimmed_mean(xs: list[float], cut: float = 0.01) -> float:
    """The mean of ``xs`` without the lowest and highest ``cut`` share (at least one each side when
    ``cut * len(xs) >= 1``; none for fewer samples)."""
    s = sorted(xs)
    k = int(len(s) * cut)
    s = s[k:len(s) - k] if k else s
    return sum(s) / len(s) if s else float("nan")


def run(budgets: list[int], deals: int, seed: int, workers: int, opts: str) -> list[dict]:
    from bench_search_variants import run as play_search  # the same play of one spec against 3 ukeire

    from shangrao.arena import t_interval

    rows = []
    for w in budgets:
        spec = f"search:{w}" + (f":{opts}" if opts else "")
        r = play_search(spec, deals, seed, workers)
        per_deal, wins, declined, hands = r["per_deal"], r["wins"], r["declined"], r["hands"]
        mean, lo, hi, _ = t_interval(per_deal)
        rows.append({"budget": w, "spec": spec, "deals": deals, "mean": mean, "lo": lo, "hi": hi,
                     "trimmed": trimmed_mean(per_deal), "win_pct": 100.0 * wins / max(hands, 1),
                     "declined": declined, "seconds": r["seconds"]})
        print(f"budget {w}: {mean:+.3f} [{lo:+.3f}, {hi:+.3f}]", file=sys.stderr, flush=True)
    return rows


def table(rows: list[dict], seed: int) -> str:
    out = ["| worlds (play-outs per option) | pts/hand over 3×ukeire | 95 % CI | 1 %-trimmed | win % | 偷机 | "
           "seconds |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['budget']} | {r['mean']:+.3f} | [{r['lo']:+.3f}, {r['hi']:+.3f}] | {r['trimmed']:+.3f} | "
                   f"{r['win_pct']:.1f} | {r['declined']} | {r['seconds']:.0f} |")
    out.append(f"\n({rows[0]['deals'] if rows else 0} deals × 4 rotations, seed {seed}, `--engine fast`.)")
    return "\n".join(out)


def plot(rows: list[dict], path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    xs = [r["budget"] for r in rows]
    ys = [r["mean"] for r in rows]
    err = [[r["mean"] - r["lo"] for r in rows], [r["hi"] - r["mean"] for r in rows]]
    fig, ax = plt.subplots(figsize=(5, 3.2))
    ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("worlds (play-outs per option)")
    ax.set_ylabel("points a hand over 3 × ukeire")
    ax.set_title("search: strength against budget")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--budgets", default="16,64,256,1024", help="comma-separated worlds per option")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=9101)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--opts", default="", help="more search options, e.g. z=2:margin=1 (see parse_search_spec)")
    ap.add_argument("--out", default="", help="write OUT.md (and OUT.png with matplotlib)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    try:
        budgets = [int(x) for x in a.budgets.split(",") if x.strip()]
    except ValueError:
        ap.error(f"--budgets: comma-separated ints, got {a.budgets!r}")
    if not budgets or min(budgets) < 1 or a.deals < 1:
        ap.error("--budgets and --deals must be positive")
    if a.seed in (3501, 3502, 3503, 3504):
        print("note: seeds 3501-3504 are kept for the final evaluations", file=sys.stderr)
    rows = run(budgets, a.deals, a.seed, a.workers, a.opts)
    text = table(rows, a.seed)
    print(json.dumps(rows, indent=1) if a.json else text)
    if a.out:
        out = Path(a.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.with_suffix(".md").write_text(text + "\n", encoding="utf-8")
        if not plot(rows, out.with_suffix(".png")):
            print("matplotlib is not installed: no PNG written", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
