"""The expert's opponent model: how close each other seat is, from what the observer sees.

For every other seat ``j`` of an :class:`~shangrao.game.Observation` the model gives

* ``p_within[i]``: the chance that ``j`` wins the hand within its next ``k`` own turns, for
  ``k`` in :data:`HORIZONS` = (1, 2, 4, 8) (a turn: a draw from the wall; a 抢杠 before its
  next draw counts as within one turn).  The events are mutually exclusive across seats (one
  winner a hand but for a double 抢杠), so the chance that *somebody else* has won before the
  observer's ``r``-th draw is the sum over the seats (:meth:`OpponentRead.cumulative`).
* ``p_ready``: the chance that ``j``'s concealed hand is ready (听牌, shanten 0) now.
* ``value``: the expected hand value (``ScoreResult.hand_value``, the winner's 飞宝 included) when
  ``j`` wins; what each payer loses is that times its own 飞宝 factor (注 1).

Features (:func:`opponent_features`, :data:`FEATURE_NAMES`; all from the observation, so a bot
may use them): ``j``'s turns so far (discards + melds, at most :data:`TURNS_CAP`) and its square, its melds (count, pungs
and kongs, 4 melds = 单吊 on one tile), its 飞宝 (宝 it discarded), the 宝 flown by the other
seats, the 宝 the observer has not seen, tiles left, the share of middle tiles (3-7) and of
terminals/honours among ``j``'s last three and last six discards and of all its discards
(late middle tiles: it keeps only what it needs, the tedashi-like sign of a ready hand), the
last discard's kind (middle / honour), the stage of the whole table, whether ``j`` deals.

Fit (``tools/train_opponents.py --hands 3000 --test-hands 1000 --seed 20``, about 8 minutes on one
core): one logistic regression per target (win within 1/2/4/8 turns, ready now; Newton's method,
L2 penalty 1.0) and a ridge regression of the hand value over the winning samples, on 267,000
states of 3,000 self-play hands (run seed 20) whose lineups are one of ``expert`` + 3 ``ukeire``,
``expert`` + 3 ``greedy``, 4 ``ukeire``, 4 ``greedy`` (the bots as the arena plays them): at every
own draw of every seat, one sample per other seat, with the hidden hand's true shanten and the
hand's outcome.  The weights are ``bots/data/opponents.npz`` (2 KB; NumPy only).

Calibration on 1,000 held-out hands (run seed 21, 89,286 samples), mean predicted / realised
chance of a win within k turns (docs/bots.md has the table by predicted chance too)::

    true shanten   samples   k=1            k=2            k=4            k=8            ready (pred / share)
    0 (ready)      22,780    0.080 / 0.142  0.135 / 0.229  0.205 / 0.321  0.254 / 0.367  0.574 / 1.000
    1              23,891    0.042 / 0.011  0.082 / 0.047  0.153 / 0.142  0.228 / 0.236  0.281 / 0.000
    2              23,819    0.020 / 0.001  0.045 / 0.009  0.108 / 0.054  0.205 / 0.160  0.113 / 0.000
    3+             18,796    0.008 / 0.000  0.023 / 0.002  0.073 / 0.017  0.189 / 0.106  0.037 / 0.000
    turns 0-3      37,148    0.008 / 0.007  0.023 / 0.022  0.076 / 0.076  0.193 / 0.195  0.035 / 0.030
    turns 4-7      31,463    0.039 / 0.041  0.080 / 0.082  0.157 / 0.158  0.231 / 0.231  0.248 / 0.242
    turns 8-11     15,438    0.088 / 0.090  0.150 / 0.148  0.220 / 0.217  0.255 / 0.259  0.625 / 0.613
    turns 12-15     4,458    0.110 / 0.110  0.166 / 0.173  0.220 / 0.227  0.242 / 0.249  0.834 / 0.864
    turns 16+         779    0.103 / 0.118  0.148 / 0.176  0.189 / 0.218  0.211 / 0.226  0.927 / 0.936

Calibrated by turn (and in every bin of the predicted chance with more than 300 samples to within
0.06); by the hidden shanten it is not, and cannot be: what the observer sees separates a ready
seat from a far one only partly (Brier score for k = 1 0.0365 against 0.0380 for a constant rate;
what it adds over the old single hazard is the per-seat turn count, melds, 单吊 and 飞宝 signs).
Hand value of the wins: predicted mean 2.47, realised 2.60.  The test
``tests/bots/test_opponents.py`` plays a fixed small sample (60 hands, run seed 977) and checks
the mean of each k within 0.03 and every decile of the prediction with 300+ samples within 0.08.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..game.state import Observation
from ..melds import MeldKind
from ..tiles import TERMINALS_AND_HONORS

__all__ = [
    "FEATURE_NAMES",
    "HORIZONS",
    "WEIGHTS",
    "OpponentModel",
    "OpponentRead",
    "default_model",
    "opponent_features",
]

#: the k of the "wins within its next k turns" targets
HORIZONS = (1, 2, 4, 8)

#: turns counted at most (a seat's turns so far beyond this read as this many: few hands go longer)
TURNS_CAP = 16

#: the shipped weights
WEIGHTS = Path(__file__).with_name("data") / "opponents.npz"

FEATURE_NAMES = (
    "bias",
    "turns/20",
    "(turns/20)^2",
    "melds/4",
    "four melds (单吊)",
    "pungs and kongs/4",
    "kongs/2",
    "飞宝 by it (any)",
    "飞宝 by it/2",
    "宝 flown by the others/2",
    "宝 unseen by the observer/4",
    "tiles left/100",
    "middle share of its last 3 discards",
    "terminal/honour share of its last 3",
    "middle share of its last 6",
    "terminal/honour share of all its discards",
    "last discard middle",
    "last discard an honour",
    "turns/20 x middle share of last 3",
    "table discards/80",
    "it deals",
)

_TH = frozenset(TERMINALS_AND_HONORS)


def _middle(k: int) -> bool:
    return k < 27 and 2 <= k % 9 <= 6


def opponent_features(obs: Observation, seat: int) -> list[float]:
    """The features (:data:`FEATURE_NAMES`, a list of floats) of ``seat`` as ``obs``'s observer sees it.

    ``seat``: an absolute seat 0..3 other than the observer's.  Raises ``ValueError`` for the
    observer's own seat or a seat outside 0..3.
    """
    if not isinstance(seat, int) or not 0 <= seat < 4 or seat == obs.seat:
        raise ValueError(f"opponent_features: seat must be another seat than the observer's ({obs.seat}), got {seat!r}")
    ds = obs.discards[seat]
    ms = obs.melds[seat]
    t = len(ds) + len(ms)
    tt = min(t, TURNS_CAP) / 20  # beyond the turns self-play hands reach, the quadratic would extrapolate
    pungs = sum(1 for m in ms if m.kind is not MeldKind.CHOW)
    kongs = sum(1 for m in ms if len(m.tiles) == 4)
    last3 = ds[-3:]
    last6 = ds[-6:]
    mid3 = sum(1 for k in last3 if _middle(k)) / 3
    th3 = sum(1 for k in last3 if k in _TH) / 3
    mid6 = sum(1 for k in last6 if _middle(k)) / 6
    th_all = sum(1 for k in ds if k in _TH) / len(ds) if ds else 0.0
    last = ds[-1] if ds else None
    flown = obs.flown[seat]
    others_flown = sum(obs.flown) - flown
    unseen_bao = obs.unseen()[obs.bao]
    table = sum(len(d) for d in obs.discards)
    return [
        1.0,
        tt,
        tt * tt,
        len(ms) / 4,
        1.0 if obs.hand_sizes[seat] == 1 else 0.0,
        pungs / 4,
        kongs / 2,
        1.0 if flown else 0.0,
        min(flown, 2) / 2,
        min(others_flown, 2) / 2,
        unseen_bao / 4,
        obs.tiles_left / 100,
        mid3,
        th3,
        mid6,
        th_all,
        1.0 if last is not None and _middle(last) else 0.0,
        1.0 if last is not None and last >= 27 else 0.0,
        tt * mid3,
        table / 80,
        1.0 if seat == obs.dealer else 0.0,
    ]


@dataclass(frozen=True)
class OpponentRead:
    """The model's read of one other seat: ``seat`` (absolute), ``p_within`` (one chance per
    :data:`HORIZONS`, non-decreasing), ``p_ready`` (0..1), ``value`` (expected hand value of its win)."""

    seat: int
    p_within: tuple[float, float, float, float]
    p_ready: float
    value: float

    def cumulative(self, n: int) -> float:
        """Chance that this seat wins within its next ``n`` turns (``n`` >= 0), interpolated between the
        horizons with a constant hazard per turn (after 8 turns, the hazard of turns 5-8)."""
        if n <= 0:
            return 0.0
        f1, f2, f4, f8 = self.p_within
        s2, s4, s8 = 1 - f2, 1 - f4, 1 - f8
        if n == 1:
            return f1
        if n == 2:
            return f2
        if n <= 4:
            return 1 - s2 * (s4 / s2) ** ((n - 2) / 2) if s2 > 0 else 1.0
        if n <= 8:
            return 1 - s4 * (s8 / s4) ** ((n - 4) / 4) if s4 > 0 else 1.0
        return 1 - s8 * (s8 / s4) ** ((n - 8) / 4) if s4 > 0 else 1.0


class OpponentModel:
    """The fitted model (weights from an ``.npz`` file written by ``tools/train_opponents.py``).

    ``path``: the weights file (default: the shipped :data:`WEIGHTS`).  Raises ``ValueError`` when
    the file's arrays do not have the shapes of :data:`FEATURE_NAMES`.
    """

    def __init__(self, path: str | Path = WEIGHTS) -> None:
        with np.load(path) as z:
            self.within = np.asarray(z["within"], dtype=float)  # (4, F)
            self.ready = np.asarray(z["ready"], dtype=float)  # (F,)
            self.value = np.asarray(z["value"], dtype=float)  # (F,)
        f = len(FEATURE_NAMES)
        if self.within.shape != (len(HORIZONS), f) or self.ready.shape != (f,) or self.value.shape != (f,):
            raise ValueError(f"{path}: opponent model weights must be within (4, {f}), ready ({f},), value ({f},)")
        self._all = np.vstack([self.within, self.ready[None, :]])

    def read(self, obs: Observation, seat: int) -> OpponentRead:
        """The read of ``seat`` (see :class:`OpponentRead`)."""
        return self.read_features(seat, opponent_features(obs, seat))

    def read_features(self, seat: int, x: Sequence[float]) -> OpponentRead:
        xv = np.asarray(x, dtype=float)
        z = self._all @ xv
        p = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
        w = np.maximum.accumulate(p[:4])  # non-decreasing in k
        value = max(1.0, float(self.value @ xv))
        return OpponentRead(seat, (float(w[0]), float(w[1]), float(w[2]), float(w[3])), float(p[4]), value)

    def reads(self, obs: Observation) -> list[OpponentRead]:
        """The reads of the three other seats, in turn order after the observer."""
        return [self.read(obs, (obs.seat + i) % 4) for i in (1, 2, 3)]


@lru_cache(maxsize=1)
def default_model() -> OpponentModel:
    """The shipped model (loaded once)."""
    return OpponentModel(WEIGHTS)
