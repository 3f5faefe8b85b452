"""Slow, obviously-correct reference for the wildcard analysis (tests only).

The fast analysis (:mod:`shangrao.analysis.shapes`) never substitutes a 宝:
it computes how much of the real tiles fits some complete hand and lets the
宝 fill the rest.  This module does the opposite, the naive way: it replaces
each 宝 of the concealed hand by a concrete kind (every combination with
replacement of the candidate kinds below) and checks the resulting *plain*
hand with a plain recursive decomposition.  It shares no code with
``shapes.py`` or ``readings.py``; property tests
(``tests/analysis/test_property.py``) compare the two.

Which substitutions are tried, and why that is complete.  A substitution
only has to be *found* if one exists.

* Standard form (AA XXX XXX XXX XXX) and the 宝吊 state (melds only): every
  substitution is tried, factored by suit: a multiset of substituted kinds is
  the same thing as a number of 宝 per suit plus a multiset inside each suit,
  and a plain hand is melds + pair iff every suit splits into melds (one of
  them also holding the pair).  So :func:`ref_standard` tries every
  allocation of the 宝 to the four suits and, inside a suit, every multiset.
* 七对: in a complete plain 七对 every substituted 宝 lies in a pair.  If the
  pair holds a real tile r, the 宝 stands for r's kind; if the pair is two
  宝, rewrite both as the 宝's own face and it is still a pair.  So the real
  kinds and the 宝's face suffice as candidates.
* 十三浪: all 14 kinds must be distinct, so a 宝 can only stand for a kind the
  real tiles do not hold, and two 宝 never for the same kind; the reference
  tries every set of such kinds (a 宝 may be a far-away honor or a lone rank
  of an empty suit, so there is no restriction by distance).  If the real
  tiles already clash (a repeat, two ranks of one suit less than 3 apart),
  adding tiles cannot help.
* 九幺: every tile must be a 1, 9 or honor, so a 宝 can only stand for one of
  those 13 kinds; the reference tries all of them.  A real or meld tile that
  is not a 1/9/honor can never be substituted away.

The candidate restriction of the standard form used for shanten: in a
complete plain hand each substituted 宝 lies in a group (pair, pung, chow).
If that group also holds a real tile r, the 宝 stands for r itself or for a
kind of r's suit at most 2 ranks away (a chow), i.e. a kind within ±2 of a
real suited tile or an honor held in hand.  If the group is made of 宝 only,
rewrite every 宝 of that group as the 宝's own face: a pair or pung of one
kind is still a valid group (a chow becomes a pung).  Hence {suited kinds
within ±2 (same suit) of a real tile} ∪ {honors in hand} ∪ {the 宝's own
face} suffice (:func:`near_candidates`).

Shanten (:func:`ref_shanten`): the minimum over substitutions of a plain,
independent shanten per form (classic mentsu/taatsu/pair search for the
standard form, pair counting for 七对, a per-suit search over rank sets for
十三浪, a count for 九幺).  Like the fast analysis it ignores the four-copy
limit (a 宝 may be a fifth copy).  The candidate argument above carries over:
an optimal target hand can be chosen so that the tiles the 宝 stand for are
within ±2 of a real tile, equal to a real kind, or the 宝's own face (its
groups without a real tile can be the 宝's face), for 十三浪 any kind absent
from the hand, for 九幺 any 1/9/honor.  The shanten of a plain hand is taken
"ignoring copy limits" (a target may hold a fifth copy), as the fast analysis
does.  The cost is
exponential in the number of 宝, so use it for 0-2 宝.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cache, lru_cache
from itertools import combinations, combinations_with_replacement, pairwise
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only for annotations: the reference uses nothing of the fast path
    from ..melds import Meld

__all__ = [
    "TERMINALS_HONORS",
    "split_bao",
    "plain_standard",
    "plain_melds_only",
    "plain_seven_pairs",
    "plain_shisanlang",
    "plain_jiuyao",
    "plain_forms",
    "ref_winning_forms",
    "ref_is_winning",
    "ref_waits",
    "ref_is_baodiao_state",
    "ref_shanten",
    "ref_plain_shanten",
    "ref_available_shanten",
    "ref_available_waits",
]

#: 1m 9m 1p 9p 1s 9s and the seven honors (written out, not imported)
TERMINALS_HONORS = frozenset([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33])

STANDARD, SEVEN_PAIRS, SHISANLANG, JIUYAO = "standard", "seven_pairs", "shisanlang", "jiuyao"


# ---------------------------------------------------------------- plain checks


@cache
def _suit_melds(counts: tuple[int, ...], honors: bool) -> bool:
    """Can this one-suit count vector be split into pungs and chows (chows not for honors)?"""
    i = next((k for k, c in enumerate(counts) if c), None)
    if i is None:
        return True
    c = list(counts)
    if c[i] >= 3:
        c[i] -= 3
        if _suit_melds(tuple(c), honors):
            return True
        c[i] += 3
    if not honors and i + 2 < len(c) and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        if _suit_melds(tuple(c), honors):
            return True
    return False


@cache
def _suit_melds_pair(counts: tuple[int, ...], honors: bool) -> bool:
    """Can this one-suit count vector be split into one pair plus pungs and chows?"""
    for k, c in enumerate(counts):
        if c >= 2:
            rest = list(counts)
            rest[k] -= 2
            if _suit_melds(tuple(rest), honors):
                return True
    return False


def _suits(counts: Sequence[int]) -> list[tuple[tuple[int, ...], bool]]:
    return [
        (tuple(counts[0:9]), False),
        (tuple(counts[9:18]), False),
        (tuple(counts[18:27]), False),
        (tuple(counts[27:34]), True),
    ]


def plain_standard(counts: Sequence[int], melds_needed: int) -> bool:
    """Plain counts (no wildcard; counts may exceed 4) = ``melds_needed`` melds + one pair."""
    return _plain_standard(tuple(counts), melds_needed)


@lru_cache(maxsize=1 << 20)
def _plain_standard(counts: tuple[int, ...], melds_needed: int) -> bool:
    if sum(counts) != 3 * melds_needed + 2:
        return False
    suits = _suits(counts)
    for p in range(4):  # the suit holding the pair
        if sum(suits[p][0]) % 3 != 2:
            continue
        if _suit_melds_pair(*suits[p]) and all(_suit_melds(*suits[s]) for s in range(4) if s != p):
            return True
    return False


def plain_melds_only(counts: Sequence[int], melds: int) -> bool:
    """Plain counts = exactly ``melds`` melds (pungs/chows), no pair."""
    return sum(counts) == 3 * melds and all(_suit_melds(*s) for s in _suits(counts))


def plain_seven_pairs(counts: Sequence[int]) -> bool:
    """14 tiles in pairs; four (or six) of a kind count as two (three) pairs."""
    return sum(counts) == 14 and all(c % 2 == 0 for c in counts)


def plain_shisanlang(counts: Sequence[int]) -> bool:
    """14 distinct kinds; inside each suit the ranks pairwise differ by at least 3."""
    if sum(counts) != 14 or any(c > 1 for c in counts):
        return False
    for s in range(3):
        ranks = [r for r in range(9) if counts[9 * s + r]]
        for a, b in pairwise(ranks):
            if b - a < 3:
                return False
    return True


def _no_clash(counts: Sequence[int]) -> bool:
    """No repeated kind and, per suit, ranks pairwise >= 3 apart (十三浪 so far)."""
    if any(c > 1 for c in counts):
        return False
    for s in range(3):
        ranks = [r for r in range(9) if counts[9 * s + r]]
        if any(b - a < 3 for a, b in pairwise(ranks)):
            return False
    return True


def plain_jiuyao(counts: Sequence[int], meld_tiles: Iterable[int] = ()) -> bool:
    """Every tile of hand and melds is a 1, a 9 or an honor."""
    return all(c == 0 or k in TERMINALS_HONORS for k, c in enumerate(counts)) and all(
        t in TERMINALS_HONORS for t in meld_tiles
    )


def plain_forms(counts: Sequence[int], melds: Sequence[Meld]) -> set[str]:
    """Forms a plain complete hand (``3*(4-len(melds))+2`` tiles) wins in."""
    n = len(melds)
    meld_tiles = [t for m in melds for t in m.tiles]
    out = set()
    if plain_standard(counts, 4 - n):
        out.add(STANDARD)
    if n == 0 and plain_seven_pairs(counts):
        out.add(SEVEN_PAIRS)
    if n == 0 and plain_shisanlang(counts):
        out.add(SHISANLANG)
    if sum(counts) == 3 * (4 - n) + 2 and plain_jiuyao(counts, meld_tiles):
        out.add(JIUYAO)
    return out


# ---------------------------------------------------------------- substitution


def split_bao(tiles_34: Sequence[int], bao: int | None) -> tuple[list[int], int]:
    real = list(tiles_34)
    if bao is None:
        return real, 0
    w = real[bao]
    real[bao] = 0
    return real, w


def near_candidates(real: Sequence[int], bao: int | None) -> list[int]:
    """Kinds within ±2 (same suit) of a real suited tile, honors in hand, and the 宝's face."""
    out = set()
    for k, c in enumerate(real):
        if not c:
            continue
        if k >= 27:
            out.add(k)
        else:
            for d in (-2, -1, 0, 1, 2):
                j = k + d
                if 0 <= j < 27 and j // 9 == k // 9:
                    out.add(j)
    if bao is not None:
        out.add(bao)
    return sorted(out)


