"""The compiled kernels of hand analysis and scoring, for the batched core (issue 23).

Every kernel is a numba ``@njit(cache=True)`` function on plain ints and numpy arrays — no Python
object crosses into them — so the compiled game loop (:mod:`shangrao.sim.core`) calls them without
leaving machine code.  They answer exactly as the Python reference does:

* the tables: :func:`tables` → ``(suit_table, honor_table)``, ``int8`` arrays indexed by a suit's
  base-5 code (``sum(count[r] * 5**r)``, as :func:`shangrao.analysis.tables.suit_code`), one row
  of :data:`N_FIELDS` fields per code (``F_*`` below: the fields of
  :func:`shangrao.analysis.tables.entry`).  Built by :func:`build_tables` (compiled, cached on
  disk by numba) the first time they are asked for in a process, in about 0.3 s (43 MB), and kept;
* :func:`is_win` / :func:`is_win_codes` = ``HandKey(...).is_win`` = :func:`shangrao.analysis.is_winning`
  (糊牌的规定 2: standard, 七对, 十三浪, 九幺; 宝 as wildcards);
* :func:`shanten` / :func:`shanten_codes` = ``HandKey(...).shanten`` (the tables' copy-blind shanten
  across forms, which the engine and the bots use; :func:`shangrao.analysis.shanten` differs only
  for a hand ready on a fifth copy, issue 22);
* :func:`discard_shanten`, :func:`useful_tiles`: the ``greedy`` / ``ukeire`` bots' discard arithmetic;
* :func:`is_baodiao_state` = :func:`shangrao.analysis.is_baodiao_state` (宝吊, D5);
* :func:`score_win`: :func:`shangrao.scoring.score` as the engine calls it from ``Game._finish_wins``:
  the pattern, the hand value and what each payer pays (计分方法, 注 1-2, 奖励分; D1-D9).

Conventions (every kernel): ``counts34`` is ``int8[34]`` (or any integer array) of the concealed
hand *including* its 宝 tiles; ``bao`` is the 宝 kind 0..33 or ``-1`` for none; ``m`` is the number of
melds still to make (``4 - declared melds``); ``jiuyao_ok`` says whether 九幺 may be read (the engine:
every declared meld of terminals and honors, or no meld when the rule ``jiuyao_melds`` is off).
The kernels check nothing (they are the hot path): the caller passes hands the engine can hold.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from ..analysis import tables as _T
from ..melds import MeldType
from ..scoring.items import PATTERNS
from ..scoring.situation import WinBy
from .rules import (
    R_BAODIAO_BAO_NEEDS_TOUJI,
    R_BASE_POINTS,
    R_CAUGHT_BAO_BONUS,
    R_CONCEALED_KONG_BONUS,
    R_EARTHLY_POINTS,
    R_FOUR_BAO_BONUS,
    R_HEAVENLY_POINTS,
    R_JIUYAO_MELDS,
    R_PUNG_KONG_BONUS,
    R_ROBBING_KONG_FACTOR,
)

__all__ = [
    "N_FIELDS",
    "F_NEED0",
    "F_NEED1",
    "F_BEST0",
    "F_BEST1",
    "F_TWOS",
    "F_ONES",
    "F_SL",
    "F_TH",
    "F_OK13",
    "F_N",
    "NO_BAO",
    "POW5",
    "tables",
    "build_tables",
    "hand_codes",
    "is_win_codes",
    "shanten_codes",
    "is_win",
    "shanten",
    "is_win_batch",
    "shanten_batch",
    "discard_shanten",
    "useful_tiles",
    "is_baodiao_state",
    "MELD_CHOW",
    "MELD_PUNG",
    "MELD_KONG",
    "MELD_CONCEALED_KONG",
    "WIN_SELF_DRAW",
    "WIN_ROBBING_KONG",
    "WIN_DEALER_FIRST_DISCARD",
    "PATTERN_IDS",
    "N_OUT",
    "O_PATTERN",
    "O_FACTOR",
    "O_HAND_VALUE",
    "O_WIN",
    "O_BONUS",
    "O_PAYER_FACTOR",
    "O_GANGKAI",
    "O_DANDIAO",
    "O_FEIBAO",
    "O_JIUYAO",
    "O_QIANGGANG",
    "O_NOTES",
    "NOTE_FLAT_FLOWN",
    "NOTE_BOTH_FIT",
    "NOTE_NEEDS_TOUJI",
    "NOTE_NOT_HELD_FLOWN",
    "Situation",
    "score_win",
    "Readings",
    "win_readings",
    "best_pattern",
    "win_amounts",
]

# ---------------------------------------------------------------- table layout
#: fields of a table row: the integer fields of :func:`shangrao.analysis.tables.entry` (its
#: ``entry_fields``), without its derived K0/K1/U0/U1; the indices are that module's
F_NEED0 = _T.NEED0  #: fewest 宝 completing the suit's real tiles into melds only
F_NEED1 = _T.NEED1  #: … into melds and the pair (99: none)
F_BEST0 = _T.BEST0  #: 5 fields: most tiles in at most g = 0..4 groups, no pair (-100: none)
F_BEST1 = _T.BEST1  #: 5 fields: the same with the pair
F_TWOS = _T.TWOS  #: 七对 pair-units worth 2
F_ONES = _T.ONES  #: 七对 half pairs (counts 1 or 3)
F_SL = _T.SL  #: 4 fields: 十三浪 overlap with a valid rank set of 0..3 tiles (honors: distinct kinds ×4)
F_TH = _T.TH  #: 1s and 9s (honors: all tiles), the tiles 九幺 keeps
F_OK13 = _T.OK13  #: 1 when no kind is held twice (十三浪 possible)
F_N = _T.N  #: tiles of the suit
N_FIELDS = _T.N_FIELDS

NO_BAO = -1
_NEG = -100
POW5 = np.array([5**i for i in range(9)], dtype=np.int64)

# Every code below is derived at import from its Python home (the enums' declaration order, the
# PATTERNS table), so none is typed twice; numba reads these module ints as constants.
# melds (meld_type arrays of score_win: MeldType order)
MELD_CHOW, MELD_PUNG, MELD_KONG, MELD_CONCEALED_KONG = (
    list(MeldType).index(t) for t in (MeldType.CHOW, MeldType.PUNG, MeldType.KONG, MeldType.CONCEALED_KONG)
)
# MELD_KONG: exposed, on a discard or added to a pung (碰杠); MELD_CONCEALED_KONG: 自摸杠

# how the win came (WinBy order)
WIN_SELF_DRAW, WIN_ROBBING_KONG, WIN_DEALER_FIRST_DISCARD = (
    list(WinBy).index(w) for w in (WinBy.SELF_DRAW, WinBy.ROBBING_KONG, WinBy.DEALER_FIRST_DISCARD)
)

#: pattern ids by the index :func:`score_win` returns (the order of shangrao.scoring.PATTERNS)
PATTERN_IDS: tuple[str, ...] = tuple(PATTERNS)

# score_win's output array
O_PATTERN = 0  #: index into PATTERN_IDS (-1: not a win)
O_FACTOR = 1  #: the pattern's factor (× base; 豪华 ×2**quads included), or the flat points of 天糊/地糊
O_HAND_VALUE = 2  #: hand value before payer factors and bonuses
O_WIN = 3  #: 3 fields: the win part each payer pays (seat order after the winner)
O_BONUS = 6  #: the bonus part each payer pays (碰杠, 自摸杠, 接宝, 四个宝; the engine transfers these when they happen)
O_PAYER_FACTOR = 7  #: 3 fields: 2**(宝 the payer discarded), or 1 (注 1)
O_GANGKAI = 10  #: doubling 杠开: its count (0: none)
O_DANDIAO = 11  #: doubling 单吊: 1 when applied
O_FEIBAO = 12  #: doubling 飞宝: its count
O_JIUYAO = 13  #: doubling 九幺: 1 when applied
O_QIANGGANG = 14  #: doubling 抢杠: 1 when applied (factor: the rule robbing_kong_factor)
O_NOTES = 15  #: bits NOTE_*: the notes of ScoreResult.notes
N_OUT = 16

NOTE_FLAT_FLOWN = 1  #: "注 1: payers' 飞宝 not counted: {天糊|地糊} is paid flat"
NOTE_BOTH_FIT = 2  #: "{宝吊宝 name} (clause 8 …) and {宝吊无宝 name} (clause 9 …) both fit"
NOTE_NEEDS_TOUJI = 4  #: "宝吊宝/宝吊无宝 need a 偷机 first (rule baodiao_bao_needs_touji): scored as 宝吊头"
NOTE_NOT_HELD_FLOWN = 8  #: "注 1: payers' 飞宝 not counted: the winner never held a 宝 this hand"


# ---------------------------------------------------------------- building the tables
_SL_MASKS = np.array(_T.SL_MASKS, dtype=np.int64)
#: ``analysis.tables.entry_fields`` (the one source of an entry's arithmetic) compiled
_entry_fields: Any = njit(cache=True)(_T.entry_fields)


@njit(cache=True)
def _fill(table: np.ndarray, width: int, chows: bool, sl_masks: np.ndarray) -> None:
    """Fill ``table`` (one row per code of ``width`` ranks) with :func:`_entry_fields` of each count
    vector of at most 14 tiles; its (melds, partials, pair) splits, as
    :func:`shangrao.analysis.shapes._suit_blocks` makes them, are found here by a table of bit sets
    over the codes, visited in increasing order so that every split's rest is done before it."""
    size = 5**width
    pw = np.empty(width, dtype=np.int64)
    for r in range(width):
        pw[r] = 5**r
    # bit (a*8 + b) of w0[code] / w1[code]: the split (a melds, b partials) without / with the pair
    w0 = np.zeros(size, dtype=np.uint64)
    w1 = np.zeros(size, dtype=np.uint64)
    d = np.empty(width, dtype=np.int64)
    blocks = np.zeros((80, 3), dtype=np.int64)
    one = np.uint64(1)
    for code in range(size):
        x = code
        n = 0
        for r in range(width):
            d[r] = x % 5
            x //= 5
            n += d[r]
        if n > 14:
            continue
        if n == 0:
            w0[code] = one
            w1[code] = np.uint64(0)
        else:
            i = 0
            while d[i] == 0:
                i += 1
            b0 = w0[code - pw[i]]  # leftover
            b1 = w1[code - pw[i]]
            if d[i] >= 3:
                s = code - 3 * pw[i]
                b0 |= w0[s] << np.uint64(8)
                b1 |= w1[s] << np.uint64(8)
            if d[i] >= 2:
                s = code - 2 * pw[i]
                b0 |= w0[s] << one
                b1 |= w1[s] << one
                b1 |= w0[s]
            if chows:
                if i + 2 < width and d[i + 1] > 0 and d[i + 2] > 0:
                    s = code - pw[i] - pw[i + 1] - pw[i + 2]
                    b0 |= w0[s] << np.uint64(8)
                    b1 |= w1[s] << np.uint64(8)
                if i + 1 < width and d[i + 1] > 0:
                    s = code - pw[i] - pw[i + 1]
                    b0 |= w0[s] << one
                    b1 |= w1[s] << one
                if i + 2 < width and d[i + 2] > 0:
                    s = code - pw[i] - pw[i + 2]
                    b0 |= w0[s] << one
                    b1 |= w1[s] << one
            w0[code] = b0
            w1[code] = b1
        # the splits as (a, b, p) rows, then the row's fields from the one source
        nb = np.int64(0)  # not a literal 0: one compile of _entry_fields, for int64
        for p in range(2):
            bits = w0[code] if p == 0 else w1[code]
            for bit in range(40):
                if (bits >> np.uint64(bit)) & one:
                    blocks[nb, 0] = bit // 8
                    blocks[nb, 1] = bit % 8
                    blocks[nb, 2] = p
                    nb += 1
        _entry_fields(d, width, chows, blocks, nb, sl_masks, table[code])


