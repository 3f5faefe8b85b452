"""Paired comparison of expert variants on a fixed set of deals (issue 9 tuning).

Each variant plays the same deals (same seeds: walls, dice and opponents' rng) as the
baseline ``expert`` against three copies of the opponent; the difference of the two per-deal
means is a paired sample, so the interval is much narrower than two independent runs'.

    PYTHONPATH=src python benchmarks/paired_expert.py --deals 100 --seed 2 \
        --variant 'value_pool=0.6' --variant 'opponents=None'

A variant is ``key=value[,key=value…]`` of :class:`shangrao.bots.ExpertBot` keywords (Python
literals); ``--base`` gives the reference's keywords (default: the current defaults).  The
reference's per-deal points are cached in ``/tmp`` per (deals, seed, opponent, --base): pass
``--fresh`` after changing the bot's code or defaults.
"""

from __future__ import annotations

import argparse
import ast
import json
import multiprocessing as mp
import os
import sys
import time
from pathlib import Path

from shangrao.arena import run_arena, t_interval
from shangrao.bots import BOTS, BotEntry, ExpertBot


def _parse(spec: str) -> dict:
    out = {}
    for part in filter(None, spec.split(",")):
        k, v = part.split("=", 1)
        val = ast.literal_eval(v.strip())
        if isinstance(val, str) and val.endswith(".json"):  # e.g. value_model='/tmp/w.json'
            val = json.loads(Path(val).read_text())
        out[k.strip()] = val
    return out


def _register(name: str, kwargs: dict) -> None:
    def factory(seed, kw=kwargs):
        b = ExpertBot(seed, **kw)
        b.name = name
        return b
    BOTS[name] = BotEntry(factory, name)


def _per_deal(name: str, opp: str, deals: int, seed: int, workers: int) -> tuple[list[float], dict]:
    res = run_arena([name, opp, opp, opp], deals, seed, workers=workers, mp_context=mp.get_context("fork"))
    # per-deal samples are not in the result dict: recompute through ArenaStats via on_deal
    return res["_per_deal"], res


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--opp", default="ukeire")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--variant", action="append", default=[])
    ap.add_argument("--base", default="")
    ap.add_argument("--fresh", action="store_true")
    a = ap.parse_args()
    import shangrao.arena as arena

    # keep the per-deal samples of the tested bot
    orig = arena.ArenaStats.to_dict

    def to_dict(self):
        d = orig(self)
        d["_per_deal"] = self.bots[self.lineup[0]].per_deal
        return d

    arena.ArenaStats.to_dict = to_dict  # type: ignore[method-assign]
    cache = Path(f"/tmp/paired_base_{a.deals}_{a.seed}_{a.opp}_{a.base.replace('/', '_')}_{os.getuid()}.json")
    if cache.exists() and not a.fresh:
        base = json.loads(cache.read_text())
    else:
        t0 = time.time()
        _register("expert_base", _parse(a.base))
        base, res = _per_deal("expert_base", a.opp, a.deals, a.seed, a.workers)
        cache.write_text(json.dumps(base))
        print(f"baseline expert: {sum(base) / len(base):+.3f}  ({time.time() - t0:.0f} s)", flush=True)
    for i, spec in enumerate(a.variant):
        name = f"expert_v{i}"
        _register(name, _parse(spec))
        t0 = time.time()
        pts, res = _per_deal(name, a.opp, a.deals, a.seed, a.workers)
        diff = [x - y for x, y in zip(pts, base)]
        m, lo, hi, _ = t_interval(diff)
        b = res["bots"][0]
        print(f"{spec:40s} pts {sum(pts) / len(pts):+.3f} (base {sum(base) / len(base):+.3f})  "
              f"diff {m:+.3f} [{lo:+.3f}, {hi:+.3f}]  win {b['win_rate']:.3f} value {b['mean_hand_value']:.2f} "
              f"declined {b['declined_wins']} feibao {b['feibao']}  ({time.time() - t0:.0f} s)", flush=True)
    sys.exit(0)


if __name__ == "__main__":
    main()