def substitutions(
    real: Sequence[int], w: int, candidates: Sequence[int]
) -> Iterator[tuple[tuple[int, ...], list[int]]]:
    """Every substituted plain hand: yields (subs, counts)."""
    for subs in combinations_with_replacement(candidates, w):
        counts = list(real)
        for s in subs:
            counts[s] += 1
        yield subs, counts


def _suit_ranges() -> list[tuple[int, int, bool]]:
    return [(0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True)]


@cache
def _suit_fill(counts: tuple[int, ...], honors: bool, wild: int, pair: bool) -> bool:
    """Some substitution of ``wild`` 宝 by kinds of this suit makes it melds (+ a pair if ``pair``)."""
    for subs in combinations_with_replacement(range(len(counts)), wild):
        c = list(counts)
        for k in subs:
            c[k] += 1
        if sum(c) % 3 != (2 if pair else 0):
            continue
        if (_suit_melds_pair if pair else _suit_melds)(tuple(c), honors):
            return True
    return False


def _allocations(w: int, parts: int = 4) -> Iterator[tuple[int, ...]]:
    """Every way to give ``w`` 宝 to ``parts`` suits."""
    if parts == 1:
        yield (w,)
        return
    for first in range(w + 1):
        for rest in _allocations(w - first, parts - 1):
            yield (first,) + rest