def build_tables() -> tuple[np.ndarray, np.ndarray]:
    """Build ``(suit_table, honor_table)``: ``int8[5**9, N_FIELDS]`` and ``int8[5**7, N_FIELDS]``.

    Rows of codes holding more than 14 tiles are left zero (no hand has them).  Compiled and
    cached on disk by numba; the run itself takes about 0.3 s (43 MB of tables).
    """
    suit = np.zeros((5**9, N_FIELDS), dtype=np.int8)
    honor = np.zeros((5**7, N_FIELDS), dtype=np.int8)
    _fill(suit, 9, True, _SL_MASKS)
    _fill(honor, 7, False, _SL_MASKS)
    return suit, honor


@functools.cache
def tables() -> tuple[np.ndarray, np.ndarray]:
    """The process's ``(suit_table, honor_table)`` (:func:`build_tables`, once; read-only)."""
    suit, honor = build_tables()
    suit.flags.writeable = False
    honor.flags.writeable = False
    return suit, honor


# ---------------------------------------------------------------- codes
@njit(cache=True)
def hand_codes(counts34: np.ndarray, bao: int) -> tuple[int, int, int, int, int]:
    """``(man, pin, sou, honors, w)``: the codes of the real tiles (the 宝 kind left out) and the 宝 count."""
    c0 = 0
    c1 = 0
    c2 = 0
    c3 = 0
    for r in range(8, -1, -1):
        c0 = c0 * 5 + (0 if r == bao else int(counts34[r]))
        c1 = c1 * 5 + (0 if r + 9 == bao else int(counts34[r + 9]))
        c2 = c2 * 5 + (0 if r + 18 == bao else int(counts34[r + 18]))
    for r in range(6, -1, -1):
        c3 = c3 * 5 + (0 if r + 27 == bao else int(counts34[r + 27]))
    w = counts34[bao] if bao >= 0 else 0
    return c0, c1, c2, c3, int(w)


# The helpers below read the tables as ``table[code, field]``: a row taken as ``table[code]`` would be a
# numpy view, whose reference count numba updates (atomically) at every call — several times the cost
# of the arithmetic itself.
@njit(cache=True, inline="always")
def _need_standard(suit: np.ndarray, honor: np.ndarray, c0: int, c1: int, c2: int, c3: int) -> int:
    """Fewest 宝 completing the hand (codes ``c0..c3``) into melds and one pair (the standard form)."""
    n00 = int(suit[c0, F_NEED0])
    n10 = int(suit[c1, F_NEED0])
    n20 = int(suit[c2, F_NEED0])
    n30 = int(honor[c3, F_NEED0])
    d = min(
        2,
        int(suit[c0, F_NEED1]) - n00,
        int(suit[c1, F_NEED1]) - n10,
        int(suit[c2, F_NEED1]) - n20,
        int(honor[c3, F_NEED1]) - n30,
    )
    return n00 + n10 + n20 + n30 + d


