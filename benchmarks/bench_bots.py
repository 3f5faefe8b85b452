"""Decision time of the bots, measured in one run on one core (issue 9's speed budget for ``expert``).

    python benchmarks/bench_bots.py [--hands 60] [--match] [--legal 500] [--json] [--bot expert|search]

* Plays ``--hands`` hands with the lineup ``expert, greedy, greedy, greedy`` (the expert's seat rotates
  with the hand number) and times every decision each bot is asked for (a seat with one legal action is
  not asked).  Prints, per bot: decisions, median, 90th and 99th percentile, max (milliseconds).
  Times are CPU time of this process (``time.process_time``), so other programs on a shared
  machine do not inflate them; wall-clock percentiles are printed beside them.
* ``--match``: the time of one full match (``rules.hands_per_match`` = 8 hands) with one expert and
  three greedy bots (target: under 30 s).
* ``--legal N``: plays N hands with the expert in one seat (rotating) and ``check=True``: every
  action is validated by ``Game.apply`` (an illegal one raises).
* ``--bot search``: the bot timed in the rotating seat (default ``expert``; ``search`` is the
  play-out bot of issue 35, at its default budget).

Run it alone on an otherwise idle core (``taskset -c 0`` on Linux) for numbers worth recording.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time


class Timed:
    def __init__(self, bot) -> None:
        self.bot = bot
        self.cpu: list[float] = []
        self.wall: list[float] = []
        self.needs_observation = getattr(bot, "needs_observation", True)

    def choose(self, obs, legal):
        c0 = time.process_time()
        w0 = time.perf_counter()
        a = self.bot.choose(obs, legal)
        self.wall.append(time.perf_counter() - w0)
        self.cpu.append(time.process_time() - c0)
        return a


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    i = min(len(s) - 1, max(0, round(q / 100 * (len(s) - 1))))
    return s[i]


def summary(name: str, t: Timed) -> dict:
    ms = [x * 1e3 for x in t.cpu]
    wall = [x * 1e3 for x in t.wall]
    return {"bot": name, "decisions": len(ms), "median_ms": round(statistics.median(ms), 3) if ms else None,
            "p90_ms": round(pct(ms, 90), 3), "p99_ms": round(pct(ms, 99), 3), "max_ms": round(max(ms, default=0), 3),
            "wall_median_ms": round(statistics.median(wall), 3) if wall else None,
            "wall_p99_ms": round(pct(wall, 99), 3)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=60)
    ap.add_argument("--match", action="store_true", help="also time one 8-hand match, 1 expert + 3 greedy")
    ap.add_argument("--legal", type=int, default=0, help="also play N hands with check=True")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--bot", default="expert", help="the bot timed in the rotating seat (expert, search …)")
    args = ap.parse_args()
    hero = args.bot

    from shangrao.bots import get_bot
    from shangrao.game import Game, play_hand, play_match

    timers = {hero: Timed(None), "greedy": Timed(None)}
    for h in range(args.hands):
        seat = h % 4
        bots = []
        for i in range(4):
            name = hero if i == seat else "greedy"
            t = Timed(get_bot(name, seed=f"bench:{h}:{i}"))
            t.cpu, t.wall = timers[name].cpu, timers[name].wall  # one list per bot name
            bots.append(t)
        play_hand(Game(seed=f"bench:{h}"), bots)
    out: dict = {"hands": args.hands, "bots": [summary(n, t) for n, t in timers.items()]}

    if args.match:
        c0, w0 = time.process_time(), time.perf_counter()
        res = play_match([get_bot(hero, seed="m:0")] + [get_bot("greedy", seed=f"m:{i}") for i in (1, 2, 3)],
                         seed=2026)
        out["match"] = {"hands": len(res.hands), "cpu_s": round(time.process_time() - c0, 2),
                        "wall_s": round(time.perf_counter() - w0, 2), "scores": list(res.scores)}
    if args.legal:
        c0 = time.process_time()
        for h in range(args.legal):
            bots = [get_bot(hero if i == h % 4 else "greedy", seed=f"legal:{h}:{i}") for i in range(4)]
            play_hand(Game(seed=f"legal:{h}"), bots, check=True)
        out["legal"] = {"hands": args.legal, "illegal": 0, "cpu_s": round(time.process_time() - c0, 1)}

    if args.json:
        sys.stdout.write(json.dumps(out, indent=2) + "\n")
        return 0
    print(f"{args.hands} hands, {hero} in one seat (rotating) and greedy in three; CPU time per decision")
    print(f"{'bot':8} {'decisions':>9} {'median':>9} {'p90':>9} {'p99':>9} {'max':>9}   wall median / p99")
    for b in out["bots"]:
        print(f"{b['bot']:8} {b['decisions']:9d} {b['median_ms']:8.2f}ms {b['p90_ms']:8.2f}ms {b['p99_ms']:8.2f}ms "
              f"{b['max_ms']:8.1f}ms   {b['wall_median_ms']:.2f} / {b['wall_p99_ms']:.2f} ms")
    if "match" in out:
        m = out["match"]
        print(f"one match of {m['hands']} hands, 1 expert + 3 greedy: {m['cpu_s']} s CPU ({m['wall_s']} s wall)")
    if "legal" in out:
        g = out["legal"]
        print(f"{g['hands']} hands with check=True: no illegal action ({g['cpu_s']} s CPU)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
