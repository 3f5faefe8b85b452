#!/usr/bin/env python3
"""Fit the expert's opponent model (``src/shangrao/bots/data/opponents.npz``) from self-play.

Plays ``--hands`` hands (seed ``--seed``; each hand's lineup one of ``expert`` + 3 ``ukeire``,
``expert`` + 3 ``greedy``, 4 ``ukeire``, 4 ``greedy``, rotated: the bots as the arena plays them)
and records, at every own draw of every seat, one sample per other seat: the features the
observer sees (:func:`shangrao.bots.opponents.opponent_features`), the other seat's true shanten
(its hidden hand is known here), its turns to its win (or none) and the value of that win.
Then fits one logistic regression per target (win within 1/2/4/8 own turns, ready now) by
Newton's method with an L2 penalty (``--l2``), and a ridge regression of the hand value on the
winning samples; prints the calibration on ``--test-hands`` further hands (seed ``--seed`` + 1)
and writes the weights.

    python tools/train_opponents.py --hands 3000 --test-hands 1000 --seed 20

wrote the shipped weights (see docs/bots.md, "The opponent model", for the time it took and the
calibration tables).  ``--data-out`` / ``--data-in`` keep / reuse the samples (``.npz``).
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from shangrao.analysis.hand import shanten  # noqa: E402
from shangrao.bots import get_bot  # noqa: E402
from shangrao.bots.opponents import FEATURE_NAMES, HORIZONS, OpponentModel, opponent_features  # noqa: E402
from shangrao.game import Game  # noqa: E402
from shangrao.game.actions import Action  # noqa: E402

OUT = ROOT / "src" / "shangrao" / "bots" / "data" / "opponents.npz"
LINEUPS = (("expert", "ukeire", "ukeire", "ukeire"), ("expert", "greedy", "greedy", "greedy"),
           ("ukeire",) * 4, ("greedy",) * 4)


def sample_hand(seed: str, names: tuple[str, ...]) -> dict[str, np.ndarray]:
    """Play one hand (wall seed ``seed``, seat i played by ``names[i]``) and return its samples:
    ``x`` (n, F) features, ``shanten`` (n,) of the hidden hand, ``turn`` (n,) its turns so far,
    ``to_win`` (n,) own turns until its win (0: it does not win), ``value`` (n,) that win's hand value."""
    game = Game(seed=seed, dealer=0, hand_no=0)
    bots = [get_bot(n, seed=f"{seed}:{i}") for i, n in enumerate(names)]
    draws = [0, 0, 0, 0]
    rows: list[tuple[list[float], int, int, int, int]] = []  # x, seat, shanten, draws now, turns
    seen = 0
    while not game.is_over:
        evs = game.events
        for ev in evs[seen:]:
            if ev["type"] == "draw" and ev["source"] == "head":
                s = ev["seat"]
                draws[s] += 1
                obs = game.observation(s)
                for j in range(4):
                    if j != s:
                        sh = shanten(game.counts[j], game.bao, game.melds[j])
                        rows.append((opponent_features(obs, j), j, sh, draws[j],
                                     len(obs.discards[j]) + len(obs.melds[j])))
        seen = len(evs)
        seat = game.current_seat
        assert seat is not None
        legal = game.legal_actions()
        action: Action = legal[0] if len(legal) == 1 else bots[seat].choose(game.observation(seat), legal)
        game.push(action)
    res = game.result
    assert res is not None
    won = {w.seat: w.score.hand_value for w in res.wins}
    x = np.array([r[0] for r in rows], dtype=float).reshape(-1, len(FEATURE_NAMES))
    to_win = np.array([max(1, draws[r[1]] - r[3]) if r[1] in won else 0 for r in rows], dtype=int)
    value = np.array([won.get(r[1], 0) for r in rows], dtype=float)
    return {"x": x, "shanten": np.array([r[2] for r in rows], dtype=int), "turn": np.array([r[4] for r in rows]),
            "to_win": to_win, "value": value}