@njit(cache=True, inline="always")
def _seven_pairs(suit: np.ndarray, honor: np.ndarray, c0: int, c1: int, c2: int, c3: int) -> int:
    """七对: the tiles already in pairs (2 a pair-unit, at most 7 pairs) plus the half pairs that fit."""
    twos = int(suit[c0, F_TWOS]) + int(suit[c1, F_TWOS]) + int(suit[c2, F_TWOS]) + int(honor[c3, F_TWOS])
    ones = int(suit[c0, F_ONES]) + int(suit[c1, F_ONES]) + int(suit[c2, F_ONES]) + int(honor[c3, F_ONES])
    t = twos if twos < 7 else 7
    r = 7 - t
    return 2 * t + (ones if ones < r else r)


@njit(cache=True, inline="always")
def _shisanlang(suit: np.ndarray, honor: np.ndarray, c0: int, c1: int, c2: int, c3: int) -> int:
    """十三浪: the most tiles of the hand on a valid rank set (3+3+3+5, 3+3+2+6 … of the suits and honors)."""
    a1 = int(suit[c0, F_SL + 1])
    a2 = int(suit[c0, F_SL + 2])
    a3 = int(suit[c0, F_SL + 3])
    b1 = int(suit[c1, F_SL + 1])
    b2 = int(suit[c1, F_SL + 2])
    b3 = int(suit[c1, F_SL + 3])
    d1 = int(suit[c2, F_SL + 1])
    d2 = int(suit[c2, F_SL + 2])
    d3 = int(suit[c2, F_SL + 3])
    dh = int(honor[c3, F_SL])
    h7 = dh if dh < 7 else 7
    h6 = dh if dh < 6 else 6
    h5 = dh if dh < 5 else 5
    return max(
        a3 + b3 + d1 + h7,
        a3 + b1 + d3 + h7,
        a1 + b3 + d3 + h7,
        a3 + b2 + d2 + h7,
        a2 + b3 + d2 + h7,
        a2 + b2 + d3 + h7,
        a3 + b3 + d2 + h6,
        a3 + b2 + d3 + h6,
        a2 + b3 + d3 + h6,
        a3 + b3 + d3 + h5,
    )


@njit(cache=True, inline="always")
def _th(suit: np.ndarray, honor: np.ndarray, c0: int, c1: int, c2: int, c3: int) -> int:
    """The hand's 1s, 9s and honors (the tiles 九幺 keeps)."""
    return int(suit[c0, F_TH]) + int(suit[c1, F_TH]) + int(suit[c2, F_TH]) + int(honor[c3, F_TH])


@njit(cache=True, inline="always")
def _n(suit: np.ndarray, honor: np.ndarray, c0: int, c1: int, c2: int, c3: int) -> int:
    """The hand's real tiles (宝 left out)."""
    return int(suit[c0, F_N]) + int(suit[c1, F_N]) + int(suit[c2, F_N]) + int(honor[c3, F_N])


@njit(cache=True)
def _conv(
    a00: int,
    a01: int,
    a02: int,
    a03: int,
    a04: int,
    a10: int,
    a11: int,
    a12: int,
    a13: int,
    a14: int,
    table: np.ndarray,
    c: int,
) -> tuple[int, int, int, int, int, int, int, int, int, int]:
    """Max-plus convolution of the running rows ``a0[g]`` / ``a1[g]`` (most tiles in at most g groups
    without / with the pair, g = 0..4) with the row of code ``c`` of ``table`` (``tables._conv``),
    unrolled: register arithmetic, no allocation.  A row's ``best0[0]`` is 0, so the ``j = 0`` terms
    are ``a0[g]`` / ``a1[g]``."""
    b01 = int(table[c, F_BEST0 + 1])
    b02 = int(table[c, F_BEST0 + 2])
    b03 = int(table[c, F_BEST0 + 3])
    b04 = int(table[c, F_BEST0 + 4])
    b10 = int(table[c, F_BEST1])
    b11 = int(table[c, F_BEST1 + 1])
    b12 = int(table[c, F_BEST1 + 2])
    b13 = int(table[c, F_BEST1 + 3])
    b14 = int(table[c, F_BEST1 + 4])
    return (
        a00,
        max(a01, a00 + b01),
        max(a02, a01 + b01, a00 + b02),
        max(a03, a02 + b01, a01 + b02, a00 + b03),
        max(a04, a03 + b01, a02 + b02, a01 + b03, a00 + b04),
        max(a10, a00 + b10),
        max(a11, a10 + b01, a01 + b10, a00 + b11),
        max(a12, a11 + b01, a10 + b02, a02 + b10, a01 + b11, a00 + b12),
        max(a13, a12 + b01, a11 + b02, a10 + b03, a03 + b10, a02 + b11, a01 + b12, a00 + b13),
        max(a14, a13 + b01, a12 + b02, a11 + b03, a10 + b04, a04 + b10, a03 + b11, a02 + b12, a01 + b13, a00 + b14),
    )


@njit(cache=True)
def _finish(
    a00: int, a01: int, a02: int, a03: int, a04: int, a10: int, a11: int, a12: int, a13: int, a14: int, n: int, m: int
) -> int:
    """The overlap formula on the convolved rows (``tables._best_overlap``, and for a concealed hand
    of 14 or more tiles the classic shortcut of ``tables._overlap_standard_4``)."""
    if m == 4 and n >= 14:
        # enough tiles that every missing group and the pair have a seed: the classic formula
        best = max(0, a00 + 5, a01 + 4, a02 + 3, a03 + 2, a04 + 1, a10 + 4, a11 + 3, a12 + 2, a13 + 1, a14)
        return best if best < n else n
    best = 0
    for g in range(m + 1):
        if g == 0:
            s0, s1 = a00, a10
        elif g == 1:
            s0, s1 = a01, a11
        elif g == 2:
            s0, s1 = a02, a12
        elif g == 3:
            s0, s1 = a03, a13
        else:
            s0, s1 = a04, a14
        slots = m - g
        if s0 >= 0:
            left = n - s0
            seeds = left if left < slots else slots
            v = s0 + seeds + (1 if left - seeds >= 1 else 0)
            if v > best:
                best = v
        if s1 >= 0:
            left = n - s1
            v = s1 + (left if left < slots else slots)
            if v > best:
                best = v
    return best


#: the identity of the convolution: 0 tiles in at most g groups without the pair, none with it
_I0 = 0
_I1 = _NEG


@njit(cache=True)
def _conv_all(
    suit: np.ndarray,
    honor: np.ndarray,
    c0: int,
    c1: int,
    c2: int,
    c3: int,
    skip: int,
) -> tuple[int, int, int, int, int, int, int, int, int, int]:
    """The convolution of the rows of every suit but ``skip`` (-1: all four).  Max-plus convolution
    is associative and commutative on the entries that count, the non-negative ones (a term with a
    missing row stays below -85 at every step), and an empty suit (code 0) changes none of them."""
    a = (_I0, _I0, _I0, _I0, _I0, _I1, _I1, _I1, _I1, _I1)
    if skip != 0 and c0:
        a = _conv(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], suit, c0)
    if skip != 1 and c1:
        a = _conv(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], suit, c1)
    if skip != 2 and c2:
        a = _conv(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], suit, c2)
    if skip != 3 and c3:
        a = _conv(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], honor, c3)
    return a


@njit(cache=True)
def _overlap_standard(suit: np.ndarray, honor: np.ndarray, c0: int, c1: int, c2: int, c3: int, m: int) -> int:
    """Largest part of the real tiles fitting ``m`` melds + pair (``tables.overlap_standard``;
    computing the rows up to g = 4 for ``m < 4`` changes nothing at ``g <= m``)."""
    a = _conv_all(suit, honor, c0, c1, c2, c3, -1)
    return _finish(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], _n(suit, honor, c0, c1, c2, c3), m)