def ref_standard(real: Sequence[int], w: int, melds_needed: int, pair: bool = True) -> bool:
    """Some substitution of the ``w`` 宝 makes ``real`` + 宝 = ``melds_needed`` melds (+ one pair).

    Every multiset of substituted kinds splits uniquely into a number of 宝
    per suit and a multiset inside each suit, and a plain hand is melds + pair
    iff each suit is melds (one suit: melds + the pair); so trying every
    allocation and every per-suit multiset tries every substitution.
    """
    if sum(real) + w != 3 * melds_needed + (2 if pair else 0):
        return False
    suits = [(tuple(real[lo:hi]), hon) for lo, hi, hon in _suit_ranges()]
    for alloc in _allocations(w):
        for p in range(4) if pair else [None]:
            if all(_suit_fill(suits[i][0], suits[i][1], alloc[i], i == p) for i in range(4)):
                return True
    return False


def ref_winning_forms(tiles_34: Sequence[int], bao: int | None, melds: Sequence[Meld] = ()) -> set[str]:
    """Forms in which some substitution of the 宝 makes a complete plain hand."""
    n = len(melds)
    m = 4 - n
    if sum(tiles_34) != 3 * m + 2:
        return set()
    real, w = split_bao(tiles_34, bao)
    meld_tiles = [t for mm in melds for t in mm.tiles]
    out = set()
    if ref_standard(real, w, m):
        out.add(STANDARD)
    if n == 0:
        # 七对: a 宝 pairs with a real tile (its kind) or with another 宝 (then both
        # may as well be the 宝's face), so real kinds and the face suffice.
        pair_cands = sorted({k for k in range(34) if real[k]} | ({bao} if bao is not None else set()))
        for _, counts in substitutions(real, w, pair_cands):
            if plain_seven_pairs(counts):
                out.add(SEVEN_PAIRS)
                break
        # 十三浪: the 宝 take distinct kinds the real tiles lack; if the real
        # tiles already clash (a repeat, or two ranks of a suit < 3 apart),
        # adding tiles cannot help.
        if _no_clash(real):
            absent = [k for k in range(34) if not real[k]]
            for subs in combinations(absent, w):
                counts = list(real)
                for s in subs:
                    counts[s] += 1
                if plain_shisanlang(counts):
                    out.add(SHISANLANG)
                    break
    # 九幺: a real or meld tile that is not a 1/9/honor can never be substituted away.
    if plain_jiuyao(real, meld_tiles):
        for _, counts in substitutions(real, w, sorted(TERMINALS_HONORS)):
            if plain_jiuyao(counts, meld_tiles):
                out.add(JIUYAO)
                break
    return out


