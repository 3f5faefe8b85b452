"""Dataset generation per teacher bot: the core path against the Python path (issue 36, item 4).

For each teacher (4 seats of ``random``, ``greedy``, ``ukeire``, ``search``) and each path, one process
writes a dataset with ``shangrao.data.write_selfplay`` (``workers=1``) and the rate is decisions
(rows written) per CPU-second of the process (``time.process_time``: the machine is shared):

* ``fast`` — the compiled core plays and encodes (:mod:`shangrao.sim.record`, one compiled replay a match);
* ``fast+py`` — the core plays, the Python engine replays every hand to encode it (``dataset``'s fast
  path before issue 36, kept here as :func:`_old_core_job` for the comparison);
* ``python`` — the Python engine and Python bots play, :class:`~shangrao.data.write.DecisionRecorder` encodes.

Every run of a bot writes the same rows (checked).  ``--hands`` per bot, default ``random=400,
greedy=200, ukeire=200, search=4`` (the Python paths get ``--python-fraction`` of them).

    python benchmarks/bench_dataset.py
    python benchmarks/bench_dataset.py --bots ukeire --hands ukeire=1000
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

DEFAULT_HANDS = {"random": 400, "greedy": 200, "ukeire": 200, "search": 4}


def _old_core_job(run_seed: int, m: int, specs: Sequence[str], rules: Any, limit: int) -> dict[str, Any]:
    """The core plays, the Python engine replays each hand to encode it (before issue 36's item 4)."""
    from shangrao.data.write import _columns, _encode, deal_id
    from shangrao.game import Game
    from shangrao.selfplay import match_seed
    from shangrao.sim.events import code_action
    from shangrao.sim.play import iter_match_hands

    mseed = match_seed(run_seed, m)
    rows: list[Any] = []
    hand_rows: list[tuple[int, int, int]] = []
    deltas: list[tuple[int, ...]] = []
    final: tuple[int, ...] = (0, 0, 0, 0)
    for h in iter_match_hands([mseed], [limit], list(specs), rules):
        game = Game(rules, seed=h.hand_seed, dealer=h.dealer, scores=h.scores, hand_no=h.hand_no)
        hands_left = rules.hands_per_match - h.hand_no
        first = len(rows)
        for code in h.decisions:
            seat = game.current_seat
            legal = game.legal_actions()
            action = code_action(code)
            if len(legal) > 1:
                planes, mask, index = _encode(game.observation(seat), legal, hands_left)
                rows.append((planes, mask, index.get(action, -1), seat))
            game.apply(action)
        hand_rows.append((first, h.hand_no, deal_id(h.hand_seed)))
        deltas.append(tuple(game.result.deltas))
        final = game.result.scores
    return _columns(rows, hand_rows, deltas, (0, 0, 0, 0), final, m, rules, specs)


def run(bot: str, hands: int, path: str, out: Path) -> tuple[float, int, np.ndarray]:
    from shangrao.data import Dataset, write_selfplay
    from shangrao.data import write as W

    saved = W._core_selfplay_job
    if path == "fast+py":
        W._core_selfplay_job = lambda s, m, specs, rules, lim, label=None: _old_core_job(s, m, specs, rules, lim)
    try:
        t0 = time.process_time()
        meta = write_selfplay(out, hands, 1, [bot] * 4, engine="python" if path == "python" else "fast")
        cpu = time.process_time() - t0
    finally:
        W._core_selfplay_job = saved
    return cpu, int(meta["decisions"]), Dataset(out).load(["planes", "action"])["action"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bots", default="random,greedy,ukeire,search")
    ap.add_argument("--hands", default="", help="per bot, e.g. ukeire=1000,search=8")
    ap.add_argument("--python-fraction", type=float, default=0.25, help="the Python paths play this share of the hands")
    args = ap.parse_args()
    hands = dict(DEFAULT_HANDS)
    for part in filter(None, args.hands.split(",")):
        k, v = part.split("=")
        hands[k] = int(v)
    from shangrao.sim.play import warm_up

    warm_up()
    print("| teacher | path | hands | decisions | CPU s | decisions per CPU-s |")
    print("|---|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for bot in args.bots.split(","):
            n_fast = hands[bot]
            n_py = max(1, int(n_fast * args.python_fraction))
            run(bot, 1, "fast", Path(tmp) / f"{bot}-warm")  # the labeller/search kernels compiled or loaded
            ref = None
            for path in ("fast", "fast+py", "python"):
                n = n_fast if path == "fast" else n_py
                cpu, rows, actions = run(bot, n, path, Path(tmp) / f"{bot}-{path}")
                if path != "fast":
                    _, _, same = run(bot, n, "fast", Path(tmp) / f"{bot}-{path}-check")
                    assert np.array_equal(same, actions), (bot, path)
                ref = ref or rows / cpu
                print(f"| `{bot}` | {path} | {n:,} | {rows:,} | {cpu:.1f} | {rows / cpu:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
