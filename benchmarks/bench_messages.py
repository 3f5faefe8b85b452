"""The cost of writing one ``state`` message: the server's one writer (msgspec Structs encoded by
``shangrao.web.outgoing.encode``) against the hand-made f-string writer it replaced (issue 21), in one
process, on the same positions.

Run from the repository::

    pip install orjson                      # the old writer's encoder (no longer a dependency)
    python benchmarks/bench_messages.py     # 20 hands, 5 interleaved rounds
    python benchmarks/bench_messages.py --before b8e652b --hands 20 --rounds 5

The old writer is ``web/views.py`` of ``--before`` (a commit where ``seat_texts`` took ``table_json``),
read with ``git show`` and loaded as ``shangrao.web._views_before``.  Both are timed as the server
calls them: every seat's message after every change of a hand played by random legal actions (held
windows shown), each side with its own warm caches (``LogCache``: the log events and the view's
public part built once per change; the table's facts given ready, as JSON text to the old writer and
as a ``TableInfo`` to the new).  In each round the two writers take turns at every position (so a burst of
load on a shared machine falls on both alike), the garbage collector off; reported: the best round of
each side (microseconds a message) and the median ratio of the rounds.  Each new message is checked to
decode to the same JSON as the old one.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import random
import subprocess
import sys
import time
from pathlib import Path

import msgspec

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from shangrao.game import Game  # noqa: E402
from shangrao.web import views  # noqa: E402
from shangrao.web.outgoing import PlayerInfo, TableInfo, encode  # noqa: E402

TABLE = TableInfo(id=1, name="上饶麻将", status="playing", hands_total=4, hands_played=0, scores=[0, 0, 0, 0],
                  rules={"hands_per_match": 4}, free_seats=[], history=[], rematch=None, hints=True,
                  players=[PlayerInfo(kind="human", claimed=True, connected=True, standin=False, ready=False)] * 4)


def _old_views(rev: str):
    """``web/views.py`` of ``rev`` as a module of the installed package (its relative imports resolve)."""
    src = subprocess.run(["git", "show", f"{rev}:src/shangrao/web/views.py"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    if "from .connections import dumps" in src:  # dumps left connections.py with the old writer
        src = src.replace("from .connections import dumps",
                          "import orjson\n\n\ndef dumps(obj):\n"
                          "    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()\n")
    spec = importlib.util.spec_from_loader("shangrao.web._views_before", loader=None)
    assert spec is not None
    mod = importlib.util.module_from_spec(spec)
    mod.__package__ = "shangrao.web"
    exec(compile(src, f"{rev}:web/views.py", "exec"), mod.__dict__)
    return mod


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", default="b8e652b", help="the commit of the old writer")
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    old = _old_views(args.before)
    table_json = encode(TABLE).decode()
    table = msgspec.Raw(encode(TABLE))  # as the table gives it: encoded once per change
    # one game played through, the messages written after every change (as the server does)
    games: list[tuple[int, list]] = []  # (hand, its actions; None: a held window released)
    for h in range(args.hands):
        rng = random.Random(h)
        g = Game(seed=f"bench-messages:{h}")
        g.hold_windows = True
        actions: list = []
        while not g.is_over:
            if g.held:
                g.release()
                actions.append(None)
                continue
            a = rng.choice(g.legal_actions())
            g.apply(a)
            actions.append(a)
        games.append((h, actions))

    def run(check: dict | None = None) -> tuple[float, float, int]:
        """One round: both writers in lockstep on the same positions, taking turns at each
        position (so a burst of load on the machine falls on both alike); µs a message each."""
        spent = {"old": 0, "new": 0}
        n = 0
        for h, actions in games:
            g = Game(seed=f"bench-messages:{h}")
            g.hold_windows = True
            logs = {"old": old.LogCache(), "new": views.LogCache()}
            for i, a in enumerate([None, *actions]):
                if a is None and g.held:
                    g.release()
                elif a is not None:
                    g.apply(a)
                for writer in (("old", "new") if i % 2 else ("new", "old")):
                    cache = logs[writer]
                    t0 = time.perf_counter_ns()
                    for seat in range(4):
                        if writer == "old":
                            text, _ = old.seat_texts(g, seat, hand_no=0, table_json=table_json, deadline=3.5,
                                                     settlement=None, logs=cache)
                        else:
                            text, _ = views.seat_texts(g, seat, hand_no=0, table=table, deadline=3.5,
                                                       settlement=None, logs=cache)
                        if check is not None:
                            check.setdefault((h, i, seat), []).append(text)
                    spent[writer] += time.perf_counter_ns() - t0
                n += 4
        return spent["old"] / n / 1000, spent["new"] / n / 1000, n

    texts: dict = {}
    run(texts)  # warm-up, and the same messages from both writers
    for pair in texts.values():
        assert len(pair) == 2 and json.loads(pair[0]) == json.loads(pair[1]), "the writers differ"
    best = {"old": float("inf"), "new": float("inf")}
    ratios = []
    n = 0
    for _ in range(args.rounds):
        gc.collect()
        gc.disable()
        try:
            o, w, n = run()
        finally:
            gc.enable()
        best["old"], best["new"] = min(best["old"], o), min(best["new"], w)
        ratios.append(w / o)
    ratios.sort()
    print(f"{n} state messages ({args.hands} hands, every seat after every change), best of {args.rounds} rounds:")
    print(f"  f-string writer ({args.before}): {best['old']:.1f} µs a message")
    print(f"  msgspec Structs, one encoder:   {best['new']:.1f} µs a message")
    print(f"  new / old per round (same positions, taking turns): median {ratios[len(ratios) // 2]:.2f}, "
          f"range {ratios[0]:.2f}-{ratios[-1]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
