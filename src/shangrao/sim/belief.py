"""What the hidden hands are likely to be: a behaviour model that weights sampled worlds (issue 35, item 1).

A seat sees its own hand, every discard, meld, 飞宝 and the indicator; the other three concealed hands
and the order of the live wall are hidden.  Dealing those hidden tiles *uniformly* (every arrangement
of the unseen tiles equally likely) gives worlds whose opponents are much further from winning than
real ones: an opponent who has drawn and discarded for ten turns has kept what helps it.  This module
corrects that with importance weights:

* a table ``P_model(shanten | features)`` of an opponent's shanten (with 宝 as wildcards, the core's
  :func:`~shangrao.sim.kernels.shanten`) given what the deciding seat sees of that opponent — the tiles
  left in the wall, its number of melds, its 飞宝 count, how many of its last three discards were
  middle tiles (suited 3–7) — fitted on self-play of the core's bots, where the hidden hands are known;
* the same table for uniformly dealt hands, ``P_uniform(shanten | features)``, estimated the same way
  (the fitted states' hidden tiles dealt again uniformly);
* a world's log-weight ``Σ over the 3 opponents log P_model(s | f) − log P_uniform(s | f)``: uniformly
  dealt worlds, weighted by it (self-normalised), have the opponents' shanten spread as in real play.

Spec
====

=======================  ===========================================================================
Weight (compiled)        ``world_log_weight(st, seat, tb, log_ratio) -> float`` (``@njit``): ``st`` a
                         fully dealt core state (int64 ``[STATE_SIZE]``), ``seat`` 0..3 the deciding
                         seat, ``tb = kernels.tables()``, ``log_ratio`` float64 ``[N_CELLS, N_SH]`` (the
                         params' table).  Finite for every state (the tables are smoothed: no cell is 0)
Weight (Python)          :func:`log_weight` ``(st, seat, params=None)``: the same, checked, with the
                         shipped params by default
Uniform worlds           ``deal_world(st, seat, mt, out) -> int`` (``@njit``): ``out`` = ``st`` with the
                         opponents' concealed tiles and the live wall dealt again uniformly from what
                         ``seat`` has not seen (``mt``: a core MT19937 state, uint32 ``[625]``); returns
                         1, or 0 (``out`` untouched) outside the ``act``/``discard`` phases (a claim or
                         rob window holds options computed from the real hands)
Tilted worlds            ``deal_world_tilted(st, seat, tb, lr3, mt, out, max_tries) -> int`` (``@njit``):
                         worlds drawn from the weighted distribution directly (rejection, opponent by
                         opponent), so they need no weights; ``lr3`` float64 ``[3, N_SH]`` from
                         ``opponent_log_ratios(st, seat, log_ratio, lr3)`` (the table) or
                         ``state_log_ratios(st, seat, tb, log_model, mt, pilot, lr3)`` (the table's
                         model against this state's own uniform distribution, from ``pilot`` deals):
                         compute ``lr3`` once a decision, then deal the worlds.  The recommended
                         sampler (measured in docs/bots.md)
The truth's worlds       ``deal_wall(st, mt, out)`` (``@njit``): ``out`` = ``st`` with only the live
                         wall's order dealt again, the real hidden hands kept: what the sampled worlds
                         are measured against (``benchmarks/bench_decline_bias.py``)
Params                   :class:`BeliefParams` (``log_ratio``, the raw counts, ``meta``: seeds, bots,
                         hands); :func:`load_params` reads ``sim/data/belief.npz`` (shipped) or a path;
                         :func:`fit` makes them; ``python -m shangrao.sim.belief fit --hands N --seed S
                         --out PATH`` is the command that made the shipped file (its meta records it)
Errors                   :class:`~shangrao.errors.InputError` naming the file, field or argument: a
                         params file missing, unreadable, of another shape or with a non-finite entry;
                         a state of the wrong shape/dtype; a seat outside 0..3
=======================  ===========================================================================

How good it is (log-likelihood of the real hidden hands and a calibration table of "this opponent
wins within k of its turns", weighted against uniform dealing): ``benchmarks/bench_belief.py``,
recorded in docs/bots.md, section "The search bot's worlds".

The state's fields are read through the small ``_f_*`` helpers below only, so a change of the core's
layout (:mod:`shangrao.sim.core`'s ``_O_*`` offsets) is followed here in one place.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from ..errors import InputError
from . import core as C
from . import kernels as K

__all__ = [
    "N_CELLS",
    "N_SH",
    "BeliefParams",
    "deal_wall",
    "deal_world",
    "deal_world_tilted",
    "fit",
    "load_params",
    "log_weight",
    "opponent_log_ratios",
    "sample_worlds",
    "shipped_params_path",
    "state_log_ratios",
    "tilted_log_gain",
    "world_log_weight",
]

# ---------------------------------------------------------------------------------------------- the state's fields
# (re-point these when the core's layout changes; nothing else here reads an offset)
_O_HEAD = C._O_HEAD
_O_TAIL = C._O_TAIL
_O_PHASE = C._O_PHASE
_O_BAO = C._O_BAO
_O_NEV = C._O_NEV
_O_NMELD = C._O_NMELD
_O_NDISC = C._O_NDISC
_O_DISC = C._O_DISC
_O_FLOWN = C._O_FLOWN
_O_BAODRAWN = C._O_BAODRAWN
_O_LASTDRAW = C._O_LASTDRAW
_O_COUNTS = C._O_COUNTS
_O_MASK = C._O_MASK
_O_CODES = C._O_CODES
_O_LIVE = C._O_LIVE
_O_MELD = C._O_MELD
_MELD_W = C.MELD_W
_DISC_MAX = C.DISC_MAX
_M_CHOW = C.M_CHOW
_P_ACT = C.P_ACT
_P_DISCARD = C.P_DISCARD
_E_DRAW = C.E_DRAW
_E_WIN = C.E_WIN
_POW5 = np.array([5**i for i in range(9)], dtype=np.int64)
_TH = C._TH

#: the kernels' array types besides the core's (numba ignores annotations; these say what each array is)
_I64 = npt.NDArray[np.int64]  #: pools of tile ids, per-seat sizes, snapshots, counts
_F64 = npt.NDArray[np.float64]  #: log-ratio tables and rows, weights
_I8 = npt.NDArray[np.int8]  #: int8[34] kind counts (scratch)


@njit(cache=True, inline="always")
def _f_tiles_left(st: C.State) -> int:
    return st[_O_TAIL] - st[_O_HEAD] + 1


@njit(cache=True, inline="always")
def _f_count(st: C.State, s: int, k: int) -> int:
    return st[_O_COUNTS + s * 34 + k]


@njit(cache=True, inline="always")
def _f_nmeld(st: C.State, s: int) -> int:
    return st[_O_NMELD + s]


@njit(cache=True, inline="always")
def _f_disc_kind(st: C.State, s: int, i: int) -> int:
    """Kind of the ``i``-th discard of seat ``s`` (claimed ones too)."""
    tid = st[_O_DISC + s * _DISC_MAX + i]
    if tid < 0:
        tid = -1 - tid
    return tid >> 2


@njit(cache=True, inline="always")
def _f_melds_terminal(st: C.State, s: int) -> bool:
    """Every declared meld of ``s`` is of terminals/honors (the bots' reading of 幺九; no melds: True)."""
    for i in range(st[_O_NMELD + s]):
        mo = _O_MELD + (s * 4 + i) * _MELD_W
        if st[mo] == _M_CHOW or not _TH[st[mo + 1]]:
            return False
    return True


# ---------------------------------------------------------------------------------------------- features
#: tiles-left bins: ``>= 70``, ``55..69``, ``40..54``, ``25..39``, ``12..24``, ``< 12``
_LEFT_EDGES = np.array([70, 55, 40, 25, 12], dtype=np.int64)
N_LEFT = 6
N_MELDS = 4  # 0, 1, 2, 3+
N_FLOWN = 3  # 0, 1, 2+
N_MID = 4  # middle tiles (suited 3..7) among the last three discards: 0..3
#: cells of the feature table
N_CELLS = N_LEFT * N_MELDS * N_FLOWN * N_MID
#: shanten values of the table: 0..5, and 6 for 6 or more (a complete hand, -1, is read as 0)
N_SH = 7
FEATURES_VERSION = 1


@njit(cache=True)
def _cell(st: C.State, o: int) -> int:
    """The feature cell of opponent ``o`` (what any other seat sees of it)."""
    left = _f_tiles_left(st)
    lb = N_LEFT - 1
    for i in range(N_LEFT - 1):
        if left >= _LEFT_EDGES[i]:
            lb = i
            break
    nm = min(_f_nmeld(st, o), N_MELDS - 1)
    fl = min(st[_O_FLOWN + o], N_FLOWN - 1)
    nd = st[_O_NDISC + o]
    mid = 0
    for i in range(max(0, nd - 3), nd):
        k = _f_disc_kind(st, o, i)
        if k < 27 and 2 <= k % 9 <= 6:
            mid += 1
    return ((lb * N_MELDS + nm) * N_FLOWN + fl) * N_MID + mid


@njit(cache=True)
def _shanten_of(st: C.State, tb: C.Tables, o: int, c: _I8) -> int:
    """Shanten of ``o``'s concealed hand, clipped to ``0..N_SH - 1`` (``c``: int8[34] scratch)."""
    for k in range(34):
        c[k] = _f_count(st, o, k)
    s = K.shanten(tb[0], tb[1], c, st[_O_BAO], 4 - _f_nmeld(st, o), _f_melds_terminal(st, o))
    if s < 0:
        s = 0
    if s > N_SH - 1:
        s = N_SH - 1
    return s


@njit(cache=True)
def world_log_weight(st: C.State, seat: int, tb: C.Tables, log_ratio: _F64) -> float:
    """Log importance weight of a fully dealt world for ``seat``: the sum over the three opponents of
    ``log_ratio[cell, shanten]`` (``log P_model − log P_uniform``).  Finite when ``log_ratio`` is."""
    c = np.zeros(34, dtype=np.int8)
    w = 0.0
    for i in range(1, 4):
        o = (seat + i) % 4
        w += log_ratio[_cell(st, o), _shanten_of(st, tb, o, c)]
    return w


# ---------------------------------------------------------------------------------------------- uniform worlds
@njit(cache=True)
def _set_hand_id(out: C.State, s: int, tid: int) -> None:
    k = tid >> 2
    out[_O_COUNTS + s * 34 + k] += 1
    out[_O_MASK + s * 34 + k] |= 1 << (tid & 3)
    o = _O_CODES + s * 5
    if k == out[_O_BAO]:
        out[o + 4] += 1
    else:
        out[o + k // 9] += _POW5[k % 9]


@njit(cache=True)
def _hidden_pool(st: C.State, seat: int, pool: _I64, size: _I64, gone: _I64) -> int:
    """The ids ``seat`` has not seen (opponents' concealed tiles, then the live wall) into ``pool``;
    ``size[o]``: opponent ``o``'s concealed tiles; ``gone[o]``: its 宝 drawn that left its hand.
    Returns how many ids."""
    n = 0
    bao = st[_O_BAO]
    for i in range(1, 4):
        o = (seat + i) % 4
        size[o] = 0
        gone[o] = st[_O_BAODRAWN + o] - st[_O_COUNTS + o * 34 + bao]
        for k in range(34):
            m = st[_O_MASK + o * 34 + k]
            for j in range(4):
                if (m >> j) & 1:
                    pool[n] = 4 * k + j
                    n += 1
                    size[o] += 1
    for p in range(st[_O_HEAD], st[_O_TAIL] + 1):
        pool[n] = st[_O_LIVE + p]
        n += 1
    return n


@njit(cache=True, inline="always")
def _bao_ok(st: C.State, o: int, pool: _I64, p: int, size: int, gone: int) -> bool:
    """Opponent ``o`` dealt ``pool[p:p + size]`` would not hold a 4th 宝 the table never saw paid."""
    if st[_O_BAODRAWN + o] >= 4:
        return True
    nb = 0
    bao = st[_O_BAO]
    for q in range(p, p + size):
        if pool[q] >> 2 == bao:
            nb += 1
    return gone + nb < 4


@njit(cache=True, inline="always")
def _shuffle(mt: C.Stream, pool: _I64, lo: int, hi: int) -> None:
    """Fisher–Yates of ``pool[lo:hi]`` (CPython's ``shuffle`` order of draws)."""
    for i in range(hi - 1, lo, -1):
        j = lo + C.mt_below(mt, i - lo + 1)
        x = pool[i]
        pool[i] = pool[j]
        pool[j] = x


@njit(cache=True)
def _write_world(st: C.State, seat: int, pool: _I64, size: _I64, gone: _I64, out: C.State) -> None:
    """``out`` = ``st`` with opponent ``seat + 1``, ``+ 2``, ``+ 3`` holding the next ``size[o]`` ids of
    ``pool`` each and the live wall the rest, in order."""
    bao = st[_O_BAO]
    out[:] = st
    p = 0
    for i in range(1, 4):
        o = (seat + i) % 4
        for k in range(34):
            out[_O_COUNTS + o * 34 + k] = 0
            out[_O_MASK + o * 34 + k] = 0
        for j in range(5):
            out[_O_CODES + o * 5 + j] = 0
        nb = 0
        for q in range(p, p + size[o]):
            _set_hand_id(out, o, pool[q])
            if pool[q] >> 2 == bao:
                nb += 1
        if st[_O_LASTDRAW + o] >= 0 and size[o] > 0:
            out[_O_LASTDRAW + o] = pool[p + size[o] - 1]
        if st[_O_BAODRAWN + o] < 4:
            out[_O_BAODRAWN + o] = gone[o] + nb
        p += size[o]
    for q in range(st[_O_HEAD], st[_O_TAIL] + 1):
        out[_O_LIVE + q] = pool[p]
        p += 1


@njit(cache=True)
def deal_world(st: C.State, seat: int, mt: C.Stream, out: C.State) -> int:
    """``out`` = ``st`` with the opponents' concealed tiles and the live wall dealt again uniformly
    from the tiles ``seat`` has not seen (each opponent keeps its number of tiles; its 宝-drawn count
    keeps what left its hand; a world in which an opponent would now hold a 4th 宝 that the table never
    saw paid is dealt again).  ``mt``: uint32[625] MT19937 state (advanced).  Returns 1, or 0 outside
    the act/discard phases (``out`` then untouched)."""
    ph = st[_O_PHASE]
    if ph != _P_ACT and ph != _P_DISCARD:
        return 0
    pool = np.empty(136, dtype=np.int64)
    size = np.zeros(4, dtype=np.int64)
    gone = np.zeros(4, dtype=np.int64)
    n = _hidden_pool(st, seat, pool, size, gone)
    for _try in range(100):
        _shuffle(mt, pool, 0, n)
        ok = True
        p = 0
        for i in range(1, 4):
            o = (seat + i) % 4
            if not _bao_ok(st, o, pool, p, size[o], gone[o]):
                ok = False
            p += size[o]
        if ok:
            break
    _write_world(st, seat, pool, size, gone, out)
    return 1


@njit(cache=True)
def deal_wall(st: C.State, mt: C.Stream, out: C.State) -> None:
    """``out`` = ``st`` with only the order of its live wall dealt again (uniformly; ``mt`` advanced):
    the opponents keep their *real* hands.  Given everything that happened, the rest of the wall is in
    a uniformly random order, so play-outs on these worlds estimate what an option is really worth —
    the truth the sampled worlds are measured against (``benchmarks/bench_decline_bias.py``)."""
    out[:] = st
    head = st[_O_HEAD]
    pool = np.empty(136, dtype=np.int64)
    n = _f_tiles_left(st)
    for q in range(n):
        pool[q] = st[_O_LIVE + head + q]
    _shuffle(mt, pool, 0, n)
    for q in range(n):
        out[_O_LIVE + head + q] = pool[q]


@njit(cache=True)
def _pool_shanten(st: C.State, tb: C.Tables, o: int, pool: _I64, p: int, size: int, c: _I8) -> int:
    """Shanten (clipped as :func:`_shanten_of`) of opponent ``o`` holding ``pool[p:p + size]``."""
    for k in range(34):
        c[k] = 0
    for q in range(p, p + size):
        c[pool[q] >> 2] += 1
    s = K.shanten(tb[0], tb[1], c, st[_O_BAO], 4 - _f_nmeld(st, o), _f_melds_terminal(st, o))
    if s < 0:
        s = 0
    if s > N_SH - 1:
        s = N_SH - 1
    return s


@njit(cache=True)
def opponent_log_ratios(st: C.State, seat: int, log_ratio: _F64, lr3: _F64) -> None:
    """``lr3[j, :]`` = the row of ``log_ratio`` (``[N_CELLS, N_SH]``) of opponent ``j`` (seat
    ``(seat + 1 + j) % 4``)'s feature cell: the tilt :func:`deal_world_tilted` applies."""
    for j in range(3):
        cell = _cell(st, (seat + 1 + j) % 4)
        for s in range(N_SH):
            lr3[j, s] = log_ratio[cell, s]


@njit(cache=True)
def state_log_ratios(
    st: C.State, seat: int, tb: C.Tables, log_model: _F64, mt: C.Stream, pilot: int, lr3: _F64
) -> None:
    """``lr3[j, s]`` = ``log P_model(s | cell of opponent j) − log P̂(s)``, ``P̂`` this state's own
    uniform-dealing distribution of opponent ``j``'s shanten, estimated on ``pilot`` uniform deals of
    its tiles from everything ``seat`` has not seen (0.5 pseudo-deals a value); a value no pilot deal
    showed gets at most the largest of the others.  Tilting by these rows makes each opponent's shanten
    follow the model in *this* state, not only on average over its cell.  ``log_model``: float64
    ``[N_CELLS, N_SH]`` (:meth:`BeliefParams.log_p_model`); ``mt`` advanced."""
    pool = np.empty(136, dtype=np.int64)
    size = np.zeros(4, dtype=np.int64)
    gone = np.zeros(4, dtype=np.int64)
    c = np.zeros(34, dtype=np.int8)
    h = np.zeros(N_SH, dtype=np.int64)
    n = _hidden_pool(st, seat, pool, size, gone)
    for j in range(3):
        o = (seat + 1 + j) % 4
        cell = _cell(st, o)
        h[:] = 0
        for _t in range(pilot):
            for q in range(size[o]):
                r = q + C.mt_below(mt, n - q)
                x = pool[q]
                pool[q] = pool[r]
                pool[r] = x
            h[_pool_shanten(st, tb, o, pool, 0, size[o], c)] += 1
        top = -1e300
        for s in range(N_SH):
            lr3[j, s] = log_model[cell, s] - np.log((h[s] + 0.5) / (pilot + 0.5 * N_SH))
            if h[s] > 0 and lr3[j, s] > top:
                top = lr3[j, s]
        for s in range(N_SH):
            if h[s] == 0 and lr3[j, s] > top:
                lr3[j, s] = top


@njit(cache=True)
def deal_world_tilted(
    st: C.State, seat: int, tb: C.Tables, lr3: _F64, mt: C.Stream, out: C.State, max_tries: int
) -> int:
    """A world drawn *from the weighted distribution* rather than weighted afterwards: each opponent
    ``j`` in turn (seat ``(seat + 1 + j) % 4``) is dealt its tiles uniformly from what is left of the
    unseen tiles and kept with probability ``exp(lr3[j, shanten] − max(lr3[j]))`` (rejection sampling,
    at most ``max_tries`` deals an opponent: then the try with the largest ``lr3`` is kept — with 200
    tries about 9 % of the opponents of self-play states run out, mostly late ready hands that uniform
    dealing makes once in thousands); the rest is the wall, shuffled.
    So the worlds need no weights.  ``lr3``: float64 ``[3, N_SH]``, from :func:`opponent_log_ratios`
    (the fitted table) or :func:`state_log_ratios` (corrected for this state).  Returns the number of
    opponents whose tries ran out (0 normally), or -1 outside the act/discard phases (``out`` then
    untouched)."""
    ph = st[_O_PHASE]
    if ph != _P_ACT and ph != _P_DISCARD:
        return -1
    pool = np.empty(136, dtype=np.int64)
    size = np.zeros(4, dtype=np.int64)
    gone = np.zeros(4, dtype=np.int64)
    c = np.zeros(34, dtype=np.int8)
    best = np.empty(14, dtype=np.int64)
    n = _hidden_pool(st, seat, pool, size, gone)
    p = 0
    capped = 0
    for i in range(1, 4):
        o = (seat + i) % 4
        top = lr3[i - 1, 0]
        for s in range(1, N_SH):
            top = max(top, lr3[i - 1, s])
        accepted = False
        best_lr = -1e300
        for _t in range(max_tries):
            for q in range(p, p + size[o]):  # a uniform draw of size[o] ids from pool[p:n]
                j = q + C.mt_below(mt, n - q)
                x = pool[q]
                pool[q] = pool[j]
                pool[j] = x
            if not _bao_ok(st, o, pool, p, size[o], gone[o]):
                continue
            s = _pool_shanten(st, tb, o, pool, p, size[o], c)
            if lr3[i - 1, s] > best_lr:
                best_lr = lr3[i - 1, s]
                for q in range(size[o]):
                    best[q] = pool[p + q]
            u = C.mt_next(mt) / 4294967296.0
            if u < np.exp(lr3[i - 1, s] - top):
                accepted = True
                break
        if not accepted:
            capped += 1
            if best_lr > -1e300:  # keep the try nearest the model's favourite, not the last one
                for q in range(size[o]):
                    for r in range(p, n):
                        if pool[r] == best[q]:
                            x = pool[p + q]
                            pool[p + q] = pool[r]
                            pool[r] = x
                            break
        p += size[o]
    _shuffle(mt, pool, p, n)
    _write_world(st, seat, pool, size, gone, out)
    return capped


@njit(cache=True)
def tilted_log_gain(st: C.State, seat: int, tb: C.Tables, lr3: _F64, mt: C.Stream, n: int) -> float:
    """``log p_tilted(hidden) − log p_uniform(hidden)`` of the hidden tiles of ``st`` itself (the truth)
    under :func:`deal_world_tilted` with ``lr3`` (tries never running out): the sum over the opponents
    in turn of ``lr3[j, shanten] − top − log Z``, ``Z`` the mean of ``exp(lr3[j, ·] − top)`` over ``n``
    uniform deals from the tiles left after the earlier opponents' real hands."""
    pool = np.empty(136, dtype=np.int64)
    trial = np.empty(136, dtype=np.int64)
    size = np.zeros(4, dtype=np.int64)
    gone = np.zeros(4, dtype=np.int64)
    c = np.zeros(34, dtype=np.int8)
    m = _hidden_pool(st, seat, pool, size, gone)
    p = 0
    g = 0.0
    for i in range(1, 4):
        o = (seat + i) % 4
        top = lr3[i - 1, 0]
        for s in range(1, N_SH):
            top = max(top, lr3[i - 1, s])
        z = 0.0
        for q in range(m):
            trial[q] = pool[q]
        for _t in range(n):
            for q in range(p, p + size[o]):
                j = q + C.mt_below(mt, m - q)
                x = trial[q]
                trial[q] = trial[j]
                trial[j] = x
            if _bao_ok(st, o, trial, p, size[o], gone[o]):
                z += np.exp(lr3[i - 1, _pool_shanten(st, tb, o, trial, p, size[o], c)] - top)
        z = max(z / n, 1e-300)
        g += lr3[i - 1, _pool_shanten(st, tb, o, pool, p, size[o], c)] - top - np.log(z)
        p += size[o]
    return g


@njit(cache=True)
def sample_worlds(
    st: C.State,
    seat: int,
    tb: C.Tables,
    log_ratio: _F64,
    lr3: _F64,
    mt: C.Stream,
    worlds: int,
    tilted: bool,
    play: bool,
    rules: C.Rules,
    bots: C.Codes,
    mts: C.Streams,
    bot_rules: C.Rules,
    out_w: _F64,
    out_sh: _I64,
    out_d: _I64,
) -> int:
    """Deal ``worlds`` worlds of ``st`` for ``seat`` (``mt`` advanced): uniform ones
    (:func:`deal_world`; ``out_w[m]``: the world's :func:`world_log_weight` under ``log_ratio``) or,
    when ``tilted``, tilted ones (:func:`deal_world_tilted` with ``lr3``, 200 tries an opponent;
    ``out_w[m]``: 0), and write each world's opponents' shanten (opponent ``j`` = seat
    ``(seat + 1 + j) % 4``) to ``out_sh[m, j]`` and, when ``play``, each opponent's own draws before
    it wins when the world is played to its end by the core bots ``bots`` (rng ``mts``), else -1,
    to ``out_d[m, j]``.  Returns the number of worlds dealt (0 outside the act/discard phases)."""
    world = np.zeros(st.shape[0], dtype=np.int64)
    ev = np.zeros((C.MAX_EVENTS, C.EV_WIDTH), dtype=np.int64)
    dec = np.zeros(C.MAX_DECISIONS, dtype=np.int32)
    script = np.zeros(1, dtype=np.int32)
    c = np.zeros(34, dtype=np.int8)
    nev0 = st[_O_NEV]
    for m in range(worlds):
        if tilted:
            if deal_world_tilted(st, seat, tb, lr3, mt, world, 200) < 0:
                return 0
            out_w[m] = 0.0
        else:
            if not deal_world(st, seat, mt, world):
                return 0
            out_w[m] = world_log_weight(world, seat, tb, log_ratio)
        for j in range(3):
            out_sh[m, j] = _shanten_of(world, tb, (seat + 1 + j) % 4, c)
        if play:
            C.play_to_end(world, ev, dec, rules, tb, bots, mts, script, 0, bot_rules)
            for j in range(3):
                out_d[m, j] = _draws_to_win(ev, nev0, world[_O_NEV], (seat + 1 + j) % 4)
    return worlds


# ---------------------------------------------------------------------------------------------- self-play samples
@njit(cache=True)
def _play_snapshots(
    st: C.State,
    ev: C.Rows,
    rules: C.Rules,
    tb: C.Tables,
    bots: C.Codes,
    mts: C.Streams,
    bot_rules: C.Rules,
    stride: int,
    phase0: int,
    snaps: _I64,
    snap_seat: _I64,
    snap_nev: _I64,
) -> int:
    """Play the hand in ``st`` to its end with the core bots; before every ``stride``-th decision
    (starting at ``phase0``) taken at a seat's own turn (act phase, several legal actions) copy the
    state to ``snaps``.  Returns the number of snapshots."""
    buf = np.zeros(48, dtype=np.int32)
    ns = 0
    cnt = 0
    while st[_O_PHASE] != C.P_OVER:
        n = C.legal(st, rules, tb, buf)
        seat = st[C._O_CUR]
        offered = False
        if st[_O_PHASE] == _P_ACT:
            for i in range(n):
                if buf[i] == C.A_WIN:
                    offered = True
            if n > 1:
                if cnt % stride == phase0 and ns < snaps.shape[0]:
                    snaps[ns, :] = st
                    snap_seat[ns] = seat
                    snap_nev[ns] = st[_O_NEV]
                    ns += 1
                cnt += 1
        if n == 1:
            a = buf[0]
        else:
            a = C._choose(st, rules, tb, bots, mts, seat, buf, n, bot_rules)
        C.push(st, ev, rules, tb, a, offered)
    return ns


@njit(cache=True)
def _draws_to_win(ev: C.Rows, start: int, end: int, o: int) -> int:
    """Own draws of ``o`` in ``ev[start:end]`` before it wins (a win after its d-th draw: d), or -1."""
    d = 0
    for i in range(start, min(end, ev.shape[0])):
        t = ev[i, 0]
        if t == _E_DRAW and ev[i, 1] == o:
            d += 1
        elif t == _E_WIN and ev[i, 1] == o:
            return d
    return -1


@njit(cache=True)
def _fit_counts(
    snaps: _I64,
    seats: _I64,
    ns: int,
    tb: C.Tables,
    mt: C.Stream,
    worlds: int,
    n_model: _I64,
    n_unif: _I64,
    world: C.State,
) -> None:
    """Add each snapshot's opponents to ``n_model[cell, true shanten]`` and ``worlds`` uniform deals of
    it to ``n_unif[cell, dealt shanten]``."""
    c = np.zeros(34, dtype=np.int8)
    for i in range(ns):
        st = snaps[i]
        seat = seats[i]
        for j in range(1, 4):
            o = (seat + j) % 4
            n_model[_cell(st, o), _shanten_of(st, tb, o, c)] += 1
        for _r in range(worlds):
            if deal_world(st, seat, mt, world):
                for j in range(1, 4):
                    o = (seat + j) % 4
                    n_unif[_cell(world, o), _shanten_of(world, tb, o, c)] += 1


# ---------------------------------------------------------------------------------------------- params
@dataclass(frozen=True)
class BeliefParams:
    """A fitted behaviour model.

    log_ratio: float64 ``[N_CELLS, N_SH]``, ``log P_model(shanten | cell) − log P_uniform(shanten | cell)``
    (the table :func:`world_log_weight` reads).  n_model / n_uniform: int64 ``[N_CELLS, N_SH]``, the
    counts it was smoothed from (real hidden hands of self-play / uniformly dealt ones).  meta: how it
    was made (seed, hands, bots, stride, worlds, alpha, features version, command)."""

    log_ratio: np.ndarray
    n_model: np.ndarray
    n_uniform: np.ndarray
    meta: dict[str, Any] = field(default_factory=dict)

    def p_model(self) -> np.ndarray:
        """``P_model(shanten | cell)``, float64 ``[N_CELLS, N_SH]`` (rows sum to 1)."""
        return _smooth_model(self.n_model, self.p_uniform(), float(self.meta.get("alpha", ALPHA)))

    def log_p_model(self) -> np.ndarray:
        """``log P_model(shanten | cell)``, float64 ``[N_CELLS, N_SH]`` (for :func:`state_log_ratios`)."""
        return np.ascontiguousarray(np.log(self.p_model()))

    def p_uniform(self) -> np.ndarray:
        """``P_uniform(shanten | cell)``, float64 ``[N_CELLS, N_SH]`` (rows sum to 1)."""
        return _smooth(self.n_uniform)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the params to ``path`` (an ``.npz``: the three arrays and ``meta`` as JSON)."""
        np.savez_compressed(
            path,
            log_ratio=self.log_ratio,
            n_model=self.n_model,
            n_uniform=self.n_uniform,
            meta=np.array(json.dumps(self.meta, sort_keys=True)),
        )


#: the model's pseudo-count: each cell's row is pulled towards the uniform row by this many samples
#: (a cell with no data weighs nothing: its log ratio is 0)
ALPHA = 10.0


def _smooth(counts: np.ndarray) -> np.ndarray:
    """Rows of the uniform counts as probabilities, each with 1 pseudo-sample spread as the row's
    (tiles-left bin, melds) margin, itself with one pseudo-sample spread evenly: no entry is 0."""
    c = counts.astype(np.float64).reshape(N_LEFT, N_MELDS, N_FLOWN * N_MID, N_SH)
    margin = c.sum(axis=2, keepdims=True) + 1.0 / N_SH
    margin = margin / margin.sum(axis=3, keepdims=True)
    p = c + margin
    p = p / p.sum(axis=3, keepdims=True)
    return p.reshape(N_CELLS, N_SH)


def _smooth_model(counts: np.ndarray, p_unif: np.ndarray, alpha: float) -> np.ndarray:
    """Rows of the model counts as probabilities, each with ``alpha`` pseudo-samples spread as the
    uniform row ``p_unif``: no entry is 0, and a row without data equals the uniform one."""
    p = counts.astype(np.float64) + alpha * p_unif
    return p / p.sum(axis=1, keepdims=True)


def _params_from_counts(n_model: np.ndarray, n_unif: np.ndarray, meta: dict[str, Any]) -> BeliefParams:
    alpha = float(meta.get("alpha", ALPHA))
    p_unif = _smooth(n_unif)
    log_ratio = np.log(_smooth_model(n_model, p_unif, alpha)) - np.log(p_unif)
    return BeliefParams(log_ratio=np.ascontiguousarray(log_ratio), n_model=n_model, n_uniform=n_unif, meta=meta)


def _bot_codes(bots: tuple[str, ...]) -> np.ndarray:
    CORE_BOTS = C.CORE_BOTS  # the core's own bots (not shangrao.sim.play's: no import cycle)
    if len(bots) != 4 or any(b not in CORE_BOTS or b == "external" for b in bots):
        raise InputError(f"bots: give 4 core bots of random, greedy, ukeire; got {bots!r}")
    return np.array([CORE_BOTS[b] for b in bots], dtype=np.int32)


def self_play_states(
    hands: int, seed: int | str, bots: tuple[str, ...] = ("ukeire",) * 4, stride: int = 3, max_per_hand: int = 40
) -> tuple[np.ndarray, np.ndarray, list[tuple[np.ndarray, int]]]:
    """Play ``hands`` hands (hand ``i`` shuffled from the seed ``f"belief:{seed}:{i}"``, dealer ``i % 4``)
    with the core bots ``bots`` and take every ``stride``-th own-turn decision's state.

    Returns ``(snaps, seats, continuations)``: int64 ``[n, STATE_SIZE]`` states, int64 ``[n]`` deciding
    seats, and per state ``(the hand's event rows, the event count at the state)`` (the real
    continuation, for "wins within k turns")."""
    from ..rules import DEFAULT_RULES
    from .rules import encode_rules

    _BOT_RULES = C.BOT_RULES

    if hands < 1 or stride < 1:
        raise InputError(f"hands and stride: give at least 1, got hands={hands!r}, stride={stride!r}")
    rules = encode_rules(DEFAULT_RULES)
    tb = K.tables()
    codes = _bot_codes(tuple(bots))
    st = np.zeros(C.STATE_SIZE, dtype=np.int64)
    ev = np.zeros((C.MAX_EVENTS, C.EV_WIDTH), dtype=np.int64)
    mts = np.zeros((4, 625), dtype=np.uint32)
    for s in range(4):
        C.mt_seed(mts[s], C.seed_key(f"belief-bot:{seed}:{s}"))
    snaps = np.zeros((max_per_hand, C.STATE_SIZE), dtype=np.int64)
    sseat = np.zeros(max_per_hand, dtype=np.int64)
    snev = np.zeros(max_per_hand, dtype=np.int64)
    no_wall = np.full(136, -1, dtype=np.int32)
    no_dice = np.zeros(2, dtype=np.int32)
    scores = np.zeros(4, dtype=np.int64)
    out_s: list[np.ndarray] = []
    out_seat: list[np.ndarray] = []
    conts: list[tuple[np.ndarray, int]] = []
    for i in range(hands):
        C.new_hand(st, ev, rules, tb, C.seed_key(f"belief:{seed}:{i}"), i % 4, scores, 0, no_wall, no_dice)
        ns = _play_snapshots(st, ev, rules, tb, codes, mts, _BOT_RULES, stride, i % stride, snaps, sseat, snev)
        if ns == 0:
            continue
        rows = ev[: st[_O_NEV]].copy()
        out_s.append(snaps[:ns].copy())
        out_seat.append(sseat[:ns].copy())
        conts.extend((rows, int(snev[j])) for j in range(ns))
    if not out_s:
        return np.zeros((0, C.STATE_SIZE), dtype=np.int64), np.zeros(0, dtype=np.int64), []
    return np.concatenate(out_s), np.concatenate(out_seat), conts


def fit(
    hands: int = 4000,
    seed: int | str = 1,
    bots: tuple[str, ...] = ("ukeire",) * 4,
    stride: int = 3,
    worlds: int = 8,
    alpha: float = ALPHA,
) -> BeliefParams:
    """Fit the behaviour model on ``hands`` self-play hands of the core bots ``bots`` (seeds
    ``f"belief:{seed}:{i}"``; see :func:`self_play_states`): the real opponents' shanten per feature
    cell, and ``worlds`` uniform deals of each state for the uniform table.  Deterministic for its
    arguments.  About 2 ms a hand on one core with ``ukeire``."""
    if worlds < 1 or alpha <= 0:
        raise InputError(f"worlds and alpha: give worlds >= 1 and alpha > 0, got {worlds!r}, {alpha!r}")
    snaps, seats, _ = self_play_states(hands, seed, bots, stride)
    n_model = np.zeros((N_CELLS, N_SH), dtype=np.int64)
    n_unif = np.zeros((N_CELLS, N_SH), dtype=np.int64)
    mt = np.zeros(625, dtype=np.uint32)
    C.mt_seed(mt, C.seed_key(f"belief-deal:{seed}"))
    world = np.zeros(C.STATE_SIZE, dtype=np.int64)
    _fit_counts(snaps, seats, len(seats), K.tables(), mt, worlds, n_model, n_unif, world)
    meta = {
        "features_version": FEATURES_VERSION,
        "hands": hands,
        "seed": seed,
        "bots": list(bots),
        "stride": stride,
        "worlds": worlds,
        "alpha": alpha,
        "states": len(seats),
        "command": (
            f"python -m shangrao.sim.belief fit --hands {hands} --seed {seed} --bots {','.join(bots)} "
            f"--stride {stride} --worlds {worlds} --alpha {alpha:g}"
        ),
    }
    return _params_from_counts(n_model, n_unif, meta)


def shipped_params_path() -> str:
    """Path of the params shipped in the package (``shangrao/sim/data/belief.npz``)."""
    return str(resources.files("shangrao.sim").joinpath("data/belief.npz"))


_LOADED: dict[str, BeliefParams] = {}


def load_params(path: str | os.PathLike[str] | None = None) -> BeliefParams:
    """Read params written by :meth:`BeliefParams.save` (``None``: the shipped ones, read once a
    process).  Raises :class:`~shangrao.errors.InputError` naming the file and what is wrong."""
    p = shipped_params_path() if path is None else os.fspath(path)
    if path is None and p in _LOADED:
        return _LOADED[p]
    try:
        with np.load(p, allow_pickle=False) as z:
            arrays = {k: z[k] for k in ("log_ratio", "n_model", "n_uniform", "meta")}
    except FileNotFoundError:
        raise InputError(f"belief params {p}: no such file (make one: python -m shangrao.sim.belief fit)") from None
    except KeyError as e:  # numpy's message: "NAME is not a file in the archive"
        raise InputError(f"belief params {p}: field {str(e.args[0]).split()[0]} is missing") from None
    except (OSError, ValueError) as e:
        raise InputError(f"belief params {p}: not a params file ({e})") from None
    for name in ("log_ratio", "n_model", "n_uniform"):
        a = arrays[name]
        if a.shape != (N_CELLS, N_SH):
            raise InputError(
                f"belief params {p}: {name} has shape {a.shape}, expected {(N_CELLS, N_SH)} "
                f"(features version {FEATURES_VERSION})"
            )
    lr = np.ascontiguousarray(arrays["log_ratio"], dtype=np.float64)
    if not np.isfinite(lr).all():
        bad = tuple(int(x) for x in np.argwhere(~np.isfinite(lr))[0])
        raise InputError(f"belief params {p}: log_ratio{list(bad)} is not finite")
    try:
        meta = json.loads(str(arrays["meta"]))
    except ValueError as e:
        raise InputError(f"belief params {p}: meta is not JSON ({e})") from None
    if meta.get("features_version") != FEATURES_VERSION:
        raise InputError(
            f"belief params {p}: features version {meta.get('features_version')!r}, this code reads {FEATURES_VERSION}"
        )
    params = BeliefParams(
        log_ratio=lr,
        n_model=arrays["n_model"].astype(np.int64),
        n_uniform=arrays["n_uniform"].astype(np.int64),
        meta=meta,
    )
    if path is None:
        _LOADED[p] = params
    return params


def _check_state(st: Any, seat: Any) -> None:
    if not isinstance(st, np.ndarray) or st.dtype != np.int64 or st.shape != (C.STATE_SIZE,):
        raise InputError(
            f"st: give the core's int64 state of shape ({C.STATE_SIZE},), got "
            f"{getattr(st, 'dtype', type(st).__name__)} {getattr(st, 'shape', '')}"
        )
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= int(seat) < 4:
        raise InputError(f"seat: give 0..3, got {seat!r}")


def log_weight(st: np.ndarray, seat: int, params: BeliefParams | None = None) -> float:
    """:func:`world_log_weight` of the world ``st`` (int64 ``[STATE_SIZE]``, fully dealt) for ``seat``
    (0..3) under ``params`` (default: the shipped ones).  In nats; 0 = as likely as under uniform dealing."""
    _check_state(st, seat)
    p = load_params() if params is None else params
    return float(world_log_weight(st, int(seat), K.tables(), p.log_ratio))


# ---------------------------------------------------------------------------------------------- command
def main(argv: list[str] | None = None) -> int:
    """``python -m shangrao.sim.belief fit [--hands N] [--seed S] [--bots a,b,c,d] [--stride N]
    [--worlds N] [--alpha A] [--out PATH]``: fit and write the params (default: the shipped file)."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m shangrao.sim.belief", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fit", help="fit the behaviour model on core self-play and write the params (.npz)")
    f.add_argument("--hands", type=int, default=4000)
    f.add_argument("--seed", default="1")
    f.add_argument("--bots", default="ukeire,ukeire,ukeire,ukeire")
    f.add_argument("--stride", type=int, default=3)
    f.add_argument("--worlds", type=int, default=8)
    f.add_argument("--alpha", type=float, default=ALPHA)
    f.add_argument("--out", default=None, help="default: the package's sim/data/belief.npz")
    a = ap.parse_args(argv)
    try:
        seed: int | str = int(a.seed)
    except ValueError:
        seed = a.seed
    params = fit(a.hands, seed, tuple(a.bots.split(",")), a.stride, a.worlds, a.alpha)
    out = a.out or shipped_params_path()
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    params.save(out)
    print(f"{params.meta['states']} states, {int(params.n_uniform.sum())} uniform opponents -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
