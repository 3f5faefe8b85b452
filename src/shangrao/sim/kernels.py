"""The compiled kernels of hand analysis and scoring, for the batched core (issue 23).

Every kernel is a numba ``@njit(cache=True)`` function on plain ints and numpy arrays — no Python
object crosses into them — so the compiled game loop (:mod:`shangrao.sim.core`) calls them without
leaving machine code.  They answer exactly as the Python reference does:

* the tables: :func:`tables` → ``(suit_table, honor_table)``, ``int8`` arrays indexed by a suit's
  base-5 code (``sum(count[r] * 5**r)``, as :func:`shangrao.analysis.tables.suit_code`), one row
  of :data:`N_FIELDS` fields per code (``F_*`` below: the fields of
  :func:`shangrao.analysis.tables.entry`).  Built by :func:`build_tables` (compiled, cached on
  disk by numba) the first time they are asked for in a process, in about 0.1 s, and kept;
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
import itertools

import numpy as np
from numba import njit

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
    "score_win",
]

# ---------------------------------------------------------------- table layout
#: fields of a table row (the entry of :func:`shangrao.analysis.tables.entry`, without its derived U0/U1/K0/K1)
F_NEED0 = 0  #: fewest 宝 completing the suit's real tiles into melds only
F_NEED1 = 1  #: … into melds and the pair (99: none)
F_BEST0 = 2  #: 5 fields: most tiles in at most g = 0..4 groups, no pair (-100: none)
F_BEST1 = 7  #: 5 fields: the same with the pair
F_TWOS = 12  #: 七对 pair-units worth 2
F_ONES = 13  #: 七对 half pairs (counts 1 or 3)
F_SL = 14  #: 4 fields: 十三浪 overlap with a valid rank set of 0..3 tiles (honors: distinct kinds ×4)
F_TH = 18  #: 1s and 9s (honors: all tiles), the tiles 九幺 keeps
F_OK13 = 19  #: 1 when no kind is held twice (十三浪 possible)
F_N = 20  #: tiles of the suit
N_FIELDS = 21

NO_BAO = -1
_NEG = -100
POW5 = np.array([5**i for i in range(9)], dtype=np.int64)

# melds (meld_type arrays of score_win)
MELD_CHOW = 0
MELD_PUNG = 1
MELD_KONG = 2  #: exposed: on a discard or added to a pung (碰杠)
MELD_CONCEALED_KONG = 3  #: 自摸杠

# how the win came (WinBy)
WIN_SELF_DRAW = 0
WIN_ROBBING_KONG = 1
WIN_DEALER_FIRST_DISCARD = 2

#: pattern ids by the index :func:`score_win` returns (the order of shangrao.scoring.PATTERNS)
PATTERN_IDS: tuple[str, ...] = (
    "basic", "pinghu_zimo", "baodiao", "baodiao_wubao", "baodiao_bao", "heavenly", "earthly",
    "pengpenghu", "qing_pengpenghu", "pengpenghu_baodiao", "pengpenghu_baodiao_wubao", "pengpenghu_baodiao_bao",
    "qidui", "qing_qidui", "haohua_qidui", "qing_haohua_qidui", "shisanlang", "qing_shisanlang", "jiuyao",
    "qing_jiuyao", "qixing_shisanlang", "qing_qixing_shisanlang", "qixing_jiuyao", "qing_qixing_jiuyao",
)

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
def _valid_13_masks() -> np.ndarray:
    """(mask of 9 ranks, size) of every rank set one suit may hold in 十三浪 (ranks ≥ 3 apart)."""
    out = []
    for mask in range(512):
        ranks = [r for r in range(9) if mask >> r & 1]
        if len(ranks) <= 3 and all(b - a >= 3 for a, b in itertools.pairwise(ranks)):
            out.append((mask, len(ranks)))
    return np.array(out, dtype=np.int64)


_SL_MASKS = _valid_13_masks()


@njit(cache=True)
def _fill(table: np.ndarray, width: int, chows: bool, sl_masks: np.ndarray) -> None:
    """Fill ``table`` (one row per code of ``width`` ranks) from the (melds, partials, pair) splits of
    each count vector of at most 14 tiles, as :func:`shangrao.analysis.shapes._suit_blocks` makes
    them; codes are visited in increasing order, so every split's rest is done before it."""
    size = 5**width
    pw = np.empty(width, dtype=np.int64)
    for r in range(width):
        pw[r] = 5**r
    # bit (a*8 + b) of w0[code] / w1[code]: the split (a melds, b partials) without / with the pair
    w0 = np.zeros(size, dtype=np.uint64)
    w1 = np.zeros(size, dtype=np.uint64)
    d = np.empty(width, dtype=np.int64)
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
        # the row
        need0 = 99
        need1 = 99
        best0 = np.full(5, _NEG, dtype=np.int64)
        best1 = np.full(5, _NEG, dtype=np.int64)
        for p in range(2):
            bits = w0[code] if p == 0 else w1[code]
            for bit in range(40):
                if (bits >> np.uint64(bit)) & one:
                    a = bit // 8
                    b = bit % 8
                    left = n - 3 * a - 2 * b - 2 * p
                    if p == 0:
                        v = b + 2 * left
                        if v < need0:
                            need0 = v
                        if left >= 1:
                            v = b + 2 * (left - 1) + 1
                            if v < need1:
                                need1 = v
                    else:
                        v = b + 2 * left
                        if v < need1:
                            need1 = v
                    g = a + b
                    if g <= 4:
                        value = 3 * a + 2 * b + 2 * p
                        for gg in range(g, 5):
                            if p == 0:
                                if value > best0[gg]:
                                    best0[gg] = value
                            elif value > best1[gg]:
                                best1[gg] = value
        twos = 0
        ones = 0
        mx = 0
        present = 0
        distinct = 0
        for r in range(width):
            c = d[r]
            if c >= 4:
                twos += 2
            elif c >= 2:
                twos += 1
            if c == 1 or c == 3:
                ones += 1
            if c > mx:
                mx = c
            if c > 0:
                present |= 1 << r
                distinct += 1
        row = table[code]
        row[F_NEED0] = need0
        row[F_NEED1] = need1
        for g in range(5):
            row[F_BEST0 + g] = best0[g]
            row[F_BEST1 + g] = best1[g]
        row[F_TWOS] = twos
        row[F_ONES] = ones
        if chows:
            sl = np.zeros(4, dtype=np.int64)
            seen = np.zeros(4, dtype=np.bool_)
            for j in range(sl_masks.shape[0]):
                mask = sl_masks[j, 0]
                k = sl_masks[j, 1]
                ov = 0
                y = present & mask
                while y:
                    ov += y & 1
                    y >>= 1
                if not seen[k] or ov > sl[k]:
                    sl[k] = ov
                    seen[k] = True
            for k in range(4):
                row[F_SL + k] = sl[k]
            row[F_TH] = d[0] + d[8]
        else:
            for k in range(4):
                row[F_SL + k] = distinct
            row[F_TH] = n
        row[F_OK13] = 1 if mx <= 1 else 0
        row[F_N] = n


