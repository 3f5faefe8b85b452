"""Issue 20's measurement: the expert against three copies of an opponent, with the opponent model's expert beside it.

    nice -n 10 python benchmarks/measure_expert.py --seed 2001 --opp ukeire --deals 300 [--model] [--json F]

Plays the deals of ``shangrao arena --bots expert,OPP --deals N --seed S`` (the same deals, bots and seeds:
the ``expert`` rows are exactly that command's) and prints the mean points a hand with its 95 % interval
over deals, the 1 %-trimmed mean of the per-deal scores, and what the bot does (win rate, value per win,
偷机 and other declined wins, 飞宝, kongs that stood, claims made, its kongs robbed, pattern mix).  With
``--model`` it also plays (``--model-only``: only) the expert with the opponent model
(``ExpertBot(opponents="model")``, reported as ``expert_model``) on the same deals and gives the
paired difference.  ``--json`` writes the per-deal scores and counts, so blocks can be pooled: ``--pool a.json b.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from shangrao.arena import ArenaStats, iter_deals, t_interval
from shangrao.bots import BOTS, BotEntry, ExpertBot

CLAIMS = ("chow", "pung", "kong")


def _register_model() -> None:
    def factory(seed):
        b = ExpertBot(seed, opponents="model")
        b.name = "expert_model"
        return b
    BOTS["expert_model"] = BotEntry(factory, "expert_model")


def trimmed_mean(xs: list[float], share: float = 0.01) -> float:
    """Mean of ``xs`` without the ``share`` lowest and highest values (at least one each side)."""
    s = sorted(xs)
    cut = max(1, round(len(s) * share))
    if len(s) > 2 * cut:
        s = s[cut:len(s) - cut]
    return sum(s) / len(s)


def play(name: str, opp: str, deals: int, seed: int, partial: str | None = None) -> dict:
    """The ``name`` bot's row over the deals (``partial``: a JSON file rewritten every 10 deals with the
    deals played so far, so that a run stopped early still counts)."""
    stats = ArenaStats([name, opp, opp, opp], seed)
    claims: Counter[str] = Counter()
    t0 = time.time()

    def row() -> dict:
        d = next(b for b in stats.to_dict()["bots"] if b["bot"] == name)
        d["per_deal"] = list(stats.bots[name].per_deal)
        d["claims"] = dict(claims)
        d["seconds"] = round(time.time() - t0)
        return d

    for recs in iter_deals(deals, seed, stats.lineup, workers=1):
        stats.add_deal(recs)
        for rec in recs:
            seat = rec["bots"].index(name)
            for ev in rec["events"]:
                if ev["type"] in CLAIMS and ev.get("seat") == seat:
                    claims[ev["type"]] += 1
        if partial and stats.deals % 10 == 0:
            Path(partial).write_text(json.dumps({name: row()}))
    return row()


def report(d: dict, label: str) -> str:
    pts = d["per_deal"]
    m, lo, hi, _ = t_interval(pts)
    h = d["hands"]
    per100 = lambda x: 100 * x / h  # noqa: E731
    cl = d["claims"]
    return (f"{label:14s} {m:+.3f} [{lo:+.3f}, {hi:+.3f}]  trimmed 1 % {trimmed_mean(pts):+.3f}  "
            f"win {100 * d['wins'] / h:.1f} %  value/win {d['mean_hand_value']:.2f}  per 100 hands: "
            f"declined {per100(d['declined_wins']):.1f}, 飞宝 {per100(d['feibao']):.1f}, kongs {per100(d['kongs']):.1f}, "
            f"吃 {per100(cl.get('chow', 0)):.1f}, 碰 {per100(cl.get('pung', 0)):.1f}, 杠 {per100(cl.get('kong', 0)):.1f}, "
            f"robbed {per100(d['robbed']):.2f}  ({len(pts)} deals)\n  patterns {d['patterns']}")


def pool(blocks: list[dict]) -> dict:
    out = dict(blocks[0])
    for k in ("hands", "wins", "declined_wins", "feibao", "kongs", "robbed", "robs", "points"):
        out[k] = sum(b[k] for b in blocks)
    out["per_deal"] = [x for b in blocks for x in b["per_deal"]]
    out["mean_hand_value"] = sum(b["mean_hand_value"] * b["wins"] for b in blocks) / max(1, out["wins"])
    pat: Counter[str] = Counter()
    cl: Counter[str] = Counter()
    for b in blocks:
        pat.update(b["patterns"])
        cl.update(b["claims"])
    out["patterns"] = dict(pat.most_common())
    out["claims"] = dict(cl)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=2001)
    ap.add_argument("--opp", default="ukeire")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--model", action="store_true")
    ap.add_argument("--model-only", action="store_true", help="play only the expert with the opponent model")
    ap.add_argument("--json")
    ap.add_argument("--pool", nargs="+")
    a = ap.parse_args()
    if a.pool:
        runs = [json.loads(Path(p).read_text()) for p in a.pool]
        for key in runs[0]:
            if key in runs[1]:
                print(report(pool([r[key] for r in runs if key in r]), key + " pooled"))
        if all("expert_model" in r for r in runs):
            diff = [x - y for r in runs for x, y in zip(r["expert"]["per_deal"], r["expert_model"]["per_deal"])]
            m, lo, hi, _ = t_interval(diff)
            print(f"paired difference expert - expert_model, pooled: {m:+.3f} [{lo:+.3f}, {hi:+.3f}]")
        return
    out = {}
    if not a.model_only:
        out["expert"] = play("expert", a.opp, a.deals, a.seed, a.json and a.json + ".partial")
        print(report(out["expert"], "expert"), flush=True)
    if a.model_only:
        _register_model()
        out["expert_model"] = play("expert_model", a.opp, a.deals, a.seed, a.json and a.json + ".partial")
        print(report(out["expert_model"], "expert_model"))
    elif a.model:
        _register_model()
        out["expert_model"] = play("expert_model", a.opp, a.deals, a.seed)
        print(report(out["expert_model"], "expert_model"))
        diff = [x - y for x, y in zip(out["expert"]["per_deal"], out["expert_model"]["per_deal"])]
        m, lo, hi, _ = t_interval(diff)
        print(f"paired difference expert - expert_model: {m:+.3f} [{lo:+.3f}, {hi:+.3f}]")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f)
    sys.exit(0)


if __name__ == "__main__":
    main()
