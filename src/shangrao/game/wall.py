"""The wall: shuffling, dice, the indicator, and scripted walls for tests.

Layout (docs/rules.md R1, R5): ``wall`` is the full order of the 136 tile ids,
index 0 = head, index 135 = tail.  The dealer rolls two dice (total ``t`` in
2..12); the ``t``-th tile counted from the tail (index ``136 - t``) is the
indicator, taken out of play.  The other 135 tiles are the live wall: seats
are dealt 13 each from the head (the dealer's 13 first, then the following
seats in turn order), the dealer then draws first; all draws come from the
head, kong replacements from the tail.  There is no dead wall.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..errors import InputError
from ..tiles import NUM_TILES, check_int, parse_tile, parse_tiles

__all__ = ["shuffled_wall", "roll_dice", "normalize_wall", "script_wall", "split_wall", "WallError"]


class WallError(InputError):
    """A wall or dice given to the game is malformed."""


def shuffled_wall(rng: random.Random) -> list[int]:
    """A shuffled list of the 136 tile ids."""
    wall = list(range(NUM_TILES))
    rng.shuffle(wall)
    return wall


def roll_dice(rng: random.Random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def normalize_wall(wall: Sequence[int] | str) -> list[int]:
    """Tile ids from a wall given as 136 ids, 136 kinds, or a tile string of 136 tiles.

    A list whose values are all below 34 is read as kinds; copies of a kind get
    the ids ``4*kind .. 4*kind+3`` in order of appearance.  Raises :class:`WallError`.
    """
    if isinstance(wall, str):
        wall = parse_tiles(wall)
    wall = list(wall)
    if len(wall) != NUM_TILES:
        raise WallError(f"a wall has 136 tiles, got {len(wall)}")
    if any(not isinstance(t, int) or isinstance(t, bool) for t in wall):
        raise WallError("wall entries must be ints (tile ids 0..135 or kinds 0..33)")
    if max(wall) < 34:
        used = [0] * 34
        ids = []
        for k in wall:
            if k < 0:
                raise WallError(f"bad tile kind {k}")
            if used[k] >= 4:
                raise WallError(f"the wall holds a fifth copy of kind {k}")
            ids.append(4 * k + used[k])
            used[k] += 1
        return ids
    if sorted(wall) != list(range(NUM_TILES)):
        raise WallError("a wall of tile ids must hold each id 0..135 exactly once")
    return wall


def check_dice(dice: Sequence[int]) -> tuple[int, int]:
    if isinstance(dice, (str, bytes, Mapping)) or not isinstance(dice, Iterable):
        raise WallError(f"dice must be two ints 1..6, got {dice!r}")
    raw = tuple(dice)
    if len(raw) != 2:
        raise WallError(f"dice must be two ints 1..6, got {raw!r}")
    d1, d2 = (check_int(d, f"dice must be two ints 1..6, got {raw!r}: each die", 1, 6, WallError) for d in raw)
    return d1, d2


def split_wall(wall: Sequence[int], dice: Sequence[int]) -> tuple[int, list[int]]:
    """(indicator id, live wall of 135 ids) for a full wall and the dice."""
    pos = NUM_TILES - sum(dice)
    return wall[pos], list(wall[:pos]) + list(wall[pos + 1 :])


def _kinds(x: Iterable[int] | str) -> list[int]:
    return parse_tiles(x) if isinstance(x, str) else list(x)


def script_wall(
    hands: Mapping[int, Iterable[int] | str],
    draws: Iterable[int] | str = (),
    replacements: Iterable[int] | str = (),
    indicator: int | str = 27,
    dice: Sequence[int] = (1, 1),
    dealer: int = 0,
) -> dict[str, Any]:
    """Build a wall (as 136 kinds) that forces a situation; returns ``{"wall": ..., "dice": ...}``.

    hands: absolute seat -> its 13 dealt tiles (missing seats get filler).
    draws: kinds drawn from the head after the deal, in order (the first is
        the dealer's first draw).
    replacements: kinds drawn from the tail (kong replacements), in order.
    indicator: the flipped tile (kind or tile string); 宝 is the next kind.
    dice: the two dice; the indicator sits at index ``136 - sum(dice)``.
    Filler (the unused tiles, in kind order) goes between head and tail.

    Use as ``Game(rules, dealer=d, **script_wall(...))``.  Raises :class:`WallError`
    when more than four copies of a kind are asked for.
    """
    dice = check_dice(dice)
    if isinstance(indicator, str):
        indicator = parse_tile(indicator)
    used = [0] * 34

    def take(kinds: list[int]) -> list[int]:
        for k in kinds:
            used[k] += 1
            if used[k] > 4:
                raise WallError(f"scripted wall uses more than four copies of kind {k}")
        return kinds

    take([indicator])
    hand_lists = {}
    for seat, tiles in hands.items():
        ks = _kinds(tiles)
        if len(ks) != 13:
            raise WallError(f"seat {seat}: a dealt hand has 13 tiles, got {len(ks)}")
        hand_lists[seat % 4] = take(ks)
    head_draws = take(_kinds(draws))
    tail_draws = take(_kinds(replacements))
    # unused tiles, one copy of each kind in turn (so filler hands hold few pairs)
    pool = [k for c in range(4) for k in range(34) if used[k] + c < 4]
    # filler for seats without a script comes from the pool's front
    head: list[int] = []
    for i in range(4):
        seat = (dealer + i) % 4
        if seat in hand_lists:
            head += hand_lists[seat]
        else:
            head += pool[:13]
            pool = pool[13:]
    head += head_draws
    live = head + pool + list(reversed(tail_draws))
    if len(live) != NUM_TILES - 1:
        raise WallError(f"scripted wall has {len(live) + 1} tiles, not 136")
    pos = NUM_TILES - sum(dice)
    wall = live[:pos] + [indicator] + live[pos:]
    return {"wall": wall, "dice": dice}
