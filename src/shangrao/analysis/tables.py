"""Table-driven analysis: per-suit tables keyed by the suit's count vector.

A suit (9 ranks) or the honors (7 kinds) is keyed by its *code*, the count
vector read as a base-5 number (``sum(count[r] * 5**r)``).  For each code the
table holds one :class:`SuitEntry`:

* ``need0`` / ``need1``: the fewest 宝 that complete the suit's real tiles into
  melds only / melds and the pair (win checks);
* ``best0[g]`` / ``best1[g]``: the most tiles of the suit that fit at most ``g``
  groups (complete melds and two-tile partials) without / with the pair
  (shanten, via the overlap formula of :mod:`shangrao.analysis.shapes`).

Entries are computed from the recursive decomposition in
:mod:`~shangrao.analysis.shapes` the first time a code is met, and kept for
the life of the process (tables built at first use, in memory; importing the
package builds nothing).  :mod:`shangrao.analysis.reference` is the slow,
obvious implementation the tests compare these answers with.

Hand keys are the four codes ``(man, pin, sou, honors)`` of the real tiles plus the count of 宝;
:class:`HandKey` keeps them up to date incrementally (the game engine on every draw and discard,
the bots while trying discards and claims), so a win check or a shanten after a change does not
re-encode the hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeAlias

from ..errors import InputError
from .shapes import SHISANLANG_SUIT_SETS, _suit_blocks

__all__ = [
    "POW5",
    "suit_code",
    "hand_codes",
    "entry",
    "entry_fields",
    "N_FIELDS",
    "SL_MASKS",
    "entries_codes",
    "entries_34",
    "need_standard",
    "overlap_standard",
    "is_win_entries",
    "shanten_entries",
    "deficits_entries",
    "HandKey",
]

POW5 = tuple(5**i for i in range(9))
_NEG = -100


def suit_code(counts: Sequence[int]) -> int:
    """Base-5 code of one suit's count vector (rank 1 is the lowest digit)."""
    code = 0
    for c in reversed(counts):
        code = code * 5 + c
    return code


def hand_codes(tiles_34: Sequence[int]) -> tuple[int, int, int, int]:
    """Codes of the three suits and the honors of a ``tiles_34`` vector."""
    h = tiles_34
    return (
        ((((((((h[8] * 5 + h[7]) * 5 + h[6]) * 5 + h[5]) * 5 + h[4]) * 5 + h[3]) * 5 + h[2]) * 5 + h[1]) * 5 + h[0]),
        (
            (((((((h[17] * 5 + h[16]) * 5 + h[15]) * 5 + h[14]) * 5 + h[13]) * 5 + h[12]) * 5 + h[11]) * 5 + h[10]) * 5
            + h[9]
        ),
        (
            (((((((h[26] * 5 + h[25]) * 5 + h[24]) * 5 + h[23]) * 5 + h[22]) * 5 + h[21]) * 5 + h[20]) * 5 + h[19]) * 5
            + h[18]
        ),
        ((((((h[33] * 5 + h[32]) * 5 + h[31]) * 5 + h[30]) * 5 + h[29]) * 5 + h[28]) * 5 + h[27]),
    )


def _decode(code: int, width: int) -> tuple[int, ...]:
    out = []
    for _ in range(width):
        code, c = divmod(code, 5)
        out.append(c)
    return tuple(out)


#: a table entry: a flat tuple for speed (ints, then the two tuples of (groups, tiles) pairs U0/U1)
Entry: TypeAlias = tuple[Any, ...]
#: the running (no pair, pair) best-tiles arrays of :func:`_conv`
Row: TypeAlias = Sequence[int]

# An entry is a flat tuple for speed:
# (need0, need1, best0[0..4] (5 values), best1[0..4] (5 values))
_SUITS: dict[int, Entry] = {}
_HONORS: dict[int, Entry] = {}


# indices into an entry tuple: its first N_FIELDS are ints (:func:`entry_fields`), then K0, K1, U0, U1,
# and PAIR (``min(2, need1 - need0)``: what the pair in this suit saves, read by the win checks)
NEED0, NEED1, BEST0, BEST1, TWOS, ONES, SL, TH, OK13, N, K0, K1, U0, U1, PAIR = (
    0,
    1,
    2,
    7,
    12,
    13,
    14,
    18,
    19,
    20,
    21,
    22,
    23,
    24,
    25,
)
#: the integer fields of an entry (what :func:`entry_fields` writes; the compiled core's table row)
N_FIELDS = 21