@njit(cache=True, inline="always")
def is_win_codes(
    suit: np.ndarray, honor: np.ndarray, c0: int, c1: int, c2: int, c3: int, w: int, m: int, jiuyao_ok: bool
) -> bool:
    """Win check of a complete hand (``3*m + 2`` tiles) from its codes and 宝 count ``w``
    (``tables.is_win_entries``; 糊牌的规定 2)."""
    if _need_standard(suit, honor, c0, c1, c2, c3) <= w:
        return True
    if m == 4:
        if _seven_pairs(suit, honor, c0, c1, c2, c3) + w >= 14:
            return True
        if (
            suit[c0, F_OK13]
            and suit[c1, F_OK13]
            and suit[c2, F_OK13]
            and honor[c3, F_OK13]
            and _shisanlang(suit, honor, c0, c1, c2, c3) + w >= 14
        ):
            return True
    return bool(jiuyao_ok and _th(suit, honor, c0, c1, c2, c3) + w >= 3 * m + 2)


@njit(cache=True)
def _shanten_from(
    suit: np.ndarray,
    honor: np.ndarray,
    c0: int,
    c1: int,
    c2: int,
    c3: int,
    w: int,
    m: int,
    jiuyao_ok: bool,
    a: tuple[int, int, int, int, int, int, int, int, int, int],
) -> int:
    """Shanten of the codes given ``a``, the convolution of all four rows."""
    best = _finish(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], _n(suit, honor, c0, c1, c2, c3), m)
    if m == 4:
        v = _seven_pairs(suit, honor, c0, c1, c2, c3)
        if v > best:
            best = v
        v = _shisanlang(suit, honor, c0, c1, c2, c3)
        if v > best:
            best = v
    if jiuyao_ok:
        v = _th(suit, honor, c0, c1, c2, c3)
        if v > best:
            best = v
    best += w
    target = 3 * m + 2
    return target - (best if best < target else target) - 1


@njit(cache=True)
def shanten_codes(
    suit: np.ndarray, honor: np.ndarray, c0: int, c1: int, c2: int, c3: int, w: int, m: int, jiuyao_ok: bool
) -> int:
    """Shanten across forms (-1 complete, 0 ready) from codes (``tables.shanten_entries``)."""
    return _shanten_from(suit, honor, c0, c1, c2, c3, w, m, jiuyao_ok, _conv_all(suit, honor, c0, c1, c2, c3, -1))


@njit(cache=True)
def _shanten_changed(
    suit: np.ndarray,
    honor: np.ndarray,
    c0: int,
    c1: int,
    c2: int,
    c3: int,
    s: int,
    new_code: int,
    a: tuple[int, int, int, int, int, int, int, int, int, int],
    w: int,
    m: int,
    jiuyao_ok: bool,
) -> int:
    """Shanten of the hand of codes ``c0..c3`` with suit ``s``'s code replaced by ``new_code``, given
    ``a`` = ``_conv_all(..., skip=s)`` of the others."""
    if s == 0:
        c0 = new_code
    elif s == 1:
        c1 = new_code
    elif s == 2:
        c2 = new_code
    else:
        c3 = new_code
    if new_code:
        a = _conv(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], honor if s == 3 else suit, new_code)
    return _shanten_from(suit, honor, c0, c1, c2, c3, w, m, jiuyao_ok, a)


@njit(cache=True)
def is_win(suit: np.ndarray, honor: np.ndarray, counts34: np.ndarray, bao: int, m: int, jiuyao_ok: bool) -> bool:
    """Whether the concealed hand ``counts34`` (``3*m + 2`` tiles, 宝 included) is a win:
    ``HandKey(counts34, bao).is_win(m, jiuyao_ok)`` (糊牌的规定 2, 宝 as wildcards)."""
    c0, c1, c2, c3, w = hand_codes(counts34, bao)
    return is_win_codes(suit, honor, c0, c1, c2, c3, w, m, jiuyao_ok)


@njit(cache=True)
def shanten(suit: np.ndarray, honor: np.ndarray, counts34: np.ndarray, bao: int, m: int, jiuyao_ok: bool) -> int:
    """Shanten of a hand of ``3*m + 1`` or ``+2`` tiles: ``HandKey(counts34, bao).shanten(m, jiuyao_ok)``."""
    c0, c1, c2, c3, w = hand_codes(counts34, bao)
    return shanten_codes(suit, honor, c0, c1, c2, c3, w, m, jiuyao_ok)


@njit(cache=True)
def is_win_batch(
    suit: np.ndarray,
    honor: np.ndarray,
    hands: np.ndarray,
    bao: np.ndarray,
    m: np.ndarray,
    jiuyao_ok: np.ndarray,
    out: np.ndarray,
) -> None:
    """:func:`is_win` of each row: ``hands`` ``[N, 34]``, ``bao`` / ``m`` / ``jiuyao_ok`` ``[N]``, ``out`` ``bool[N]``."""
    for i in range(hands.shape[0]):
        out[i] = is_win(suit, honor, hands[i], bao[i], m[i], jiuyao_ok[i])


@njit(cache=True)
def shanten_batch(
    suit: np.ndarray,
    honor: np.ndarray,
    hands: np.ndarray,
    bao: np.ndarray,
    m: np.ndarray,
    jiuyao_ok: np.ndarray,
    out: np.ndarray,
) -> None:
    """:func:`shanten` of each row (shapes as :func:`is_win_batch`; ``out`` an integer array)."""
    for i in range(hands.shape[0]):
        out[i] = shanten(suit, honor, hands[i], bao[i], m[i], jiuyao_ok[i])


@njit(cache=True)
def discard_shanten(
    suit: np.ndarray, honor: np.ndarray, counts34: np.ndarray, bao: int, m: int, jiuyao_ok: bool, out: np.ndarray
) -> int:
    """For a hand of ``3*m + 2`` tiles: ``out[k]`` = shanten after discarding kind ``k`` (99 where
    ``k`` is not held); returns the lowest.  The ``greedy`` bot's first key.  (Each discard changes
    one suit: the other three are convolved once per suit, not once per discard.)"""
    c0, c1, c2, c3, w = hand_codes(counts34, bao)
    best = 99
    for s in range(4):
        first = s * 9
        last = first + (9 if s < 3 else 7)
        code = c0 if s == 0 else (c1 if s == 1 else (c2 if s == 2 else c3))
        a = _conv_all(suit, honor, c0, c1, c2, c3, s)
        for k in range(first, last):
            if counts34[k] == 0:
                out[k] = 99
                continue
            if k == bao:
                v = shanten_codes(suit, honor, c0, c1, c2, c3, w - 1, m, jiuyao_ok)
            else:
                v = _shanten_changed(suit, honor, c0, c1, c2, c3, s, code - POW5[k - first], a, w, m, jiuyao_ok)
            out[k] = v
            if v < best:
                best = v
    return best


_TH_MASK = np.array([1 if k in (0, 8, 9, 17, 18, 26) or k >= 27 else 0 for k in range(34)], dtype=np.int8)
#: the sparse grid greedy's _neighbourhood always adds (十三浪 ranks 3 apart)
_GRID = np.array(
    [1 if k in (1, 4, 7, 10, 13, 16, 19, 22, 25, 2, 5, 11, 14, 20, 23, 3, 6, 12, 15, 21, 24) else 0 for k in range(34)],
    dtype=np.int8,
)


#: the kinds greedy's _neighbourhood always holds (terminals, honors, the grid), as a bit set over kinds
_NEAR_BASE = sum(1 << k for k in range(34) if _TH_MASK[k] or _GRID[k])


