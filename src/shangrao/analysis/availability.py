"""Deficits counting only tiles that still exist (the four-copy limit, tiles in sight).

The fast analysis (:mod:`.tables`, :mod:`.shapes`) asks how far a hand is from
*some* complete hand, ignoring how many copies of each kind are left: with
``123456789m1111z`` and no 宝 it calls the hand ready (听牌), although only a
fifth 东 would complete it.  This module answers the same question when the
player's view is known: ``unseen`` (length-34 counts, ints 0..4) holds the copies
of each kind the player has not seen — not in this hand, not in any meld, not the
indicator (out of play, R1), not in a pond.

Model (exact).  A complete target hand ``T`` (counts, may exceed 4 through 宝)
is reached from the hand by drawing ``|T| - overlap(T, real) - w`` tiles (``real``
the non-宝 tiles, ``w`` the 宝 in hand), as in the fast analysis.  A missing tile
of kind ``k`` can be drawn only while copies are unseen, so beyond
``cap[k] = real[k] + unseen[k]`` copies the target needs a 宝 there; a drawn tile
of the 宝 kind is a 宝 (R4), so the 宝 available are the ``w`` in hand plus
``unseen[bao]``, and the 宝's own face can only be filled by a 宝.  ``T`` is
reachable iff ``shortage(T) = sum_k max(0, T[k] - cap[k]) <= w + unseen[bao]``.
The deficit of a form is the minimum draws over its reachable targets, or None.

Cost: the standard form enumerates, per suit, every multiset of at most four
melds and an optional pair (cached per suit count/cap vectors), a few tens of
milliseconds; it is run only when the fast answer may be wrong, so pass
``unseen`` where the answer is shown (CLI, play screen), not in bots' inner loops.
The brute-force check is :func:`shangrao.analysis.reference.ref_available_shanten`
(a search over draws of unseen tiles).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, pairwise

from ..tiles import TERMINALS_AND_HONORS

__all__ = ["available_deficits", "check_unseen"]

_SUITS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))


def check_unseen(unseen: Sequence[int], tiles_34: Sequence[int]) -> list[int]:
    """Validate ``unseen`` against the hand: 34 ints 0..4, hand + unseen <= 4 per kind.

    Raises ``ValueError`` naming the first bad kind.
    """
    from ..tiles import format_tile

    try:
        raw = list(unseen)
    except TypeError:
        raise ValueError("unseen must be a sequence of 34 ints 0..4") from None
    if len(raw) != 34 or any(not (x.__class__ is int or type(x).__name__.startswith(("int", "uint"))) for x in raw):
        raise ValueError("unseen must be a sequence of 34 ints 0..4 (copies not in sight)")
    u = [int(x) for x in raw]
    if any(not 0 <= x <= 4 for x in u):
        raise ValueError("unseen must be a sequence of 34 ints 0..4 (copies not in sight)")
    for k in range(34):
        if tiles_34[k] + u[k] > 4:
            raise ValueError(f"unseen: {u[k]} unseen {format_tile(k)} with {tiles_34[k]} in hand is more than 4 copies")
    return u


@lru_cache(maxsize=2)
def _targets(n: int, honors: bool) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """Every (melds j <= 4, pair 0/1, counts) target of one suit of ``n`` kinds."""
    groups: list[tuple[int, ...]] = []
    for k in range(n):
        g = [0] * n
        g[k] = 3
        groups.append(tuple(g))
    if not honors:
        for k in range(n - 2):
            g = [0] * n
            g[k] = g[k + 1] = g[k + 2] = 1
            groups.append(tuple(g))
    out = []
    for j in range(5):
        for combo in combinations_with_replacement(range(len(groups)), j):
            base = [0] * n
            for gi in combo:
                for k, v in enumerate(groups[gi]):
                    base[k] += v
            out.append((j, 0, tuple(base)))
            for k in range(n):
                t = list(base)
                t[k] += 2
                out.append((j, 1, tuple(t)))
    return tuple(out)


@lru_cache(maxsize=4096)
def _suit_frontier(
    real: tuple[int, ...], cap: tuple[int, ...], honors: bool, m: int, wmax: int
) -> dict[tuple[int, int], dict[int, int]]:
    """{(j, p): {shortage: max overlap}} over this suit's targets with j <= m, shortage <= wmax."""
    best: dict[tuple[int, int], dict[int, int]] = {}
    n = len(real)
    idx = range(n)
    for j, p, t in _targets(n, honors):
        if j > m:
            continue
        sh = 0
        ov = 0
        for k in idx:
            tk = t[k]
            if tk:
                c = cap[k]
                if tk > c:
                    sh += tk - c
                r = real[k]
                ov += tk if tk < r else r
        if sh > wmax:
            continue
        d = best.setdefault((j, p), {})
        if d.get(sh, -1) < ov:
            d[sh] = ov
    return best


