"""Actions of the game: what a seat may decide, with a compact string form.

String forms (what :func:`parse_action` reads and ``str(action)`` writes)::

    discard 5m        打出 a tile
    chow 345m         吃 the discard (the chow's three tiles; ``chow 3m`` = lowest kind also read)
    pung 5m           碰 the discard
    kong 5m           杠 on the discard (碰杠 with a concealed triplet)
    added_kong 5m     碰杠: a held tile added to a declared pung
    concealed_kong 5m 自摸杠: four in hand
    win               糊 (self-draw incl. 杠开, 抢杠, or 地糊)
    pass              decline (also declines a win: 偷机)
    catch_bao         接宝 on a discarded 宝

Tiles in any notation :func:`shangrao.tiles.parse_tiles` reads (``5m``, ``五万``, ``🀋``).
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from ..errors import InputError
from ..tiles import TileKind, TileParseError, check_kind, format_tile, format_tiles, parse_tiles

__all__ = ["ActionType", "Action", "IllegalActionError", "ActionParseError", "parse_action", "as_action"]


class IllegalActionError(InputError):
    """An action that is not legal now; the message says why and what is legal."""


class ActionParseError(InputError):
    """An action string could not be read."""


class ActionType(str, Enum):
    DISCARD = "discard"
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    ADDED_KONG = "added_kong"
    CONCEALED_KONG = "concealed_kong"
    WIN = "win"
    PASS = "pass"
    CATCH_BAO = "catch_bao"

    @property
    def chinese(self) -> str:
        """The seed's name: 打, 吃, 碰, 碰杠 (kong on a discard and added kong), 自摸杠, 糊, 过, 接宝."""
        return _LABELS[self][0]

    @property
    def english(self) -> str:
        """A short English label: ``discard``, ``chow``, ``added kong``, ``catch the 宝`` …"""
        return _LABELS[self][1]

    @property
    def label(self) -> str:
        """Chinese then English, as the terminal shows it: ``碰 pung``, ``自摸杠 concealed kong``."""
        zh, en = _LABELS[self]
        return f"{zh} {en}"


#: (Chinese, English) per action type: the one place these labels are written
_LABELS: dict[ActionType, tuple[str, str]] = {
    ActionType.DISCARD: ("打", "discard"),
    ActionType.CHOW: ("吃", "chow"),
    ActionType.PUNG: ("碰", "pung"),
    ActionType.KONG: ("碰杠", "kong"),
    ActionType.ADDED_KONG: ("碰杠", "added kong"),
    ActionType.CONCEALED_KONG: ("自摸杠", "concealed kong"),
    ActionType.WIN: ("糊", "win"),
    ActionType.PASS: ("过", "pass"),
    ActionType.CATCH_BAO: ("接宝", "catch the 宝"),
}

_TILED = frozenset(
    {
        ActionType.DISCARD,
        ActionType.CHOW,
        ActionType.PUNG,
        ActionType.KONG,
        ActionType.ADDED_KONG,
        ActionType.CONCEALED_KONG,
    }
)

_ORDER = {t: i for i, t in enumerate(ActionType)}


class Action(NamedTuple):
    """One decision.  ``tile``: the tile kind (0..33) for tiled actions, else None.

    For CHOW, ``tile`` is the lowest kind of the chow (``chow 345m`` -> 3m).
    Immutable and hashable (a named tuple, so comparing actions is cheap).
    """

    type: ActionType
    tile: TileKind | None = None

    def __str__(self) -> str:
        if self.tile is None:
            return self.type.value
        if self.type is ActionType.CHOW:
            return f"chow {format_tiles([self.tile, self.tile + 1, self.tile + 2])}"
        return f"{self.type.value} {format_tile(self.tile)}"

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    @property
    def kind(self) -> TileKind:
        """The tile kind of a tiled action (for CHOW the lowest); :class:`IllegalActionError` for
        ``win``, ``pass`` and ``catch_bao``, which have none.  ``tile`` typed for what it holds."""
        tile = self.tile
        if tile is None:
            raise IllegalActionError(f"action {self.type.value!r} has no tile")
        return tile

    def sort_key(self) -> tuple[int, int]:
        return (_ORDER[self.type], -1 if self.tile is None else self.tile)

    @classmethod
    def parse(cls, text: str) -> Action:
        return parse_action(text)


def parse_action(text: str) -> Action:
    """Read an action string (see module doc).  Raises :class:`ActionParseError`."""
    if not isinstance(text, str) or not text.strip():
        raise ActionParseError(f"empty action {text!r}; e.g. 'discard 5m', 'pung 5m', 'win', 'pass'")
    parts = text.strip().split(None, 1)
    name = parts[0].lower().replace("-", "_")
    try:
        atype = ActionType(name)
    except ValueError:
        known = ", ".join(t.value for t in ActionType)
        raise ActionParseError(f"unknown action {parts[0]!r} in {text!r}; known: {known}") from None
    if atype not in _TILED:
        if len(parts) > 1:
            raise ActionParseError(f"action {atype.value!r} takes no tile, got {text!r}")
        return Action(atype)
    if len(parts) < 2:
        raise ActionParseError(f"action {atype.value!r} needs a tile, e.g. '{atype.value} 5m'; got {text!r}")
    try:
        kinds = parse_tiles(parts[1])
    except TileParseError as err:
        raise ActionParseError(f"action {text!r}: {err}") from None
    if atype is ActionType.CHOW:
        if len(kinds) == 1:
            kinds = [kinds[0], kinds[0] + 1, kinds[0] + 2]
        ks = sorted(kinds)
        if len(ks) != 3 or ks[0] >= 27 or ks[1] != ks[0] + 1 or ks[2] != ks[0] + 2 or ks[0] // 9 != ks[2] // 9:
            raise ActionParseError(f"action {text!r}: a chow is three consecutive tiles of one suit, e.g. 'chow 345m'")
        return Action(atype, ks[0])
    if len(kinds) != 1:
        raise ActionParseError(f"action {text!r}: give exactly one tile")
    return Action(atype, kinds[0])


def as_action(value: Action | str, what: str = "action") -> Action:
    """The entry points' check of one action: an :class:`Action` with an :class:`ActionType` and a
    plain-int tile (0..33 for tiled types, None otherwise), or its string read with
    :func:`parse_action`.  An Action built with a plain string type (``Action("discard", 5)``)
    or a numpy tile is normalised.  Raises :class:`ActionParseError` naming ``what`` and the value.
    """
    if isinstance(value, str):
        return parse_action(value)
    if not isinstance(value, Action):
        raise ActionParseError(f"{what} must be an Action or a string like 'discard 5m', got {value!r}")
    atype, tile = value
    if atype.__class__ is not ActionType:
        try:
            atype = ActionType(atype)
        except ValueError:
            known = ", ".join(t.value for t in ActionType)
            raise ActionParseError(f"{what}: unknown action type {atype!r}; known: {known}") from None
    if atype in _TILED:
        try:
            tile = check_kind(tile, f"{what}: the tile of {atype.value}")
        except InputError as err:
            raise ActionParseError(str(err)) from None
        if atype is ActionType.CHOW and (tile >= 27 or tile % 9 > 6):
            raise ActionParseError(f"{what}: a chow's tile is its lowest kind, a suit tile 1..7, got {tile!r}")
    elif tile is not None:
        raise ActionParseError(f"{what}: {atype.value!r} takes no tile, got {tile!r}")
    if atype is value.type and tile is value.tile:
        return value
    return Action(atype, tile)