def ref_is_winning(tiles_34: Sequence[int], bao: int | None, melds: Sequence[Meld] = ()) -> bool:
    return bool(ref_winning_forms(tiles_34, bao, melds))


def ref_waits(
    tiles_34: Sequence[int], bao: int | None, melds: Sequence[Meld] = (), exclude_dead: bool = True
) -> dict[int, set[str]]:
    """{kind: forms} for each kind whose draw completes the hand (dead kinds left out if asked)."""
    held = list(tiles_34)
    for mm in melds:
        for t in mm.tiles:
            held[t] += 1
    out = {}
    for k in range(34):
        if exclude_dead and held[k] >= 4:
            continue
        hand = list(tiles_34)
        hand[k] += 1
        forms = ref_winning_forms(hand, bao, melds)
        if forms:
            out[k] = forms
    return out


def ref_is_baodiao_state(tiles_34: Sequence[int], bao: int | None, melds: Sequence[Meld] = ()) -> bool:
    """The hand before the draw, less one 宝, can be substituted into complete melds."""
    if bao is None or tiles_34[bao] == 0:
        return False
    m = 4 - len(melds)
    rest = list(tiles_34)
    rest[bao] -= 1
    real, w = split_bao(rest, bao)
    return ref_standard(real, w, m, pair=False)


# ---------------------------------------------------------------- shanten

_SUITED_RANK_SETS = [
    s for size in range(4) for s in combinations(range(9), size) if all(b - a >= 3 for a, b in pairwise(s))
]


@cache
def _std_search(counts: tuple[int, ...], honors: bool) -> frozenset[tuple[int, int, int]]:
    """All (melds, partial melds, pairs≤1) decompositions of one suit (classic search)."""
    i = next((k for k, c in enumerate(counts) if c), None)
    if i is None:
        return frozenset({(0, 0, 0)})
    out = set()

    def go(take: Sequence[int], dm: int, dt: int, dp: int) -> None:
        c = list(counts)
        for k in take:
            c[k] -= 1
        for m, t, p in _std_search(tuple(c), honors):
            if p + dp <= 1:
                out.add((m + dm, t + dt, p + dp))

    go([i], 0, 0, 0)  # isolated
    if counts[i] >= 3:
        go([i, i, i], 1, 0, 0)
    if counts[i] >= 2:
        go([i, i], 0, 1, 0)
        go([i, i], 0, 0, 1)
    if not honors:
        n = len(counts)
        if i + 2 < n and counts[i + 1] and counts[i + 2]:
            go([i, i + 1, i + 2], 1, 0, 0)
        if i + 1 < n and counts[i + 1]:
            go([i, i + 1], 0, 1, 0)
        if i + 2 < n and counts[i + 2]:
            go([i, i + 2], 0, 1, 0)
    return frozenset(out)


def _std_shanten(counts: Sequence[int], m: int) -> int:
    """Classic formula over every decomposition (suits decompose independently)."""
    combos = {(0, 0, 0)}
    for lo, hi, hon in _suit_ranges():
        part = _std_search(tuple(counts[lo:hi]), hon)
        combos = {(a + a2, b + b2, p + p2) for a, b, p in combos for a2, b2, p2 in part if p + p2 <= 1}
    return min(2 * m - 2 * a - min(b, m - a) - p for a, b, p in combos if a <= m)


