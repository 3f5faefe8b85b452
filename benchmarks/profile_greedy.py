"""Profile a greedy-bot simulation (default 200 hands) with cProfile and print where the time goes.

    python benchmarks/profile_greedy.py [--hands 200] [--top 20]

Prints the functions with the most own time and the share of the run spent in
the engine, the bots and the analysis tables.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import time


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--top", type=int, default=20)
    args = ap.parse_args()

    from shangrao.bots import get_bot
    from shangrao.game import play_match

    def run() -> int:
        hands = 0
        seed = 0
        while hands < args.hands:
            hands += len(play_match([get_bot("greedy", seed * 4 + i) for i in range(4)], seed=seed).hands)
            seed += 1
        return hands

    t = time.perf_counter()
    prof = cProfile.Profile()
    prof.enable()
    hands = run()
    prof.disable()
    wall = time.perf_counter() - t
    stats = pstats.Stats(prof)
    total = sum(v[2] for v in stats.stats.values())  # own time of every function
    areas: dict[str, float] = {}
    for (filename, _, _), v in stats.stats.items():
        area = "other (stdlib, dataclasses, enum)"
        for key in ("analysis", "bots", "game", "scoring", "melds", "tiles"):
            if f"shangrao/{key}" in filename.replace("\\", "/"):
                area = key
                break
        areas[area] = areas.get(area, 0.0) + v[2]
    print(f"{hands} greedy hands in {wall:.1f} s under cProfile ({hands / wall:.1f} hands/s)")
    print("own time by area:")
    for area, secs in sorted(areas.items(), key=lambda x: -x[1]):
        print(f"  {area:<36} {secs:6.2f} s  {100 * secs / total:5.1f} %")
    out = io.StringIO()
    pstats.Stats(prof, stream=out).strip_dirs().sort_stats("tottime").print_stats(args.top)
    text = out.getvalue()
    print(text[text.index("ncalls"):] if "ncalls" in text else text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