def _standard(real: list[int], cap: list[int], m: int, wmax: int) -> int | None:
    """Max overlap of a reachable standard target (m melds + pair), or None."""
    states: dict[tuple[int, int, int], int] = {(0, 0, 0): 0}
    for lo, hi, honors in _SUITS:
        front = _suit_frontier(tuple(real[lo:hi]), tuple(cap[lo:hi]), honors, m, wmax)
        new: dict[tuple[int, int, int], int] = {}
        for (j, p, s), ov in states.items():
            for (j2, p2), d in front.items():
                if j + j2 > m or p + p2 > 1:
                    continue
                for s2, ov2 in d.items():
                    if s + s2 > wmax:
                        continue
                    key = (j + j2, p + p2, s + s2)
                    if new.get(key, -1) < ov + ov2:
                        new[key] = ov + ov2
        states = new
    vals = [ov for (j, p, _), ov in states.items() if j == m and p == 1]
    return max(vals) if vals else None


def _seven_pairs(real: list[int], cap: list[int], wmax: int) -> int | None:
    states: dict[tuple[int, int], int] = {(0, 0): 0}
    for k in range(34):
        new: dict[tuple[int, int], int] = {}
        for (pairs, s), ov in states.items():
            for t in (0, 2, 4, 6):
                p2 = pairs + t // 2
                s2 = s + max(0, t - cap[k])
                if p2 > 7 or s2 > wmax:
                    continue
                o2 = ov + min(t, real[k])
                if new.get((p2, s2), -1) < o2:
                    new[(p2, s2)] = o2
        states = new
    vals = [ov for (pairs, _), ov in states.items() if pairs == 7]
    return max(vals) if vals else None


_RANK_SETS = [s for size in range(4) for s in combinations(range(9), size) if all(b - a >= 3 for a, b in pairwise(s))]


def _shisanlang(real: list[int], cap: list[int], wmax: int) -> int | None:
    options: list[dict[tuple[int, int], int]] = []  # per part: {(size, shortage): max overlap}
    for lo in (0, 9, 18):
        d: dict[tuple[int, int], int] = {}
        for rs in _RANK_SETS:
            ov = sum(1 for r in rs if real[lo + r])
            sh = sum(1 for r in rs if cap[lo + r] == 0)
            key = (len(rs), sh)
            if d.get(key, -1) < ov:
                d[key] = ov
        options.append(d)
    present = sum(1 for k in range(27, 34) if real[k])
    dead = sum(1 for k in range(27, 34) if cap[k] == 0)
    free = 7 - present - dead
    d = {}
    for x in range(present + 1):
        for y in range(free + 1):
            for z in range(dead + 1):
                key = (x + y + z, z)
                if d.get(key, -1) < x:
                    d[key] = x
    options.append(d)
    states = {(0, 0): 0}
    for d in options:
        new: dict[tuple[int, int], int] = {}
        for (n, s), ov in states.items():
            for (n2, s2), ov2 in d.items():
                if n + n2 > 14 or s + s2 > wmax:
                    continue
                key = (n + n2, s + s2)
                if new.get(key, -1) < ov + ov2:
                    new[key] = ov + ov2
        states = new
    vals = [ov for (n, _), ov in states.items() if n == 14]
    return max(vals) if vals else None


def _jiuyao(real: list[int], cap: list[int], target: int, wmax: int) -> int | None:
    th = min(target, sum(real[k] for k in TERMINALS_AND_HONORS))
    supply = sum(cap[k] - real[k] for k in TERMINALS_AND_HONORS)
    return th if max(0, target - th - supply) <= wmax else None


def available_deficits(
    tiles_34: Sequence[int], bao: int | None, unseen: Sequence[int], m: int, jiuyao_ok: bool
) -> dict[str, int | None]:
    """Draws lacking per form counting only unseen tiles; None = the form cannot be reached.

    tiles_34: the concealed hand (宝 included); unseen: checked counts (see
    :func:`check_unseen`); m: melds still to make (4 - declared).  Keys:
    ``standard``, ``seven_pairs``, ``shisanlang`` (m == 4 only), ``jiuyao`` (if allowed).
    """
    real = list(tiles_34)
    cap = [real[k] + unseen[k] for k in range(34)]
    w = 0
    wmax = 0
    if bao is not None:
        w = real[bao]
        real[bao] = 0
        cap[bao] = 0
        wmax = w + unseen[bao]
    target = 3 * m + 2

    def deficit(ov: int | None, size: int) -> int | None:
        return None if ov is None else size - min(size, ov + w)

    out: dict[str, int | None] = {"standard": deficit(_standard(real, cap, m, wmax), target)}
    if m == 4:
        out["seven_pairs"] = deficit(_seven_pairs(real, cap, wmax), 14)
        out["shisanlang"] = deficit(_shisanlang(real, cap, wmax), 14)
    if jiuyao_ok:
        out["jiuyao"] = deficit(_jiuyao(real, cap, target, wmax), target)
    return out
