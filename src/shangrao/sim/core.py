"""The compiled game loop: whole Shangrao hands in numba, identical to :class:`shangrao.game.Game`.

The Python engine (:mod:`shangrao.game.state`) stays the reference; this module is a line-by-line
transcription of it into ``@njit(cache=True)`` functions over flat NumPy arrays, so that hands can
be played without a Python call per decision.  *Same deal (wall, dice) and the same decisions ⇒
the same events, results and deltas* (``tests/sim/test_identity.py`` compares them event by event).

State of one hand (``st``, int64 — :data:`ST_DTYPE` —, its fields declared once in :mod:`shangrao.sim.schema`,
whose offsets the ``_O_*`` names below are): the live wall (135 ids,
head/tail pointers), per seat the concealed tiles as counts and as a bit mask of the four copies of
each kind (tile id = 4·kind + copy; the engine removes the preferred id, else the lowest), the
declared melds (type, kind, claimed kind, from-seat, ids), the discards, 飞宝/宝 drawn/接宝/偷机
counters, the claim window (queue, per-seat options, the best declaration) and the rob window.

Actions are ints ``type * 34 + kind`` with the types in the order of
:class:`~shangrao.game.actions.ActionType` (discard 0 … catch_bao 8; win/pass/catch_bao carry
kind 0), so sorting codes sorts as ``Action.sort_key`` does.

Events are rows of :data:`EV_WIDTH` int64 (:func:`shangrao.sim.events.encode_events` gives the same
rows for a Python event log; :func:`shangrao.sim.events.to_events` gives the engine's typed events
for a core hand).

Randomness is CPython's: MT19937 seeded as ``random.Random(seed)`` seeds (``init_by_array`` of the
seed's key, a ``str`` seed through SHA-512 as ``random.seed`` version 2 does), ``shuffle`` and
``randint`` as CPython 3.11+ draw them (``_randbelow_with_getrandbits``), so the wall, the dice
and the ``random`` bot's choices are those of ``Game(seed=...)`` and ``RandomBot(seed)``.
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Sequence
from enum import Enum
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from ..bots import greedy as _greedy_bot
from ..game.actions import ActionType
from ..game.protocol import EventType
from ..rules import DEFAULT_RULES
from ..scoring.items import BONUS_NAMES
from . import kernels as K
from . import rules as R
from . import schema as S

#: the kernels' argument types (numba ignores annotations; these say what each array is)
State = npt.NDArray[np.int64]  #: one hand's state, int64[STATE_SIZE] (fields: shangrao.sim.schema)
Rows = npt.NDArray[np.int64]  #: event rows, int64[n, EV_WIDTH]
Rules = npt.NDArray[np.int32]  #: encoded rules, int32[N_RULES] (shangrao.sim.rules.encode_rules)
Tables = tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]  #: kernels.tables(): (suit, honor)
Codes = npt.NDArray[np.int32]  #: action codes (or seats, bots), int32[n]
Stream = npt.NDArray[np.uint32]  #: one MT19937 state, uint32[625]
Streams = npt.NDArray[np.uint32]  #: one per seat, uint32[4, 625]


def _enum_index(enum: type[Enum], member: str) -> int:
    """The index of ``enum[member]`` in its declaration order (the core's code for it)."""
    return list(enum).index(enum[member])


__all__ = [
    "ST_DTYPE",
    "SCORE_LIMIT",
    "EV_WIDTH",
    "MAX_EVENTS",
    "MAX_DECISIONS",
    "STATE_SIZE",
    "seed_key",
    "CORE_BOTS",
    "BOT_RULES",
    "TRANSFER_REASONS",
    "Setup",
    "MatchSeeds",
    "MatchOut",
    "play_matches",
]

# ---------------------------------------------------------------------------------------------- codes
# Every code below is derived from its Python home at import (the core's numbers are the engine's:
# the enums' declaration order), so none is typed twice; numba reads these module ints as constants.
# phases
P_ACT, P_DISCARD, P_CLAIM, P_ROB, P_OVER = 0, 1, 2, 3, 4
# action types (ActionType order)
(T_DISCARD, T_CHOW, T_PUNG, T_KONG, T_ADDED, T_CONCEALED, T_WIN, T_PASS, T_CATCH) = (
    _enum_index(ActionType, m)
    for m in ("DISCARD", "CHOW", "PUNG", "KONG", "ADDED_KONG", "CONCEALED_KONG", "WIN", "PASS", "CATCH_BAO")
)
A_WIN = T_WIN * 34
A_PASS = T_PASS * 34
A_CATCH = T_CATCH * 34
# meld types (MeldType order, as the kernels' MELD_*)
M_CHOW, M_PUNG, M_KONG, M_CONCEALED = K.MELD_CHOW, K.MELD_PUNG, K.MELD_KONG, K.MELD_CONCEALED_KONG
# event types (EventType order)
(
    E_DEAL,
    E_DRAW,
    E_DISCARD,
    E_CALL,
    E_PASS,
    E_CHOW,
    E_PUNG,
    E_KONG,
    E_CONCEALED_KONG,
    E_ADDED_KONG,
    E_KONG_STANDS,
    E_CATCH_BAO,
    E_FOUR_BAO,
    E_TRANSFER,
    E_DECLARE_WIN,
    E_WIN,
    E_END,
) = (
    _enum_index(EventType, m)
    for m in (
        "DEAL",
        "DRAW",
        "DISCARD",
        "CALL",
        "PASS",
        "CHOW",
        "PUNG",
        "KONG",
        "CONCEALED_KONG",
        "ADDED_KONG",
        "KONG_STANDS",
        "CATCH_BAO",
        "FOUR_BAO",
        "TRANSFER",
        "DECLARE_WIN",
        "WIN",
        "END",
    )
)
#: transfer reasons in their row code order (the ``reason`` of a transfer event, game/protocol.py: the
#: bonuses of ``scoring.items.BONUS_NAMES`` and the win; checked against them at import)
TRANSFER_REASONS: tuple[str, ...] = ("pung_kong", "concealed_kong", "four_bao", "caught_bao", "win")
if set(TRANSFER_REASONS) != {*BONUS_NAMES, "win"}:  # pragma: no cover (a new bonus needs a code here)
    raise ImportError(f"sim.core: TRANSFER_REASONS {TRANSFER_REASONS} is not BONUS_NAMES {tuple(BONUS_NAMES)} + win")
R_PUNG_KONG, R_CONCEALED_KONG, R_FOUR_BAO, R_CAUGHT_BAO, R_WIN = (
    TRANSFER_REASONS.index(r) for r in ("pung_kong", "concealed_kong", "four_bao", "caught_bao", "win")
)
# win_by (WinBy order, as the kernels' WIN_*)
W_SELF_DRAW, W_ROBBING_KONG, W_DEALER_FIRST_DISCARD = K.WIN_SELF_DRAW, K.WIN_ROBBING_KONG, K.WIN_DEALER_FIRST_DISCARD

EV_WIDTH = 10
#: the dtype of the hand state and of the event rows: amounts (transfers, deltas, scores, win
#: payments) are 64-bit, so no rule value or score the core accepts wraps (docs/performance.md
#: measured the cost against int32)
ST_DTYPE = S.ST_DTYPE
#: scores (before a hand, and after each hand of a match) must stay within ±SCORE_LIMIT: one hand moves
#: a seat by far less than 2**62 even with every rule value at its maximum, so int64 cannot wrap
SCORE_LIMIT = 2**62
MAX_EVENTS = 1024
MAX_DECISIONS = 1024

# rules array (shangrao.sim.rules.encode_rules)
RU_BASE = R.R_BASE_POINTS
RU_ROB_CONCEALED = R.R_ROB_CONCEALED_KONG
RU_ROB_EXPOSED = R.R_ROB_EXPOSED_KONG
RU_EARTHLY_WIN = R.R_EARTHLY_WIN
RU_PUNG_KONG_BONUS = R.R_PUNG_KONG_BONUS
RU_CONCEALED_KONG_BONUS = R.R_CONCEALED_KONG_BONUS
RU_FOUR_BAO_BONUS = R.R_FOUR_BAO_BONUS
RU_CAUGHT_BAO_BONUS = R.R_CAUGHT_BAO_BONUS
RU_KONG_AFTER_PUNG = R.R_KONG_AFTER_PUNG
RU_ADDED_DRAWN_ONLY = R.R_ADDED_KONG_DRAWN_ONLY
RU_JIUYAO_MELDS = R.R_JIUYAO_MELDS
RU_WIN_ON_BAO = R.R_WIN_ON_BAO_TILE

# ---------------------------------------------------------------------------------------------- state layout
# Every offset comes from the one declaration, :data:`shangrao.sim.schema.FIELDS` (``S.OFS.<field>``);
# these short private names are what the kernels below index with.
_O = S.OFS
_O_HEAD = _O.head
_O_TAIL = _O.tail
_O_PHASE = _O.phase
_O_CUR = _O.cur
_O_TURN = _O.turn
_O_DEALER = _O.dealer
_O_BAO = _O.bao
_O_IND = _O.indicator
_O_ACTIONS = _O.actions_taken
_O_CHAIN = _O.kong_chain
_O_FIRST = _O.first_discard
_O_DACTED = _O.dealer_acted
_O_APUNG = _O.after_pung
_O_WON = _O.won_tile
_O_NEV = _O.n_events
_O_NDEC = _O.n_decisions
_O_DRAWN = _O.drawn
_O_NWIN = _O.n_winners
_O_WINNERS = _O.winners
_O_NEXT_DEALER = _O.next_dealer
_O_HAND_NO = _O.hand_no
_O_ERROR = _O.error
# claim window
_O_CL_DISC = _O.cl_discarder
_O_CL_TILE = _O.cl_tile
_O_CL_KIND = _O.cl_kind
_O_CL_QH = _O.cl_queue_head
_O_CL_QN = _O.cl_queue_len
_O_CL_Q = _O.cl_queue
_O_CL_BEST = _O.cl_best
_O_CL_DSEAT = _O.cl_declared_seat
_O_CL_DACT = _O.cl_declared_action
_O_CL_NOPT = _O.cl_n_options
_O_CL_OPT = _O.cl_options
# rob window
_O_PK_SEAT = _O.pk_seat
_O_PK_MTYPE = _O.pk_meld_type
_O_PK_KIND = _O.pk_kind
_O_PK_CLAIMED = _O.pk_claimed
_O_PK_FROM = _O.pk_from
_O_PK_IDS = _O.pk_ids
_O_PK_TILE = _O.pk_tile
_O_PK_ADDED = _O.pk_added
_O_PK_INDEX = _O.pk_index
_O_PK_QH = _O.pk_queue_head
_O_PK_QN = _O.pk_queue_len
_O_PK_Q = _O.pk_queue
_O_PK_NROB = _O.pk_n_robbers
_O_PK_ROB = _O.pk_robbers
_O_PK_ACTIVE = _O.pk_active
# per seat
_O_FLOWN = _O.flown
_O_BAODRAWN = _O.bao_drawn
_O_CAUGHT = _O.caught
_O_TOUJI = _O.touji
_O_LASTDRAW = _O.last_draw
_O_SCORES = _O.scores
_O_START = _O.start
_O_NMELD = _O.n_melds
_O_NDISC = _O.n_discards
_O_COUNTS = _O.counts
_O_MASK = _O.mask
_O_MELD = _O.melds
_O_DISC = _O.discards
_O_LIVE = _O.live
_O_WALL = _O.wall
_O_DICE = _O.dice
_O_WINOUT = _O.win_out
_O_CODES = _O.codes
STATE_SIZE = S.STATE_SIZE

MELD_W = S.MELD_W
DISC_MAX = S.DISC_MAX
OPT_MAX = S.OPT_MAX

_TH = np.zeros(34, dtype=np.int8)
for _k in (0, 8, 9, 17, 18, 26, *range(27, 34)):
    _TH[_k] = 1


def _bao_table() -> np.ndarray:
    from ..tiles import bao_from_indicator

    return np.array([bao_from_indicator(k) for k in range(34)], dtype=np.int32)


_BAO_OF = _bao_table()


# ---------------------------------------------------------------------------------------------- MT19937
def seed_key(seed: int | str | None) -> np.ndarray:
    """The ``init_by_array`` key CPython's ``random.seed(seed)`` uses (uint32 words, lowest first).

    ``None`` is read as 0 (as ``Game`` does); a ``str`` goes through SHA-512 (``random.seed``
    version 2); an int by its absolute value.  Other types raise ``TypeError``."""
    if seed is None:
        return np.zeros(1, dtype=np.uint32)
    if isinstance(seed, str):
        b = seed.encode()
        raw = b + hashlib.sha512(b).digest()  # the big-endian bytes of the key's integer
        raw = bytes((-len(raw)) % 4) + raw
        words = np.frombuffer(raw[::-1], dtype="<u4")  # lowest word first, without a Python loop a word
        top = len(words)
        while top > 1 and words[top - 1] == 0:
            top -= 1
        return words[:top].copy()
    if isinstance(seed, int) and not isinstance(seed, bool):
        a = abs(seed)
        out = []
        while a:
            out.append(a & 0xFFFFFFFF)
            a >>= 32
        return np.array(out or [0], dtype=np.uint32)
    raise TypeError(f"a seed is an int, a str or None, got {seed!r}")


def seed_keys(seeds: Sequence[int | str | None]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`seed_key` of each seed, as the compiled loops take them: uint32 ``[N, W]`` (zero-padded
    rows) and their lengths int64 ``[N]``."""
    ks = [seed_key(s) for s in seeds]
    width = max((len(k) for k in ks), default=1)
    out = np.zeros((len(ks), width), dtype=np.uint32)
    lens = np.zeros(len(ks), dtype=np.int64)
    for i, k in enumerate(ks):
        out[i, : len(k)] = k
        lens[i] = len(k)
    return out, lens


@njit(cache=True)
def mt_seed(mt: Stream, key: npt.NDArray[np.uint32]) -> None:
    """CPython's ``init_by_array``: ``mt`` is uint32[625] (624 words, then the index)."""
    mt[0] = 19650218
    for i in range(1, 624):
        prev = np.uint64(mt[i - 1])
        mt[i] = np.uint32(
            (np.uint64(1812433253) * (prev ^ (prev >> np.uint64(30))) + np.uint64(i)) & np.uint64(0xFFFFFFFF)
        )
    i = 1
    j = 0
    klen = key.shape[0]
    k = 624 if klen < 624 else klen
    while k > 0:
        prev = np.uint64(mt[i - 1])
        v = np.uint64(mt[i]) ^ (((prev ^ (prev >> np.uint64(30))) * np.uint64(1664525)) & np.uint64(0xFFFFFFFF))
        v = (v + np.uint64(key[j]) + np.uint64(j)) & np.uint64(0xFFFFFFFF)
        mt[i] = np.uint32(v)
        i += 1
        j += 1
        if i >= 624:
            mt[0] = mt[623]
            i = 1
        if j >= klen:
            j = 0
        k -= 1
    k = 623
    while k > 0:
        prev = np.uint64(mt[i - 1])
        v = np.uint64(mt[i]) ^ (((prev ^ (prev >> np.uint64(30))) * np.uint64(1566083941)) & np.uint64(0xFFFFFFFF))
        v = (v - np.uint64(i)) & np.uint64(0xFFFFFFFF)
        mt[i] = np.uint32(v)
        i += 1
        if i >= 624:
            mt[0] = mt[623]
            i = 1
        k -= 1
    mt[0] = np.uint32(0x80000000)
    mt[624] = 624


@njit(cache=True, inline="always")
def mt_next(mt: Stream) -> int:
    """One ``genrand_uint32`` (as an int64) from the state ``mt``."""
    if mt[624] >= 624:
        for kk in range(624):
            y = (np.uint64(mt[kk]) & np.uint64(0x80000000)) | (np.uint64(mt[(kk + 1) % 624]) & np.uint64(0x7FFFFFFF))
            v = np.uint64(mt[(kk + 397) % 624]) ^ (y >> np.uint64(1))
            if y & np.uint64(1):
                v ^= np.uint64(0x9908B0DF)
            mt[kk] = np.uint32(v)
        mt[624] = 0
    y = np.uint64(mt[mt[624]])
    mt[624] += 1
    y ^= y >> np.uint64(11)
    y ^= (y << np.uint64(7)) & np.uint64(0x9D2C5680)
    y ^= (y << np.uint64(15)) & np.uint64(0xEFC60000)
    y ^= y >> np.uint64(18)
    return np.int64(y & np.uint64(0xFFFFFFFF))  # type: ignore[return-value]  # (an int64 in numba)


@njit(cache=True, inline="always")
def mt_below(mt: Stream, n: int) -> int:
    """``random.Random._randbelow(n)`` for 1 <= n < 2**32 (``_randbelow_with_getrandbits``)."""
    k = 0
    x = n
    while x:
        k += 1
        x >>= 1
    r = mt_next(mt) >> (32 - k)
    while r >= n:
        r = mt_next(mt) >> (32 - k)
    return r


# ---------------------------------------------------------------------------------------------- state helpers
@njit(cache=True, inline="always")
def _emit(st: State, ev: Rows, t: int, a: int, b: int, c: int, d: int, e: int, f: int, g: int, h: int, i: int) -> None:
    """Write one event row (type ``t``, fields ``a``..``i``) to ``ev``; a full buffer sets the error 2."""
    n = st[_O_NEV]
    st[_O_NEV] = n + 1
    if n >= ev.shape[0]:
        st[_O_ERROR] = 2  # the event buffer is full (no hand comes near it)
        return
    ev[n, 0] = t
    ev[n, 1] = a
    ev[n, 2] = b
    ev[n, 3] = c
    ev[n, 4] = d
    ev[n, 5] = e
    ev[n, 6] = f
    ev[n, 7] = g
    ev[n, 8] = h
    ev[n, 9] = i


_POW5 = np.array([5**i for i in range(9)], dtype=np.int32)


@njit(cache=True, inline="always")
def _key_add(st: State, seat: int, k: int, n: int) -> None:
    """The incremental hand key (``HandKey.add``): ``n`` tiles of kind ``k`` in (negative: out)."""
    o = _O_CODES + seat * 5
    if k == st[_O_BAO]:
        st[o + 4] += n
    else:
        st[o + k // 9] += n * _POW5[k % 9]


@njit(cache=True, inline="always")
def _add(st: State, seat: int, tid: int) -> None:
    """Put tile ``tid`` into the seat's concealed hand (counts, mask, hand codes)."""
    k = tid >> 2
    st[_O_COUNTS + seat * 34 + k] += 1
    st[_O_MASK + seat * 34 + k] |= 1 << (tid & 3)
    _key_add(st, seat, k, 1)


@njit(cache=True, inline="always")
def _remove(st: State, seat: int, k: int, prefer: int) -> int:
    """Take a tile of kind ``k`` out of the hand: ``prefer`` if held, else the lowest id."""
    mi = _O_MASK + seat * 34 + k
    mask = st[mi]
    if prefer >= 0 and (prefer >> 2) == k and (mask >> (prefer & 3)) & 1:
        tid = prefer
    else:
        j = 0
        while not (mask >> j) & 1:
            j += 1
        tid = 4 * k + j
    st[mi] = mask & ~(1 << (tid & 3))
    st[_O_COUNTS + seat * 34 + k] -= 1
    _key_add(st, seat, k, -1)
    return tid


@njit(cache=True, inline="always")
def _tiles_left(st: State) -> int:
    """Tiles left in the live wall."""
    return st[_O_TAIL] - st[_O_HEAD] + 1


@njit(cache=True, inline="always")
def _jiuyao_ok(st: State, rules: Rules, seat: int) -> bool:
    """Whether 九幺 may be read for the seat (the rule ``jiuyao_melds`` and its declared melds)."""
    n = st[_O_NMELD + seat]
    if not rules[RU_JIUYAO_MELDS]:
        return n == 0
    for i in range(n):
        o = _O_MELD + (seat * 4 + i) * MELD_W
        if st[o] == M_CHOW or not _TH[st[o + 1]]:
            return False
    return True


@njit(cache=True, inline="always")
def _is_win(st: State, rules: Rules, tb: Tables, seat: int, extra: int) -> bool:
    """``Game._is_win``: the seat's concealed hand (plus the kind ``extra`` when >= 0) wins."""
    bao = st[_O_BAO]
    o = _O_CODES + seat * 5
    c0 = st[o]
    c1 = st[o + 1]
    c2 = st[o + 2]
    c3 = st[o + 3]
    w = st[o + 4]
    if extra >= 0:
        if extra == bao:
            w += 1
        elif extra < 9:
            c0 += K.POW5[extra]
        elif extra < 18:
            c1 += K.POW5[extra - 9]
        elif extra < 27:
            c2 += K.POW5[extra - 18]
        else:
            c3 += K.POW5[extra - 27]
    return K.is_win_codes(tb[0], tb[1], c0, c1, c2, c3, w, 4 - st[_O_NMELD + seat], _jiuyao_ok(st, rules, seat))


@njit(cache=True, inline="always")
def _transfer(st: State, ev: Rows, payer: int, payee: int, points: int, reason: int, pattern: int) -> None:
    """Move ``points`` from ``payer`` to ``payee`` and log the transfer (nothing for points <= 0)."""
    if points <= 0:
        return
    st[_O_SCORES + payer] -= points
    st[_O_SCORES + payee] += points
    _emit(st, ev, E_TRANSFER, payer, payee, points, reason, 0, 0, 0, 0, 0)


@njit(cache=True)
def _bonus_all(st: State, ev: Rows, seat: int, points: int, reason: int) -> None:
    """Each other seat pays ``seat`` a bonus of ``points`` (``reason``: an ``R_*`` code)."""
    for i in range(1, 4):
        _transfer(st, ev, (seat + i) % 4, seat, points, reason, -1)


@njit(cache=True)
def _four_bao(st: State, ev: Rows, rules: Rules, tb: Tables, seat: int) -> None:
    """四个宝: log it and pay its bonus."""
    _emit(st, ev, E_FOUR_BAO, seat, 0, 0, 0, 0, 0, 0, 0, 0)
    _bonus_all(st, ev, seat, rules[RU_FOUR_BAO_BONUS], R_FOUR_BAO)


@njit(cache=True, inline="always")
def _draw(st: State, ev: Rows, rules: Rules, tb: Tables, seat: int, from_tail: bool) -> None:
    """``seat`` draws from the head (or the tail, a kong's replacement) and is to act."""
    if from_tail:
        tid = st[_O_LIVE + st[_O_TAIL]]
        st[_O_TAIL] -= 1
    else:
        tid = st[_O_LIVE + st[_O_HEAD]]
        st[_O_HEAD] += 1
        st[_O_CHAIN] = 0
    _add(st, seat, tid)
    st[_O_LASTDRAW + seat] = tid
    _emit(st, ev, E_DRAW, seat, tid, 1 if from_tail else 0, 0, 0, 0, 0, 0, 0)
    if tid >> 2 == st[_O_BAO]:
        st[_O_BAODRAWN + seat] += 1
        if st[_O_BAODRAWN + seat] == 4:
            _four_bao(st, ev, rules, tb, seat)
    st[_O_TURN] = seat
    st[_O_CUR] = seat
    st[_O_PHASE] = P_ACT
    st[_O_FIRST] = 0


# ---------------------------------------------------------------------------------------------- new hand
@njit(cache=True)
def new_hand(
    st: State,
    ev: Rows,
    rules: Rules,
    tb: Tables,
    key: npt.NDArray[np.uint32],
    dealer: int,
    scores: npt.NDArray[np.int64],
    hand_no: int,
    wall_in: Codes,
    dice_in: Codes,
) -> None:
    """Set up a hand in ``st`` (zeroed here): the wall shuffled and the dice rolled from ``key`` (the
    hand seed's :func:`seed_key`) as ``Game.__init__`` does — or ``wall_in``/``dice_in`` when
    ``wall_in[0] >= 0`` (a scripted wall of 136 ids) — then the deal and the dealer's first draw."""
    st[:] = 0
    mt = np.zeros(625, dtype=np.uint32)
    mt_seed(mt, key)
    o = _O_WALL
    if wall_in[0] >= 0:
        for i in range(136):
            st[o + i] = wall_in[i]
        d1 = dice_in[0]
        d2 = dice_in[1]
    else:
        for i in range(136):
            st[o + i] = i
        for i in range(135, 0, -1):
            j = mt_below(mt, i + 1)
            x = st[o + i]
            st[o + i] = st[o + j]
            st[o + j] = x
        d1 = 1 + mt_below(mt, 6)
        d2 = 1 + mt_below(mt, 6)
    st[_O_DICE] = d1
    st[_O_DICE + 1] = d2
    pos = 136 - d1 - d2
    st[_O_IND] = st[o + pos]
    j = 0
    for i in range(136):
        if i != pos:
            st[_O_LIVE + j] = st[o + i]
            j += 1
    st[_O_BAO] = _BAO_OF[st[_O_IND] >> 2]
    st[_O_HEAD] = 0
    st[_O_TAIL] = 134
    st[_O_DEALER] = dealer
    st[_O_HAND_NO] = hand_no
    for s in range(4):
        st[_O_SCORES + s] = scores[s]
        st[_O_START + s] = scores[s]
        st[_O_LASTDRAW + s] = -1
    st[_O_APUNG] = -1
    st[_O_WON] = -1
    st[_O_CL_DSEAT] = -1
    st[_O_PHASE] = P_ACT
    st[_O_TURN] = dealer
    st[_O_CUR] = dealer
    for i in range(4):
        seat = (dealer + i) % 4
        for t in range(13):
            _add(st, seat, st[_O_LIVE + st[_O_HEAD] + t])
        st[_O_HEAD] += 13
    _emit(st, ev, E_DEAL, dealer, st[_O_IND], d1, d2, hand_no, 0, 0, 0, 0)
    bao = st[_O_BAO]
    for seat in range(4):
        n = st[_O_COUNTS + seat * 34 + bao]
        st[_O_BAODRAWN + seat] = n
        if n == 4:
            _four_bao(st, ev, rules, tb, seat)
    _draw(st, ev, rules, tb, dealer, False)


# ---------------------------------------------------------------------------------------------- legal actions
@njit(cache=True, inline="always")
def _sort_small(buf: npt.NDArray[np.integer], n: int) -> None:
    """Insertion-sort ``buf[:n]`` in place (a handful of codes)."""
    for i in range(1, n):
        x = buf[i]
        j = i - 1
        while j >= 0 and buf[j] > x:
            buf[j + 1] = buf[j]
            j -= 1
        buf[j + 1] = x


@njit(cache=True)
def legal(st: State, rules: Rules, tb: Tables, buf: Codes) -> int:
    """Write the current seat's legal actions (codes, in ``Game.legal_actions`` order) into ``buf``
    (length >= 48); return how many (0 when the hand is over)."""
    ph = st[_O_PHASE]
    if ph == P_OVER:
        return 0
    seat = st[_O_CUR]
    co = _O_COUNTS + seat * 34
    n = 0
    if ph == P_ACT:
        if _is_win(st, rules, tb, seat, -1):
            buf[n] = A_WIN
            n += 1
        if st[_O_TAIL] >= st[_O_HEAD]:
            for k in range(34):
                if st[co + k] == 4:
                    buf[n] = T_CONCEALED * 34 + k
                    n += 1
            drawn = st[_O_LASTDRAW + seat]
            for i in range(st[_O_NMELD + seat]):
                mo = _O_MELD + (seat * 4 + i) * MELD_W
                k = st[mo + 1]
                if (
                    st[mo] == M_PUNG
                    and st[co + k]
                    and (not rules[RU_ADDED_DRAWN_ONLY] or (drawn >= 0 and drawn >> 2 == k))
                ):
                    buf[n] = T_ADDED * 34 + k
                    n += 1
            if n > 1:
                _sort_small(buf, n)
        for k in range(34):
            if st[co + k]:
                buf[n] = k
                n += 1
        return n
    if ph == P_DISCARD:
        if st[_O_APUNG] == seat and rules[RU_KONG_AFTER_PUNG] and st[_O_TAIL] >= st[_O_HEAD]:
            for k in range(34):
                if st[co + k] == 4:
                    buf[n] = T_CONCEALED * 34 + k
                    n += 1
            for i in range(st[_O_NMELD + seat]):
                mo = _O_MELD + (seat * 4 + i) * MELD_W
                k = st[mo + 1]
                if st[mo] == M_PUNG and st[co + k]:
                    buf[n] = T_ADDED * 34 + k
                    n += 1
            _sort_small(buf, n)
        for k in range(34):
            if st[co + k]:
                buf[n] = k
                n += 1
        return n
    if ph == P_CLAIM:
        oo = _O_CL_OPT + seat * OPT_MAX
        n = st[_O_CL_NOPT + seat]
        for i in range(n):
            buf[i] = st[oo + i]
        return n
    buf[0] = A_WIN
    buf[1] = A_PASS
    return 2


@njit(cache=True, inline="always")
def _prio(a: int) -> int:
    """A claim's priority: win 3, pung/kong 2, chow 1, else 0."""
    t = a // 34
    if t == T_WIN:
        return 3
    if t in (T_KONG, T_PUNG):
        return 2
    if t == T_CHOW:
        return 1
    return 0


@njit(cache=True, inline="always")
def _claim_options(st: State, rules: Rules, tb: Tables, seat: int, discarder: int, k: int) -> int:
    """The claim options of ``seat`` on the discard of kind ``k``, written into its option slot."""
    co = _O_COUNTS + seat * 34
    oo = _O_CL_OPT + seat * OPT_MAX
    c = st[co + k]
    first = st[_O_FIRST]
    bao = st[_O_BAO]
    nxt = (discarder + 1) % 4
    st[_O_CL_NOPT + seat] = 0
    if c < 2 and not first and k != bao and (k >= 27 or seat != nxt):
        return 0
    n = 0
    if (
        first
        and rules[RU_EARTHLY_WIN]
        and seat != st[_O_DEALER]
        and discarder == st[_O_DEALER]
        and (k != bao or rules[RU_WIN_ON_BAO])
        and _is_win(st, rules, tb, seat, k)
    ):
        st[oo + n] = A_WIN
        n += 1
    if c >= 2:
        st[oo + n] = T_PUNG * 34 + k
        n += 1
        if c >= 3 and _tiles_left(st) > 0:
            st[oo + n] = T_KONG * 34 + k
            n += 1
    if k < 27 and seat == nxt:
        r = k % 9
        if r >= 2 and st[co + k - 2] and st[co + k - 1]:
            st[oo + n] = T_CHOW * 34 + k - 2
            n += 1
        if 1 <= r <= 7 and st[co + k - 1] and st[co + k + 1]:
            st[oo + n] = T_CHOW * 34 + k - 1
            n += 1
        if r <= 6 and st[co + k + 1] and st[co + k + 2]:
            st[oo + n] = T_CHOW * 34 + k
            n += 1
    if k == bao and st[_O_BAODRAWN + seat] >= 3 and not st[_O_CAUGHT + seat]:
        st[oo + n] = A_CATCH
        n += 1
    if n:
        if n > 1:
            _sort_small(st[oo : oo + n], n)
        st[oo + n] = A_PASS
        n += 1
    st[_O_CL_NOPT + seat] = n
    return n


# ---------------------------------------------------------------------------------------------- the end
@njit(cache=True)
def _end(st: State, ev: Rows, drawn: int, next_dealer: int) -> None:
    """End the hand (drawn or not), name the next dealer and log the end with the deltas."""
    st[_O_DRAWN] = drawn
    st[_O_NEXT_DEALER] = next_dealer
    st[_O_PHASE] = P_OVER
    st[_O_CUR] = -1
    w = 0
    for i in range(st[_O_NWIN]):
        w = w * 5 + st[_O_WINNERS + i] + 1
    s = _O_SCORES
    s0 = _O_START
    _emit(
        st,
        ev,
        E_END,
        drawn,
        next_dealer,
        w,
        st[s] - st[s0],
        st[s + 1] - st[s0 + 1],
        st[s + 2] - st[s0 + 2],
        st[s + 3] - st[s0 + 3],
        0,
        0,
    )


@njit(cache=True)
def _finish_wins(
    st: State,
    ev: Rows,
    rules: Rules,
    tb: Tables,
    winners: Codes,
    nw: int,
    k: int,
    win_by: int,
    source: int,
    heavenly: int,
) -> None:
    """``Game._finish_wins``: score each winner (:func:`shangrao.sim.kernels.score_win`), log the win
    and its transfers, end the hand."""
    hand = np.zeros(34, dtype=np.int8)
    mtype = np.zeros(4, dtype=np.int8)
    mkind = np.zeros(4, dtype=np.int8)
    pflown = np.zeros(3, dtype=np.int64)
    out = np.zeros(K.N_OUT, dtype=np.int64)
    bao = st[_O_BAO]
    for wi in range(nw):
        w = winners[wi]
        for kk in range(34):
            hand[kk] = st[_O_COUNTS + w * 34 + kk]
        nm = st[_O_NMELD + w]
        for i in range(nm):
            mo = _O_MELD + (w * 4 + i) * MELD_W
            mtype[i] = st[mo]
            mkind[i] = st[mo + 1]
        robbed = -1
        for i in range(3):
            p = (w + 1 + i) % 4
            pflown[i] = st[_O_FLOWN + p]
            if p == source:
                robbed = i
        sit = K.Situation(
            hand,
            k,
            bao,
            mtype,
            mkind,
            nm,
            win_by,
            heavenly != 0,
            st[_O_CHAIN] if win_by == W_SELF_DRAW else 0,
            st[_O_FLOWN + w],
            pflown,
            st[_O_BAODRAWN + w] > 0 or k == bao,
            st[_O_BAODRAWN + w] == 4,
            st[_O_CAUGHT + w] != 0,
            robbed if win_by == W_ROBBING_KONG else -1,
            st[_O_TOUJI + w],
        )
        ok = K.score_win(tb, sit, rules, out)
        if not ok:
            st[_O_ERROR] = 1  # analysis says win, scoring says no win (EngineError in the engine)
        for j in range(K.N_OUT):
            st[_O_WINOUT + wi * K.N_OUT + j] = out[j]
        _emit(
            st,
            ev,
            E_WIN,
            w,
            win_by,
            st[_O_WON],
            source,
            out[K.O_PATTERN],
            out[K.O_HAND_VALUE],
            out[K.O_WIN],
            out[K.O_WIN + 1],
            out[K.O_WIN + 2],
        )
        for i in range(3):
            _transfer(st, ev, (w + 1 + i) % 4, w, out[K.O_WIN + i], R_WIN, 0)
        st[_O_WINNERS + wi] = w
    st[_O_NWIN] = nw
    # int64 (numba types np.int64 as an int), as the other call passes it: one compile of _end
    _end(st, ev, 0, np.int64(winners[0]))  # type: ignore[arg-type]


@njit(cache=True)
def _finish_drawn(st: State, ev: Rows) -> None:
    """End the hand drawn (荒牌): the dealer passes to the next seat."""
    st[_O_NWIN] = 0
    _end(st, ev, 1, (st[_O_DEALER] + 1) % 4)


# ---------------------------------------------------------------------------------------------- claims
@njit(cache=True)
def _advance_claim(st: State, ev: Rows, rules: Rules, tb: Tables) -> None:
    """Ask the next seat in the claim queue that still has a better option, or resolve the claim."""
    best = st[_O_CL_BEST]
    while st[_O_CL_QH] < st[_O_CL_QN]:
        s = st[_O_CL_Q + st[_O_CL_QH]]
        oo = _O_CL_OPT + s * OPT_MAX
        n = st[_O_CL_NOPT + s]
        m = 0
        for i in range(n):
            a = st[oo + i]
            if _prio(a) > best or a in (A_CATCH, A_PASS):
                st[oo + m] = a
                m += 1
        if m > 1:
            st[_O_CL_NOPT + s] = m
            break
        st[_O_CL_NOPT + s] = m
        st[_O_CL_QH] += 1
    if st[_O_CL_QH] < st[_O_CL_QN]:
        st[_O_CUR] = st[_O_CL_Q + st[_O_CL_QH]]
        st[_O_PHASE] = P_CLAIM
        return
    _resolve_claim(st, ev, rules, tb)


@njit(cache=True, inline="always")
def _push_meld(
    st: State, seat: int, mtype: int, k: int, claimed: int, frm: int, ids: npt.NDArray[np.integer], nids: int
) -> None:
    """Append a declared meld (type, kind, claimed kind, from-seat, ``nids`` ids) to the seat's melds."""
    i = st[_O_NMELD + seat]
    mo = _O_MELD + (seat * 4 + i) * MELD_W
    st[mo] = mtype
    st[mo + 1] = k
    st[mo + 2] = claimed
    st[mo + 3] = frm
    for j in range(4):
        st[mo + 4 + j] = ids[j] if j < nids else -1
    st[_O_NMELD + seat] = i + 1


@njit(cache=True, inline="always")
def _mark_claimed(st: State, discarder: int) -> None:
    """Mark the discarder's last discard as claimed (stored as ``-1 - id``)."""
    o = _O_DISC + discarder * DISC_MAX + st[_O_NDISC + discarder] - 1
    st[o] = -1 - st[o]


@njit(cache=True)
def _resolve_claim(st: State, ev: Rows, rules: Rules, tb: Tables) -> None:
    """Carry out the best declaration on the discard (win, chow, pung, kong), or let the next seat draw."""
    discarder = st[_O_CL_DISC]
    tid = st[_O_CL_TILE]
    k = st[_O_CL_KIND]
    seat = st[_O_CL_DSEAT]
    st[_O_CL_DSEAT] = -1
    if seat >= 0:
        action = st[_O_CL_DACT]
        t = action // 34
        _mark_claimed(st, discarder)
        if t == T_WIN:
            st[_O_WON] = tid
            ws = np.zeros(3, dtype=np.int32)
            ws[0] = seat
            _finish_wins(st, ev, rules, tb, ws, 1, k, W_DEALER_FIRST_DISCARD, discarder, 0)
            return
        st[_O_FIRST] = 0
        ids = np.zeros(4, dtype=np.int32)
        if t == T_CHOW:
            low = action - T_CHOW * 34
            n = 0
            for x in range(low, low + 3):
                if x != k:
                    ids[n] = _remove(st, seat, x, -1)
                    n += 1
            ids[n] = tid
            _push_meld(st, seat, M_CHOW, low, k, discarder, ids, 3)
            mtype = M_CHOW
            mk = low
        elif t == T_PUNG:
            ids[0] = _remove(st, seat, k, -1)
            ids[1] = _remove(st, seat, k, -1)
            ids[2] = tid
            _push_meld(st, seat, M_PUNG, k, k, discarder, ids, 3)
            mtype = M_PUNG
            mk = k
        else:
            for j in range(3):
                ids[j] = _remove(st, seat, k, -1)
            ids[3] = tid
            _emit(st, ev, E_KONG, seat, discarder, M_KONG, k, 0, ids[0], ids[1], ids[2], ids[3])
            st[_O_TURN] = seat
            st[_O_CHAIN] = 0
            _kong_window(st, ev, rules, tb, seat, M_KONG, k, k, discarder, ids, tid, 0, -1)
            return
        _emit(st, ev, E_CHOW if t == T_CHOW else E_PUNG, seat, discarder, mtype, mk, 0, ids[0], ids[1], ids[2], -1)
        st[_O_TURN] = seat
        st[_O_CUR] = seat
        st[_O_CHAIN] = 0
        st[_O_PHASE] = P_DISCARD
        st[_O_APUNG] = seat if t == T_PUNG else -1
        return
    st[_O_FIRST] = 0
    if _tiles_left(st) == 0:
        _finish_drawn(st, ev)
        return
    _draw(st, ev, rules, tb, (discarder + 1) % 4, False)


@njit(cache=True)
def _do_discard(st: State, ev: Rows, rules: Rules, tb: Tables, seat: int, k: int) -> None:
    """``seat`` discards a tile of kind ``k``; open the claim window, or the next seat draws."""
    st[_O_APUNG] = -1
    tid = _remove(st, seat, k, st[_O_LASTDRAW + seat])
    st[_O_LASTDRAW + seat] = -1
    nd = st[_O_NDISC + seat]
    st[_O_DISC + seat * DISC_MAX + nd] = tid
    st[_O_NDISC + seat] = nd + 1
    dealer = st[_O_DEALER]
    first = 1 if (seat == dealer and not st[_O_DACTED]) else 0
    if seat == dealer:
        st[_O_DACTED] = 1
    if k == st[_O_BAO]:
        st[_O_FLOWN + seat] += 1
    _emit(st, ev, E_DISCARD, seat, tid, 0, 0, 0, 0, 0, 0, 0)
    st[_O_CHAIN] = 0
    st[_O_FIRST] = first
    qn = 0
    for i in range(1, 4):
        s = (seat + i) % 4
        if _claim_options(st, rules, tb, s, seat, k):
            st[_O_CL_Q + qn] = s
            qn += 1
    if qn == 0:
        st[_O_FIRST] = 0
        if st[_O_TAIL] < st[_O_HEAD]:
            _finish_drawn(st, ev)
        else:
            _draw(st, ev, rules, tb, (seat + 1) % 4, False)
        return
    st[_O_CL_DISC] = seat
    st[_O_CL_TILE] = tid
    st[_O_CL_KIND] = k
    st[_O_CL_QH] = 0
    st[_O_CL_QN] = qn
    st[_O_CL_BEST] = 0
    st[_O_CL_DSEAT] = -1
    st[_O_PHASE] = P_CLAIM
    _advance_claim(st, ev, rules, tb)


@njit(cache=True)
def _claim_decision(st: State, ev: Rows, rules: Rules, tb: Tables, seat: int, action: int) -> None:
    """A claiming seat's answer (declare, catch the 宝, or pass); on to the next seat."""
    if action == A_PASS:
        _emit(st, ev, E_PASS, seat, action, 0, 0, 0, 0, 0, 0, 0)
    else:
        _emit(st, ev, E_CALL, seat, action, 0, 0, 0, 0, 0, 0, 0)
    if action == A_CATCH:
        st[_O_CAUGHT + seat] = 1
        _emit(st, ev, E_CATCH_BAO, seat, st[_O_CL_TILE], 0, 0, 0, 0, 0, 0, 0)
        _bonus_all(st, ev, seat, rules[RU_CAUGHT_BAO_BONUS], R_CAUGHT_BAO)
        oo = _O_CL_OPT + seat * OPT_MAX
        n = st[_O_CL_NOPT + seat]
        m = 0
        for i in range(n):
            if st[oo + i] != A_CATCH:
                st[oo + m] = st[oo + i]
                m += 1
        st[_O_CL_NOPT + seat] = m
        _advance_claim(st, ev, rules, tb)
        return
    st[_O_CL_QH] += 1
    if action != A_PASS:
        p = _prio(action)
        if p > st[_O_CL_BEST]:
            st[_O_CL_BEST] = p
            st[_O_CL_DSEAT] = seat
            st[_O_CL_DACT] = action
    _advance_claim(st, ev, rules, tb)


# ---------------------------------------------------------------------------------------------- kongs
@njit(cache=True)
def _declare_kong(
    st: State, ev: Rows, rules: Rules, tb: Tables, seat: int, k: int, concealed: bool, action: int
) -> None:
    """``seat`` declares a concealed or an added kong of kind ``k``: open the rob window."""
    if not concealed and seat == st[_O_DEALER]:
        st[_O_DACTED] = 1
    st[_O_APUNG] = -1
    _emit(st, ev, E_CONCEALED_KONG if concealed else E_ADDED_KONG, seat, k, action, 0, 0, 0, 0, 0, 0)
    ids = np.zeros(4, dtype=np.int32)
    if concealed:
        for j in range(4):
            ids[j] = _remove(st, seat, k, -1)
        # the tile id as int64, as the other calls pass it: one compile of _kong_window
        _kong_window(st, ev, rules, tb, seat, M_CONCEALED, k, -1, -1, ids, np.int64(ids[3]), 0, -1)  # type: ignore[arg-type]
    else:
        tid = _remove(st, seat, k, st[_O_LASTDRAW + seat])
        idx = 0
        for i in range(st[_O_NMELD + seat]):
            mo = _O_MELD + (seat * 4 + i) * MELD_W
            if st[mo] == M_PUNG and st[mo + 1] == k:
                idx = i
                break
        mo = _O_MELD + (seat * 4 + idx) * MELD_W
        for j in range(3):
            ids[j] = st[mo + 4 + j]
        ids[3] = tid
        _kong_window(st, ev, rules, tb, seat, M_KONG, k, st[mo + 2], st[mo + 3], ids, tid, 1, idx)


@njit(cache=True)
def _kong_window(
    st: State,
    ev: Rows,
    rules: Rules,
    tb: Tables,
    seat: int,
    mtype: int,
    k: int,
    claimed: int,
    frm: int,
    ids: npt.NDArray[np.integer],
    robbed_tile: int,
    added: int,
    index: int,
) -> None:
    """Open the rob window on a kong (the seats that may rob it in turn), or let it stand."""
    concealed = mtype == M_CONCEALED
    if added:
        robbable = True
    elif concealed:
        robbable = rules[RU_ROB_CONCEALED] != 0
    else:
        robbable = rules[RU_ROB_EXPOSED] != 0
    st[_O_PK_ACTIVE] = 1
    st[_O_PK_SEAT] = seat
    st[_O_PK_MTYPE] = mtype
    st[_O_PK_KIND] = k
    st[_O_PK_CLAIMED] = claimed
    st[_O_PK_FROM] = frm
    for j in range(4):
        st[_O_PK_IDS + j] = ids[j]
    st[_O_PK_TILE] = robbed_tile
    st[_O_PK_ADDED] = added
    st[_O_PK_INDEX] = index
    st[_O_PK_QH] = 0
    st[_O_PK_QN] = 0
    st[_O_PK_NROB] = 0
    if robbable and (k != st[_O_BAO] or rules[RU_WIN_ON_BAO]):
        for i in range(1, 4):
            s = (seat + i) % 4
            if _is_win(st, rules, tb, s, k):
                st[_O_PK_Q + st[_O_PK_QN]] = s
                st[_O_PK_QN] += 1
    _advance_rob(st, ev, rules, tb)


@njit(cache=True)
def _advance_rob(st: State, ev: Rows, rules: Rules, tb: Tables) -> None:
    """Ask the next seat that may rob the kong, or carry out the robbing win, or let the kong stand."""
    if st[_O_PK_QH] < st[_O_PK_QN]:
        st[_O_PHASE] = P_ROB
        st[_O_CUR] = st[_O_PK_Q + st[_O_PK_QH]]
        return
    st[_O_PK_ACTIVE] = 0
    seat = st[_O_PK_SEAT]
    mtype = st[_O_PK_MTYPE]
    k = st[_O_PK_KIND]
    if st[_O_PK_NROB]:
        tid = st[_O_PK_TILE]
        if not st[_O_PK_ADDED]:
            for j in range(4):
                x = st[_O_PK_IDS + j]
                if x != tid:
                    _add(st, seat, x)
        st[_O_WON] = tid
        ws = np.zeros(3, dtype=np.int32)
        for i in range(st[_O_PK_NROB]):
            ws[i] = st[_O_PK_ROB + i]
        _finish_wins(st, ev, rules, tb, ws, st[_O_PK_NROB], k, W_ROBBING_KONG, seat, 0)
        return
    if st[_O_PK_ADDED]:
        mo = _O_MELD + (seat * 4 + st[_O_PK_INDEX]) * MELD_W
        st[mo] = M_KONG
        st[mo + 7] = st[_O_PK_IDS + 3]
    else:
        ids = st[_O_PK_IDS : _O_PK_IDS + 4]
        _push_meld(st, seat, mtype, k, st[_O_PK_CLAIMED], st[_O_PK_FROM], ids, 4)
    p = _O_PK_IDS
    _emit(
        st,
        ev,
        E_KONG_STANDS,
        seat,
        0,
        M_KONG if mtype == M_KONG else M_CONCEALED,
        k,
        0,
        st[p],
        st[p + 1],
        st[p + 2],
        st[p + 3],
    )
    if mtype == M_CONCEALED:
        _bonus_all(st, ev, seat, rules[RU_CONCEALED_KONG_BONUS], R_CONCEALED_KONG)
    else:
        _bonus_all(st, ev, seat, rules[RU_PUNG_KONG_BONUS], R_PUNG_KONG)
    _draw(st, ev, rules, tb, seat, True)
    st[_O_CHAIN] += 1


@njit(cache=True)
def _rob_decision(st: State, ev: Rows, rules: Rules, tb: Tables, seat: int, action: int) -> None:
    """A seat's answer in the rob window (win or pass); on to the next."""
    if action == A_WIN:
        _emit(st, ev, E_CALL, seat, action, 0, 0, 0, 0, 0, 0, 0)
    else:
        _emit(st, ev, E_PASS, seat, action, 0, 0, 0, 0, 0, 0, 0)
    st[_O_PK_QH] += 1
    if action == A_WIN:
        st[_O_PK_ROB + st[_O_PK_NROB]] = seat
        st[_O_PK_NROB] += 1
    _advance_rob(st, ev, rules, tb)


# ---------------------------------------------------------------------------------------------- apply
@njit(cache=True)
def _count_touji(st: State, tb: Tables, seat: int) -> None:
    """Count a 偷机 of ``seat``: a self-drawn win offered and not taken."""
    drawn = st[_O_LASTDRAW + seat]
    bao = st[_O_BAO]
    co = _O_COUNTS + seat * 34
    if drawn < 0 or not st[co + bao]:
        return
    before = np.zeros(34, dtype=np.int8)  # int8, as _greedy_touji's: one compile of is_baodiao_state
    for kk in range(34):
        before[kk] = st[co + kk]
    before[drawn >> 2] -= 1
    if K.is_baodiao_state(tb[0], tb[1], before, bao):
        st[_O_TOUJI + seat] += 1


@njit(cache=True, inline="always")
def push(st: State, ev: Rows, rules: Rules, tb: Tables, action: int, offered_win: bool) -> None:
    """Apply ``action`` (a legal code) for the current seat, as ``Game.push`` does.  ``offered_win``:
    WIN was among the legal actions (the 偷机 count needs it)."""
    seat = st[_O_CUR]
    st[_O_ACTIONS] += 1
    t = action // 34
    k = action - t * 34
    ph = st[_O_PHASE]
    if t != T_WIN and ph == P_ACT and offered_win:
        _count_touji(st, tb, seat)
    if ph in (P_ACT, P_DISCARD):
        if t == T_DISCARD:
            _do_discard(st, ev, rules, tb, seat, k)
        elif t == T_WIN:
            tid = st[_O_LASTDRAW + seat]
            kk = tid >> 2
            heavenly = 1 if (seat == st[_O_DEALER] and st[_O_ACTIONS] == 1) else 0
            _emit(st, ev, E_DECLARE_WIN, seat, 0, 0, 0, 0, 0, 0, 0, 0)
            _remove(st, seat, kk, tid)
            st[_O_WON] = tid
            ws = np.zeros(3, dtype=np.int32)
            ws[0] = seat
            _finish_wins(st, ev, rules, tb, ws, 1, kk, W_SELF_DRAW, -1, heavenly)
        elif t == T_CONCEALED:
            _declare_kong(st, ev, rules, tb, seat, k, True, action)
        else:
            _declare_kong(st, ev, rules, tb, seat, k, False, action)
    elif ph == P_CLAIM:
        _claim_decision(st, ev, rules, tb, seat, action)
    else:
        _rob_decision(st, ev, rules, tb, seat, action)


# ---------------------------------------------------------------------------------------------- policies
BOT_RANDOM, BOT_GREEDY, BOT_UKEIRE, BOT_EXTERNAL = 0, 1, 2, 3
#: the bots the core plays itself: name -> its code in the core
CORE_BOTS = {"random": BOT_RANDOM, "greedy": BOT_GREEDY, "ukeire": BOT_UKEIRE, "external": BOT_EXTERNAL}
#: the rules the core's greedy bots score their 偷机 choices with (``GreedyBot`` scores under the default rules)
BOT_RULES = R.encode_rules(DEFAULT_RULES)


_P_BAODIAO = K.P_BAODIAO
_P_PPH_BAODIAO = K.P_PPH_BAODIAO
#: GreedyBot's defaults (touji_min_wall, survival), read from its signature (their one home)
_GREEDY_DEFAULTS = inspect.signature(_greedy_bot.GreedyBot.__init__).parameters
GREEDY_TOUJI_MIN_WALL: int = _GREEDY_DEFAULTS["touji_min_wall"].default
GREEDY_SURVIVAL: float = _GREEDY_DEFAULTS["survival"].default


@njit(cache=True)
def _unseen(st: State, seat: int, out: npt.NDArray[np.int64]) -> None:
    """``Observation.unseen()`` of ``seat``: 4 less the copies in its sight (its hand, every meld and
    discard still in front of a seat, the indicator), at least 0."""
    for k in range(34):
        out[k] = st[_O_COUNTS + seat * 34 + k]
    for s in range(4):
        for i in range(st[_O_NMELD + s]):
            mo = _O_MELD + (s * 4 + i) * MELD_W
            t = st[mo]
            k = st[mo + 1]
            if t == M_CHOW:
                out[k] += 1
                out[k + 1] += 1
                out[k + 2] += 1
            elif t == M_PUNG:
                out[k] += 3
            else:
                out[k] += 4
        for i in range(st[_O_NDISC + s]):
            tid = st[_O_DISC + s * DISC_MAX + i]
            if tid >= 0:
                out[tid >> 2] += 1
    out[st[_O_IND] >> 2] += 1
    for k in range(34):
        out[k] = 4 - out[k] if out[k] < 4 else 0


@njit(cache=True)
def _bot_jiuyao_ok(st: State, seat: int) -> bool:
    """The bots' reading of 九幺: every declared meld of 1/9/honor pungs or kongs (whatever the rule)."""
    # the bot's _Hand: every declared meld of terminals and honors (whatever the rule jiuyao_melds says)
    for i in range(st[_O_NMELD + seat]):
        mo = _O_MELD + (seat * 4 + i) * MELD_W
        if st[mo] == M_CHOW or not _TH[st[mo + 1]]:
            return False
    return True


@njit(cache=True)
def _greedy_touji(st: State, tb: Tables, bot_rules: Rules, seat: int, work: npt.NDArray[np.int64]) -> bool:
    """``GreedyBot._touji``: decline this self-drawn win (偷机) for the expected value of drawing on."""
    drawn_id = st[_O_LASTDRAW + seat]
    if drawn_id < 0:
        return False
    drawn = drawn_id >> 2
    bao = st[_O_BAO]
    if _tiles_left(st) < GREEDY_TOUJI_MIN_WALL or drawn == bao:
        return False
    before = np.zeros(34, dtype=np.int8)
    co = _O_COUNTS + seat * 34
    for k in range(34):
        before[k] = st[co + k]
    before[drawn] -= 1
    if not K.is_baodiao_state(tb[0], tb[1], before, bao):
        return False
    nm = st[_O_NMELD + seat]
    mtype = np.zeros(4, dtype=np.int8)
    mkind = np.zeros(4, dtype=np.int8)
    in_melds = 0
    for i in range(nm):
        mo = _O_MELD + (seat * 4 + i) * MELD_W
        mtype[i] = st[mo]
        mkind[i] = st[mo + 1]
        t = st[mo]
        k = st[mo + 1]
        if t == M_CHOW:
            if k <= bao <= k + 2:
                in_melds += 1
        elif k == bao:
            in_melds += 3 if t == M_PUNG else 4
    pflown = np.zeros(3, dtype=np.int64)
    anyp = False
    for i in range(3):
        pflown[i] = st[_O_FLOWN + (seat + 1 + i) % 4]
        if pflown[i]:
            anyp = True
    base_drawn = before[bao] + in_melds + st[_O_FLOWN + seat]
    out = np.zeros(K.N_OUT, dtype=np.int64)
    fw = st[_O_FLOWN + seat]
    # value(drawn)
    four = (base_drawn + (1 if drawn == bao else 0)) == 4 and not anyp
    K.score_win(
        tb,
        K.Situation(before, drawn, bao, mtype, mkind, nm, W_SELF_DRAW, False, 0, fw, pflown, True, four, False, -1, 0),
        bot_rules,
        out,
    )
    pid = out[K.O_PATTERN]
    now = out[K.O_HAND_VALUE]
    if pid != _P_BAODIAO and pid != _P_PPH_BAODIAO:
        return False
    unseen = work
    _unseen(st, seat, unseen)
    total = 0
    for k in range(34):
        total += unseen[k]
    if total == 0:
        return False
    ev = 0.0
    for k in range(34):
        if unseen[k]:
            four = (base_drawn + (1 if k == bao else 0)) == 4 and not anyp
            K.score_win(
                tb,
                K.Situation(
                    before, k, bao, mtype, mkind, nm, W_SELF_DRAW, False, 0, fw, pflown, True, four, False, -1, 0
                ),
                bot_rules,
                out,
            )
            ev += unseen[k] / total * out[K.O_HAND_VALUE]
    return GREEDY_SURVIVAL * ev > now


#: ``bots/greedy.py``'s ``_connectivity`` (its one source) compiled: how many tiles of the hand work with a kind
_connectivity: Any = njit(cache=True)(_greedy_bot._connectivity)  # (typed for lists there; arrays here)


@njit(cache=True)
def _greedy(st: State, tb: Tables, bot_rules: Rules, seat: int, buf: Codes, n: int, ukeire: bool) -> int:
    """``GreedyBot.choose`` (``ukeire``: ``GreedyBot(ukeire=True)``) on the state, from what the seat's
    observation shows."""
    ph = st[_O_PHASE]
    has_win = False
    has_catch = False
    for i in range(n):
        if buf[i] == A_WIN:
            has_win = True
        elif buf[i] == A_CATCH:
            has_catch = True
    if ph == P_ROB:
        return A_WIN if has_win else A_PASS
    bao = st[_O_BAO]
    co = _O_COUNTS + seat * 34
    c = np.zeros(34, dtype=np.int8)
    for k in range(34):
        c[k] = st[co + k]
    m = 4 - st[_O_NMELD + seat]
    jy = _bot_jiuyao_ok(st, seat)
    work = np.zeros(34, dtype=np.int64)
    if ph == P_CLAIM:
        if has_win:
            return A_WIN
        if has_catch:
            return A_CATCH
        k = st[_O_CL_KIND]
        now = K.shanten(tb[0], tb[1], c, bao, m, jy)
        best_s = 999
        best_r = 999
        best_a = -1
        for i in range(n):
            a = buf[i]
            t = a // 34
            if t in (T_PUNG, T_KONG):
                if k == bao:
                    continue
                nn = 2 if t == T_PUNG else 3
                c[k] -= nn
                s = K.shanten(tb[0], tb[1], c, bao, m - 1, jy and _TH[k] == 1)
                c[k] += nn
                rank = 1 if t == T_PUNG else 0
            elif t == T_CHOW:
                low = a - T_CHOW * 34
                skip = False
                for x in range(low, low + 3):
                    if x != k and x == bao:
                        skip = True
                if skip:
                    continue
                for x in range(low, low + 3):
                    if x != k:
                        c[x] -= 1
                s = K.shanten(tb[0], tb[1], c, bao, m - 1, False)
                for x in range(low, low + 3):
                    if x != k:
                        c[x] += 1
                rank = 2
            else:
                continue
            if s <= now and (best_a < 0 or s < best_s or (s == best_s and rank < best_r)):
                best_s = s
                best_r = rank
                best_a = a
        return best_a if best_a >= 0 else A_PASS
    if has_win:
        if not _greedy_touji(st, tb, bot_rules, seat, work):
            return A_WIN
        return st[_O_LASTDRAW + seat] >> 2  # discard the drawn tile
    # kongs
    now = K.shanten(tb[0], tb[1], c, bao, m, jy)
    for i in range(n):
        a = buf[i]
        t = a // 34
        k = a - t * 34
        if t == T_CONCEALED and k != bao:
            c[k] -= 4
            s = K.shanten(tb[0], tb[1], c, bao, m - 1, jy and _TH[k] == 1)
            c[k] += 4
            if s <= now:
                return a
        elif t == T_ADDED and k != bao:
            c[k] -= 1
            s = K.shanten(tb[0], tb[1], c, bao, m, jy)
            c[k] += 1
            if s <= now:
                return a
    # discard
    non_bao = False
    for i in range(n):
        if buf[i] < 34 and buf[i] != bao:
            non_bao = True
    best = 999
    sh = np.full(34, 999, dtype=np.int64)
    each = np.zeros(34, dtype=np.int64)
    K.discard_shanten(tb[0], tb[1], c, bao, m, jy, each)  # = shanten(remove=(t,)) for every held t
    for i in range(n):
        t = buf[i]
        if t >= 34 or (non_bao and t == bao):
            continue
        sh[t] = each[t]
        if sh[t] < best:
            best = sh[t]
    ntied = 0
    last = -1
    for t in range(34):
        if sh[t] == best:
            ntied += 1
            last = t
    if ntied == 1:
        return last
    if ukeire:
        _unseen(st, seat, work)
        best_u = -1
        best_t = -1
        for t in range(34):
            if sh[t] == best:
                u = K.useful_tiles(tb[0], tb[1], c, bao, m, jy, t, best, work)
                if u > best_u or (u == best_u and t > best_t):
                    best_u = u
                    best_t = t
        return best_t
    best_key0 = 1 << 30
    best_key1 = 2
    best_t = -1
    for t in range(34):
        if sh[t] == best:
            c[t] -= 1
            conn = _connectivity(c, t)
            c[t] += 1
            k1 = 0 if _TH[t] else 1
            # smallest (conn, k1, -t)
            if conn < best_key0 or (conn == best_key0 and (k1 < best_key1 or (k1 == best_key1 and t > best_t))):
                best_key0 = conn
                best_key1 = k1
                best_t = t
    return best_t


@njit(cache=True, inline="always")
def _choose(
    st: State, rules: Rules, tb: Tables, bots: Codes, mts: Streams, seat: int, buf: Codes, n: int, bot_rules: Rules
) -> int:
    """The core bot of ``seat`` picks one of the ``n`` legal codes in ``buf``."""
    b = bots[seat]
    if b == BOT_RANDOM:
        return buf[mt_below(mts[seat], n)]
    return _greedy(st, tb, bot_rules, seat, buf, n, b == BOT_UKEIRE)


@njit(cache=True, inline="always")
def play_to_end(
    st: State,
    ev: Rows,
    dec: Codes,
    rules: Rules,
    tb: Tables,
    bots: Codes,
    mts: Streams,
    script: Codes,
    nscript: int,
    bot_rules: Rules,
) -> int:
    """Play the hand in ``st`` to its end: decision ``i`` is ``script[i]`` while ``i < nscript``, then
    the core bot ``bots[seat]`` (rng ``mts[seat]``, uint32[4, 625]) decides; a seat with a single
    legal action takes it without asking its bot (as ``play_hand`` does).  ``bot_rules``: the rules
    the greedy bots score with (``GreedyBot`` calls ``score(situation)``: the default rules).  Every decision's code goes
    to ``dec``.  Stops before a decision of an ``external`` seat with more than one legal action
    (the hand is then not over).  Returns the number of decisions, or ``-1 - i`` when ``script[i]`` is not legal (the
    state is then as before that decision)."""
    buf = np.zeros(48, dtype=np.int32)
    nd = st[_O_NDEC]
    while st[_O_PHASE] != P_OVER:
        n = legal(st, rules, tb, buf)
        seat = st[_O_CUR]
        offered = False
        if st[_O_PHASE] == P_ACT:
            for i in range(n):
                if buf[i] == A_WIN:
                    offered = True
        if nd < nscript:
            a = script[nd]
            ok = False
            for i in range(n):
                if buf[i] == a:
                    ok = True
            if not ok:
                st[_O_NDEC] = nd
                return -1 - nd
        elif n == 1:
            a = buf[0]
        elif bots[seat] == BOT_EXTERNAL:
            break
        elif (
            bots[seat] == BOT_RANDOM
        ):  # here, not through _choose: a call passing six arrays costs their reference counts
            a = buf[mt_below(mts[seat], n)]
        else:
            a = _choose(st, rules, tb, bots, mts, seat, buf, n, bot_rules)
        if nd >= dec.shape[0]:
            st[_O_ERROR] = 3  # the decision buffer is full (no hand comes near it)
            break
        dec[nd] = a
        nd += 1
        push(st, ev, rules, tb, a, offered)
    st[_O_NDEC] = nd
    return nd


# ---------------------------------------------------------------------------------------------- many matches
#: per-hand info columns of :func:`play_matches`
(
    I_DEALER,
    I_DRAWN,
    I_NEXT_DEALER,
    I_NWIN,
    I_W0,
    I_W1,
    I_W2,
    I_D0,
    I_D1,
    I_D2,
    I_D3,
    I_S0,
    I_S1,
    I_S2,
    I_S3,
    I_NDEC,
    I_ERROR,
) = range(17)
N_INFO = 17
#: ``I_ERROR`` of a hand not played: a seat's score before it is beyond ±:data:`SCORE_LIMIT` (it could wrap in int64)
ERR_SCORE_RANGE = 4


class Setup(NamedTuple):
    """What every game or match plays with: the encoded rules (int32[N_RULES]), the analysis tables
    (``kernels.tables()``), each seat's core bot code (int32[4]) and the rules the greedy bots score
    with (:data:`BOT_RULES`).  :func:`play_matches` and ``vector``'s batched kernels take it."""

    rules: Rules
    tb: Tables
    bots: Codes
    bot_rules: Rules


class MatchSeeds(NamedTuple):
    """The seeds of M matches for :func:`play_matches` (:func:`seed_key` arrays, zero-padded): match
    ``m``'s seat ``s`` bot is seeded from ``bot_keys[m, s, :bot_klen[m, s]]``, its hand ``n`` shuffled
    from ``hand_keys[m, n, :hand_klen[m, n]]``, and it stops after ``limits[m]`` hands."""

    bot_keys: npt.NDArray[np.uint32]  #: [M, 4, key length]
    bot_klen: npt.NDArray[np.int64]  #: [M, 4]
    hand_keys: npt.NDArray[np.uint32]  #: [M, hands per match, key length]
    hand_klen: npt.NDArray[np.int64]  #: [M, hands per match]
    limits: npt.NDArray[np.int64]  #: [M] hands to play


class MatchOut(NamedTuple):
    """What :func:`play_matches` writes, hand ``h`` being the h-th hand played (matches in order, their
    hands in order): its event rows ``rows[row_off[h]:row_off[h + 1]]``, its decisions
    ``dec[dec_off[h]:dec_off[h + 1]]``, its result ``info[h]`` (``I_*`` columns) and each win's
    :func:`kernels.score_win` output ``win_out[h, winner index]``.  All int64 but ``dec``."""

    rows: Rows  #: [total rows, EV_WIDTH]
    row_off: npt.NDArray[np.int64]  #: [hands + 1]
    dec: Codes  #: [total decisions]
    dec_off: npt.NDArray[np.int64]  #: [hands + 1]
    info: npt.NDArray[np.int64]  #: [hands, N_INFO]
    win_out: npt.NDArray[np.int64]  #: [hands, 3, kernels.N_OUT]


@njit(cache=True)
def play_matches(cfg: Setup, seeds: MatchSeeds, out: MatchOut) -> int:
    """Play matches, each to ``seeds.limits[m]`` hands (dealer and scores carried over: ``Match``),
    with the core bots ``cfg.bots`` and the hands seeded as :class:`MatchSeeds` says; write each hand
    played into ``out`` (:class:`MatchOut`).  ``out.info[h, I_ERROR]`` is :data:`ERR_SCORE_RANGE` for
    a hand whose scores before it are beyond ±:data:`SCORE_LIMIT`: it is not played and its match
    stops there.  Returns the number of hands played (fewer when an output buffer is full: the
    caller plays the rest in another call)."""
    rules = cfg.rules
    tb = cfg.tb
    bots = cfg.bots
    bot_rules = cfg.bot_rules
    limits = seeds.limits
    row_off = out.row_off
    dec_off = out.dec_off
    info = out.info
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    ev = np.zeros((MAX_EVENTS, EV_WIDTH), dtype=np.int64)
    dec = np.zeros(MAX_DECISIONS, dtype=np.int32)
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
            mt_seed(mts[s], seeds.bot_keys[m, s, : seeds.bot_klen[m, s]])
        dealer = 0
        scores[:] = 0
        for n in range(limits[m]):
            out_of_range = False
            for i in range(4):
                if abs(scores[i]) > SCORE_LIMIT:
                    out_of_range = True
            if out_of_range:  # the next hand could wrap: not played (the caller raises)
                info[h, I_ERROR] = ERR_SCORE_RANGE
                row_off[h + 1] = row_off[h]
                dec_off[h + 1] = dec_off[h]
                h += 1
                break
            new_hand(
                st, ev, rules, tb, seeds.hand_keys[m, n, : seeds.hand_klen[m, n]], dealer, scores, n, no_wall, no_dice
            )
            nd = play_to_end(st, ev, dec, rules, tb, bots, mts, script, 0, bot_rules)
            ne = st[_O_NEV]
            r0 = row_off[h]
            d0 = dec_off[h]
            # element loops, not ``out.rows[r0 : r0 + ne] = ev[:ne]``: a slice assignment compiles numba's
            # shape-mismatch message (its string formatting: a few CPU-s of the first compile)
            for r in range(ne):
                for j in range(EV_WIDTH):
                    out.rows[r0 + r, j] = ev[r, j]
            for r in range(nd):
                out.dec[d0 + r] = dec[r]
            row_off[h + 1] = r0 + ne
            dec_off[h + 1] = d0 + nd
            info[h, I_DEALER] = dealer
            info[h, I_DRAWN] = st[_O_DRAWN]
            info[h, I_NEXT_DEALER] = st[_O_NEXT_DEALER]
            info[h, I_NWIN] = st[_O_NWIN]
            for i in range(3):
                info[h, I_W0 + i] = st[_O_WINNERS + i]
            for i in range(4):
                info[h, I_D0 + i] = st[_O_SCORES + i] - st[_O_START + i]
                info[h, I_S0 + i] = st[_O_SCORES + i]
            info[h, I_NDEC] = nd
            info[h, I_ERROR] = st[_O_ERROR]

            for i in range(st[_O_NWIN]):
                for j in range(K.N_OUT):
                    out.win_out[h, i, j] = st[_O_WINOUT + i * K.N_OUT + j]
            dealer = st[_O_NEXT_DEALER]
            for i in range(4):
                scores[i] = st[_O_SCORES + i]
            h += 1
    return h
