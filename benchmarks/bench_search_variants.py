"""Variants of the ``search`` bot on the same deals against three ``ukeire``, paired (issue 35).

    python benchmarks/bench_search_variants.py run --spec search:tilted --deals 150 --seed 9201 --out v.json
    python benchmarks/bench_search_variants.py summarize --ref base.json v1.json v2.json [--md]

``run`` plays ``shangrao arena --engine fast --bots SPEC,ukeire --deals D --seed S`` (the compiled core;
the spec's seat rotates through the four seats of each deal) and writes the spec's points a hand per
deal (the mean over its rotations), its wins, wins declined, hands and seconds to ``--out`` (JSON); one
variant a process, so variants can run side by side.  ``summarize`` prints each file's mean and 95 %
t interval over deals and, against ``--ref`` (the same seed and deals), the paired difference per deal
with its interval: the deals' luck cancels, so the difference is much tighter than either mean.
Seeds 3501–3504 are kept for the evaluations of record: tune on others.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def run(spec: str, deals: int, seed: int, workers: int, partial: str = "") -> dict:
    from shangrao.arena import iter_deals

    lineup = [spec, "ukeire", "ukeire", "ukeire"]
    t0 = time.perf_counter()
    per_deal: list[float] = []
    wins = declined = hands = 0
    for recs in iter_deals(deals, seed, lineup, workers=workers, engine="fast"):
        pts = 0.0
        for rec in recs:
            seat = rec["bots"].index(spec)
            pts += rec["result"]["deltas"][seat]
            wins += seat in rec["result"]["winners"]
            declined += rec["declined"][seat]
            hands += 1
        per_deal.append(pts / len(recs))
        row = {
            "spec": spec,
            "deals": len(per_deal),
            "seed": seed,
            "per_deal": per_deal,
            "wins": wins,
            "declined": declined,
            "hands": hands,
            "seconds": time.perf_counter() - t0,
        }
        if partial:  # the deals so far, rewritten after each (a run stopped early still pairs on them)
            Path(partial).write_text(json.dumps(row))
    return row | {"deals": deals, "seconds": time.perf_counter() - t0}


def summarize(ref: dict, others: list[dict]) -> str:
    from shangrao.arena import t_interval

    out = [
        "| variant | pts/hand over 3×ukeire | 95 % CI | paired Δ vs ref | 95 % CI of Δ | win % | 偷机 | seconds |",
        "|---|---|---|---|---|---|---|---|",
    ]
    n = min(len(r["per_deal"]) for r in [ref, *others])  # partial runs: the deals all of them played
    for r in [ref, *others]:
        if len(r["per_deal"]) > n:  # its counts are of more deals than the means: not shown
            r["wins"] = r["declined"] = r["seconds"] = float("nan")
        r["per_deal"] = r["per_deal"][:n]
        r["deals"] = n
        m, lo, hi, _ = t_interval(r["per_deal"])
        if r is ref:
            d = "(ref)"
            dci = ""
        else:
            if (r["seed"], r["deals"]) != (ref["seed"], ref["deals"]):
                raise SystemExit(f"{r['spec']}: seed/deals {r['seed']}/{r['deals']} differ from the reference's")
            dm, dlo, dhi, _ = t_interval([a - b for a, b in zip(r["per_deal"], ref["per_deal"], strict=True)])
            d = f"{dm:+.3f}"
            dci = f"[{dlo:+.3f}, {dhi:+.3f}]"
        out.append(
            f"| `{r['spec']}` | {m:+.3f} | [{lo:+.3f}, {hi:+.3f}] | {d} | {dci} | "
            f"{100.0 * r['wins'] / max(r['hands'], 1):.1f} | {r['declined']} | {r['seconds']:.0f} |"
        )
    out.append(f"\n({ref['deals']} deals × 4 rotations, seed {ref['seed']}, `--engine fast`.)")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--spec", required=True)
    r.add_argument("--deals", type=int, default=150)
    r.add_argument("--seed", type=int, default=9201)
    r.add_argument("--workers", type=int, default=1)
    r.add_argument("--out", required=True)
    s = sub.add_parser("summarize")
    s.add_argument("--ref", required=True)
    s.add_argument("files", nargs="*")
    a = ap.parse_args(argv)
    if a.cmd == "run":
        if a.seed in (3501, 3502, 3503, 3504):
            print("note: seeds 3501-3504 are kept for the evaluations of record", file=sys.stderr)
        res = run(a.spec, a.deals, a.seed, a.workers, a.out + ".partial")
        Path(a.out).write_text(json.dumps(res), encoding="utf-8")
        print(
            f"{a.spec}: {sum(res['per_deal']) / len(res['per_deal']):+.3f} a hand, {res['seconds']:.0f} s",
            file=sys.stderr,
        )
        return 0
    load = lambda p: json.loads(Path(p).read_text(encoding="utf-8"))  # noqa: E731
    print(summarize(load(a.ref), [load(p) for p in a.files]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
