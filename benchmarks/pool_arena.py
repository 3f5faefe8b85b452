"""Pool ``shangrao arena --db FILE`` blocks: a bot's points a hand per deal, its 95 % CI and 1 %-trimmed mean.

    python benchmarks/pool_arena.py --bot search eval-3501.sqlite3 eval-3502.sqlite3

A deal is one ``hand_index`` played in the arena's seat rotations (one stored game per rotation); its
value is the mean of the bot's points over the rotations it sat in.  The interval is Student's t over
deals (as ``arena`` prints it per block); the trimmed mean drops the 1 % highest and lowest deals.
"""

from __future__ import annotations

import argparse
import json
import sqlite3

import numpy as np


def per_deal(path: str, bot: str) -> list[float]:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    players = {gid: json.loads(p) for gid, p in con.execute("SELECT id, players FROM games")}
    deals: dict[int, list[int]] = {}
    for gid, idx, res in con.execute("SELECT game_id, hand_index, result FROM hands"):
        seats = [i for i, p in enumerate(players[gid]) if p == bot]
        deltas = json.loads(res)["deltas"]
        deals.setdefault(idx, []).extend(deltas[s] for s in seats)
    return [float(np.mean(v)) for _, v in sorted(deals.items()) if v]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", required=True, help="the bot's name as stored (e.g. search)")
    ap.add_argument("dbs", nargs="+", help="arena --db files, one per block")
    a = ap.parse_args()
    x = np.array([v for path in a.dbs for v in per_deal(path, a.bot)])
    n = len(x)
    m, se = x.mean(), x.std(ddof=1) / np.sqrt(n)
    t = 1.96 + 2.4 / n  # Student t's 97.5 % point for n ≥ 100, within 0.001
    k = int(0.01 * n)
    trimmed = np.sort(x)[k : n - k].mean()
    print(f"{a.bot}: deals {n}, points a hand {m:+.3f}, 95 % CI [{m - t * se:+.3f}, {m + t * se:+.3f}], "
          f"1 %-trimmed mean {trimmed:+.3f}")


if __name__ == "__main__":
    main()