@njit(cache=True)
def useful_tiles(
    suit: np.ndarray,
    honor: np.ndarray,
    counts34: np.ndarray,
    bao: int,
    m: int,
    jiuyao_ok: bool,
    discard: int,
    best: int,
    unseen34: np.ndarray,
) -> int:
    """进张 of one discard, as the ``ukeire`` bot counts it (``GreedyBot._discard``): the unseen copies
    of the kinds ``k != discard`` near the hand (greedy's ``_neighbourhood`` of the hand less the
    discard) whose draw after discarding ``discard`` brings the shanten below ``best``.  (Each draw
    changes one suit: the other three are convolved once per suit, not once per draw.)"""
    c0, c1, c2, c3, w = hand_codes(counts34, bao)
    if discard == bao:
        w -= 1
    elif discard < 9:
        c0 -= POW5[discard]
    elif discard < 18:
        c1 -= POW5[discard - 9]
    elif discard < 27:
        c2 -= POW5[discard - 18]
    else:
        c3 -= POW5[discard - 27]
    # greedy's _neighbourhood of the hand less the discard, as a bit set
    near = _NEAR_BASE
    for k in range(27):
        if counts34[k] - (1 if k == discard else 0) > 0:
            base = k - k % 9
            for dd in range(-2, 3):
                x = k + dd
                if base <= x < base + 9:
                    near |= 1 << x
    useful = 0
    for s in range(4):
        first = s * 9
        last = first + (9 if s < 3 else 7)
        code = c0 if s == 0 else (c1 if s == 1 else (c2 if s == 2 else c3))
        done = False
        for k in range(first, last):
            if near >> k & 1 and unseen34[k] > 0 and k != discard:
                if k == bao:
                    v = shanten_codes(suit, honor, c0, c1, c2, c3, w + 1, m, jiuyao_ok)
                else:
                    if not done:
                        a = _conv_all(suit, honor, c0, c1, c2, c3, s)
                        done = True
                    v = _shanten_changed(suit, honor, c0, c1, c2, c3, s, code + POW5[k - first], a, w, m, jiuyao_ok)
                if v < best:
                    useful += unseen34[k]
    return int(useful)


@njit(cache=True)
def is_baodiao_state(suit: np.ndarray, honor: np.ndarray, counts34: np.ndarray, bao: int) -> bool:
    """宝吊 (D5): the hand before the draw (``3*m + 1`` tiles) holds a 宝 and, one 宝 set aside,
    the rest (other 宝 acting) is complete melds (:func:`shangrao.analysis.is_baodiao_state`)."""
    if bao < 0:
        return False
    c0, c1, c2, c3, w = hand_codes(counts34, bao)
    need = int(suit[c0, F_NEED0]) + int(suit[c1, F_NEED0]) + int(suit[c2, F_NEED0]) + int(honor[c3, F_NEED0])
    return w > 0 and need <= w - 1


# ---------------------------------------------------------------- scoring
# pattern indices (PATTERN_IDS) and their factors (PatternDef.factor; the flat ones' points are rules)
(
    P_BASIC,
    P_PINGHU_ZIMO,
    P_BAODIAO,
    P_BAODIAO_WUBAO,
    P_BAODIAO_BAO,
    P_HEAVENLY,
    P_EARTHLY,
    P_PENGPENGHU,
    P_QING_PENGPENGHU,
    P_PPH_BAODIAO,
    P_PPH_BAODIAO_WUBAO,
    P_PPH_BAODIAO_BAO,
    P_QIDUI,
    P_QING_QIDUI,
    P_HAOHUA_QIDUI,
    P_QING_HAOHUA_QIDUI,
    P_SHISANLANG,
    P_QING_SHISANLANG,
    P_JIUYAO,
    P_QING_JIUYAO,
    P_QIXING_SHISANLANG,
    P_QING_QIXING_SHISANLANG,
    P_QIXING_JIUYAO,
    P_QING_QIXING_JIUYAO,
) = (
    PATTERN_IDS.index(pid)
    for pid in (
        "basic",
        "pinghu_zimo",
        "baodiao",
        "baodiao_wubao",
        "baodiao_bao",
        "heavenly",
        "earthly",
        "pengpenghu",
        "qing_pengpenghu",
        "pengpenghu_baodiao",
        "pengpenghu_baodiao_wubao",
        "pengpenghu_baodiao_bao",
        "qidui",
        "qing_qidui",
        "haohua_qidui",
        "qing_haohua_qidui",
        "shisanlang",
        "qing_shisanlang",
        "jiuyao",
        "qing_jiuyao",
        "qixing_shisanlang",
        "qing_qixing_shisanlang",
        "qixing_jiuyao",
        "qing_qixing_jiuyao",
    )
)
_FACTORS = np.array([PATTERNS[pid].factor for pid in PATTERN_IDS], dtype=np.int64)


@njit(cache=True)
def _record(first: np.ndarray, counter: np.ndarray, f: int) -> None:
    """Count one reading; note its rank in ``first[f]`` when it is the first with flags ``f``."""
    if first[f] < 0:
        first[f] = counter[0]
    counter[0] += 1


@njit(cache=True)
def _std_terminal(
    j: int, ml: int, pl: int, acting: int, chow: int, nonth: int, bao: int, first: np.ndarray, counter: np.ndarray
) -> None:
    """The end of one split (every real tile placed): the 宝 left must make the groups left, read as
    the 宝's face or (宝 not a 1/9/honor) as 1m, acting (``readings._placeholder_faces``)."""
    need = 3 * ml + 2 * pl
    if need != j:
        return
    if bao < 0 or need == 0:
        _record(first, counter, acting * 4 + chow * 2 + nonth)
        return
    _record(first, counter, acting * 4 + chow * 2 + (nonth | (0 if _TH_MASK[bao] else 1)))
    if not _TH_MASK[bao]:
        _record(first, counter, 4 + chow * 2 + nonth)


