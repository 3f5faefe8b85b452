"""The per-action features of :mod:`shangrao.bots.features` in compiled code, for a whole batch.

:func:`action_features` ``(planes (N, 20, 34) int8, mask (N, 110) bool or 0/1, version) -> (N, 110, F)
float32`` is :func:`shangrao.bots.features.action_features` value for value (``F`` 4 for version 1, 7
for version 2; the columns are documented there), one numba call for the batch: no Python per
decision.  :class:`~shangrao.sim.vector.VectorEnv` hands them out with its batches
(``VectorEnv(features=2)``) and its ``policy:`` seats use them.  Shanten, 进张 and the win values come
from the core's kernels (:func:`~shangrao.sim.kernels.shanten`, :func:`~shangrao.sim.kernels.discard_shanten`,
:func:`~shangrao.sim.kernels.useful_tiles`, :func:`~shangrao.sim.kernels.score_win` under the default
rules), which equal the Python engine's; ``tests/sim/test_features.py`` checks the two encodings equal on
thousands of decisions of both versions.

>>> import numpy as np
>>> from shangrao.sim.features import action_features
>>> action_features(np.zeros((0, 20, 34), np.int8), np.zeros((0, 110), bool), 2).shape
(0, 110, 7)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from ..bots.features import _FIRST_TURN_LEFT, VALUE_CAP, VALUE_SCALE, n_features
from ..rules import DEFAULT_RULES
from . import kernels as K
from . import rules as R
from .batch import BatchError

__all__ = ["VALUE_RULES", "action_features", "batch_features", "decision_features", "n_features"]

#: the rules the win values are scored with (the default rules, as the Python features)
VALUE_RULES = R.encode_rules(DEFAULT_RULES)
_SC = 19
_S_TILES_LEFT, _S_DEALER, _S_FLOWN, _S_BAO_DRAWN, _S_PHASE, _S_KONG_MAKER, _S_CHAIN = 0, 1, 5, 13, 14, 23, 27
_P_ACT, _P_ROB = 0, 3
_TH = np.array([1 if k in (0, 8, 9, 17, 18, 26) or k >= 27 else 0 for k in range(34)], dtype=np.int8)
#: the kinds greedy's ``_neighbourhood`` always holds (terminals, honors, its sparse grid)
_NEAR_FIXED = np.array(
    [
        1 if _TH[k] or k in (1, 4, 7, 10, 13, 16, 19, 22, 25, 2, 5, 11, 14, 20, 23, 3, 6, 12, 15, 21, 24) else 0
        for k in range(34)
    ],
    dtype=np.int8,
)
#: meld types in the order of :func:`shangrao.bots.features.meld_split` (chow, pung, kong, concealed kong)
_MELD_CODES = np.array([K.MELD_CHOW, K.MELD_PUNG, K.MELD_KONG, K.MELD_CONCEALED_KONG], dtype=np.int8)

Tables = tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]


@njit(cache=True)
def _split(rem: npt.NDArray[np.int64], types: npt.NDArray[np.int8], kinds: npt.NDArray[np.int8], n0: int) -> int:
    """``meld_split``'s search after the kongs (``n0`` of them already in ``types``/``kinds``): at the
    lowest kind left a pung first, else a chow, backtracking; returns the melds found (``n0`` when no
    split uses every tile)."""
    choice = np.zeros(9, dtype=np.int64)
    depth = n0
    choice[depth] = 0
    while True:
        k = 0
        while k < 34 and rem[k] <= 0:
            k += 1
        if k == 34:
            return depth
        placed = False
        while choice[depth] < 2 and not placed:
            opt = choice[depth]
            choice[depth] += 1
            if opt == 0:
                if rem[k] >= 3 and depth < 8:
                    rem[k] -= 3
                    types[depth] = 1
                    kinds[depth] = k
                    placed = True
            elif k < 27 and k % 9 <= 6 and rem[k + 1] > 0 and rem[k + 2] > 0 and depth < 8:
                rem[k] -= 1
                rem[k + 1] -= 1
                rem[k + 2] -= 1
                types[depth] = 0
                kinds[depth] = k
                placed = True
        if placed:
            depth += 1
            choice[depth] = 0
            continue
        while True:  # backtrack: undo the last meld placed and try its next option
            if depth == n0:
                return n0
            depth -= 1
            kk = kinds[depth]
            if types[depth] == 1:
                rem[kk] += 3
            else:
                rem[kk] += 1
                rem[kk + 1] += 1
                rem[kk + 2] += 1
            if choice[depth] < 2:
                break


@njit(cache=True)
def _near(c: npt.NDArray[np.int8], out: npt.NDArray[np.int8]) -> None:
    """greedy's ``_neighbourhood`` of the hand ``c`` as a 0/1 array over kinds."""
    for k in range(34):
        out[k] = _NEAR_FIXED[k]
    for k in range(27):
        if c[k] > 0:
            base = k - k % 9
            for d in range(-2, 3):
                x = k + d
                if base <= x < base + 9:
                    out[x] = 1


