"""Every reading of a complete hand: which form, the split, and what each 宝 stands for.

This is the thorough (and slower) side of the analysis, used for scoring and
for ``shangrao analyze``; :mod:`shangrao.analysis.shapes` answers yes/no and
shanten fast.

A 宝 that stands for its own face does not *act* (D2).  Groups made only of
宝 are reported as the 宝's own face (a pair or pung of it: not acting); when
the 宝 is not a 1/9/honor a second reading lets such a group stand for a 1/9/
honor face so that the 九幺 doubling can be claimed (then the 宝 acts).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..melds import Meld
from ..tiles import TERMINALS_AND_HONORS, check_bao, format_tile, format_tiles, suit_of, validate_tiles_34
from .shapes import SHISANLANG_SUIT_SETS

__all__ = ["Form", "Group", "Reading", "enumerate_readings"]


class Form(str, Enum):
    """The winning forms of the seed (糊牌的基本牌型 and 特殊牌型)."""

    STANDARD = "standard"  #: AA XXX XXX XXX XXX
    SEVEN_PAIRS = "seven_pairs"  #: 七对
    SHISANLANG = "shisanlang"  #: 十三浪
    JIUYAO = "jiuyao"  #: 九幺

    @property
    def chinese(self) -> str:
        return {"standard": "基本牌型", "seven_pairs": "七对", "shisanlang": "十三浪", "jiuyao": "九幺"}[self.value]


@dataclass(frozen=True)
class Group:
    """One concealed group of a reading.

    shape: ``'pair'``, ``'pung'``, ``'chow'``, ``'quad'`` (七对's four of a kind) or ``'single'`` (十三浪/九幺);
    written ``"kind"`` in :meth:`Reading.to_dict` (the JSON of 0.1.0).
    tiles: the faces the group shows, 宝 replaced by what they stand for.
    wild: for each tile, True where it is a 宝.
    """

    shape: str
    tiles: tuple[int, ...]
    wild: tuple[bool, ...]

    def __str__(self) -> str:
        return "".join(format_tile(t) + ("*" if w else "") for t, w in zip(self.tiles, self.wild))


@dataclass(frozen=True)
class Reading:
    """One way to read a complete hand.

    form: the :class:`Form`.
    groups: the concealed groups (declared melds are not repeated here).
    substitutions: sorted kinds that the 宝 tiles stand for (one per 宝 in hand).
    bao: the 宝 kind (or None).
    bao_acting: some 宝 stands for a kind other than its own face (D2 "有宝").
    all_pungs: standard form whose concealed and declared melds are all pungs/kongs (碰碰糊).
    has_chow: standard form with at least one chow (concealed or declared).
    quads: 七对 only: the number of four-of-a-kind (豪华, n).
    qixing: 十三浪/九幺 holding all seven honors (七星).
    all_terminal_honor: every tile of hand and melds, as read, is a 1, 9 or honor.
    """

    form: Form
    groups: tuple[Group, ...]
    substitutions: tuple[int, ...]
    bao: int | None
    bao_acting: bool
    all_pungs: bool = False
    has_chow: bool = False
    quads: int = 0
    qixing: bool = False
    all_terminal_honor: bool = False

    def describe(self) -> str:
        subs = ",".join(format_tile(s) for s in self.substitutions)
        head = f"{self.form.value}: " + " ".join(str(g) for g in self.groups)
        return head + (f" (宝→{subs})" if subs else "")

    def to_dict(self) -> dict[str, Any]:
        return {
            "form": self.form.value,
            "groups": [
                {"kind": g.shape, "tiles": format_tiles(g.tiles, sort=False), "wild": list(g.wild)} for g in self.groups
            ],
            "substitutions": [format_tile(s) for s in self.substitutions],
            "bao_acting": self.bao_acting,
            "all_pungs": self.all_pungs,
            "has_chow": self.has_chow,
            "quads": self.quads,
            "qixing": self.qixing,
            "all_terminal_honor": self.all_terminal_honor,
        }


def _placeholder_faces(bao: int | None) -> list[int]:
    """Faces an all-宝 group may be read as: the 宝 itself, and a 1/9/honor if the 宝 is not one."""
    if bao is None:
        return []
    faces = [bao]
    if bao not in TERMINALS_AND_HONORS:
        faces.append(0)  # 1m: any 1/9/honor would do; 1m is the canonical one
    return faces


def _standard(real: list[int], jokers: int, melds_needed: int, bao: int | None) -> Iterator[list[Group]]:
    """Yield lists of concealed groups (m melds + 1 pair) covering all real tiles and jokers."""

    def rec(start: int, j: int, melds_left: int, pair_left: int) -> Iterator[list[Group]]:
        k = start
        while k < 34 and real[k] == 0:
            k += 1
        if k == 34:
            need = 3 * melds_left + 2 * pair_left
            if need != j:
                return
            faces = _placeholder_faces(bao)
            if not faces:
                if need == 0:
                    yield []
                return
            for face in faces:
                groups = []
                if pair_left:
                    groups.append(Group("pair", (face, face), (True, True)))
                for _ in range(melds_left):
                    groups.append(Group("pung", (face, face, face), (True, True, True)))
                yield groups
            return
        c = real[k]
        # pair
        if pair_left:
            for use in (2, 1):
                wild = 2 - use
                if c >= use and j >= wild:
                    real[k] -= use
                    for rest in rec(k, j - wild, melds_left, 0):
                        yield [Group("pair", (k, k), (False,) * use + (True,) * wild)] + rest
                    real[k] += use
        if melds_left:
            # pung
            for use in (3, 2, 1):
                wild = 3 - use
                if c >= use and j >= wild:
                    real[k] -= use
                    for rest in rec(k, j - wild, melds_left - 1, pair_left):
                        yield [Group("pung", (k, k, k), (False,) * use + (True,) * wild)] + rest
                    real[k] += use
            # chows in which k is the lowest real tile
            if k < 27:
                for lo in (k - 2, k - 1, k):
                    if lo < 0 or suit_of(lo) != suit_of(k) or lo % 9 > 6:
                        continue
                    slots = (lo, lo + 1, lo + 2)
                    # tiles below k in this chow must be jokers (k is the lowest real tile left)
                    options: list[list[bool]] = [[]]
                    for s in slots:
                        if s < k:
                            options = [o + [True] for o in options]
                        elif s == k:
                            options = [o + [False] for o in options]
                        else:
                            nxt = []
                            for o in options:
                                nxt.append(o + [True])
                                if real[s] > 0:
                                    nxt.append(o + [False])
                            options = nxt
                    for wilds in options:
                        nw = sum(wilds)
                        if nw > j or nw == 3:
                            continue
                        for s, wl in zip(slots, wilds):
                            if not wl:
                                real[s] -= 1
                        for rest in rec(k, j - nw, melds_left - 1, pair_left):
                            yield [Group("chow", slots, tuple(wilds))] + rest
                        for s, wl in zip(slots, wilds):
                            if not wl:
                                real[s] += 1

    yield from rec(0, jokers, melds_needed, 1)


def _subs_of(groups: Sequence[Group]) -> tuple[int, ...]:
    return tuple(sorted(t for g in groups for t, w in zip(g.tiles, g.wild) if w))


def _seven_pairs(real: list[int], jokers: int, bao: int | None) -> Iterator[list[Group]]:
    kinds = [k for k in range(34) if real[k]]
    if any(real[k] > 4 for k in kinds):
        return
    base_need = sum(1 for k in kinds if real[k] % 2)
    if base_need > jokers:
        return
    # final count per real kind: round up to even; optionally +2 on a kind at 2 → 4
    finals = {k: real[k] + real[k] % 2 for k in kinds}
    spare = jokers - base_need
    if spare % 2:
        return
    spare_pairs = spare // 2
    upgradable = [k for k in kinds if finals[k] == 2]
    # choose how many spare pairs go to upgrade existing pairs into quads (each distinct kind once)
    from itertools import combinations

    seen = set()
    for up in range(0, min(spare_pairs, len(upgradable)) + 1):
        for chosen in combinations(upgradable, up):
            rest_pairs = spare_pairs - up
            f = dict(finals)
            for k in chosen:
                f[k] = 4
            # remaining joker pairs: bao-face pairs, two of them may form a bao-face quad
            joker_layouts = []
            if bao is not None and rest_pairs:
                joker_layouts.append([2] * rest_pairs)
                if rest_pairs >= 2:
                    joker_layouts.append([4] + [2] * (rest_pairs - 2))
            elif rest_pairs:
                continue
            else:
                joker_layouts.append([])
            # pairs/quads made of 宝 only: the 宝's own face, or (when the 宝 is not
            # a 1/9/honor) a 1/9/honor kind the hand lacks, so that the 九幺
            # doubling can be claimed, as _placeholder_faces does for the standard form
            faces = [bao] if bao is not None else []
            if bao is not None and bao not in TERMINALS_AND_HONORS:
                faces.append(next(k for k in sorted(TERMINALS_AND_HONORS) if not f.get(k)))
            for layout, face in [(lay, fc) for lay in joker_layouts for fc in (faces if lay else [None])]:
                groups = []
                for k in sorted(f):
                    n_real = real[k]
                    n = f[k]
                    wild = (False,) * n_real + (True,) * (n - n_real)
                    groups.append(Group("quad" if n == 4 else "pair", (k,) * n, wild))
                for n in layout:
                    assert face is not None  # a layout of 宝-only pairs comes with a face
                    groups.append(Group("quad" if n == 4 else "pair", (face,) * n, (True,) * n))
                if sum(len(g.tiles) for g in groups) != 14:
                    continue
                key = tuple((g.shape, g.tiles, g.wild) for g in groups)
                if key not in seen:
                    seen.add(key)
                    yield groups


def _shisanlang(real: list[int], jokers: int) -> Iterator[tuple[int, ...]]:
    """Yield sorted joker substitution tuples that make a valid 十三浪 (distinct kinds)."""
    if any(c > 1 for c in real):
        return
    present = {k for k in range(34) if real[k]}
    for s in range(3):
        ranks = tuple(sorted(k - 9 * s for k in present if suit_of(k) == s))
        if ranks not in _VALID_SETS:
            return
    candidates = [k for k in range(34) if k not in present]
    out: set[tuple[int, ...]] = set()

    def ok(kinds: set[int]) -> bool:
        return all(tuple(sorted(k - 9 * s for k in kinds if suit_of(k) == s)) in _VALID_SETS for s in range(3))

    def rec(idx: int, chosen: list[int], kinds: set[int]) -> None:
        if len(chosen) == jokers:
            out.add(tuple(chosen))
            return
        for i in range(idx, len(candidates)):
            k = candidates[i]
            kinds.add(k)
            if ok(kinds):
                chosen.append(k)
                rec(i + 1, chosen, kinds)
                chosen.pop()
            kinds.discard(k)

    rec(0, [], set(present))
    yield from sorted(out)


_VALID_SETS = frozenset(SHISANLANG_SUIT_SETS)


def enumerate_readings(
    tiles_34: Sequence[int],
    bao: int | None,
    melds: Sequence[Meld] = (),
) -> list[Reading]:
    """All readings of a complete concealed hand (``3*(4-len(melds)) + 2`` tiles).

    tiles_34: length-34 counts of the concealed hand *including* its 宝 tiles.
    bao: the 宝 kind 0..33, or None for a game without wildcards.
    melds: the declared melds.

    Returns readings of every form that fits, deduplicated; [] if none does.
    七对 and 十三浪 need 14 concealed tiles (no declared meld).  Raises ``InputError`` (a
    ValueError) for a ``tiles_34`` that is not 34 ints 0..4 (numpy integers are fine, floats
    are not) or a ``bao`` that is not a kind 0..33 or None.
    """
    tiles_34 = validate_tiles_34(tiles_34, "hand")
    bao = check_bao(bao)
    real = list(tiles_34)
    jokers = 0
    if bao is not None:
        jokers = real[bao]
        real[bao] = 0
    melds_needed = 4 - len(melds)
    size = sum(tiles_34)
    if size != 3 * melds_needed + 2:
        return []
    meld_tiles = [t for m in melds for t in m.tiles]
    melds_th = all(t in TERMINALS_AND_HONORS for t in meld_tiles)
    declared_all_pungs = all(m.is_pung_like for m in melds)
    declared_chow = any(not m.is_pung_like for m in melds)
    result: list[Reading] = []
    seen: set[tuple[Any, ...]] = set()

    def add(reading: Reading) -> None:
        key = (reading.form, tuple(sorted((g.shape, g.tiles, g.wild) for g in reading.groups)))
        if key not in seen:
            seen.add(key)
            result.append(reading)

    def acting(subs: Sequence[int]) -> bool:
        return any(s != bao for s in subs)

    for groups in _standard(real[:], jokers, melds_needed, bao):
        subs = _subs_of(groups)
        faces = [t for g in groups for t in g.tiles]
        add(
            Reading(
                form=Form.STANDARD,
                groups=tuple(groups),
                substitutions=subs,
                bao=bao,
                bao_acting=acting(subs),
                all_pungs=declared_all_pungs and all(g.shape != "chow" for g in groups),
                has_chow=declared_chow or any(g.shape == "chow" for g in groups),
                all_terminal_honor=melds_th and all(t in TERMINALS_AND_HONORS for t in faces),
            )
        )
    if not melds:
        for groups in _seven_pairs(real[:], jokers, bao):
            subs = _subs_of(groups)
            faces = [t for g in groups for t in g.tiles]
            add(
                Reading(
                    form=Form.SEVEN_PAIRS,
                    groups=tuple(groups),
                    substitutions=subs,
                    bao=bao,
                    bao_acting=acting(subs),
                    quads=sum(1 for g in groups if g.shape == "quad"),
                    all_terminal_honor=all(t in TERMINALS_AND_HONORS for t in faces),
                )
            )
        for subs in _shisanlang(real, jokers):
            kinds = sorted([k for k in range(34) if real[k]] + list(subs))
            singles = tuple(Group("single", (k,), (k in subs,)) for k in kinds)
            add(
                Reading(
                    form=Form.SHISANLANG,
                    groups=singles,
                    substitutions=tuple(sorted(subs)),
                    bao=bao,
                    bao_acting=acting(subs),
                    qixing=all(k in kinds for k in range(27, 34)),
                    all_terminal_honor=all(k in TERMINALS_AND_HONORS for k in kinds),
                )
            )
    if melds_th and all(real[k] == 0 or k in TERMINALS_AND_HONORS for k in range(34)):
        for reading in _jiuyao_readings(real, jokers, bao, meld_tiles):
            add(reading)
    return result


def _jiuyao_readings(real: list[int], jokers: int, bao: int | None, meld_tiles: list[int]) -> Iterator[Reading]:
    """Representative 九幺 readings: best with/without 七星 and with/without 宝 acting."""
    from itertools import combinations_with_replacement

    th = sorted(TERMINALS_AND_HONORS)
    best: dict[tuple[bool, bool], tuple[int, ...]] = {}
    for subs in combinations_with_replacement(th, jokers):
        counts = [real[k] for k in range(34)]
        for s in subs:
            counts[s] += 1
        for t in meld_tiles:
            counts[t] += 1
        qixing = all(counts[k] == 1 for k in range(27, 34))
        act = any(s != bao for s in subs)
        best.setdefault((qixing, act), subs)
    for (qixing, act), subs in sorted(best.items()):
        groups = [Group("single", (k,), (False,)) for k in range(34) for _ in range(real[k])]
        groups += [Group("single", (s,), (True,)) for s in subs]
        groups.sort(key=lambda g: g.tiles[0])
        yield Reading(
            form=Form.JIUYAO,
            groups=tuple(groups),
            substitutions=tuple(sorted(subs)),
            bao=bao,
            bao_acting=act,
            qixing=qixing,
            all_terminal_honor=True,
        )