def _seven_pairs_shanten(counts: Sequence[int]) -> int:
    pairs = min(sum(c // 2 for c in counts), 7)
    singles = sum(c % 2 for c in counts)
    need = 7 - pairs
    seeded = min(singles, need)  # a single seeds a pair with one draw, else two draws
    return seeded + 2 * (need - seeded) - 1


@cache
def _suit_rank_overlap(present: tuple[bool, ...]) -> tuple[int, ...]:
    """For sizes 0-3: the most present ranks a valid 十三浪 rank set of that size holds."""
    by_size = [0] * 4
    for rs in _SUITED_RANK_SETS:
        by_size[len(rs)] = max(by_size[len(rs)], sum(present[r] for r in rs))
    return tuple(by_size)


def _shisanlang_shanten(counts: Sequence[int]) -> int:
    honors_present = sum(1 for k in range(27, 34) if counts[k])
    per_suit = [_suit_rank_overlap(tuple(counts[9 * s + r] > 0 for r in range(9))) for s in range(3)]
    best = 0
    for n0 in range(4):
        for n1 in range(4):
            for n2 in range(4):
                h = 14 - n0 - n1 - n2
                if 0 <= h <= 7:
                    best = max(best, per_suit[0][n0] + per_suit[1][n1] + per_suit[2][n2] + min(h, honors_present))
    return 14 - best - 1


def _jiuyao_shanten(counts: Sequence[int], size: int) -> int:
    th = sum(c for k, c in enumerate(counts) if k in TERMINALS_HONORS)
    return size - min(size, th) - 1


def ref_plain_shanten(counts: Sequence[int], melds: Sequence[Meld] = ()) -> dict[str, int]:
    """Plain shanten per reachable form (-1 complete, 0 ready); copy limits ignored.

    Standard: ``2*m - 2*melds - min(partials, m - melds) - pair`` minimised over
    all decompositions (m = melds still to make; the classic formula).  七对:
    one draw per missing pair that a single can seed, two otherwise.  十三浪:
    13 minus the largest part of the hand some valid 14-tile 十三浪 contains.
    九幺: ``N - 1 -`` the 1/9/honor tiles (N = complete hand size).
    """
    n = len(melds)
    m = 4 - n
    out = {STANDARD: _std_shanten(counts, m)}
    if n == 0:
        out[SEVEN_PAIRS] = _seven_pairs_shanten(counts)
        out[SHISANLANG] = _shisanlang_shanten(counts)
    if all(t in TERMINALS_HONORS for mm in melds for t in mm.tiles):
        out[JIUYAO] = _jiuyao_shanten(counts, 3 * m + 2)
    return out


def ref_shanten(tiles_34: Sequence[int], bao: int | None, melds: Sequence[Meld] = ()) -> dict[str, int]:
    """Per-form shanten with 宝: min over substitutions of the plain per-form shanten."""
    real, w = split_bao(tiles_34, bao)
    n = len(melds)
    m = 4 - n
    near = near_candidates(real, bao)
    out: dict[str, int] = {}
    out[STANDARD] = min(_std_shanten(c, m) for _, c in substitutions(real, w, near))
    if n == 0:
        out[SEVEN_PAIRS] = min(_seven_pairs_shanten(c) for _, c in substitutions(real, w, near))
        absent = sorted({k for k in range(34) if not real[k]} | ({bao} if bao is not None else set()))
        out[SHISANLANG] = min(_shisanlang_shanten(c) for _, c in substitutions(real, w, absent))
    if all(t in TERMINALS_HONORS for mm in melds for t in mm.tiles):
        out[JIUYAO] = min(_jiuyao_shanten(c, 3 * m + 2) for _, c in substitutions(real, w, sorted(TERMINALS_HONORS)))
    return out


# ---------------------------------------------------------------- availability


def ref_available_waits(
    tiles_34: Sequence[int], bao: int | None, melds: Sequence[Meld], unseen: Sequence[int]
) -> dict[int, set[str]]:
    """:func:`ref_waits` keeping only kinds with a copy left unseen (the rest cannot be drawn)."""
    return {k: f for k, f in ref_waits(tiles_34, bao, melds, exclude_dead=False).items() if unseen[k] > 0}


def ref_available_shanten(
    tiles_34: Sequence[int], bao: int | None, melds: Sequence[Meld], unseen: Sequence[int], limit: int = 2
) -> int | None:
    """Shanten counting only tiles that exist, by its definition: the fewest draws of unseen
    tiles (each followed by any discard) that reach a complete hand, less one.

    A search over every draw of a kind with a copy unseen and every discard, depth-first
    to ``limit`` draws (a 13-tile hand: shanten <= limit - 1).  Returns None beyond the
    limit.  Exponential; for tests only.
    """
    m = 4 - len(melds)
    memo: dict[tuple[object, ...], bool] = {}

    def reach(hand: tuple[int, ...], left: tuple[int, ...], d: int) -> bool:
        key = (hand, left, d)
        if key in memo:
            return memo[key]
        ok = False
        if sum(hand) == 3 * m + 2:
            if ref_is_winning(hand, bao, melds):
                ok = True
            elif d > 0:
                h = list(hand)
                for x in range(34):
                    if h[x]:
                        h[x] -= 1
                        if reach(tuple(h), left, d):
                            ok = True
                        h[x] += 1
                        if ok:
                            break
        elif d > 0:
            h = list(hand)
            lf = list(left)
            for k in range(34):
                if lf[k]:
                    h[k] += 1
                    lf[k] -= 1
                    if reach(tuple(h), tuple(lf), d - 1):
                        ok = True
                    h[k] -= 1
                    lf[k] += 1
                    if ok:
                        break
        memo[key] = ok
        return ok

    for d in range(limit + 1):
        if reach(tuple(tiles_34), tuple(unseen), d):
            return d - 1
    return None