@njit(cache=True)
def _std_readings(
    real: np.ndarray, jokers: int, melds_left: int, bao: int, first: np.ndarray, counter: np.ndarray
) -> None:
    """Every standard reading (``readings._standard``, in its order, without recursion — numba's
    cache and recursion do not mix): ``first[acting*4 + chow*2 + nonth]`` gets the rank of the first
    reading with those flags (some 宝 acting, a concealed chow, a face not 1/9/honor), -1 if none.

    A depth-first search with an explicit stack; the moves at the lowest real kind ``k`` are tried in
    the reference's order: pair (2 real, 1 real + 宝), pung (3, 2, 1 real), then the chows with ``k``
    lowest-real at ``k-2``, ``k-1``, ``k`` (a slot above ``k`` as 宝 before as real)."""
    depth = 20
    fk = np.zeros(depth, dtype=np.int64)
    fj = np.zeros(depth, dtype=np.int64)
    fml = np.zeros(depth, dtype=np.int64)
    fpl = np.zeros(depth, dtype=np.int64)
    fact = np.zeros(depth, dtype=np.int64)
    fchow = np.zeros(depth, dtype=np.int64)
    fnt = np.zeros(depth, dtype=np.int64)
    fstep = np.zeros(depth, dtype=np.int64)
    undo = np.full((depth, 3), -1, dtype=np.int64)  # the real tiles the move into this frame took
    k = 0
    while k < 34 and real[k] == 0:
        k += 1
    if k == 34:
        _std_terminal(jokers, melds_left, 1, 0, 0, 0, bao, first, counter)
        return
    sp = 0
    fk[0] = k
    fj[0] = jokers
    fml[0] = melds_left
    fpl[0] = 1
    rem = np.full(3, -1, dtype=np.int64)
    while sp >= 0:
        step = fstep[sp]
        if step >= 12:
            for t in range(3):
                if undo[sp, t] >= 0:
                    real[undo[sp, t]] += 1
                    undo[sp, t] = -1
            sp -= 1
            continue
        fstep[sp] = step + 1
        k = fk[sp]
        j = fj[sp]
        ml = fml[sp]
        pl = fpl[sp]
        c = real[k]
        nt = 0 if _TH_MASK[k] else 1
        wild = 0
        act = 0
        dml = 0
        dpl = 0
        is_chow = 0
        rem[0] = -1
        rem[1] = -1
        rem[2] = -1
        ok = False
        if step <= 1:  # pair: 2 real, or 1 real + a 宝 (acting: the 宝 kind is never a real tile)
            use = 2 - step
            wild = 2 - use
            if pl and c >= use and j >= wild:
                ok = True
                dpl = 1
                act = 1 if wild else 0
                for t in range(use):
                    rem[t] = k
        elif step <= 4:  # pung: 3, 2, 1 real
            use = 5 - step
            wild = 3 - use
            if ml and c >= use and j >= wild:
                ok = True
                dml = 1
                act = 1 if wild else 0
                for t in range(use):
                    rem[t] = k
        elif ml and k < 27:  # chows
            if step == 5:
                lo = k - 2
                opt = 0
            elif step <= 7:
                lo = k - 1
                opt = step - 6
            else:
                lo = k
                opt = step - 8
            if lo >= 0 and lo // 9 == k // 9 and lo % 9 <= 6:
                above = lo + 2 - k
                below = k - lo
                ok = True
                wild = below
                for t in range(below):
                    if lo + t != bao:
                        act = 1
                rem[0] = k
                n_rem = 1
                for t in range(above):
                    sl = k + 1 + t
                    if opt >> (above - 1 - t) & 1:  # this slot real
                        if real[sl] == 0:
                            ok = False
                        rem[n_rem] = sl
                        n_rem += 1
                    else:
                        wild += 1
                        if sl != bao:
                            act = 1
                if wild > j or wild == 3:
                    ok = False
                dml = 1
                is_chow = 1
                nt = 1
        if not ok:
            continue
        for t in range(3):
            if rem[t] >= 0:
                real[rem[t]] -= 1
        nj = j - wild
        nml = ml - dml
        npl = pl - dpl
        nact = fact[sp] | act
        nchow = fchow[sp] | is_chow
        nnt = fnt[sp] | nt
        nk = k
        while nk < 34 and real[nk] == 0:
            nk += 1
        if nk == 34:
            _std_terminal(nj, nml, npl, nact, nchow, nnt, bao, first, counter)
            for t in range(3):
                if rem[t] >= 0:
                    real[rem[t]] += 1
            continue
        sp += 1
        fk[sp] = nk
        fj[sp] = nj
        fml[sp] = nml
        fpl[sp] = npl
        fact[sp] = nact
        fchow[sp] = nchow
        fnt[sp] = nnt
        fstep[sp] = 0
        for t in range(3):
            undo[sp, t] = rem[t]


@njit(cache=True)
def _sl_readings(jokers: int, masks: np.ndarray, honors: int, bao: int, present: np.ndarray, found: np.ndarray) -> None:
    """十三浪 substitutions (``readings._shisanlang``): ``found[acting*2 + qixing]`` set for every choice
    of ``jokers`` distinct absent kinds that keeps each suit's ranks 3 apart (at most 3 a suit)."""
    cand = np.zeros(34, dtype=np.int64)
    nc = 0
    for k in range(34):
        if not present[k]:
            cand[nc] = k
            nc += 1
    if jokers > nc:
        return
    idx = np.arange(jokers)
    while True:
        mk = masks.copy()
        hon = honors
        acting = 0
        ok = True
        for t in range(jokers):
            k = cand[idx[t]]
            if k != bao:
                acting = 1
            if k >= 27:
                hon |= 1 << (k - 27)
            else:
                s = k // 9
                r = k % 9
                for q in range(9):
                    if mk[s] >> q & 1 and abs(q - r) < 3:
                        ok = False
                mk[s] |= 1 << r
        if ok:
            for s in range(3):
                n = 0
                y = mk[s]
                while y:
                    n += y & 1
                    y >>= 1
                if n > 3:
                    ok = False
        if ok:
            found[acting * 2 + (1 if hon == 127 else 0)] = 1
        # next combination (lexicographic)
        t = jokers - 1
        while t >= 0 and idx[t] == nc - jokers + t:
            t -= 1
        if t < 0:
            return
        idx[t] += 1
        for u in range(t + 1, jokers):
            idx[u] = idx[u - 1] + 1


@njit(cache=True)
def _jy_readings(jokers: int, honor_counts: np.ndarray, bao: int, found: np.ndarray) -> None:
    """九幺 substitutions (``readings._jiuyao_readings``): ``found[qixing*2 + acting]`` for every multiset
    of ``jokers`` 1/9/honor kinds (``honor_counts``: the honors of hand and melds)."""
    idx = np.zeros(jokers, dtype=np.int64)
    hc = np.empty(7, dtype=np.int64)
    while True:
        for h in range(7):
            hc[h] = honor_counts[h]
        acting = 0
        for t in range(jokers):
            k = _TH_KINDS[idx[t]]
            if k != bao:
                acting = 1
            if k >= 27:
                hc[k - 27] += 1
        qixing = 1
        for h in range(7):
            if hc[h] != 1:
                qixing = 0
        found[qixing * 2 + acting] = 1
        # next multiset (non-decreasing indices)
        t = jokers - 1
        while t >= 0 and idx[t] == 12:
            t -= 1
        if t < 0:
            return
        idx[t] += 1
        for u in range(t + 1, jokers):
            idx[u] = idx[t]


_TH_KINDS = np.array([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33], dtype=np.int64)


@njit(cache=True)
def _consider(best: np.ndarray, value: int, pattern: int, factor: int, jy: int) -> None:
    """Keep the candidate paying most (ties: the earlier pattern of PATTERNS, then the first met: D2)."""
    if best[0] < 0 or value > best[1] or (value == best[1] and pattern < best[0]):
        best[0] = pattern
        best[1] = value
        best[2] = factor
        best[3] = jy


class Readings(NamedTuple):
    """What :func:`win_readings` finds in a hand (the pattern detection of :func:`score_win`).

    first: int64[8], the rank of the first standard reading with the flags ``acting*4 + chow*2 +
    nonth`` (-1: none); n_std: the standard readings; sp_n and sp_act / sp_quads / sp_ath (int64[64]):
    the 七对 readings (some 宝 acting, quads, every tile 1/9/honor); sl_found (int64[5]): 十三浪 by
    ``acting*2 + qixing``; jy_found (int64[4]): 九幺 by ``qixing*2 + acting``.  The declared melds:
    melds_th (all 1/9/honor pungs or kongs), melds_pungs (no chow), exposed / concealed kongs.
    """

    first: npt.NDArray[np.int64]
    n_std: int
    sp_n: int
    sp_act: npt.NDArray[np.int64]
    sp_quads: npt.NDArray[np.int64]
    sp_ath: npt.NDArray[np.int64]
    sl_found: npt.NDArray[np.int64]
    jy_found: npt.NDArray[np.int64]
    melds_th: bool
    melds_pungs: bool
    exposed: int
    concealed: int