@njit(cache=True)
def _useful_plain(
    tb: Tables,
    c: npt.NDArray[np.int8],
    bao: int,
    m: int,
    jy: bool,
    target: int,
    unseen: npt.NDArray[np.int64],
    near: npt.NDArray[np.int8],
) -> int:
    """Unseen copies of the kinds near the hand ``c`` (3m+1 tiles) whose draw brings its shanten below ``target``."""
    _near(c, near)
    n = 0
    for t in range(34):
        if near[t] and unseen[t] > 0:
            c[t] += 1
            s = K.shanten(tb[0], tb[1], c, bao, m, jy)
            c[t] -= 1
            if s < target:
                n += unseen[t]
    return n


@njit(cache=True)
def _value(
    tb: Tables,
    rules: npt.NDArray[np.int32],
    hand: npt.NDArray[np.int8],
    win_tile: int,
    bao: int,
    mtype: npt.NDArray[np.int8],
    mkind: npt.NDArray[np.int8],
    nm: int,
    win_by: int,
    heavenly: bool,
    chain: int,
    fw: int,
    pflown: npt.NDArray[np.int64],
    bao_drawn: int,
    robbed: int,
    next_draw: bool,
    out: npt.NDArray[np.int64],
) -> int:
    """``_Values.value`` of :mod:`shangrao.bots.features`: the points the payers pay (0: no win, or a
    win ``score()`` refuses under the rules)."""
    if win_by == K.WIN_DEALER_FIRST_DISCARD and not rules[R.R_EARTHLY_WIN]:
        return 0
    if win_by != K.WIN_SELF_DRAW and win_tile == bao and not rules[R.R_WIN_ON_BAO_TILE]:
        return 0
    drawn = bao_drawn + (1 if next_draw and win_tile == bao else 0)
    sit = K.Situation(  # every scalar as an int64 or bool: the core's own Situation type (one compiled score_win)
        hand,
        int(win_tile),
        int(bao),
        mtype,
        mkind,
        int(nm),
        int(win_by),
        bool(heavenly),
        int(chain),
        int(fw),
        pflown,
        bool(bao_drawn > 0 or win_tile == bao),
        bool(drawn == 4),
        False,
        int(robbed),
        0,
    )
    if not K.score_win(tb, sit, rules, out):
        return 0
    return int(out[K.O_WIN] + out[K.O_WIN + 1] + out[K.O_WIN + 2])


@njit(cache=True)
def _scaled(points: float) -> float:
    v = points / VALUE_SCALE
    return v if v < VALUE_CAP else VALUE_CAP


