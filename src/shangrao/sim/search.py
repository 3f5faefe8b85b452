"""Play-out search in the compiled core (issue 35): worlds dealt from what a seat has seen, every
option of a decision played to the end of the hand on the same worlds.

*The view* (``v``, int64[:data:`V_SIZE`], layout in the ``V_*`` offsets) is exactly what a seat's
:class:`~shangrao.game.Observation` shows — its concealed kinds and the drawn kind, every seat's
hand size, melds and discards still in front of it, 宝 and the indicator, the live wall's length,
scores, 飞宝 counts, its own 宝 drawn, the discard in a claim window, the kong in a rob window,
the kong chain and the 地糊 flag — nothing hidden.  :func:`view_of` builds it from a core state,
:func:`shangrao.bots.search.view_from_observation` from an ``Observation``; the two are equal for
the same position (``tests/sim/test_search.py``), so the ``search`` bot decides the same on the
Python engine and natively in the core.

*A world* (:func:`deal_world`) is a full core state built from a view: visible tiles take the lowest
free ids of their kinds, the unseen ids are shuffled (MT19937, :func:`shangrao.sim.core.mt_below`)
and dealt to the other three concealed hands (their sizes are known) and the live wall, uniformly.
What the view does not show is set the same way in every world: no 偷机 or 接宝 yet, an
opponent's 宝 drawn counted from the 宝 it holds and flew, no claim declared before the seat's own
in a claim window.  Uniform worlds see the opponents slower than real ones (they kept what helps
them); with ``P_CANDS`` = M > 0 the search deals M worlds, weighs each by the behaviour model
(:func:`shangrao.sim.belief.world_log_weight`) and plays on K of them drawn by systematic
resampling (off by default until it is measured better: docs/bots.md).  With ``P_TILT`` = T > 0
the worlds are *tilted* instead (:func:`shangrao.sim.belief.deal_world_tilted`, T tries an opponent):
on the seat's own turn (act and discard phases) a uniform world is dealt from the view, the behaviour
model's rows of its opponents (:func:`shangrao.sim.belief.opponent_log_ratios`, what the seat sees of
them) are read once, and every world deals the opponents' hands again from that world's unseen tiles,
nearer to winning as real opponents are; in a claim or rob window the worlds stay uniform.

*The search* (:func:`search`): the options worth playing out (:func:`candidates`: on the seat's own
turn every win and kong, the discards of lowest shanten — at most ``keep`` of them by 进张 — and
the 宝 when it does not slow the hand (飞宝); every claim and rob option) are each played on the
same ``K`` worlds (common random numbers: the same deal and the same play-out seeds for every
option) by a core policy (``greedy`` by default) for all four seats; an option's value is the seat's
mean points delta over the hand (transfers and bonuses included) with its standard error.  The best
mean wins (ties: the first in legal order), except that a win offered is declined only when the
best other option beats it by more than ``P_WIN_Z`` standard errors of the paired difference and by
more than ``P_WIN_MARGIN`` points (a decline's edge is biased up on uniform worlds: docs/bots.md).
A decision with one legal action costs nothing.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from . import belief as B
from . import core as C
from . import kernels as K

__all__ = [
    "V_SIZE",
    "P_WORLDS",
    "P_KEEP",
    "P_POLICY",
    "P_PRUNE",
    "P_WIN_Z",
    "P_WIN_MARGIN",
    "P_CANDS",
    "P_TILT",
    "N_PARAMS",
    "NO_WEIGHTS",
    "default_params",
    "weights_for",
    "view_of",
    "deal_world",
    "candidates",
    "search",
    "play_options",
    "play_to_end",
    "play_matches",
    "BOT_SEARCH",
]

#: the core bot code of ``search`` (after random, greedy, ukeire, external)
BOT_SEARCH = 4

# ---------------------------------------------------------------------------------------------- view layout
V_SEAT = 0
V_PHASE = 1
V_DEALER = 2
V_BAO = 3
V_IND = 4  # the indicator's kind
V_LEFT = 5  # tiles in the live wall
V_CHAIN = 6
V_FIRST = 7
V_DRAWN = 8  # kind just drawn (phase act, own turn), else -1
V_BAODRAWN = 9  # 宝 the seat drew this hand
V_LD_SEAT = 10  # the discard in a claim window: seat, kind (-1 none)
V_LD_KIND = 11
V_KG_SEAT = 12  # the kong in a rob window: seat, kind, meld type (-1 none)
V_KG_KIND = 13
V_KG_TYPE = 14
V_SCORES = 16  # 4
V_FLOWN = 20  # 4
V_SIZES = 24  # 4 concealed tiles per seat
V_HAND = 28  # 34
V_NMELD = 62  # 4
V_MELD = 66  # 4 seats * 4 melds * 4 (type, kind (a chow's lowest), claimed kind or -1, from seat or -1)
V_NDISC = 130  # 4
V_DISC = 134  # 4 * 40 kinds still in front of each seat, in order
V_SIZE = 294

#: the kernels' argument types besides the core's (numba ignores annotations)
View = npt.NDArray[np.int64]  #: a seat's view, int64[V_SIZE] (the V_* offsets)
Params = npt.NDArray[np.int64]  #: the search's parameters, int64[N_PARAMS] (the P_* indices)

# ---------------------------------------------------------------------------------------------- parameters
P_WORLDS = 0  # K: worlds (play-outs per option)
P_KEEP = 1  # discards of lowest shanten kept, by 进张
P_POLICY = 2  # the core bot of the play-outs (C.BOT_GREEDY, C.BOT_UKEIRE, C.BOT_RANDOM)
P_PRUNE = 3  # 1: play out only candidates(); 0: every legal option (evaluations)
P_WIN_Z = 4  # a win is declined only if declining beats it by more than z (hundredths) standard errors
P_WIN_MARGIN = 5  # ... and by more than this margin (hundredths of a point)
P_CANDS = 6  # M > 0: deal M candidate worlds, keep K of them by the behaviour model's weights (sim/belief)
P_TILT = 7  # T > 0: tilted worlds on the seat's own turn, T tries an opponent (sim/belief.deal_world_tilted)
N_PARAMS = 8

#: the default budget: 256 worlds (CPU per decision: median 34 ms, p99 81 ms, docs/bots.md), at most
#: 2 discards (by 进张; + the 宝 and every win/kong) played out (2 beat 4 on the quick looks: docs/bots.md)
DEFAULT_WORLDS = 256
DEFAULT_KEEP = 2
#: the win rule's default: decline a win only when declining beats it by > 2 standard errors and > 4
#: points (issue 35 measured uniform worlds overrating a decline by 3.2 points; re-measured against the
#: truth, benchmarks/bench_decline_bias.py: +2.9, +4.1 for the best other option, +1.0 on tilted worlds)
DEFAULT_WIN_Z = 2.0
DEFAULT_WIN_MARGIN = 4.0
#: tries an opponent of a tilted world (``search:tilted``; the sampler's measured setting, docs/bots.md)
DEFAULT_TILT_TRIES = 200


def default_params(
    worlds: int = DEFAULT_WORLDS,
    keep: int = DEFAULT_KEEP,
    policy: int = C.BOT_GREEDY,
    prune: bool = True,
    win_z: float = DEFAULT_WIN_Z,
    win_margin: float = DEFAULT_WIN_MARGIN,
    candidates: int = 0,
    tilt: int = 0,
) -> np.ndarray:
    """The search's parameter array (int64[N_PARAMS], ``P_*``): ``worlds`` play-outs per option
    (>= 1), ``keep`` discards (>= 1), the play-out ``policy`` (a core bot code), ``prune``;
    ``win_z``/``win_margin`` (standard errors, points; kept to hundredths): a win offered is declined
    only when the best other option's mean beats it by more than ``win_z`` standard errors of the
    paired difference and by more than ``win_margin`` points (0, 0: the best mean, as play-outs say);
    ``candidates``: 0 uniform worlds, M > 0 deal M worlds and keep ``worlds`` of them resampled by
    :func:`shangrao.sim.belief.world_log_weight` (pass the params' ``log_ratio`` to :func:`search`);
    ``tilt``: 0 uniform worlds, T > 0 tilted worlds on the seat's own turn, T tries an opponent (with
    ``candidates`` > 0 the candidates are uniform: weighting wins)."""
    p = np.zeros(N_PARAMS, dtype=np.int64)
    p[P_WORLDS] = worlds
    p[P_KEEP] = keep
    p[P_POLICY] = policy
    p[P_PRUNE] = 1 if prune else 0
    p[P_WIN_Z] = round(win_z * 100)
    p[P_WIN_MARGIN] = round(win_margin * 100)
    p[P_CANDS] = candidates
    p[P_TILT] = tilt
    return p


#: the log-ratio table handed to :func:`search` when the worlds are not weighted
NO_WEIGHTS = np.zeros((1, 1), dtype=np.float64)


def weights_for(params: np.ndarray) -> np.ndarray:
    """The behaviour model's table (float64[N_CELLS, N_SH], the shipped ``sim/data/belief.npz``) when
    ``params`` weight or tilt the worlds (``P_CANDS`` > 0 or ``P_TILT`` > 0), else :data:`NO_WEIGHTS`."""
    if params[P_CANDS] <= 0 and params[P_TILT] <= 0:
        return NO_WEIGHTS
    from .belief import load_params

    return np.ascontiguousarray(load_params().log_ratio, dtype=np.float64)


# ---------------------------------------------------------------------------------------------- the view
@njit(cache=True)
def view_of(st: C.State, seat: int, v: View) -> None:
    """Write into ``v`` what ``seat`` sees of the core state ``st`` (``Game.observation(seat)``)."""
    v[:] = 0
    ph = st[C._O_PHASE]
    v[V_SEAT] = seat
    v[V_PHASE] = ph
    v[V_DEALER] = st[C._O_DEALER]
    v[V_BAO] = st[C._O_BAO]
    v[V_IND] = st[C._O_IND] >> 2
    v[V_LEFT] = st[C._O_TAIL] - st[C._O_HEAD] + 1
    v[V_CHAIN] = st[C._O_CHAIN]
    v[V_FIRST] = st[C._O_FIRST]
    v[V_DRAWN] = -1
    ld = st[C._O_LASTDRAW + seat]
    if ph == C.P_ACT and st[C._O_CUR] == seat and ld >= 0:
        v[V_DRAWN] = ld >> 2
    v[V_BAODRAWN] = st[C._O_BAODRAWN + seat]
    v[V_LD_SEAT] = -1
    v[V_LD_KIND] = -1
    if ph == C.P_CLAIM:
        v[V_LD_SEAT] = st[C._O_CL_DISC]
        v[V_LD_KIND] = st[C._O_CL_KIND]
    v[V_KG_SEAT] = -1
    v[V_KG_KIND] = -1
    v[V_KG_TYPE] = -1
    if ph == C.P_ROB:
        v[V_KG_SEAT] = st[C._O_PK_SEAT]
        v[V_KG_KIND] = st[C._O_PK_KIND]
        v[V_KG_TYPE] = st[C._O_PK_MTYPE]
    for s in range(4):
        v[V_SCORES + s] = st[C._O_SCORES + s]
        v[V_FLOWN + s] = st[C._O_FLOWN + s]
        n = 0
        for k in range(34):
            n += st[C._O_COUNTS + s * 34 + k]
        v[V_SIZES + s] = n
        nm = st[C._O_NMELD + s]
        v[V_NMELD + s] = nm
        for i in range(nm):
            mo = C._O_MELD + (s * 4 + i) * C.MELD_W
            o = V_MELD + (s * 4 + i) * 4
            v[o] = st[mo]
            v[o + 1] = st[mo + 1]
            v[o + 2] = st[mo + 2] if st[mo] != C.M_CONCEALED else -1
            v[o + 3] = st[mo + 3] if st[mo] != C.M_CONCEALED else -1
        nd = 0
        for i in range(st[C._O_NDISC + s]):
            tid = st[C._O_DISC + s * C.DISC_MAX + i]
            if tid >= 0:
                v[V_DISC + s * C.DISC_MAX + nd] = tid >> 2
                nd += 1
        v[V_NDISC + s] = nd
    for k in range(34):
        v[V_HAND + k] = st[C._O_COUNTS + seat * 34 + k]


# ---------------------------------------------------------------------------------------------- worlds
@njit(cache=True, inline="always")
def _take(used: npt.NDArray[np.int8], k: int) -> int:
    """The lowest id of kind ``k`` not used yet (marked used), or -1."""
    for j in range(4):
        t = 4 * k + j
        if not used[t]:
            used[t] = 1
            return t
    return -1


@njit(cache=True)
def deal_world(v: View, legal: C.Codes, nleg: int, rules: C.Rules, tb: C.Tables, mt: C.Stream, st: C.State) -> int:
    """Deal a world consistent with the view ``v`` into the core state ``st`` (module docstring),
    drawing from the MT19937 state ``mt``; ``legal[:nleg]``: the seat's legal actions (its claim
    options in a claim window).  Returns 0, or 1 when the view is inconsistent (more copies seen
    than exist, or the unseen tiles do not fill the hidden hands and the wall)."""
    st[:] = 0
    used = np.zeros(136, dtype=np.int8)
    me = v[V_SEAT]
    ph = v[V_PHASE]
    bao = v[V_BAO]
    st[C._O_BAO] = bao
    st[C._O_DEALER] = v[V_DEALER]
    ind = _take(used, v[V_IND])
    if ind < 0:
        return 1
    st[C._O_IND] = ind
    nacts = 0
    for s in range(4):
        st[C._O_SCORES + s] = v[V_SCORES + s]
        st[C._O_START + s] = v[V_SCORES + s]
        st[C._O_FLOWN + s] = v[V_FLOWN + s]
        st[C._O_LASTDRAW + s] = -1
        nm = v[V_NMELD + s]
        st[C._O_NMELD + s] = nm
        for i in range(nm):
            o = V_MELD + (s * 4 + i) * 4
            mo = C._O_MELD + (s * 4 + i) * C.MELD_W
            t = v[o]
            k = v[o + 1]
            st[mo] = t
            st[mo + 1] = k
            st[mo + 2] = v[o + 2]
            st[mo + 3] = v[o + 3]
            for j in range(4):
                st[mo + 4 + j] = -1
            if t == C.M_CHOW:
                for j in range(3):
                    st[mo + 4 + j] = _take(used, k + j)
            else:
                for j in range(3 if t == C.M_PUNG else 4):
                    st[mo + 4 + j] = _take(used, k)
            for j in range(4):
                if st[mo + 4 + j] == -1 and (j < 3 or t >= C.M_KONG):
                    return 1
            if v[o + 3] >= 0:
                nacts += 1
        nd = v[V_NDISC + s]
        st[C._O_NDISC + s] = nd
        nacts += nd
        for i in range(nd):
            tid = _take(used, v[V_DISC + s * C.DISC_MAX + i])
            if tid < 0:
                return 1
            st[C._O_DISC + s * C.DISC_MAX + i] = tid
    # the seat's own hand
    for k in range(34):
        for _ in range(v[V_HAND + k]):
            tid = _take(used, k)
            if tid < 0:
                return 1
            C._add(st, me, tid)
    if v[V_DRAWN] >= 0:  # the drawn tile: the highest id of its kind in the hand
        k = v[V_DRAWN]
        mask = st[C._O_MASK + me * 34 + k]
        j = 3
        while j > 0 and not (mask >> j) & 1:
            j -= 1
        st[C._O_LASTDRAW + me] = 4 * k + j
    # the kong in a rob window: its tiles are out of the hand and not a meld yet
    pk_ids = np.full(4, -1, dtype=np.int64)
    pk_index = -1
    if ph == C.P_ROB:
        ks = v[V_KG_SEAT]
        kk = v[V_KG_KIND]
        for i in range(v[V_NMELD + ks]):
            mo = C._O_MELD + (ks * 4 + i) * C.MELD_W
            if st[mo] == C.M_PUNG and st[mo + 1] == kk:
                pk_index = i
        if pk_index >= 0:
            mo = C._O_MELD + (ks * 4 + pk_index) * C.MELD_W
            for j in range(3):
                pk_ids[j] = st[mo + 4 + j]
            pk_ids[3] = _take(used, kk)
        else:
            for j in range(4):
                pk_ids[j] = _take(used, kk)
        if pk_ids[3] < 0:
            return 1
    # the unseen ids, shuffled, to the other hands then the live wall
    pool = np.zeros(136, dtype=np.int64)
    npool = 0
    for t in range(136):
        if not used[t]:
            pool[npool] = t
            npool += 1
    for i in range(npool - 1, 0, -1):
        j = C.mt_below(mt, i + 1)
        x = pool[i]
        pool[i] = pool[j]
        pool[j] = x
    hidden = 0
    for i in range(1, 4):
        hidden += v[V_SIZES + (me + i) % 4]
    if hidden > npool:
        return 1
    # a table's position fills the hands and the wall exactly; a hand-made one (advise) may leave
    # unseen tiles over (out of play) or too few for the wall (a shorter wall)
    left = v[V_LEFT] if v[V_LEFT] <= npool - hidden else npool - hidden
    p = 0
    for i in range(1, 4):
        s = (me + i) % 4
        for _ in range(v[V_SIZES + s]):
            C._add(st, s, pool[p])
            p += 1
        nb = st[C._O_COUNTS + s * 34 + bao] + v[V_FLOWN + s]
        for i2 in range(v[V_NMELD + s]):
            o = V_MELD + (s * 4 + i2) * 4
            if v[o] == C.M_CHOW:
                if v[o + 1] <= bao <= v[o + 1] + 2:
                    nb += 1
            elif v[o + 1] == bao:
                nb += 3 if v[o] == C.M_PUNG else 4
        st[C._O_BAODRAWN + s] = nb if nb < 4 else 3
    st[C._O_BAODRAWN + me] = v[V_BAODRAWN]
    for i in range(left):
        st[C._O_LIVE + i] = pool[p + i]
    st[C._O_HEAD] = 0
    st[C._O_TAIL] = left - 1
    # the turn
    st[C._O_PHASE] = ph
    st[C._O_CUR] = me
    st[C._O_TURN] = me
    st[C._O_ACTIONS] = nacts
    st[C._O_CHAIN] = v[V_CHAIN]
    st[C._O_FIRST] = v[V_FIRST]
    st[C._O_DACTED] = 1 if nacts > 0 else 0
    st[C._O_APUNG] = -1
    st[C._O_WON] = -1
    st[C._O_CL_DSEAT] = -1
    if ph == C.P_DISCARD:
        nm = st[C._O_NMELD + me]
        if nm > 0 and st[C._O_MELD + (me * 4 + nm - 1) * C.MELD_W] == C.M_PUNG:
            st[C._O_APUNG] = me
    elif ph == C.P_CLAIM:
        d = v[V_LD_SEAT]
        k = v[V_LD_KIND]
        st[C._O_TURN] = d
        nd = st[C._O_NDISC + d]
        if nd == 0:
            return 1
        st[C._O_CL_DISC] = d
        st[C._O_CL_TILE] = st[C._O_DISC + d * C.DISC_MAX + nd - 1]
        st[C._O_CL_KIND] = k
        oo = C._O_CL_OPT + me * C.OPT_MAX
        for i in range(nleg):
            st[oo + i] = legal[i]
        st[C._O_CL_NOPT + me] = nleg
        st[C._O_CL_Q] = me
        qn = 1
        behind = False
        for i in range(1, 4):
            s = (d + i) % 4
            if s == me:
                behind = True
            elif behind and C._claim_options(st, rules, tb, s, d, k):
                st[C._O_CL_Q + qn] = s
                qn += 1
        st[C._O_CL_QH] = 0
        st[C._O_CL_QN] = qn
        st[C._O_CL_BEST] = 0
    elif ph == C.P_ROB:
        ks = v[V_KG_SEAT]
        kk = v[V_KG_KIND]
        st[C._O_TURN] = ks
        st[C._O_PK_ACTIVE] = 1
        st[C._O_PK_SEAT] = ks
        st[C._O_PK_MTYPE] = v[V_KG_TYPE]
        st[C._O_PK_KIND] = kk
        for j in range(4):
            st[C._O_PK_IDS + j] = pk_ids[j]
        st[C._O_PK_TILE] = pk_ids[3]
        if pk_index >= 0:
            mo = C._O_MELD + (ks * 4 + pk_index) * C.MELD_W
            st[C._O_PK_ADDED] = 1
            st[C._O_PK_INDEX] = pk_index
            st[C._O_PK_CLAIMED] = st[mo + 2]
            st[C._O_PK_FROM] = st[mo + 3]
        else:
            st[C._O_PK_ADDED] = 0
            st[C._O_PK_INDEX] = -1
            st[C._O_PK_CLAIMED] = kk if v[V_KG_TYPE] == C.M_KONG else -1
            st[C._O_PK_FROM] = -1
        st[C._O_PK_Q] = me
        qn = 1
        behind = False
        for i in range(1, 4):
            s = (ks + i) % 4
            if s == me:
                behind = True
            elif behind and C._is_win(st, rules, tb, s, kk):
                st[C._O_PK_Q + qn] = s
                qn += 1
        st[C._O_PK_QH] = 0
        st[C._O_PK_QN] = qn
        st[C._O_PK_NROB] = 0
    return 0


# ---------------------------------------------------------------------------------------------- play-outs
@njit(cache=True)
def _playout(
    st: C.State, ev: C.Rows, rules: C.Rules, tb: C.Tables, policy: int, mts: C.Streams, bot_rules: C.Rules, buf: C.Codes
) -> int:
    """Play the world ``st`` to its end with the core bot ``policy`` at every seat; returns the
    number of decisions (a guard stops at 2,000)."""
    steps = 0
    while st[C._O_PHASE] != C.P_OVER and steps < 2000:
        n = C.legal(st, rules, tb, buf)
        seat = st[C._O_CUR]
        offered = False
        if st[C._O_PHASE] == C.P_ACT:
            for i in range(n):
                if buf[i] == C.A_WIN:
                    offered = True
        if n == 1:
            a = buf[0]
        elif policy == C.BOT_RANDOM:
            a = buf[C.mt_below(mts[seat], n)]
        else:
            a = C._greedy(st, tb, bot_rules, seat, buf, n, policy == C.BOT_UKEIRE)
        C.push(st, ev, rules, tb, a, offered)
        st[C._O_NEV] = 0  # the rows are not kept: the buffer is reused
        steps += 1
    return steps


@njit(cache=True)
def _view_jiuyao(v: View, seat: int) -> bool:
    for i in range(v[V_NMELD + seat]):
        o = V_MELD + (seat * 4 + i) * 4
        if v[o] == C.M_CHOW or not C._TH[v[o + 1]]:
            return False
    return True


@njit(cache=True)
def candidates(v: View, legal: C.Codes, n: int, tb: C.Tables, keep: int, out: npt.NDArray[np.int64]) -> int:
    """Mark in ``out[:n]`` (1/0) the options of ``legal[:n]`` worth playing out (module docstring).
    Returns how many."""
    ph = v[V_PHASE]
    for i in range(n):
        out[i] = 1
    if ph != C.P_ACT and ph != C.P_DISCARD:
        return n
    me = v[V_SEAT]
    bao = v[V_BAO]
    c = np.zeros(34, dtype=np.int8)
    for k in range(34):
        c[k] = v[V_HAND + k]
    m = 4 - v[V_NMELD + me]
    jy = _view_jiuyao(v, me)
    each = np.zeros(34, dtype=np.int64)
    K.discard_shanten(tb[0], tb[1], c, bao, m, jy, each)
    best = 999
    non_bao = False
    for i in range(n):
        a = legal[i]
        if a < 34 and a != bao:
            non_bao = True
            if each[a] < best:
                best = each[a]
    unseen = np.zeros(34, dtype=np.int64)
    for k in range(34):
        unseen[k] = 4 - c[k]
    unseen[v[V_IND]] -= 1
    for s in range(4):
        for i in range(v[V_NMELD + s]):
            o = V_MELD + (s * 4 + i) * 4
            if v[o] == C.M_CHOW:
                for j in range(3):
                    unseen[v[o + 1] + j] -= 1
            else:
                unseen[v[o + 1]] -= 3 if v[o] == C.M_PUNG else 4
        for i in range(v[V_NDISC + s]):
            unseen[v[V_DISC + s * C.DISC_MAX + i]] -= 1
    for k in range(34):
        if unseen[k] < 0:
            unseen[k] = 0
    # the discards of lowest shanten, ranked by 进张 (ties: the higher kind, as ukeire)
    score = np.full(34, -1, dtype=np.int64)
    for i in range(n):
        a = legal[i]
        if a < 34 and a != bao and each[a] == best:
            score[a] = K.useful_tiles(tb[0], tb[1], c, bao, m, jy, a, best, unseen)
    kept = np.zeros(34, dtype=np.int8)
    for _ in range(keep):
        bt = -1
        for t in range(34):
            if score[t] >= 0 and not kept[t] and (bt < 0 or score[t] >= score[bt]):
                bt = t
        if bt < 0:
            break
        kept[bt] = 1
    total = 0
    for i in range(n):
        a = legal[i]
        if a < 34:
            if a == bao:
                ok = (not non_bao) or each[a] <= best  # 飞宝 when it does not slow the hand
            else:
                ok = kept[a] == 1
            out[i] = 1 if ok else 0
        total += out[i]
    return total


@njit(cache=True)
def search(
    v: View,
    legal: C.Codes,
    n: int,
    rules: C.Rules,
    tb: C.Tables,
    bot_rules: C.Rules,
    word: int,
    params: Params,
    lr: npt.NDArray[np.float64],
    vals: npt.NDArray[np.float64],
    ses: npt.NDArray[np.float64],
) -> int:
    """Value the options ``legal[:n]`` of the seat of the view ``v`` by play-outs and return the best
    (module docstring).  ``word``: the decision's seed (a uint32, the bot's next MT19937 output);
    ``params``: :func:`default_params`; ``lr``: :func:`weights_for` (read only when ``P_CANDS`` > 0 or
    ``P_TILT`` > 0).
    ``vals[i]``, ``ses[i]``: option ``i``'s mean points delta and its standard error (NaN for an
    option not played out).  ``n == 1``: ``legal[0]`` at once.  The best mean is taken, except that
    a win offered is kept unless declining beats it clearly (``P_WIN_Z``, ``P_WIN_MARGIN``)."""
    for i in range(n):
        vals[i] = np.nan
        ses[i] = np.nan
    if n == 1:
        return legal[0]
    nw = params[P_WORLDS]
    policy = params[P_POLICY]
    cand = np.zeros(n, dtype=np.int64)
    if params[P_PRUNE]:
        nc = candidates(v, legal, n, tb, params[P_KEEP], cand)
    else:
        for i in range(n):
            cand[i] = 1
        nc = n
    if nc == 1:
        for i in range(n):
            if cand[i]:
                return legal[i]
    me = v[V_SEAT]
    mt = np.zeros(625, dtype=np.uint32)
    key = np.zeros(1, dtype=np.uint32)
    key[0] = word
    C.mt_seed(mt, key)
    world = np.zeros(C.STATE_SIZE, dtype=C.ST_DTYPE)
    st = np.zeros(C.STATE_SIZE, dtype=C.ST_DTYPE)
    ev = np.zeros((64, C.EV_WIDTH), dtype=C.ST_DTYPE)
    buf = np.zeros(48, dtype=np.int32)
    seeds = np.zeros(4, dtype=np.uint32)
    mts = np.zeros((4, 625), dtype=np.uint32)
    sums = np.zeros(n, dtype=np.float64)
    sq = np.zeros(n, dtype=np.float64)
    one = np.zeros(1, dtype=np.uint32)
    xs = np.zeros((nw, n), dtype=np.float64)
    # weighted worlds: M candidates dealt (their MT states kept), K picked by systematic resampling
    ncand = params[P_CANDS]
    picks = np.zeros(nw, dtype=np.int64)
    snaps = np.zeros((ncand if ncand > 0 else 1, 625), dtype=np.uint32)
    mtw = np.zeros(625, dtype=np.uint32)
    if ncand > 0:
        lw = np.zeros(ncand, dtype=np.float64)
        ok = 0
        for _ in range(ncand):
            snaps[ok] = mt
            if deal_world(v, legal, n, rules, tb, mt, world):
                break
            lw[ok] = B.world_log_weight(world, me, tb, lr)
            ok += 1
        if ok == 0:
            return legal[0]
        top = lw[0]
        for j in range(ok):
            top = max(top, lw[j])
        cum = np.zeros(ok, dtype=np.float64)
        tot = 0.0
        for j in range(ok):
            tot += np.exp(lw[j] - top)
            cum[j] = tot
        u = C.mt_next(mt) / 4294967296.0
        j = 0
        for k in range(nw):
            target = (u + k) / nw * tot
            while j < ok - 1 and cum[j] < target:
                j += 1
            picks[k] = j
    # tilted worlds (own turn only): a uniform world from the view, its opponents' model rows read once,
    # then each world deals the opponents again from that world's unseen tiles
    ntilt = params[P_TILT]
    tilt = ntilt > 0 and ncand <= 0 and (v[V_PHASE] == C.P_ACT or v[V_PHASE] == C.P_DISCARD)
    base = np.zeros(C.STATE_SIZE if tilt else 1, dtype=C.ST_DTYPE)
    lr3 = np.zeros((3, B.N_SH), dtype=np.float64)
    if tilt:
        if deal_world(v, legal, n, rules, tb, mt, base):
            return legal[0]  # an inconsistent view: greedy's choice
        B.opponent_log_ratios(base, me, lr, lr3)
    done = 0
    for wi in range(nw):
        if tilt:
            B.deal_world_tilted(base, me, tb, lr3, mt, world, ntilt)
            for s in range(4):
                seeds[s] = C.mt_next(mt)
        elif ncand > 0:
            mtw[:] = snaps[picks[wi]]
            deal_world(v, legal, n, rules, tb, mtw, world)
            for s in range(4):
                seeds[s] = C.mt_next(mtw)
        else:
            if deal_world(v, legal, n, rules, tb, mt, world):
                break
            for s in range(4):
                seeds[s] = C.mt_next(mt)
        for i in range(n):
            if not cand[i]:
                continue
            st[:] = world
            for s in range(4):  # the same play-out seeds for every option (only random play-outs use them)
                if policy == C.BOT_RANDOM:
                    one[0] = seeds[s]
                    C.mt_seed(mts[s], one)
            C.push(st, ev, rules, tb, legal[i], st[C._O_PHASE] == C.P_ACT and _offers_win(legal, n))
            st[C._O_NEV] = 0
            _playout(st, ev, rules, tb, policy, mts, bot_rules, buf)
            d = float(st[C._O_SCORES + me] - st[C._O_START + me])
            xs[wi, i] = d
            sums[i] += d
            sq[i] += d * d
        done += 1
    if done == 0:  # an inconsistent view: greedy's choice
        return legal[0]
    best = -1
    for i in range(n):
        if cand[i]:
            mu = sums[i] / done
            vals[i] = mu
            var = sq[i] / done - mu * mu
            ses[i] = np.sqrt(max(var, 0.0) / (done - 1)) if done > 1 else np.nan
            if best < 0 or mu > vals[best]:
                best = i
    # a win offered is declined only when declining beats it clearly (play-outs on uniform worlds
    # see opponents slower than they are, so a decline's edge is biased up)
    iw = -1
    for i in range(n):
        if cand[i] and legal[i] == C.A_WIN:
            iw = i
    if iw >= 0 and best != iw and done > 1:
        md = 0.0
        for w in range(done):
            md += xs[w, best] - xs[w, iw]
        md /= done
        vd = 0.0
        for w in range(done):
            e = xs[w, best] - xs[w, iw] - md
            vd += e * e
        sd = np.sqrt(vd / (done - 1) / done)
        if md <= params[P_WIN_Z] / 100.0 * sd + params[P_WIN_MARGIN] / 100.0:
            best = iw
    return legal[best]


@njit(cache=True)
def play_options(
    world: C.State,
    seat: int,
    legal: C.Codes,
    n: int,
    cand: npt.NDArray[np.int64],
    rules: C.Rules,
    tb: C.Tables,
    bot_rules: C.Rules,
    policy: int,
    seeds: npt.NDArray[np.uint32],
    out: npt.NDArray[np.float64],
) -> None:
    """What :func:`search` does on one of its worlds, for a world dealt by any sampler: each option
    ``legal[i]`` with ``cand[i]`` is pushed on a copy of ``world`` (a full core state, ``seat`` to act;
    left unchanged) and the hand is played to its end by the core bot ``policy`` at every seat
    (``seeds[s]``: seat ``s``'s MT19937 seed, read by random play-outs only, the same for every option);
    ``out[i]``: ``seat``'s points delta over the hand (bonuses included), NaN for an option not played.
    A world dealt from a real state (:mod:`shangrao.sim.belief`) may carry the hand's event count: the
    rows are not kept, so the count starts at 0 (as in :func:`deal_world`'s worlds).  The mean of
    ``out`` over :func:`search`'s own worlds is its ``vals`` (``tests/sim/test_search.py``); the
    decline-a-win measurement (``benchmarks/bench_decline_bias.py``) plays other samplers' worlds."""
    st = np.empty_like(world)
    ev = np.zeros((64, C.EV_WIDTH), dtype=C.ST_DTYPE)
    buf = np.zeros(48, dtype=np.int32)
    mts = np.zeros((4, 625), dtype=np.uint32)
    one = np.zeros(1, dtype=np.uint32)
    offered = world[C._O_PHASE] == C.P_ACT and _offers_win(legal, n)
    for i in range(n):
        out[i] = np.nan
        if not cand[i]:
            continue
        st[:] = world
        st[C._O_NEV] = 0
        if policy == C.BOT_RANDOM:
            for s in range(4):
                one[0] = seeds[s]
                C.mt_seed(mts[s], one)
        C.push(st, ev, rules, tb, legal[i], offered)
        st[C._O_NEV] = 0
        _playout(st, ev, rules, tb, policy, mts, bot_rules, buf)
        out[i] = float(st[C._O_SCORES + seat] - st[C._O_START + seat])


@njit(cache=True, inline="always")
def _offers_win(legal: C.Codes, n: int) -> bool:
    for i in range(n):  # noqa: SIM110 (numba compiles no generator)
        if legal[i] == C.A_WIN:
            return True
    return False


# ---------------------------------------------------------------------------------------------- native play
@njit(cache=True)
def play_to_end(
    st: C.State,
    ev: C.Rows,
    dec: C.Codes,
    rules: C.Rules,
    tb: C.Tables,
    bots: C.Codes,
    mts: C.Streams,
    script: C.Codes,
    nscript: int,
    bot_rules: C.Rules,
    params: Params,
    lr: npt.NDArray[np.float64],
) -> int:
    """:func:`shangrao.sim.core.play_to_end` with ``search`` seats (:data:`BOT_SEARCH`): such a seat
    builds its view of ``st`` (:func:`view_of`, never a hidden field), takes its next MT19937 word as
    the decision's seed and searches with ``params`` and ``lr`` (:func:`search`).  Other seats as in the core."""
    buf = np.zeros(48, dtype=np.int32)
    v = np.zeros(V_SIZE, dtype=np.int64)
    vals = np.zeros(48, dtype=np.float64)
    ses = np.zeros(48, dtype=np.float64)
    nd = st[C._O_NDEC]
    while st[C._O_PHASE] != C.P_OVER:
        n = C.legal(st, rules, tb, buf)
        seat = st[C._O_CUR]
        offered = False
        if st[C._O_PHASE] == C.P_ACT:
            for i in range(n):
                if buf[i] == C.A_WIN:
                    offered = True
        if nd < nscript:
            a = script[nd]
            ok = False
            for i in range(n):
                if buf[i] == a:
                    ok = True
            if not ok:
                st[C._O_NDEC] = nd
                return -1 - nd
        elif n == 1:
            a = buf[0]
        elif bots[seat] == C.BOT_EXTERNAL:
            break
        elif bots[seat] == BOT_SEARCH:
            view_of(st, seat, v)
            word = C.mt_next(mts[seat])
            a = search(v, buf, n, bot_rules, tb, bot_rules, word, params, lr, vals, ses)  # the view carries no rules
        elif bots[seat] == C.BOT_RANDOM:
            a = buf[C.mt_below(mts[seat], n)]
        else:
            a = C._greedy(st, tb, bot_rules, seat, buf, n, bots[seat] == C.BOT_UKEIRE)
        if nd >= dec.shape[0]:
            st[C._O_ERROR] = 3
            break
        dec[nd] = a
        nd += 1
        C.push(st, ev, rules, tb, a, offered)
    st[C._O_NDEC] = nd
    return nd


@njit(cache=True)
def play_matches(
    rules: C.Rules,
    tb: C.Tables,
    bots: C.Codes,
    bot_rules: C.Rules,
    bot_keys: npt.NDArray[np.uint32],
    bot_klen: npt.NDArray[np.int64],
    hand_keys: npt.NDArray[np.uint32],
    hand_klen: npt.NDArray[np.int64],
    limits: npt.NDArray[np.int64],
    rows_out: C.Rows,
    row_off: npt.NDArray[np.int64],
    dec_out: C.Codes,
    dec_off: npt.NDArray[np.int64],
    info: npt.NDArray[np.int64],
    win_out: npt.NDArray[np.int64],
    params: Params,
    lr: npt.NDArray[np.float64],
) -> int:
    """:func:`shangrao.sim.core.play_matches` with ``search`` seats (:func:`play_to_end`), same outputs."""
    st = np.zeros(C.STATE_SIZE, dtype=np.int64)
    ev = np.zeros((C.MAX_EVENTS, C.EV_WIDTH), dtype=np.int64)
    dec = np.zeros(C.MAX_DECISIONS, dtype=np.int32)
    mts = np.zeros((4, 625), dtype=np.uint32)
    scores = np.zeros(4, dtype=np.int64)
    no_wall = np.full(136, -1, dtype=np.int32)
    no_dice = np.zeros(2, dtype=np.int32)
    script = np.zeros(1, dtype=np.int32)
    h = 0
    row_off[0] = 0
    dec_off[0] = 0
    for m in range(limits.shape[0]):
        for s in range(4):
            C.mt_seed(mts[s], bot_keys[m, s, : bot_klen[m, s]])
        dealer = 0
        scores[:] = 0
        for n in range(limits[m]):
            out_of_range = False
            for i in range(4):
                if abs(scores[i]) > C.SCORE_LIMIT:
                    out_of_range = True
            if out_of_range:
                info[h, C.I_ERROR] = C.ERR_SCORE_RANGE
                row_off[h + 1] = row_off[h]
                dec_off[h + 1] = dec_off[h]
                h += 1
                break
            C.new_hand(st, ev, rules, tb, hand_keys[m, n, : hand_klen[m, n]], dealer, scores, n, no_wall, no_dice)
            nd = play_to_end(st, ev, dec, rules, tb, bots, mts, script, 0, bot_rules, params, lr)
            ne = st[C._O_NEV]
            r0 = row_off[h]
            d0 = dec_off[h]
            rows_out[r0 : r0 + ne] = ev[:ne]
            dec_out[d0 : d0 + nd] = dec[:nd]
            row_off[h + 1] = r0 + ne
            dec_off[h + 1] = d0 + nd
            info[h, C.I_DEALER] = dealer
            info[h, C.I_DRAWN] = st[C._O_DRAWN]
            info[h, C.I_NEXT_DEALER] = st[C._O_NEXT_DEALER]
            info[h, C.I_NWIN] = st[C._O_NWIN]
            for i in range(3):
                info[h, C.I_W0 + i] = st[C._O_WINNERS + i]
            for i in range(4):
                info[h, C.I_D0 + i] = st[C._O_SCORES + i] - st[C._O_START + i]
                info[h, C.I_S0 + i] = st[C._O_SCORES + i]
            info[h, C.I_NDEC] = nd
            info[h, C.I_ERROR] = st[C._O_ERROR]
            for i in range(st[C._O_NWIN]):
                for j in range(K.N_OUT):
                    win_out[h, i, j] = st[C._O_WINOUT + i * K.N_OUT + j]
            dealer = st[C._O_NEXT_DEALER]
            for i in range(4):
                scores[i] = st[C._O_SCORES + i]
            h += 1
    return h