def build_tables() -> tuple[np.ndarray, np.ndarray]:
    """Build ``(suit_table, honor_table)``: ``int8[5**9, N_FIELDS]`` and ``int8[5**7, N_FIELDS]``.

    Rows of codes holding more than 14 tiles are left zero (no hand has them).  Compiled and
    cached on disk by numba; the run itself takes about 0.1 s.
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
        c0 = c0 * 5 + (0 if r == bao else counts34[r])
        c1 = c1 * 5 + (0 if r + 9 == bao else counts34[r + 9])
        c2 = c2 * 5 + (0 if r + 18 == bao else counts34[r + 18])
    for r in range(6, -1, -1):
        c3 = c3 * 5 + (0 if r + 27 == bao else counts34[r + 27])
    w = counts34[bao] if bao >= 0 else 0
    return c0, c1, c2, c3, int(w)


@njit(cache=True)
def _need_standard(e0: np.ndarray, e1: np.ndarray, e2: np.ndarray, e3: np.ndarray) -> int:
    d = 2
    for e in (e0, e1, e2, e3):
        x = int(e[F_NEED1]) - int(e[F_NEED0])
        if x < d:
            d = x
    return int(e0[F_NEED0]) + int(e1[F_NEED0]) + int(e2[F_NEED0]) + int(e3[F_NEED0]) + d


@njit(cache=True)
def _seven_pairs(e0: np.ndarray, e1: np.ndarray, e2: np.ndarray, e3: np.ndarray) -> int:
    twos = int(e0[F_TWOS]) + int(e1[F_TWOS]) + int(e2[F_TWOS]) + int(e3[F_TWOS])
    ones = int(e0[F_ONES]) + int(e1[F_ONES]) + int(e2[F_ONES]) + int(e3[F_ONES])
    t = twos if twos < 7 else 7
    r = 7 - t
    return 2 * t + (ones if ones < r else r)


@njit(cache=True)
def _shisanlang(e0: np.ndarray, e1: np.ndarray, e2: np.ndarray, e3: np.ndarray) -> int:
    a1 = int(e0[F_SL + 1])
    a2 = int(e0[F_SL + 2])
    a3 = int(e0[F_SL + 3])
    b1 = int(e1[F_SL + 1])
    b2 = int(e1[F_SL + 2])
    b3 = int(e1[F_SL + 3])
    c1 = int(e2[F_SL + 1])
    c2 = int(e2[F_SL + 2])
    c3 = int(e2[F_SL + 3])
    dh = int(e3[F_SL])
    h7 = dh if dh < 7 else 7
    h6 = dh if dh < 6 else 6
    h5 = dh if dh < 5 else 5
    return max(
        a3 + b3 + c1 + h7, a3 + b1 + c3 + h7, a1 + b3 + c3 + h7,
        a3 + b2 + c2 + h7, a2 + b3 + c2 + h7, a2 + b2 + c3 + h7,
        a3 + b3 + c2 + h6, a3 + b2 + c3 + h6, a2 + b3 + c3 + h6,
        a3 + b3 + c3 + h5,
    )


@njit(cache=True)
def _overlap_standard(e0: np.ndarray, e1: np.ndarray, e2: np.ndarray, e3: np.ndarray, m: int) -> int:
    """Largest part of the real tiles fitting ``m`` melds + pair (``tables.overlap_standard``)."""
    n = int(e0[F_N]) + int(e1[F_N]) + int(e2[F_N]) + int(e3[F_N])
    a0 = np.empty(5, dtype=np.int64)
    a1 = np.empty(5, dtype=np.int64)
    n0 = np.empty(5, dtype=np.int64)
    n1 = np.empty(5, dtype=np.int64)
    for g in range(5):
        a0[g] = e0[F_BEST0 + g]
        a1[g] = e0[F_BEST1 + g]
    for e in (e1, e2, e3):
        for g in range(m + 1):
            v0 = a0[g]  # j = 0: best0[0] is 0
            v1 = a1[g]
            for j in range(g + 1):
                y0 = int(e[F_BEST0 + j])
                y1 = int(e[F_BEST1 + j])
                x = a0[g - j] + y0
                if x > v0:
                    v0 = x
                x = a1[g - j] + y0
                if x > v1:
                    v1 = x
                x = a0[g - j] + y1
                if x > v1:
                    v1 = x
            n0[g] = v0
            n1[g] = v1
        for g in range(m + 1):
            a0[g] = n0[g]
            a1[g] = n1[g]
    if m == 4 and n >= 14:
        best = 0
        for g in range(5):
            v = a0[g] - g + 5
            if v > best:
                best = v
            v = a1[g] - g + 4
            if v > best:
                best = v
        return best if best < n else n
    best = 0
    for g in range(m + 1):
        slots = m - g
        s = a0[g]
        if s >= 0:
            left = n - s
            seeds = left if left < slots else slots
            v = s + seeds + (1 if left - seeds >= 1 else 0)
            if v > best:
                best = v
        s = a1[g]
        if s >= 0:
            left = n - s
            v = s + (left if left < slots else slots)
            if v > best:
                best = v
    return int(best)


@njit(cache=True)
def is_win_codes(suit: np.ndarray, honor: np.ndarray, c0: int, c1: int, c2: int, c3: int, w: int, m: int,
                 jiuyao_ok: bool) -> bool:
    """Win check of a complete hand (``3*m + 2`` tiles) from its codes and 宝 count ``w``
    (``tables.is_win_entries``; 糊牌的规定 2)."""
    e0 = suit[c0]
    e1 = suit[c1]
    e2 = suit[c2]
    e3 = honor[c3]
    if _need_standard(e0, e1, e2, e3) <= w:
        return True
    if m == 4:
        if _seven_pairs(e0, e1, e2, e3) + w >= 14:
            return True
        if e0[F_OK13] and e1[F_OK13] and e2[F_OK13] and e3[F_OK13] and _shisanlang(e0, e1, e2, e3) + w >= 14:
            return True
    th = int(e0[F_TH]) + int(e1[F_TH]) + int(e2[F_TH]) + int(e3[F_TH])
    return bool(jiuyao_ok and th + w >= 3 * m + 2)


@njit(cache=True)
def shanten_codes(suit: np.ndarray, honor: np.ndarray, c0: int, c1: int, c2: int, c3: int, w: int, m: int,
                  jiuyao_ok: bool) -> int:
    """Shanten across forms (-1 complete, 0 ready) from codes (``tables.shanten_entries``)."""
    e0 = suit[c0]
    e1 = suit[c1]
    e2 = suit[c2]
    e3 = honor[c3]
    target = 3 * m + 2
    best = _overlap_standard(e0, e1, e2, e3, m)
    if m == 4:
        v = _seven_pairs(e0, e1, e2, e3)
        if v > best:
            best = v
        v = _shisanlang(e0, e1, e2, e3)
        if v > best:
            best = v
    if jiuyao_ok:
        v = int(e0[F_TH]) + int(e1[F_TH]) + int(e2[F_TH]) + int(e3[F_TH])
        if v > best:
            best = v
    best += w
    return target - (best if best < target else target) - 1


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
def discard_shanten(suit: np.ndarray, honor: np.ndarray, counts34: np.ndarray, bao: int, m: int, jiuyao_ok: bool,
                    out: np.ndarray) -> int:
    """For a hand of ``3*m + 2`` tiles: ``out[k]`` = shanten after discarding kind ``k`` (99 where
    ``k`` is not held); returns the lowest.  The ``greedy`` bot's first key."""
    c0, c1, c2, c3, w = hand_codes(counts34, bao)
    codes = np.array([c0, c1, c2, c3], dtype=np.int64)
    best = 99
    for k in range(34):
        if counts34[k] == 0:
            out[k] = 99
            continue
        if k == bao:
            s = shanten_codes(suit, honor, codes[0], codes[1], codes[2], codes[3], w - 1, m, jiuyao_ok)
        else:
            codes[k // 9] -= POW5[k % 9]
            s = shanten_codes(suit, honor, codes[0], codes[1], codes[2], codes[3], w, m, jiuyao_ok)
            codes[k // 9] += POW5[k % 9]
        out[k] = s
        if s < best:
            best = s
    return best


_TH_MASK = np.array([1 if k in (0, 8, 9, 17, 18, 26) or k >= 27 else 0 for k in range(34)], dtype=np.int8)
#: the sparse grid greedy's _neighbourhood always adds (十三浪 ranks 3 apart)
_GRID = np.array([1 if k in (1, 4, 7, 10, 13, 16, 19, 22, 25, 2, 5, 11, 14, 20, 23, 3, 6, 12, 15, 21, 24) else 0
                  for k in range(34)], dtype=np.int8)


@njit(cache=True)
def useful_tiles(suit: np.ndarray, honor: np.ndarray, counts34: np.ndarray, bao: int, m: int, jiuyao_ok: bool,
                 discard: int, best: int, unseen34: np.ndarray) -> int:
    """进张 of one discard, as the ``ukeire`` bot counts it (``GreedyBot._discard``): the unseen copies
    of the kinds ``k != discard`` near the hand (greedy's ``_neighbourhood`` of the hand less the
    discard) whose draw after discarding ``discard`` brings the shanten below ``best``."""
    c0, c1, c2, c3, w = hand_codes(counts34, bao)
    codes = np.array([c0, c1, c2, c3], dtype=np.int64)
    if discard == bao:
        w -= 1
    else:
        codes[discard // 9] -= POW5[discard % 9]
    near = np.zeros(34, dtype=np.int8)
    for k in range(34):
        if _TH_MASK[k] or _GRID[k]:
            near[k] = 1
    for k in range(27):
        held = counts34[k] - (1 if k == discard else 0)
        if held > 0:
            base = k - k % 9
            for dd in range(-2, 3):
                x = k + dd
                if base <= x < base + 9:
                    near[x] = 1
    useful = 0
    for k in range(34):
        if near[k] and unseen34[k] > 0 and k != discard:
            if k == bao:
                s = shanten_codes(suit, honor, codes[0], codes[1], codes[2], codes[3], w + 1, m, jiuyao_ok)
            else:
                codes[k // 9] += POW5[k % 9]
                s = shanten_codes(suit, honor, codes[0], codes[1], codes[2], codes[3], w, m, jiuyao_ok)
                codes[k // 9] -= POW5[k % 9]
            if s < best:
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
@njit(cache=True)
def score_win(suit: np.ndarray, honor: np.ndarray, hand34: np.ndarray, win_tile: int, bao: int,
              meld_type: np.ndarray, meld_kind: np.ndarray, n_melds: int, win_by: int, heavenly: bool,
              kong_chain: int, winner_flown: int, payers_flown: np.ndarray, held_bao: bool, four_bao: bool,
              caught_bao: bool, robbed: int, touji: int, rules: np.ndarray, out: np.ndarray) -> bool:
    """Score one win as ``Game._finish_wins`` does (``shangrao.scoring.score`` of its WinSituation).

    hand34: the concealed hand *before* the winning tile (``13 - 3*n_melds`` tiles, 宝 included);
    win_tile: the kind won on; meld_type / meld_kind: ``MELD_*`` and the lowest kind of each of the
    ``n_melds`` declared melds; win_by: ``WIN_*``; heavenly: 天糊; kong_chain: 杠开 n (self-draw only);
    winner_flown / payers_flown[3]: 飞宝 of the winner / of each payer (seat order after the winner);
    held_bao: the winner held a 宝 this hand; four_bao: 四个宝; caught_bao: 接宝; robbed: for 抢杠 the
    payer (0..2) robbed, else -1; touji: 偷机 count; rules: :func:`shangrao.sim.rules.encode_rules`.

    Writes ``out`` (``int64[N_OUT]``, the ``O_*`` fields) and returns whether the hand wins (False:
    ``out`` is zero with ``O_PATTERN`` -1).  The amounts are points.
    """
    raise NotImplementedError