@njit(cache=True)
def decision_features(
    planes: npt.NDArray[np.int8],
    mask: npt.NDArray[Any],
    version: int,
    tb: Tables,
    rules: npt.NDArray[np.int32],
    out: npt.NDArray[np.float32],
) -> None:
    """The features of one decision into ``out`` (float32[110, F], zeroed here): ``planes`` int8[20, 34],
    ``mask`` [110] (non-zero: legal), ``version`` 1 or 2; ``rules``: the encoded rules of the win values."""
    out[:, :] = 0.0
    n_legal = 0
    lo = 999
    hi = -1
    for a in range(110):
        if mask[a]:
            n_legal += 1
            lo = min(lo, a)
            hi = max(hi, a)
    if n_legal == 0 or (version == 1 and lo >= 107 and hi <= 109):
        return
    v2 = version >= 2
    c = np.zeros(34, dtype=np.int8)
    unseen = np.zeros(34, dtype=np.int64)
    bao = 0
    for k in range(34):
        c[k] = planes[0, k]
        if planes[14, k] > planes[14, bao]:
            bao = k
        s18 = planes[18, k]
        unseen[k] = 4 - s18 if s18 < 4 else 0
    n_kongs = 0
    meld_sum = 0
    jy = True
    for k in range(34):
        if planes[6, k] != 0:
            n_kongs += 1
        meld_sum += planes[2, k]
        if planes[2, k] != 0 and not _TH[k]:
            jy = False
    nm = (meld_sum - 4 * n_kongs) // 3 + n_kongs
    m = 4 - nm
    offers_win = v2 and mask[107] != 0
    work = np.zeros(34, dtype=np.int8)
    near = np.zeros(34, dtype=np.int8)
    each = np.zeros(34, dtype=np.int64)
    sout = np.zeros(K.N_OUT, dtype=np.int64)
    # the melds read back (features' meld_split) and the situation's fixed parts, when a win is offered
    mtype = np.zeros(9, dtype=np.int8)
    mkind = np.zeros(9, dtype=np.int8)
    pflown = np.zeros(3, dtype=np.int64)
    n_split = 0
    fw = 0
    bao_drawn = 0
    if offers_win:
        rem = np.zeros(34, dtype=np.int64)
        for k in range(34):
            rem[k] = planes[2, k]
        for k in range(34):
            if planes[6, k] != 0:
                mtype[n_split] = 2 if planes[6, k] == 1 else 3
                mkind[n_split] = k
                rem[k] -= 4
                n_split += 1
        n_split = _split(rem, mtype, mkind, n_split)
        for i in range(n_split):
            mtype[i] = _MELD_CODES[mtype[i]]
        fw = planes[_SC, _S_FLOWN]
        for i in range(3):
            pflown[i] = planes[_SC, _S_FLOWN + 1 + i]
        bao_drawn = planes[_SC, _S_BAO_DRAWN]
    total_unseen = 0
    for k in range(34):
        total_unseen += unseen[k]
    split_ok = n_split == nm  # else the hand's size does not fit: WinSituation refuses it (0)

    # ---- discards
    has_discard = False
    for k in range(34):
        if mask[k]:
            has_discard = True
    if has_discard:
        K.discard_shanten(tb[0], tb[1], c, bao, m, jy, each)
        best = 999
        for k in range(34):
            if mask[k] and each[k] < best:
                best = each[k]
        for k in range(34):
            if not mask[k]:
                continue
            s = each[k]
            out[k, 0] = s / 8.0
            out[k, 3] = 1.0 if k == bao else 0.0
            u = -1
            if s == best:
                out[k, 1] = 1.0
                u = K.useful_tiles(tb[0], tb[1], c, bao, m, jy, k, best, unseen)
                out[k, 2] = u / 40.0
            if v2:
                if u < 0:
                    u = K.useful_tiles(tb[0], tb[1], c, bao, m, jy, k, s, unseen)
                out[k, 4] = u / 40.0
                if offers_win and s == 0 and total_unseen > 0:
                    c[k] -= 1
                    acc = 0.0
                    for t in range(34):
                        if unseen[t] > 0:
                            c[t] += 1
                            wins = K.shanten(tb[0], tb[1], c, bao, m, jy) == -1
                            c[t] -= 1
                            if wins and split_ok:
                                v = _value(
                                    tb, rules, c, t, bao, mtype, mkind, n_split, K.WIN_SELF_DRAW, False, 0,
                                    fw + (1 if k == bao else 0), pflown, bao_drawn, -1, True, sout,
                                )  # fmt: skip
                                acc += unseen[t] * v
                    c[k] += 1
                    out[k, 6] = _scaled(acc / total_unseen)
    # ---- claims on a discard
    has_claim = False
    for i in range(34, 39):
        if mask[i]:
            has_claim = True
    if has_claim:
        now = K.shanten(tb[0], tb[1], c, bao, m, jy)
        kc = 0
        for k in range(34):
            if planes[16, k] > planes[16, kc]:
                kc = k
        for i in range(34, 39):
            if not mask[i]:
                continue
            for k in range(34):
                work[k] = c[k]
            spends = False
            jy2 = jy
            if i <= 36:
                low = kc - (i - 34)
                for x in range(low, low + 3):
                    if x != kc:
                        work[x] -= 1
                        if x == bao:
                            spends = True
                    if not _TH[x]:
                        jy2 = False
            else:
                work[kc] -= 2 if i == 37 else 3
                spends = kc == bao
                if not _TH[kc]:
                    jy2 = False
            s = K.shanten(tb[0], tb[1], work, bao, m - 1, jy2)
            out[i, 0] = s / 8.0
            out[i, 1] = 1.0 if s <= now else 0.0
            out[i, 3] = 1.0 if spends else 0.0
            if v2:
                if i == 38:
                    out[i, 4] = _useful_plain(tb, work, bao, m - 1, jy2, s, unseen, near) / 40.0
                else:
                    low_s = K.discard_shanten(tb[0], tb[1], work, bao, m - 1, jy2, each)
                    top = 0
                    for d in range(34):
                        if work[d] > 0 and each[d] == low_s:
                            u = K.useful_tiles(tb[0], tb[1], work, bao, m - 1, jy2, d, low_s, unseen)
                            if u > top:
                                top = u
                    out[i, 4] = top / 40.0
    # ---- kongs in one's turn
    has_kong = False
    for i in range(39, 107):
        if mask[i]:
            has_kong = True
    if has_kong:
        now = K.shanten(tb[0], tb[1], c, bao, m, jy)
        for i in range(39, 107):
            if not mask[i]:
                continue
            for k in range(34):
                work[k] = c[k]
            if i < 73:
                k = i - 39
                work[k] -= 1
                mm = m
                jy2 = jy
            else:
                k = i - 73
                work[k] -= 4
                mm = m - 1
                jy2 = jy and _TH[k] == 1
            s = K.shanten(tb[0], tb[1], work, bao, mm, jy2)
            out[i, 0] = s / 8.0
            out[i, 1] = 1.0 if s <= now else 0.0
            out[i, 3] = 1.0 if k == bao else 0.0
            if v2:
                out[i, 4] = _useful_plain(tb, work, bao, mm, jy2, s, unseen, near) / 40.0
    # ---- pass (a claim or rob window)
    if v2 and mask[108]:
        s = K.shanten(tb[0], tb[1], c, bao, m, jy)
        out[108, 0] = s / 8.0
        out[108, 1] = 1.0
        for k in range(34):
            work[k] = c[k]
        out[108, 4] = _useful_plain(tb, work, bao, m, jy, s, unseen, near) / 40.0
        if offers_win and s == 0 and total_unseen > 0:
            acc = 0.0
            for t in range(34):
                if unseen[t] > 0:
                    work[t] += 1
                    wins = K.shanten(tb[0], tb[1], work, bao, m, jy) == -1
                    work[t] -= 1
                    if wins and split_ok:
                        v = _value(
                            tb, rules, work, t, bao, mtype, mkind, n_split, K.WIN_SELF_DRAW, False, 0, fw, pflown,
                            bao_drawn, -1, True, sout,
                        )  # fmt: skip
                        acc += unseen[t] * v
            out[108, 6] = _scaled(acc / total_unseen)
    # ---- the win on offer
    if offers_win:
        ph = 0
        for p in range(5):
            if planes[_SC, _S_PHASE + p] > planes[_SC, _S_PHASE + ph]:
                ph = p
        points = 0
        if split_ok:
            for k in range(34):
                work[k] = c[k]
            if ph == _P_ACT:
                drawn = 0
                for k in range(34):
                    if planes[1, k] > planes[1, drawn]:
                        drawn = k
                work[drawn] -= 1
                heavenly = planes[_SC, _S_DEALER] == 1 and planes[_SC, _S_TILES_LEFT] == _FIRST_TURN_LEFT
                if heavenly:
                    for r in range(2, 6):
                        for k in range(34):
                            if planes[r, k] != 0 or planes[r + 8, k] != 0:
                                heavenly = False
                points = _value(
                    tb, rules, work, drawn, bao, mtype, mkind, n_split, K.WIN_SELF_DRAW, heavenly,
                    planes[_SC, _S_CHAIN], fw, pflown, bao_drawn, -1, False, sout,
                )  # fmt: skip
            elif ph == _P_ROB:
                r = 0
                for j in range(4):
                    if planes[_SC, _S_KONG_MAKER + j] > planes[_SC, _S_KONG_MAKER + r]:
                        r = j
                kk = 0
                for k in range(34):
                    if planes[17, k] > planes[17, kk]:
                        kk = k
                points = _value(
                    tb, rules, work, kk, bao, mtype, mkind, n_split, K.WIN_ROBBING_KONG, False, 0, fw, pflown,
                    bao_drawn, r - 1, False, sout,
                )  # fmt: skip
            else:
                kc = 0
                for k in range(34):
                    if planes[16, k] > planes[16, kc]:
                        kc = k
                points = _value(
                    tb, rules, work, kc, bao, mtype, mkind, n_split, K.WIN_DEALER_FIRST_DISCARD, False, 0, fw,
                    pflown, bao_drawn, -1, False, sout,
                )  # fmt: skip
        out[107, 5] = _scaled(float(points))


