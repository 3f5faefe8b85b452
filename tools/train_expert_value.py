#!/usr/bin/env python3
"""Fit the ``expert`` bot's learned state value (``src/shangrao/bots/expert_value.py``) from self-play.

The value is a linear function of the features of a 13-tile state (the hand after a discard) that
:func:`shangrao.bots.expert._value_features` computes from the bot's own estimate: the shanten and
useful-tile count of the speed order, the exact ready-hand EV, per form (七对, 十三浪, 九幺, 碰碰糊 and
their 清 forms) the win chance, chance per draw and tiles lacking, the 宝 held, 飞宝, melds and the
stage of the hand.  The target is the seat's points in that hand (its ``deltas``),
so the fitted value is the expected points of the hand from that state on, under the policy that
played the games.

Method (one round of policy iteration): play ``--hands`` hands of four ``expert`` bots built with
``--policy`` (JSON keywords; the weights of an earlier round can be given as a path), record for
every discard the chosen state's features and, at the hand's end, the seat's points; fit ridge
regression (``--ridge``); write the weights as a Python module.

    python tools/train_expert_value.py --hands 3000 --seed a,b --policy '{"value_model": null}'

wrote the shipped weights (6,000 hands of the expert without a learned value, ~200,000 states; about
25 minutes on two cores).  A second round adds the learned bot's own games to the fit::

    python tools/train_expert_value.py --hands 3000 --seed a,b --policy '{"value_model": null}' \
        --data-out round1.npz --out round1.py
    python tools/train_expert_value.py --hands 3000 --seed c --data-in round1.npz \
        --policy '{"value_model": "round1.py", "value_claims": false}'

It measured no better than the first round (docs/bots.md, "Fourth round"), so the first is shipped.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from shangrao.bots.expert import ExpertBot, _speed, _value_features  # noqa: E402
from shangrao.game import Game, play_hand  # noqa: E402
from shangrao.game.actions import ActionType  # noqa: E402
from shangrao.tiles import TERMINALS_AND_HONORS  # noqa: E402

OUT = ROOT / "src" / "shangrao" / "bots" / "expert_value.py"


def _load_weights(path: str) -> list[float]:
    text = Path(path).read_text()
    if path.endswith(".json"):
        return [float(v) for v in json.loads(text)]
    ns: dict = {}
    exec(compile(text, path, "exec"), ns)  # the module this tool writes
    return [float(v) for v in ns["WEIGHTS"]]


class _Recorder:
    def __init__(self, bot: ExpertBot, rows: list) -> None:
        self.bot = bot
        self.rows = rows

    def choose(self, obs, legal):
        a = self.bot.choose(obs, legal)
        if a.type is ActionType.DISCARD and a.tile is not None:
            ctx = self.bot._ctx(obs)
            c = list(obs.hand_34)
            c[a.tile] -= 1
            flown = ctx.flown + (1 if a.tile == ctx.bao else 0)
            melds = list(obs.melds[obs.seat])
            est = self.bot.evaluate(c, melds, flown, ctx)
            jiuyao_ok = all(t in TERMINALS_AND_HONORS for m in melds for t in m.tiles)
            sp = _speed(c, ctx, 4 - len(melds), jiuyao_ok)
            self.rows.append((obs.seat, _value_features(ctx, c, melds, flown, est, sp)))
        return a


_POLICY: dict = {}


def _hand(args: tuple[str, int]) -> list[tuple[list[float], int]]:
    seed, i = args
    game = Game(seed=f"learn:{seed}:{i}", dealer=i % 4, hand_no=0)
    rows: list = []
    bots = [_Recorder(ExpertBot(seed=f"{i}:{s}", **_POLICY), rows) for s in range(4)]
    result = play_hand(game, bots)
    return [(x, result.deltas[seat]) for seat, x in rows]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--seed", default="a,b", help="comma-separated: --hands hands per seed")
    ap.add_argument("--policy", default="{}", help="ExpertBot keywords (JSON); value_model may be a path")
    ap.add_argument("--ridge", type=float, default=10.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--data-out", help="also save this run's states (features, points) to an .npz file")
    ap.add_argument("--data-in", default="", help="comma-separated .npz files of earlier runs to fit on too")
    a = ap.parse_args()
    import numpy as np

    if a.hands < 1 or a.workers < 1:
        ap.error("--hands and --workers: give a positive number")
    try:
        policy = json.loads(a.policy)
        if not isinstance(policy, dict):
            raise ValueError("give a JSON object of ExpertBot keywords")
        if isinstance(policy.get("value_model"), str) and policy["value_model"] != "default":
            policy["value_model"] = _load_weights(policy["value_model"])
        ExpertBot(**policy)  # unknown keywords and bad weights are refused here, before any game
    except (ValueError, TypeError, OSError, KeyError, SyntaxError) as e:
        ap.error(f"--policy: {e}")
    _POLICY.update(policy)
    t0 = time.time()
    jobs = [(seed, i) for seed in a.seed.split(",") for i in range(a.hands)]
    with mp.get_context("fork").Pool(a.workers) as pool:
        data = [r for rows in pool.imap(_hand, jobs, chunksize=8) for r in rows]
    X = np.array([d[0] for d in data], dtype=float)
    y = np.array([d[1] for d in data], dtype=float)
    if a.data_out:
        np.savez_compressed(a.data_out, X=X, y=y)
    for path in filter(None, a.data_in.split(",")):
        with np.load(path) as old:
            X = np.concatenate([old["X"], X])
            y = np.concatenate([old["y"], y])
    reg = a.ridge * np.eye(X.shape[1])
    reg[0, 0] = 0.0  # the intercept is not shrunk
    w = np.linalg.solve(X.T @ X + reg, X.T @ y)
    r2 = 1 - float(((y - X @ w) ** 2).mean() / y.var())
    lines = "".join(f"\n    {float(v)!r}," for v in w)
    Path(a.out).write_text(
        '"""Weights of the ``expert`` bot\'s learned state value (written by tools/train_expert_value.py).\n\n'
        f"{a.hands} hands of self-play per seed, seeds {a.seed!r}, policy {a.policy[:200]},\n"
        f"with the states of {a.data_in or 'no earlier run'}; ridge {a.ridge};\n"
        f"{len(y)} states, R^2 {r2:.3f} on them.  One weight per feature of\n"
        ':func:`shangrao.bots.expert._value_features` (extended); the value is in points.\n"""\n\n'
        f"WEIGHTS: tuple[float, ...] = ({lines}\n)\n")
    print(f"{len(y)} states from {a.hands} hands in {time.time() - t0:.0f} s, R^2 {r2:.3f}; wrote {a.out}")


if __name__ == "__main__":
    main()