@njit(cache=True)
def win_readings(
    real: npt.NDArray[np.int64],
    jokers: int,
    bao: int,
    meld_type: npt.NDArray[np.int8],
    meld_kind: npt.NDArray[np.int8],
    n_melds: int,
    jiuyao_melds: bool,
) -> Readings:
    """Every reading of the real tiles ``real`` (int64[34], 宝 taken out) with ``jokers`` 宝 and the melds."""
    # the declared melds
    melds_th = True
    melds_pungs = True
    exposed = 0
    concealed = 0
    meld_honors = np.zeros(7, dtype=np.int64)
    for i in range(n_melds):
        t = meld_type[i]
        k = meld_kind[i]
        if t == MELD_CHOW:
            melds_pungs = False
            melds_th = False
        else:
            if not _TH_MASK[k]:
                melds_th = False
            if k >= 27:
                meld_honors[k - 27] += 4 if t >= MELD_KONG else 3
            if t == MELD_KONG:
                exposed += 1
            elif t == MELD_CONCEALED_KONG:
                concealed += 1
    # standard readings, as flags
    first = np.full(8, -1, dtype=np.int64)
    counter = np.zeros(1, dtype=np.int64)
    _std_readings(real, jokers, 4 - n_melds, bao, first, counter)
    # 七对: (acting, quads, all 1/9/honor) of each reading, in the reference's order
    sp_n = 0
    sp_act = np.zeros(64, dtype=np.int64)
    sp_quads = np.zeros(64, dtype=np.int64)
    sp_ath = np.zeros(64, dtype=np.int64)
    sl_found = np.zeros(5, dtype=np.int64)
    all_th_real = True
    for k in range(34):
        if real[k] and not _TH_MASK[k]:
            all_th_real = False
    if n_melds == 0:
        odd = 0
        q0 = 0
        upg = 0
        for k in range(34):
            c = real[k]
            if c % 2:
                odd += 1
            f = c + c % 2
            if f == 4:
                q0 += 1
            elif f == 2:
                upg += 1
        if odd <= jokers and (jokers - odd) % 2 == 0:
            spare = (jokers - odd) // 2
            tface = -1  # the 1/9/honor face of 宝-only pairs when the 宝 is not one
            if bao >= 0 and not _TH_MASK[bao]:
                for i in range(13):
                    if real[_TH_KINDS[i]] == 0:
                        tface = _TH_KINDS[i]
                        break
            for up in range(min(spare, upg) + 1):
                rest = spare - up
                if rest == 0:
                    sp_act[sp_n] = 1 if (odd > 0 or up > 0) else 0
                    sp_quads[sp_n] = q0 + up
                    sp_ath[sp_n] = 1 if all_th_real else 0
                    sp_n += 1
                    continue
                if bao < 0:
                    continue
                for lq in range(2 if rest >= 2 else 1):
                    for fi in range(2):
                        face = bao if fi == 0 else tface
                        if face < 0:
                            continue
                        sp_act[sp_n] = 1 if (odd > 0 or up > 0 or face != bao) else 0
                        sp_quads[sp_n] = q0 + up + lq
                        sp_ath[sp_n] = 1 if (all_th_real and _TH_MASK[face]) else 0
                        sp_n += 1
        # 十三浪
        ok13 = True
        masks = np.zeros(3, dtype=np.int64)
        present = np.zeros(34, dtype=np.int64)
        honors = 0
        for k in range(34):
            if real[k] > 1:
                ok13 = False
            elif real[k] == 1:
                present[k] = 1
                if k >= 27:
                    honors |= 1 << (k - 27)
                else:
                    masks[k // 9] |= 1 << (k % 9)
        if ok13:
            for s in range(3):
                mk = masks[s]
                n = 0
                last = -10
                for r in range(9):
                    if mk >> r & 1:
                        if r - last < 3:
                            ok13 = False
                        last = r
                        n += 1
                if n > 3:
                    ok13 = False
        if ok13:
            _sl_readings(jokers, masks, honors, bao, present, sl_found)
    # 九幺
    jy_found = np.zeros(4, dtype=np.int64)
    if melds_th and all_th_real and (n_melds == 0 or jiuyao_melds):
        hc = np.zeros(7, dtype=np.int64)
        for h in range(7):
            hc[h] = real[27 + h] + meld_honors[h]
        _jy_readings(jokers, hc, bao, jy_found)
    return Readings(
        first, counter[0], sp_n, sp_act, sp_quads, sp_ath, sl_found, jy_found, melds_th, melds_pungs, exposed, concealed
    )


@njit(cache=True)
def best_pattern(
    rd: Readings, common: int, jy_ok: bool, baodiao: bool, drew_bao: bool, touji_ok: bool
) -> tuple[npt.NDArray[np.int64], bool, bool]:
    """The pattern paying most over the readings ``rd`` (``(pattern, value, factor, 九幺 doubling)``, D2), and
    whether a standard / any reading uses no 宝 acting; ``common``: base × the doublings every reading shares."""
    best = np.full(4, -1, dtype=np.int64)  # pattern, value, factor, jiuyao doubling
    # standard readings, in the order first met
    any_std_wubao = False
    any_wubao = False
    first = rd.first
    # = np.argsort(first) (numba sorts 8 items by insertion, stably: so does this loop), without
    # compiling numba's quicksort for it
    order = np.empty(8, dtype=np.int64)
    for i in range(8):
        j = i
        while j > 0 and first[order[j - 1]] > first[i]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    for oi in range(8):
        f = order[oi]
        if first[f] < 0:
            continue
        acting = f >> 2
        all_pungs = rd.melds_pungs and (f >> 1 & 1) == 0
        ath = rd.melds_th and (f & 1) == 0
        if not acting:
            any_std_wubao = True
            any_wubao = True
        jy = 1 if (ath and jy_ok) else 0
        mult = common * (2 if jy else 1)
        if acting:
            p = P_PENGPENGHU if all_pungs else P_BASIC
        else:
            p = P_QING_PENGPENGHU if all_pungs else P_PINGHU_ZIMO
        _consider(best, mult * _FACTORS[p], p, _FACTORS[p], jy)
        if baodiao:
            if touji_ok and drew_bao:
                p = P_PPH_BAODIAO_BAO if all_pungs else P_BAODIAO_BAO
            elif touji_ok and not acting:
                p = P_PPH_BAODIAO_WUBAO if all_pungs else P_BAODIAO_WUBAO
            else:
                p = P_PPH_BAODIAO if all_pungs else P_BAODIAO
            _consider(best, mult * _FACTORS[p], p, _FACTORS[p], jy)
    for i in range(rd.sp_n):
        jy = 1 if (rd.sp_ath[i] and jy_ok) else 0
        q = rd.sp_quads[i]
        if rd.sp_act[i]:
            p = P_HAOHUA_QIDUI if q else P_QIDUI
        else:
            any_wubao = True
            p = P_QING_HAOHUA_QIDUI if q else P_QING_QIDUI
        factor = _FACTORS[p] * (2**q if q else 1)
        _consider(best, common * (2 if jy else 1) * factor, p, factor, jy)
    for act in range(2):
        for qx in range(2):
            if rd.sl_found[act * 2 + qx]:
                if not act:
                    any_wubao = True
                if qx:
                    p = P_QIXING_SHISANLANG if act else P_QING_QIXING_SHISANLANG
                else:
                    p = P_SHISANLANG if act else P_QING_SHISANLANG
                _consider(best, common * _FACTORS[p], p, _FACTORS[p], 0)
    for qx in range(2):
        for act in range(2):
            if rd.jy_found[qx * 2 + act]:
                if not act:
                    any_wubao = True
                if qx:
                    p = P_QIXING_JIUYAO if act else P_QING_QIXING_JIUYAO
                else:
                    p = P_JIUYAO if act else P_QING_JIUYAO
                _consider(best, common * _FACTORS[p], p, _FACTORS[p], 0)
    return best, any_std_wubao, any_wubao


@njit(cache=True)
def win_amounts(
    out: npt.NDArray[np.int64],
    value: int,
    payers_flown: npt.NDArray[np.int64],
    held_bao: bool,
    robbing: bool,
    robbed: int,
) -> bool:
    """Write each payer's factor (注 1: 2**飞宝 when the winner held a 宝) and win payment into ``out``;
    return whether payers' 飞宝 went uncounted (the winner never held a 宝)."""
    any_flown = payers_flown[0] > 0 or payers_flown[1] > 0 or payers_flown[2] > 0
    for i in range(3):
        out[O_PAYER_FACTOR + i] = 2 ** payers_flown[i] if held_bao else 1
    for i in range(3):
        if not robbing or robbed == i:
            out[O_WIN + i] = value * out[O_PAYER_FACTOR + i]
    return any_flown and not held_bao


class Situation(NamedTuple):
    """One win's situation as :func:`score_win` reads it: the compiled mirror of
    :class:`shangrao.scoring.WinSituation` (:func:`shangrao.sim.convert.situation_record` makes one from
    it; the core makes one per win).  Unchecked: the caller passes a situation the engine can reach."""

    hand34: npt.NDArray[np.integer]  #: int[34] the concealed hand *before* the winning tile (宝 included)
    win_tile: int  #: the kind won on
    bao: int  #: the 宝 kind, or NO_BAO
    meld_type: npt.NDArray[np.int8]  #: int8[4] MELD_* of each declared meld
    meld_kind: npt.NDArray[np.int8]  #: int8[4] the lowest kind of each declared meld
    n_melds: int  #: declared melds (0..4)
    win_by: int  #: WIN_*
    heavenly: bool  #: 天糊
    kong_chain: int  #: 杠开 n (self-draw only, else 0)
    winner_flown: int  #: the winner's 飞宝
    payers_flown: npt.NDArray[np.int64]  #: int64[3] each payer's 飞宝 (seat order after the winner)
    held_bao: bool  #: the winner held a 宝 this hand
    four_bao: bool  #: 四个宝
    caught_bao: bool  #: 接宝
    robbed: int  #: for 抢杠 the payer (0..2) robbed, else -1
    touji: int  #: 偷机 count


@njit(cache=True)
def score_win(
    tb: tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]],
    s: Situation,
    rules: npt.NDArray[np.int32],
    out: npt.NDArray[np.int64],
) -> bool:
    """Score one win as ``Game._finish_wins`` does (``shangrao.scoring.score`` of its WinSituation).

    tb: :func:`tables`; s: the win's :class:`Situation`; rules: :func:`shangrao.sim.rules.encode_rules`.
    Writes ``out`` (``int64[N_OUT]``, the ``O_*`` fields) and returns whether the hand wins (False:
    ``out`` is zero with ``O_PATTERN`` -1).  The amounts are points.  Unchecked (the hot path): the
    caller passes a situation the engine can reach (:class:`shangrao.scoring.WinSituation` validates
    one; ``score()``'s refusals of 地糊 and of a win on a 宝 tile switched off are the caller's).

    Three steps, each its own kernel: :func:`win_readings` (which patterns the tiles read as),
    :func:`best_pattern` (the factors and doublings: the one paying most), :func:`win_amounts` (what
    each payer pays).
    """
    hand34 = s.hand34
    win_tile = s.win_tile
    bao = s.bao
    n_melds = s.n_melds
    win_by = s.win_by
    kong_chain = s.kong_chain
    winner_flown = s.winner_flown
    payers_flown = s.payers_flown
    for i in range(N_OUT):
        out[i] = 0
    out[O_PATTERN] = -1
    real = np.zeros(34, dtype=np.int64)
    for k in range(34):
        real[k] = hand34[k]
    real[win_tile] += 1
    jokers = 0
    if bao >= 0:
        jokers = real[bao]
        real[bao] = 0
    jiuyao_melds = rules[R_JIUYAO_MELDS] != 0
    rd = win_readings(real, jokers, bao, s.meld_type, s.meld_kind, n_melds, jiuyao_melds)
    has_sl = rd.sl_found[0] + rd.sl_found[1] + rd.sl_found[2] + rd.sl_found[3] > 0
    has_jy = rd.jy_found[0] + rd.jy_found[1] + rd.jy_found[2] + rd.jy_found[3] > 0
    if not (rd.n_std > 0 or rd.sp_n > 0 or has_sl or has_jy):
        return False
    # --- bonuses (the engine transfers them when they happen; reported here)
    bonus_each = (
        rd.exposed * rules[R_PUNG_KONG_BONUS]
        + rd.concealed * rules[R_CONCEALED_KONG_BONUS]
        + (rules[R_CAUGHT_BAO_BONUS] if s.caught_bao else 0)
        + (rules[R_FOUR_BAO_BONUS] if s.four_bao else 0)
    )
    any_flown = payers_flown[0] > 0 or payers_flown[1] > 0 or payers_flown[2] > 0
    flat = -1
    points = 0
    if s.heavenly:
        flat = P_HEAVENLY
        points = rules[R_HEAVENLY_POINTS]
    elif win_by == WIN_DEALER_FIRST_DISCARD:
        flat = P_EARTHLY
        points = rules[R_EARTHLY_POINTS]
    if flat >= 0:
        out[O_PATTERN] = flat
        out[O_FACTOR] = points
        out[O_HAND_VALUE] = points
        for i in range(3):
            out[O_WIN + i] = points
            out[O_PAYER_FACTOR + i] = 1
        out[O_BONUS] = bonus_each
        out[O_NOTES] = NOTE_FLAT_FLOWN if any_flown else 0
        return True
    # --- the candidates: pattern × doublings, the one paying most (D2)
    baodiao = False
    if bao >= 0:
        baodiao = is_baodiao_state(tb[0], tb[1], hand34, bao)
    drew_bao = bao >= 0 and win_tile == bao
    touji_ok = rules[R_BAODIAO_BAO_NEEDS_TOUJI] == 0 or s.touji > 0
    common = rules[R_BASE_POINTS]
    if kong_chain:
        common *= 2**kong_chain
    if n_melds == 4:
        common *= 2
    if winner_flown:
        common *= 2**winner_flown
    robbing = win_by == WIN_ROBBING_KONG
    if robbing:
        common *= rules[R_ROBBING_KONG_FACTOR]
    jy_ok = jiuyao_melds or n_melds == 0
    best, any_std_wubao, any_wubao = best_pattern(rd, common, jy_ok, baodiao, drew_bao, touji_ok)
    p = best[0]
    value = best[1]
    notes = 0
    if (p == P_BAODIAO_BAO or p == P_PPH_BAODIAO_BAO) and any_std_wubao:  # noqa: SIM109 (numba: no tuple `in`)
        notes |= NOTE_BOTH_FIT
    if baodiao and not touji_ok and (drew_bao or any_wubao):
        notes |= NOTE_NEEDS_TOUJI
    if win_amounts(out, value, payers_flown, s.held_bao, robbing, s.robbed):
        notes |= NOTE_NOT_HELD_FLOWN
    out[O_PATTERN] = p
    out[O_FACTOR] = best[2]
    out[O_HAND_VALUE] = value
    out[O_BONUS] = bonus_each
    out[O_GANGKAI] = kong_chain
    out[O_DANDIAO] = 1 if n_melds == 4 else 0
    out[O_FEIBAO] = winner_flown
    out[O_JIUYAO] = best[3]
    out[O_QIANGGANG] = 1 if robbing else 0
    out[O_NOTES] = notes
    return True
