"""Fast shape arithmetic for hands with wildcards.

Every form is handled the same way.  Let ``N = 3*m + 2`` be the size of a
complete concealed hand with ``m`` melds still to make (``m = 4 - declared``),
``H`` the real (non-宝) tiles in hand and ``w`` the number of 宝.  For a form F,
``overlap_F(H)`` is the largest number of tiles of H that some complete hand of
form F contains.  A 宝 may stand for any tile, so the hand lacks
``D = N - min(N, overlap_F(H) + w)`` tiles:

* a hand of N tiles is complete in form F  iff  ``D == 0``;
* shanten in form F is ``D - 1`` (so -1 complete, 0 ready/听牌).

This module computes ``overlap_F`` for the four forms of the seed
(糊牌的基本牌型 / 七对 / 十三浪 / 九幺).  The per-suit decompositions are
cached by the suit's count vector (a table filled on first use).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache

from ..tiles import TERMINALS_AND_HONORS

__all__ = [
    "standard_overlap",
    "seven_pairs_overlap",
    "shisanlang_overlap",
    "jiuyao_overlap",
    "SHISANLANG_SUIT_SETS",
]


@cache
def _suit_blocks(counts: tuple[int, ...], chows: bool) -> frozenset[tuple[int, int, int]]:
    """All (melds, partials, pair) splits of one suit's count vector.

    melds: complete triples (pung or chow); partials: two tiles of one meld
    (kk, k k+1, k k+2); pair: 0/1, a pair set aside as the hand's pair.
    Tiles in none of these are leftovers (each can still seed a meld).
    """
    n = len(counts)
    i = 0
    while i < n and counts[i] == 0:
        i += 1
    if i == n:
        return frozenset({(0, 0, 0)})
    out: set[tuple[int, int, int]] = set()
    c = list(counts)

    def sub(delta: dict[int, int]) -> tuple[int, ...]:
        d = c[:]
        for k, v in delta.items():
            d[k] -= v
        return tuple(d)

    # leftover
    for a, b, p in _suit_blocks(sub({i: 1}), chows):
        out.add((a, b, p))
    if c[i] >= 3:
        for a, b, p in _suit_blocks(sub({i: 3}), chows):
            out.add((a + 1, b, p))
    if c[i] >= 2:
        for a, b, p in _suit_blocks(sub({i: 2}), chows):
            out.add((a, b + 1, p))
            if p == 0:
                out.add((a, b, 1))
    if chows:
        if i + 2 < n and c[i + 1] and c[i + 2]:
            for a, b, p in _suit_blocks(sub({i: 1, i + 1: 1, i + 2: 1}), chows):
                out.add((a + 1, b, p))
        if i + 1 < n and c[i + 1]:
            for a, b, p in _suit_blocks(sub({i: 1, i + 1: 1}), chows):
                out.add((a, b + 1, p))
        if i + 2 < n and c[i + 2]:
            for a, b, p in _suit_blocks(sub({i: 1, i + 2: 1}), chows):
                out.add((a, b + 1, p))
    return frozenset(out)


def _suit_parts(tiles_34: Sequence[int]) -> tuple[frozenset[tuple[int, int, int]], ...]:
    return (
        _suit_blocks(tuple(tiles_34[0:9]), True),
        _suit_blocks(tuple(tiles_34[9:18]), True),
        _suit_blocks(tuple(tiles_34[18:27]), True),
        _suit_blocks(tuple(tiles_34[27:34]), False),
    )


def standard_overlap(tiles_34: Sequence[int], melds_needed: int, pair: bool = True) -> int:
    """Largest part of the real tiles ``tiles_34`` that fits one complete standard hand.

    tiles_34: length-34 counts of the real (non-宝) concealed tiles.
    melds_needed: concealed melds still to make (4 minus declared melds).
    pair: whether the target also has the pair (AA); False for "melds only".
    """
    total = sum(tiles_34)
    states: set[tuple[int, int, int]] = {(0, 0, 0)}
    for part in _suit_parts(tiles_34):
        nxt = set()
        for a, b, p in states:
            for a2, b2, p2 in part:
                A, B, P = a + a2, b + b2, p + p2
                if melds_needed >= A + B and (1 if pair else 0) >= P:
                    nxt.add((A, B, P))
        states = nxt
    best = 0
    for a, b, p in states:
        left = total - 3 * a - 2 * b - 2 * p
        seeds = min(left, melds_needed - a - b)
        value = 3 * a + 2 * b + seeds
        if pair:
            value += 2 if p else (1 if left - seeds >= 1 else 0)
        best = max(best, value)
    return best


def seven_pairs_overlap(tiles_34: Sequence[int]) -> int:
    """Largest part of ``tiles_34`` that fits a 七对 (four of a kind = two pairs)."""
    units: list[int] = []
    for c in tiles_34:
        if c >= 4:
            units += [2, 2]
        elif c == 3:
            units += [2, 1]
        elif c == 2:
            units.append(2)
        elif c == 1:
            units.append(1)
    units.sort(reverse=True)
    return sum(units[:7])


def _valid_suit_set(ranks: tuple[int, ...]) -> bool:
    return all(b - a >= 3 for a, b in itertools.pairwise(ranks))


#: every set of ranks (0-based) that one suit may hold in 十三浪
SHISANLANG_SUIT_SETS: tuple[tuple[int, ...], ...] = tuple(
    s
    for s in (
        [()]
        + [(a,) for a in range(9)]
        + [(a, b) for a in range(9) for b in range(a + 1, 9)]
        + [(a, b, c) for a in range(9) for b in range(a + 1, 9) for c in range(b + 1, 9)]
    )
    if _valid_suit_set(s)
)


@cache
def _shisanlang_suit_best(present: frozenset[int]) -> tuple[int, int, int, int]:
    """For one suit: best overlap with a valid rank set of size 0, 1, 2, 3."""
    best = [0, 0, 0, 0]
    seen = [False, False, False, False]
    for s in SHISANLANG_SUIT_SETS:
        size = len(s)
        ov = len(present.intersection(s))
        if not seen[size] or ov > best[size]:
            best[size] = ov
            seen[size] = True
    return tuple(best)  # type: ignore[return-value]


def shisanlang_overlap(tiles_34: Sequence[int]) -> int:
    """Largest part of ``tiles_34`` that fits a 十三浪 of 14 tiles.

    A 十三浪 target holds, in each suit, ranks pairwise at least 3 apart
    (at most three per suit) and distinct honors, 14 tiles in all.
    """
    suits = [_shisanlang_suit_best(frozenset(r for r in range(9) if tiles_34[s * 9 + r])) for s in range(3)]
    honors = sum(1 for k in range(27, 34) if tiles_34[k])
    best = 0
    for n0 in range(4):
        for n1 in range(4):
            for n2 in range(4):
                h = 14 - n0 - n1 - n2
                if 0 <= h <= 7:
                    best = max(best, suits[0][n0] + suits[1][n1] + suits[2][n2] + min(honors, h))
    return best


def jiuyao_overlap(tiles_34: Sequence[int]) -> int:
    """Number of 1s, 9s and honors in ``tiles_34`` (the tiles a 九幺 can keep)."""
    return sum(tiles_34[k] for k in TERMINALS_AND_HONORS)
