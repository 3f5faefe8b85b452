"""RL throughput: AEC env steps/s with random masked actions, and self-play speed-up of workers=2 over 1.

Run: ``python benchmarks/bench_env.py [--hands 400] [--sim-hands 2000] [--bots greedy] [--repeat 3]``
Results go in docs/performance.md (RL section).  Each self-play configuration runs in a
fresh interpreter so that no caches (e.g. the greedy bot's memoised shanten) are inherited
by forked workers from an earlier run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time

import numpy as np


def bench_aec(hands: int, seed: int = 0) -> dict:
    import shangrao.env as senv

    e = senv.env(hands=8)
    rng = np.random.default_rng(seed)
    steps = 0
    played = 0
    t0 = time.perf_counter()
    ep = 0
    while played < hands:
        e.reset(seed=seed + ep)
        ep += 1
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        played += len(e.unwrapped.hand_results)
    dt = time.perf_counter() - t0
    return {"hands": played, "steps": steps, "seconds": round(dt, 2), "steps_per_second": round(steps / dt),
            "hands_per_second": round(played / dt, 1)}


def bench_engine(hands: int, seed: int = 0) -> dict:
    """The same random play straight on the engine (no env, no encoding) for comparison."""
    from shangrao.bots import get_bot
    from shangrao.game import play_match

    t0 = time.perf_counter()
    played = 0
    m = 0
    while played < hands:
        r = play_match([get_bot("random", seed=f"{m}:{i}") for i in range(4)], seed=seed + m)
        m += 1
        played += len(r.hands)
    dt = time.perf_counter() - t0
    return {"hands": played, "seconds": round(dt, 2), "hands_per_second": round(played / dt, 1)}


def _sim_child(n: int, workers: int, bots: str) -> None:
    from shangrao.selfplay import simulate_hands

    t0 = time.perf_counter()
    recs = simulate_hands(n, seed=1, bots=[bots] * 4, workers=workers)
    dt = time.perf_counter() - t0
    print(json.dumps({"workers": workers, "hands": len(recs), "seconds": round(dt, 2),
                      "hands_per_second": round(len(recs) / dt, 1)}))


def bench_selfplay(n: int, bots: str, workers: int, repeat: int = 3) -> dict:
    """Best of ``repeat`` runs, each in a fresh interpreter."""
    runs = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, __file__, "--child", str(n), str(workers), bots],
                             capture_output=True, text=True, check=True)
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    return min(runs, key=lambda r: r["seconds"])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=400, help="hands for the AEC throughput")
    ap.add_argument("--sim-hands", type=int, default=2000, help="hands for the workers speed-up")
    ap.add_argument("--repeat", type=int, default=3, help="self-play runs per configuration (best is kept)")
    ap.add_argument("--bots", default="greedy")
    ap.add_argument("--child", nargs=3)
    args = ap.parse_args()
    if args.child:
        _sim_child(int(args.child[0]), int(args.child[1]), args.child[2])
        return
    print(f"python {platform.python_version()}, {os.cpu_count()} CPUs, {platform.processor() or platform.machine()}, "
          f"load average before: {os.getloadavg()[0]:.2f}")
    print("engine, random bots:     ", bench_engine(args.hands))
    print("AEC env, random masked:  ", bench_aec(args.hands))
    for bots in dict.fromkeys([args.bots, "random"]):
        w1 = bench_selfplay(args.sim_hands, bots, 1, args.repeat)
        w2 = bench_selfplay(args.sim_hands, bots, 2, args.repeat)
        print(f"simulate_hands {args.sim_hands} hands, {bots} bots: workers=1 {w1['seconds']}s "
              f"({w1['hands_per_second']} hands/s), workers=2 {w2['seconds']}s ({w2['hands_per_second']} hands/s), "
              f"speed-up x{w1['seconds'] / w2['seconds']:.2f}")


if __name__ == "__main__":
    main()
