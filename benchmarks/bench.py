"""Speed of shangrao against peer engines, in one process, on identical inputs.

Run from the repository (needs the dev extra: ``pip install -e ".[dev]"``)::

    python benchmarks/bench.py            # full run (about 2 minutes)
    python benchmarks/bench.py --quick    # smaller inputs, for a smoke check
    python benchmarks/bench.py --scalar --cpu-time   # parts 1-3 only (the scalar calls), CPU time
    python benchmarks/bench.py --markdown docs/performance-run.md

Measures (see docs/performance.md for a recorded run and what each line means):

1. win checks per second on 20,000 complete 14-tile hands without wildcards:
   ``shangrao.is_winning`` against ``mahjong``'s ``Agari().is_agari``;
2. the same hands with 1, 2, 3 and 4 tiles turned into 宝 (a kind absent from
   the hand is made the 宝 and that many tiles of the hand are replaced by it):
   ours alone, slowdown against 0;
3. shanten per second on 20,000 random 14-tile hands: ``shangrao.shanten``
   (all four forms; without 宝 and with a 宝) against ``mahjong``'s
   ``Shanten().calculate_shanten``.  Answers are compared form by form:
   our standard-form shanten against ``calculate_shanten_for_regular_hand`` on
   every hand, and our 七对 shanten against ``calculate_shanten_for_chiitoitsu_hand``
   on hands without four of a kind (our 七对 counts a quad as two pairs);
   十三浪/九幺 have no counterpart there;
4. full hands per second with four ``random`` and four ``greedy`` bots against
   RLCard's ``mahjong`` environment with four random agents;
5. peak memory of one hand and the size of the tables; import time.

Timings use ``time.perf_counter`` over the whole batch, after one warm-up pass
that fills the tables (the tables are built at first use; the cold pass is
reported too).  As ``timeit`` does, the garbage collector is off while a batch
of analysis calls is timed (full hands are timed with it on).  Each compared pair is run in interleaved rounds (5 for the
analysis, 3 for full hands) and the best round of each side is reported, so a
burst of load on the machine does not favour either side.  ``--cpu-time`` times with
``time.process_time`` instead (the process's own CPU: steadier on a shared, loaded machine, where
the wall clock counts the time other processes hold the core); ``--scalar`` stops after part 3.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import subprocess
import sys
import time
import tracemalloc


def complete_hands(n: int, rng: random.Random) -> list[list[int]]:
    """n random complete standard hands (pair + four melds), counts <= 4."""
    melds = [[s * 9 + r, s * 9 + r + 1, s * 9 + r + 2] for s in range(3) for r in range(7)]
    melds += [[k, k, k] for k in range(34)]
    out = []
    while len(out) < n:
        c = [0] * 34
        c[rng.randrange(34)] += 2
        for _ in range(4):
            for k in rng.choice(melds):
                c[k] += 1
        if max(c) <= 4:
            out.append(c)
    return out


def random_hands(n: int, rng: random.Random, size: int = 14) -> list[list[int]]:
    wall = [k for k in range(34) for _ in range(4)]
    out = []
    for _ in range(n):
        rng.shuffle(wall)
        c = [0] * 34
        for k in wall[:size]:
            c[k] += 1
        out.append(c)
    return out


def with_wildcards(hands: list[list[int]], n_bao: int, rng: random.Random) -> list[tuple[list[int], int]]:
    """Turn ``n_bao`` tiles of each hand into 宝: a kind absent from the hand becomes the 宝."""
    out = []
    for c in hands:
        c = list(c)
        bao = rng.choice([k for k in range(34) if c[k] == 0])
        tiles = [k for k in range(34) for _ in range(c[k])]
        for k in rng.sample(tiles, n_bao):
            c[k] -= 1
            c[bao] += 1
        out.append((c, bao))
    return out


#: the clock of :func:`rate`: the wall clock, or the process's CPU time with ``--cpu-time``
CLOCK = time.perf_counter


def rate(fn, items) -> float:
    """Items per second; the garbage collector is off while timing, as ``timeit`` does."""
    gc.collect()
    gc.disable()
    try:
        t = CLOCK()
        for x in items:
            fn(x)
        return len(items) / (CLOCK() - t)
    finally:
        gc.enable()


ROUNDS = 5


def best_rates(*cases) -> list[float]:
    """Best rate of each ``(fn, items)`` case over ROUNDS rounds, the cases interleaved within a round.

    Taking the best of interleaved rounds (as ``timeit`` takes the minimum) keeps a
    burst of load on the machine from favouring one side of a comparison.
    """
    best = [0.0] * len(cases)
    for _ in range(ROUNDS):
        for i, (fn, items) in enumerate(cases):
            best[i] = max(best[i], rate(fn, items))
    return best


def bench_hands(bot: str, n_hands: int) -> tuple[float, int]:
    from shangrao.bots import get_bot
    from shangrao.game import play_match

    t = time.perf_counter()
    hands = 0
    seed = 0
    while hands < n_hands:
        bots = [get_bot(bot, seed * 4 + i) for i in range(4)]
        hands += len(play_match(bots, seed=seed).hands)
        seed += 1
    return hands / (time.perf_counter() - t), hands


def bench_rlcard(n_games: int) -> float | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("mahjong", config={"seed": 1})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(4)])
    t = time.perf_counter()
    for _ in range(n_games):
        env.run(is_training=False)
    return n_games / (time.perf_counter() - t)


def import_time() -> float:
    code = "import time; t=time.perf_counter(); import shangrao; print(time.perf_counter()-t)"
    best = min(float(subprocess.check_output([sys.executable, "-c", code], text=True)) for _ in range(3))
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small inputs (smoke check)")
    ap.add_argument("--markdown", metavar="PATH", help="also write the table as Markdown")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--scalar", action="store_true", help="only parts 1-3: the scalar win check and shanten")
    ap.add_argument("--cpu-time", action="store_true", help="time with time.process_time, not the wall clock")
    args = ap.parse_args()

    from mahjong.agari import Agari
    from mahjong.shanten import Shanten

    import shangrao
    from shangrao.analysis import form_shanten, Form
    from shangrao.analysis import tables

    global ROUNDS, CLOCK
    if args.cpu_time:
        CLOCK = time.process_time
    n = 2000 if args.quick else 20000
    ROUNDS = 1 if args.quick else 5
    n_sim = 40 if args.quick else 200
    rng = random.Random(args.seed)
    rows: list[tuple[str, str, str, str]] = []  # what, ours, theirs, ratio
    notes: list[str] = []

    # 1. win checks, no wildcards
    hands = complete_hands(n, rng)
    agari = Agari()
    assert all(agari.is_agari(h) for h in hands[:200])
    t = time.perf_counter()
    assert all(shangrao.is_winning(h, None) for h in hands)
    cold = n / (time.perf_counter() - t)
    ours0, theirs = best_rates((lambda h: shangrao.is_winning(h, None), hands), (agari.is_agari, hands))
    rows.append(("win check, 0 宝 (hands/s)", f"{ours0:,.0f}", f"{theirs:,.0f}", f"{ours0 / theirs:.2f}×"))
    notes.append(f"win check, 0 宝, first pass with cold tables: {cold:,.0f} hands/s")

    # 2. the same hands with 1-4 wildcards
    for nb in (1, 2, 3, 4):
        wild = with_wildcards(hands, nb, random.Random(args.seed + nb))
        assert all(shangrao.is_winning(c, b) for c, b in wild)
        r, = best_rates((lambda x: shangrao.is_winning(x[0], x[1]), wild))
        rows.append((f"win check, {nb} 宝 (hands/s)", f"{r:,.0f}", "—", f"{r / ours0:.2f}× of 0 宝"))

    # 3. shanten
    rh = random_hands(n, rng)
    sh = Shanten()
    for h in rh:
        shangrao.shanten(h, None)
    baos = [(h, rng.randrange(34)) for h in rh]
    for h, b in baos:
        shangrao.shanten(h, b)
    ours_s, ours_sb, theirs_s = best_rates((lambda h: shangrao.shanten(h, None), rh),
                                           (lambda x: shangrao.shanten(x[0], x[1]), baos),
                                           (sh.calculate_shanten, rh))
    rows.append(("shanten, no 宝 (hands/s)", f"{ours_s:,.0f}", f"{theirs_s:,.0f}", f"{ours_s / theirs_s:.2f}×"))
    rows.append(("shanten, with a 宝 (hands/s)", f"{ours_sb:,.0f}", f"{theirs_s:,.0f}", f"{ours_sb / theirs_s:.2f}×"))
    agree_std = sum(form_shanten(h, None)[Form.STANDARD] == sh.calculate_shanten_for_regular_hand(h) for h in rh)
    no_quads = [h for h in rh if max(h) < 4]
    agree_7 = sum(form_shanten(h, None)[Form.SEVEN_PAIRS] == sh.calculate_shanten_for_chiitoitsu_hand(h)
                  for h in no_quads)
    notes.append(f"shanten answers: standard form agrees with mahjong's regular-hand shanten on {agree_std}/{len(rh)} hands; "
                 f"七对 agrees with chiitoitsu on {agree_7}/{len(no_quads)} hands without four of a kind")

    if not args.scalar:  # parts 4-5
        # 4. full hands
        r_random = r_greedy = 0.0
        rl = None
        for _ in range(1 if args.quick else 3):  # interleaved rounds, best of each
            r, nr = bench_hands("random", n_sim)
            r_random = max(r_random, r)
            r, ng = bench_hands("greedy", n_sim)
            r_greedy = max(r_greedy, r)
            x = bench_rlcard(n_sim)
            rl = x if rl is None or (x is not None and x > rl) else rl
        rl_text = f"{rl:,.1f}" if rl else "rlcard not installed"
        rows.append((f"full hands, 4 random bots (hands/s, {nr} hands)", f"{r_random:,.1f}", rl_text,
                     f"{r_random / rl:.1f}×" if rl else "—"))
        rows.append((f"full hands, 4 greedy bots (hands/s, {ng} hands)", f"{r_greedy:,.1f}", rl_text,
                     f"{r_greedy / rl:.1f}×" if rl else "—"))

        # 5. memory and import
        from shangrao.bots import get_bot
        from shangrao.game import Game, play_hand

        gc.collect()
        tracemalloc.start()
        g = Game(seed=12345)
        play_hand(g, [get_bot("greedy", i) for i in range(4)])
        _, peak_hand = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        entries = len(tables._SUITS) + len(tables._HONORS)
        tracemalloc.start()
        tables._SUITS.clear()
        tables._HONORS.clear()
        tables._SUITS_B.clear()
        tables._HONORS_B.clear()
        for h in hands + rh:
            shangrao.shanten(h, None)
        table_bytes, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        rows.append(("peak memory of one greedy hand", f"{peak_hand / 1024:,.0f} KiB", "—", ""))
        rows.append((f"tables after the shanten/win inputs ({len(tables._SUITS) + len(tables._HONORS):,} entries)",
                     f"{table_bytes / 1024 / 1024:,.1f} MiB", "—", ""))
        it = import_time()
        rows.append(("import shangrao (tables are built at first use)", f"{it * 1000:.0f} ms", "—", ""))
        notes.append(f"table entries filled during the whole run: {entries:,}")

    machine = (f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
               f"{platform.platform()}")
    try:
        from importlib.metadata import version
        peers = f"mahjong {version('mahjong')}, rlcard {version('rlcard')}"
    except Exception:  # noqa: BLE001 - only for the report line
        peers = "peer versions unknown"

    from rich.console import Console
    from rich.table import Table

    kind = ("quick" if args.quick else "full") + (", scalar calls" if args.scalar else "") + (", CPU time" if args.cpu_time else "")
    table = Table(title=f"shangrao benchmarks ({kind} run)")
    for col in ("measure", "shangrao", "peer", "ratio (ours / theirs)"):
        table.add_column(col)
    for row in rows:
        table.add_row(*row)
    console = Console()
    console.print(table)
    console.print(f"machine: {machine}; peers: {peers}")
    for note in notes:
        console.print("· " + note)

    if args.markdown:
        lines = ["| measure | shangrao | peer | ratio (ours / theirs) |", "|---|---|---|---|"]
        lines += [f"| {' | '.join(r)} |" for r in rows]
        lines += ["", f"machine: {machine}; peers: {peers}", ""] + [f"- {x}" for x in notes]
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