def sample(hands: int, seed: int, log: bool = True) -> dict[str, np.ndarray]:
    """Samples of ``hands`` hands of run ``seed`` (lineup and rotation drawn from the seed)."""
    rng = random.Random(seed)
    parts = []
    t0 = time.time()
    for h in range(hands):
        lineup = rng.choice(LINEUPS)
        r = rng.randrange(4)
        names = tuple(lineup[(i - r) % 4] for i in range(4))
        parts.append(sample_hand(f"opp:{seed}:{h}", names))
        if log and (h + 1) % 100 == 0:
            print(f"  {h + 1} hands, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float, iters: int = 30) -> np.ndarray:
    """Logistic regression by Newton's method, L2 penalty ``l2`` on every weight but the bias."""
    w = np.zeros(x.shape[1])
    pen = np.full(x.shape[1], l2)
    pen[0] = 0.0
    for _ in range(iters):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        g = x.T @ (p - y) + pen * w
        h = (x * (p * (1 - p))[:, None]).T @ x + np.diag(pen) + 1e-9 * np.eye(x.shape[1])
        step = np.linalg.solve(h, g)
        w -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return w


def fit(data: dict[str, np.ndarray], l2: float) -> dict[str, np.ndarray]:
    x, tw = data["x"], data["to_win"]
    within = np.array([fit_logistic(x, ((tw > 0) & (tw <= k)).astype(float), l2) for k in HORIZONS])
    ready = fit_logistic(x, (data["shanten"] <= 0).astype(float), l2)
    won = tw > 0
    xw = x[won]
    pen = np.full(x.shape[1], l2)
    pen[0] = 0.0
    value = np.linalg.solve(xw.T @ xw + np.diag(pen), xw.T @ data["value"][won])
    return {"within": within, "ready": ready, "value": value}


def calibration(model: OpponentModel, data: dict[str, np.ndarray]) -> str:
    """The calibration tables (markdown) of ``model`` on ``data``."""
    x, tw, sh, turn = data["x"], data["to_win"], data["shanten"], data["turn"]
    reads = [model.read_features(1, row) for row in x]
    pred = np.array([r.p_within for r in reads])
    ready = np.array([r.p_ready for r in reads])
    real = np.array([(tw > 0) & (tw <= k) for k in HORIZONS]).T.astype(float)
    out = [f"{len(x):,} samples of held-out hands.", "",
           "By predicted chance (win within k: predicted / realised, samples):", "",
           "| predicted | " + " | ".join(f"k = {k}" for k in HORIZONS) + " |",
           "|---|" + "---:|" * len(HORIZONS)]
    edges = [0, 0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 1.01]
    for lo, hi in itertools.pairwise(edges):
        cells = []
        for i in range(len(HORIZONS)):
            m = (pred[:, i] >= lo) & (pred[:, i] < hi)
            cells.append(f"{pred[m, i].mean():.3f} / {real[m, i].mean():.3f} ({m.sum():,})" if m.sum() else "—")
        out.append(f"| {lo:.2f}–{min(hi, 1):.2f} | " + " | ".join(cells) + " |")
    out += ["", "By the hidden hand's true shanten (mean predicted / realised; ready: predicted / share):", "",
            "| shanten | samples | " + " | ".join(f"k = {k}" for k in HORIZONS) + " | ready |",
            "|---|---:|" + "---:|" * (len(HORIZONS) + 1)]
    for s, name in ((0, "0 (ready)"), (1, "1"), (2, "2"), (3, "3+")):
        m = sh == s if s < 3 else sh >= 3
        cells = [f"{pred[m, i].mean():.3f} / {real[m, i].mean():.3f}" for i in range(len(HORIZONS))]
        out.append(f"| {name} | {m.sum():,} | " + " | ".join(cells) + f" | {ready[m].mean():.3f} / {(sh[m] <= 0).mean():.3f} |")
    out += ["", "By the seat's turns so far (discards + melds):", "",
            "| turns | samples | " + " | ".join(f"k = {k}" for k in HORIZONS) + " | ready |",
            "|---|---:|" + "---:|" * (len(HORIZONS) + 1)]
    for lo, hi in ((0, 4), (4, 8), (8, 12), (12, 16), (16, 99)):
        m = (turn >= lo) & (turn < hi)
        if not m.sum():
            continue
        cells = [f"{pred[m, i].mean():.3f} / {real[m, i].mean():.3f}" for i in range(len(HORIZONS))]
        label = f"{lo}–{hi - 1}" if hi < 99 else f"{lo}+"
        out.append(f"| {label} | {m.sum():,} | " + " | ".join(cells) + f" | {ready[m].mean():.3f} / {(sh[m] <= 0).mean():.3f} |")
    won = tw > 0
    vals = np.array([r.value for r in reads])
    out += ["", f"Hand value of the wins: predicted mean {vals[won].mean():.2f}, realised {data['value'][won].mean():.2f}"
            f" (RMS error {np.sqrt(np.mean((vals[won] - data['value'][won]) ** 2)):.2f} over {won.sum():,} samples)."]
    brier = [np.mean((pred[:, i] - real[:, i]) ** 2) for i in range(len(HORIZONS))]
    base = [np.mean((real[:, i].mean() - real[:, i]) ** 2) for i in range(len(HORIZONS))]
    out += ["", "Brier score (model / constant rate): " + ", ".join(
        f"k = {k}: {b:.4f} / {c:.4f}" for k, b, c in zip(HORIZONS, brier, base)) + "."]
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1500)
    ap.add_argument("--test-hands", type=int, default=500)
    ap.add_argument("--seed", type=int, default=20)
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--data-out")
    ap.add_argument("--data-in")
    args = ap.parse_args()
    t0 = time.time()
    if args.data_in:
        with np.load(args.data_in) as z:
            train = {k[6:]: z[k] for k in z.files if k.startswith("train_")}
            test = {k[5:]: z[k] for k in z.files if k.startswith("test_")}
    else:
        train = sample(args.hands, args.seed)
        test = sample(args.test_hands, args.seed + 1)
        if args.data_out:
            np.savez_compressed(args.data_out, **{f"train_{k}": v for k, v in train.items()},
                                **{f"test_{k}": v for k, v in test.items()})
    print(f"{len(train['x']):,} training samples, {len(test['x']):,} test samples, {time.time() - t0:.0f} s",
          file=sys.stderr)
    w = fit(train, args.l2)
    np.savez(args.out, **w)
    print(calibration(OpponentModel(args.out), test))
    print(f"\nwrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