@njit(cache=True)
def batch_features(
    planes: npt.NDArray[np.int8],
    mask: npt.NDArray[Any],
    version: int,
    tb: Tables,
    rules: npt.NDArray[np.int32],
    out: npt.NDArray[np.float32],
) -> None:
    """:func:`decision_features` of every row: ``planes`` int8[N, 20, 34], ``mask`` [N, 110],
    ``out`` float32[N, 110, F]."""
    for i in range(planes.shape[0]):
        decision_features(planes[i], mask[i], version, tb, rules, out[i])


def action_features(planes: Any, mask: Any, version: int = 2) -> np.ndarray:
    """(N, 110, F) float32: the features of :mod:`shangrao.bots.features` (``version`` 1 or 2) of each
    decision, computed in one compiled call.  ``planes``: int8 (N, 20, 34); ``mask``: (N, 110), bool or
    0/1 ints.  Raises :class:`~shangrao.sim.batch.BatchError` (a ValueError) for other shapes, dtypes
    or an unknown version."""
    try:
        nf = n_features(version)
    except ValueError as err:
        raise BatchError(f"version: {err}") from None
    p = np.asarray(planes)
    mk = np.asarray(mask)
    if p.ndim != 3 or p.shape[1:] != (20, 34) or p.dtype != np.int8:
        raise BatchError(f"planes: int8 (N, 20, 34), got {p.dtype} {p.shape}")
    if mk.shape != (p.shape[0], 110) or mk.dtype.kind not in "biu":
        raise BatchError(f"mask: bool or int (N, 110) with N = {p.shape[0]}, got {mk.dtype} {mk.shape}")
    out = np.zeros((p.shape[0], 110, nf), dtype=np.float32)
    if p.shape[0]:
        kernel: Any = batch_features
        kernel(np.ascontiguousarray(p), np.ascontiguousarray(mk != 0), int(version), K.tables(), VALUE_RULES, out)
    return out