#: (mask of ranks, size) of each rank set one suit may hold in 十三浪 (:data:`~.shapes.SHISANLANG_SUIT_SETS`)
SL_MASKS: tuple[tuple[int, int], ...] = tuple((sum(1 << r for r in s), len(s)) for s in SHISANLANG_SUIT_SETS)


def entry_fields(
    counts: Sequence[int],
    width: int,
    chows: bool,
    blocks: Sequence[Sequence[int]],
    n_blocks: int,
    sl_masks: Sequence[Sequence[int]],
    row: Any,
) -> None:
    """Write the :data:`N_FIELDS` integer fields of one suit's entry into ``row``.

    counts: the suit's ``width`` counts (9 ranks with ``chows``, 7 honors without); blocks: its first
    ``n_blocks`` (melds, partials, pair) splits (:func:`~.shapes._suit_blocks`, any order); sl_masks:
    :data:`SL_MASKS`; row: any int sequence of at least N_FIELDS slots (a list here, a row of the
    compiled tables in :mod:`shangrao.sim.kernels`).  Pure integer code on indexable arguments: the
    one source of the entry arithmetic, run by Python for :func:`entry` and compiled by numba
    (``njit(entry_fields)``) for the core's whole tables.  Checks nothing.
    """
    n = 0
    mx = 0
    twos = 0  # 七对 units: a kind with c tiles offers pair-units worth 2 (a full pair) or 1 (half a pair)
    ones = 0
    present = 0
    distinct = 0
    for r in range(width):
        c = counts[r]
        n += c
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
    need0 = 99
    need1 = 99
    for g in range(5):
        row[BEST0 + g] = _NEG
        row[BEST1 + g] = _NEG
    for j in range(n_blocks):
        a = blocks[j][0]
        b = blocks[j][1]
        p = blocks[j][2]
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
            o = BEST1 if p else BEST0
            for gg in range(g, 5):
                if value > row[o + gg]:
                    row[o + gg] = value
    row[NEED0] = need0
    row[NEED1] = need1
    row[TWOS] = twos
    row[ONES] = ones
    # 十三浪: best overlap with a valid rank set of size 0..3 (suits), distinct kinds (honors)
    if chows:
        for k in range(4):
            row[SL + k] = -1
        for j in range(len(sl_masks)):
            y = present & sl_masks[j][0]
            k = sl_masks[j][1]
            ov = 0
            while y:
                ov += y & 1
                y >>= 1
            if ov > row[SL + k]:
                row[SL + k] = ov
        row[TH] = counts[0] + counts[8]
    else:
        for k in range(4):
            row[SL + k] = distinct
        row[TH] = n
    row[OK13] = 1 if mx <= 1 else 0
    row[N] = n


def _build(counts: tuple[int, ...], chows: bool) -> Entry:
    blocks = tuple(_suit_blocks(counts, chows))
    row = [0] * N_FIELDS
    entry_fields(counts, len(counts), chows, blocks, len(blocks), SL_MASKS, row)
    best0 = row[BEST0 : BEST0 + 5]
    best1 = row[BEST1 : BEST1 + 5]
    # saturation: past this many groups the suit adds nothing (-1: no pair possible)
    k0 = min(g for g in range(5) if best0[g] == best0[4])
    k1 = -1 if best1[4] == _NEG else min(g for g in range(5) if best1[g] == best1[4])
    # useful group counts: (j, most tiles in j groups) where j groups beat j-1 groups
    u0 = tuple((j, best0[j]) for j in range(1, 5) if best0[j] > best0[j - 1])
    u1 = tuple((j, best1[j]) for j in range(5) if best1[j] != _NEG and (j == 0 or best1[j] > best1[j - 1]))
    # PAIR: what the pair in this suit saves, min(2, need1 - need0), read by the win checks
    return (*row, k0, k1, u0, u1, min(2, row[NEED1] - row[NEED0]))


def entry(code: int, honors: bool = False) -> Entry:
    """The table entry of a suit code (or an honors code): see the module docstring."""
    table = _HONORS if honors else _SUITS
    e = table.get(code)
    if e is None:
        e = table[code] = _build(_decode(code, 7 if honors else 9), not honors)
    return e


def _entries(codes: Sequence[int]) -> tuple[Entry, Entry, Entry, Entry]:
    s = _SUITS
    h = _HONORS
    e0 = s.get(codes[0]) or entry(codes[0])
    e1 = s.get(codes[1]) or entry(codes[1])
    e2 = s.get(codes[2]) or entry(codes[2])
    e3 = h.get(codes[3]) or entry(codes[3], True)
    return e0, e1, e2, e3


def _conv(a0: Row, a1: Row, e: Entry, m: int) -> tuple[list[int], list[int]]:
    """Max-plus convolution of the running (no pair, pair) arrays with one suit's entry.

    a0[g] / a1[g]: most tiles in at most g groups so far without / with the pair.
    Only the suit's useful group counts (U0/U1: more groups, more tiles) are tried.
    """
    n0 = list(a0)
    n1 = list(a1)
    for j, y in e[U0]:
        for g in range(j, m + 1):
            v = a0[g - j] + y
            if v > n0[g]:
                n0[g] = v
            v = a1[g - j] + y
            if v > n1[g]:
                n1[g] = v
    for j, y in e[U1]:
        for g in range(j, m + 1):
            v = a0[g - j] + y
            if v > n1[g]:
                n1[g] = v
    return n0, n1


class HandKey:
    """Incremental key of one concealed hand: the codes of its real tiles and its count of 宝.

    HandKey(tiles_34=None, bao=None).  ``add(kind)`` / ``remove(kind)`` cost one addition each (a
    tile of the 宝 kind counts in :attr:`bao_count`, not in :attr:`codes`).  :meth:`is_win` and
    :meth:`shanten` answer for the hand with ``m`` melds still to make (``4 - declared melds``) and
    ``jiuyao_ok`` (every declared meld is of terminals and honors), optionally after taking tiles
    out / putting tiles in, without changing the key.  The engine (``Game._is_win``) and the
    ``greedy`` bot use it; the answers equal :func:`shangrao.analysis.is_winning` and the copy-blind
    ``min(form_shanten(...).values())``.  Unchecked, for the hot paths: no check of four copies across
    hand and melds (the engine's hands always hold), and a hand ready only on a fifth copy counts as
    ready (``shanten()`` says 1 there, as ``waits()`` finds no wait; issue 22).
    """

    __slots__ = ("bao", "bao_count", "codes")

    def __init__(self, tiles_34: Sequence[int] | None = None, bao: int | None = None) -> None:
        self.bao = bao
        self.bao_count = 0
        self.codes = [0, 0, 0, 0]
        if tiles_34 is not None:
            real = list(tiles_34)
            if bao is not None:
                self.bao_count = real[bao]
                real[bao] = 0
            self.codes = list(hand_codes(real))

    def add(self, kind: int, n: int = 1) -> None:
        if kind == self.bao:
            self.bao_count += n
        else:
            self.codes[kind // 9] += n * POW5[kind % 9]

    def remove(self, kind: int, n: int = 1) -> None:
        if kind == self.bao:
            self.bao_count -= n
        else:
            self.codes[kind // 9] -= n * POW5[kind % 9]

    def is_win(self, m: int, jiuyao_ok: bool, extra: int | None = None) -> bool:
        """Whether the hand (plus the kind ``extra``, if given) is a complete winning hand."""
        codes = self.codes
        w = self.bao_count
        if extra is not None:
            if extra == self.bao:
                w += 1
            else:
                codes = codes.copy()
                codes[extra // 9] += POW5[extra % 9]
        e0, e1, e2, e3 = _entries(codes)
        return is_win_entries(e0, e1, e2, e3, w, m, jiuyao_ok)

    def shanten(self, m: int, jiuyao_ok: bool, remove: Sequence[int] = (), add: Sequence[int] = ()) -> int:
        """Shanten across forms (-1 complete, 0 ready) after taking ``remove`` out and putting ``add`` in."""
        codes = self.codes
        w = self.bao_count
        if remove or add:  # the loops written out: the bots call this for every candidate
            codes = codes.copy()
            bao = self.bao
            for k in remove:
                if k == bao:
                    w -= 1
                else:
                    codes[k // 9] -= POW5[k % 9]
            for k in add:
                if k == bao:
                    w += 1
                else:
                    codes[k // 9] += POW5[k % 9]
        e0, e1, e2, e3 = _entries(codes)
        return shanten_entries(e0, e1, e2, e3, w, m, jiuyao_ok)

    def draws_below(
        self, m: int, jiuyao_ok: bool, remove: Sequence[int], kinds: Iterable[int], target: int
    ) -> list[int]:
        """The kinds of ``kinds`` (0..33) whose draw, after taking ``remove`` out, leaves a shanten below
        ``target``: ``[t for t in kinds if self.shanten(m, jiuyao_ok, remove, (t,)) < target]``, with the
        removal made once and only the drawn tile's suit looked up again (the useful-tile counts of the
        policy features call this for every option)."""
        codes = self.codes.copy()
        w = self.bao_count
        bao = self.bao
        for k in remove:
            if k == bao:
                w -= 1
            else:
                codes[k // 9] -= POW5[k % 9]
        base = list(_entries(codes))
        s, h = _SUITS, _HONORS
        out = []
        for t in kinds:
            if t == bao:
                e0, e1, e2, e3 = base
                sh = shanten_entries(e0, e1, e2, e3, w + 1, m, jiuyao_ok)
            else:
                suit = t // 9
                code = codes[suit] + POW5[t % 9]
                e = (h.get(code) or entry(code, True)) if suit == 3 else (s.get(code) or entry(code))
                es = base.copy()
                es[suit] = e
                sh = shanten_entries(es[0], es[1], es[2], es[3], w, m, jiuyao_ok)
            if sh < target:
                out.append(t)
        return out


# ---------------------------------------------------------------- bytes-keyed view
# The same entries keyed by the bytes of a suit's counts: the cheapest key to make
# from a tiles_34 list (``bytes(tiles_34)[0:9]``).
_SUITS_B: dict[bytes, Entry] = {}
_HONORS_B: dict[bytes, Entry] = {}


def _entry_b(key: bytes, honors: bool) -> Entry:
    if max(key, default=0) > 4:
        raise InputError("a tiles_34 count is above 4 (there are four copies of each kind)")
    code = suit_code(key)
    e = entry(code, honors)
    (_HONORS_B if honors else _SUITS_B)[key] = e
    return e


def entries_34(tiles_34: Sequence[int], bao: int | None) -> tuple[Entry, Entry, Entry, Entry, int]:
    """Entries of the real tiles of a hand and the number of 宝 in it.

    Raises ``ValueError`` if a count is outside 0..255 (bytes), ``IndexError``
    if the vector is shorter than 34.
    """
    cls = tiles_34.__class__
    if cls is not list and cls is not tuple:
        # e.g. a numpy array: bytes() of it would be its raw memory, not its counts
        tiles_34 = [int(x) for x in tiles_34]
    if bao is not None and tiles_34[bao]:
        w = tiles_34[bao]
        ba = bytearray(tiles_34)
        ba[bao] = 0
        b = bytes(ba)
    else:
        w = 0
        b = bytes(tiles_34)
    k0 = b[0:9]
    k1 = b[9:18]
    k2 = b[18:27]
    k3 = b[27:34]
    s = _SUITS_B
    h = _HONORS_B
    return (
        s.get(k0) or _entry_b(k0, False),
        s.get(k1) or _entry_b(k1, False),
        s.get(k2) or _entry_b(k2, False),
        h.get(k3) or _entry_b(k3, True),
        w,
    )


def entries_codes(codes: Sequence[int]) -> tuple[Entry, Entry, Entry, Entry]:
    """Entries of four real codes (see :class:`HandKey.real_codes`)."""
    return _entries(codes)


# ---------------------------------------------------------------- per-form arithmetic on entries
def need_standard(e0: Entry, e1: Entry, e2: Entry, e3: Entry) -> int:
    """Fewest 宝 that complete the real tiles into melds + pair.

    A hand of ``3*m + 2`` tiles with ``w`` 宝 is a standard win iff this is <= w (leftover 宝 then
    form whole melds of 宝).
    """
    need: int = e0[NEED0] + e1[NEED0] + e2[NEED0] + e3[NEED0] + min(e0[PAIR], e1[PAIR], e2[PAIR], e3[PAIR])
    return need


def overlap_standard(e0: Entry, e1: Entry, e2: Entry, e3: Entry, m: int) -> int:
    """Largest part of the real tiles that fits ``m`` melds + pair (overlap formula)."""
    if m == 4:
        return _overlap_standard_4(e0, e1, e2, e3)
    n = e0[N] + e1[N] + e2[N] + e3[N]
    a0 = list(e0[BEST0 : BEST0 + m + 1])
    a1 = list(e0[BEST1 : BEST1 + m + 1])
    for e in (e1, e2, e3):
        if e[U0] or e[U1]:
            a0, a1 = _conv(a0, a1, e, m)
    return _best_overlap(a0, a1, n, m)


def _best_overlap(a0: Row, a1: Row, n: int, m: int) -> int:
    """The overlap formula: groups, then seeds of the missing groups, then the pair (or its seed)."""
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
    return best


def _overlap_standard_4(e0: Entry, e1: Entry, e2: Entry, e3: Entry) -> int:
    """:func:`overlap_standard` for a concealed hand (m = 4), the hot case, unrolled."""
    n = e0[N] + e1[N] + e2[N] + e3[N]
    a = e0[BEST0 : BEST1 + 5]
    if e1[U0] or e1[U1]:
        a = _conv4(a, e1)
    if e2[U0] or e2[U1]:
        a = _conv4(a, e2)
    if e3[U0] or e3[U1]:
        a = _conv4(a, e3)
    if n >= 14:
        # enough tiles that every missing group and the pair have a seed: the classic formula
        best = 0
        for g in range(5):
            v = a[g] - g + 5
            if v > best:
                best = v
            v = a[5 + g] - g + 4
            if v > best:
                best = v
        return best if best < n else n
    return _best_overlap(a[0:5], a[5:10], n, 4)


def _conv4(a: Row, e: Entry) -> tuple[int, ...]:
    """:func:`_conv` for m = 4 on a flat 10-tuple (a0[0..4], a1[0..4]), unrolled."""
    a00, a01, a02, a03, a04, a10, a11, a12, a13, _a14 = a
    n00, n01, n02, n03, n04, n10, n11, n12, n13, n14 = a
    for j, y in e[U0]:
        if j == 1:
            v = a00 + y
            n01 = v if v > n01 else n01
            v = a01 + y
            n02 = v if v > n02 else n02
            v = a02 + y
            n03 = v if v > n03 else n03
            v = a03 + y
            n04 = v if v > n04 else n04
            v = a10 + y
            n11 = v if v > n11 else n11
            v = a11 + y
            n12 = v if v > n12 else n12
            v = a12 + y
            n13 = v if v > n13 else n13
            v = a13 + y
            n14 = v if v > n14 else n14
        elif j == 2:
            v = a00 + y
            n02 = v if v > n02 else n02
            v = a01 + y
            n03 = v if v > n03 else n03
            v = a02 + y
            n04 = v if v > n04 else n04
            v = a10 + y
            n12 = v if v > n12 else n12
            v = a11 + y
            n13 = v if v > n13 else n13
            v = a12 + y
            n14 = v if v > n14 else n14
        elif j == 3:
            v = a00 + y
            n03 = v if v > n03 else n03
            v = a01 + y
            n04 = v if v > n04 else n04
            v = a10 + y
            n13 = v if v > n13 else n13
            v = a11 + y
            n14 = v if v > n14 else n14
        else:
            v = a00 + y
            n04 = v if v > n04 else n04
            v = a10 + y
            n14 = v if v > n14 else n14
    for j, y in e[U1]:
        if j == 0:
            v = a00 + y
            n10 = v if v > n10 else n10
            v = a01 + y
            n11 = v if v > n11 else n11
            v = a02 + y
            n12 = v if v > n12 else n12
            v = a03 + y
            n13 = v if v > n13 else n13
            v = a04 + y
            n14 = v if v > n14 else n14
        elif j == 1:
            v = a00 + y
            n11 = v if v > n11 else n11
            v = a01 + y
            n12 = v if v > n12 else n12
            v = a02 + y
            n13 = v if v > n13 else n13
            v = a03 + y
            n14 = v if v > n14 else n14
        elif j == 2:
            v = a00 + y
            n12 = v if v > n12 else n12
            v = a01 + y
            n13 = v if v > n13 else n13
            v = a02 + y
            n14 = v if v > n14 else n14
        elif j == 3:
            v = a00 + y
            n13 = v if v > n13 else n13
            v = a01 + y
            n14 = v if v > n14 else n14
        else:
            v = a00 + y
            n14 = v if v > n14 else n14
    return (n00, n01, n02, n03, n04, n10, n11, n12, n13, n14)


def overlap_seven_pairs(e0: Entry, e1: Entry, e2: Entry, e3: Entry) -> int:
    twos = e0[TWOS] + e1[TWOS] + e2[TWOS] + e3[TWOS]
    ones = e0[ONES] + e1[ONES] + e2[ONES] + e3[ONES]
    t = twos if twos < 7 else 7
    r = 7 - t
    return 2 * t + (ones if ones < r else r)


def overlap_shisanlang(e0: Entry, e1: Entry, e2: Entry, e3: Entry) -> int:
    """Largest part of the real tiles that fits a 十三浪.

    A 十三浪 has at most 3 tiles per suit and at most 7 honors, 14 in all, so the
    suits hold 7, 8 or 9 of them: only the ten size splits below can occur.
    """
    s0 = e0[SL : SL + 4]
    s1 = e1[SL : SL + 4]
    s2 = e2[SL : SL + 4]
    d = e3[SL]
    h7 = d if d < 7 else 7
    h6 = d if d < 6 else 6
    h5 = d if d < 5 else 5
    best: int = max(
        s0[3] + s1[3] + s2[1] + h7,
        s0[3] + s1[1] + s2[3] + h7,
        s0[1] + s1[3] + s2[3] + h7,
        s0[3] + s1[2] + s2[2] + h7,
        s0[2] + s1[3] + s2[2] + h7,
        s0[2] + s1[2] + s2[3] + h7,
        s0[3] + s1[3] + s2[2] + h6,
        s0[3] + s1[2] + s2[3] + h6,
        s0[2] + s1[3] + s2[3] + h6,
        s0[3] + s1[3] + s2[3] + h5,
    )
    return best


def overlap_jiuyao(e0: Entry, e1: Entry, e2: Entry, e3: Entry) -> int:
    th: int = e0[TH] + e1[TH] + e2[TH] + e3[TH]
    return th


def is_win_entries(e0: Entry, e1: Entry, e2: Entry, e3: Entry, w: int, m: int, jiuyao_ok: bool) -> bool:
    """Win check of a complete hand (``3*m + 2`` tiles) from its entries and 宝 count."""
    if need_standard(e0, e1, e2, e3) <= w:
        return True
    if m == 4:
        if overlap_seven_pairs(e0, e1, e2, e3) + w >= 14:
            return True
        if e0[OK13] and e1[OK13] and e2[OK13] and e3[OK13] and overlap_shisanlang(e0, e1, e2, e3) + w >= 14:
            return True
    return bool(jiuyao_ok and overlap_jiuyao(e0, e1, e2, e3) + w >= 3 * m + 2)


def deficits_entries(
    e0: Entry, e1: Entry, e2: Entry, e3: Entry, w: int, m: int, jiuyao_ok: bool
) -> tuple[int, int | None, int | None, int | None]:
    """Tiles lacking per form: (standard, 七对 or None, 十三浪 or None, 九幺 or None)."""
    target = 3 * m + 2
    std = target - min(target, overlap_standard(e0, e1, e2, e3, m) + w)
    sp = sl = jy = None
    if m == 4:
        sp = 14 - min(14, overlap_seven_pairs(e0, e1, e2, e3) + w)
        sl = 14 - min(14, overlap_shisanlang(e0, e1, e2, e3) + w)
    if jiuyao_ok:
        jy = target - min(target, overlap_jiuyao(e0, e1, e2, e3) + w)
    return std, sp, sl, jy


def shanten_entries(e0: Entry, e1: Entry, e2: Entry, e3: Entry, w: int, m: int, jiuyao_ok: bool) -> int:
    """Shanten across forms from entries (-1 complete, 0 ready)."""
    target = 3 * m + 2
    best = overlap_standard(e0, e1, e2, e3, m)
    if m == 4:
        v = overlap_seven_pairs(e0, e1, e2, e3)
        if v > best:
            best = v
        v = overlap_shisanlang(e0, e1, e2, e3)
        if v > best:
            best = v
    if jiuyao_ok:
        v = e0[TH] + e1[TH] + e2[TH] + e3[TH]
        if v > best:
            best = v
    best += w
    return target - (best if best < target else target) - 1
