"""Declared melds (吃, 碰, 杠) and their notation.

A declared meld is made of real faces: a 宝 inside a meld is only its face
(docs/rules.md, "宝 only in the concealed hand").

Notation: ``KIND:TILES``, e.g. ``chow:123m``, ``pung:555p``, ``kong:7777s``,
``concealed_kong:1111z``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from .errors import InputError
from .tiles import TileKind, TileParseError, format_tiles, parse_tiles, suit_of

__all__ = ["MeldType", "Meld", "MeldError", "parse_meld"]


class MeldError(InputError):
    """A meld is malformed (wrong kind name, wrong tiles for its kind)."""


class MeldType(str, Enum):
    """The types of declared meld (``Meld.type``; written first in the notation ``KIND:TILES``).

    ``KONG`` is an exposed kong: made on a discard or by adding a drawn tile to
    a declared pung (both 碰杠, bonus 1).  ``CONCEALED_KONG`` is four drawn tiles
    (自摸杠, bonus 2).
    """

    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    CONCEALED_KONG = "concealed_kong"

    @property
    def chinese(self) -> str:
        """The seed's name: 吃, 碰, 碰杠 (an exposed kong), 自摸杠 (a concealed kong)."""
        return _MELD_LABELS[self.value][0]

    @property
    def english(self) -> str:
        """``chow``, ``pung``, ``kong``, ``concealed kong``."""
        return _MELD_LABELS[self.value][1]


#: (Chinese, English) per meld kind: the one place these labels are written
_MELD_LABELS: dict[str, tuple[str, str]] = {
    "chow": ("吃", "chow"),
    "pung": ("碰", "pung"),
    "kong": ("碰杠", "kong"),
    "concealed_kong": ("自摸杠", "concealed kong"),
}


MeldKind = MeldType  # the 0.1.0 name


@dataclass(frozen=True)
class Meld:
    """One declared meld.

    ``tiles``: the kinds of its tiles (sorted; 3 for chow/pung, 4 for kongs).
    ``claimed``: the kind taken from another player's discard, if any.
    ``from_seat``: absolute seat the claimed tile came from, if any.
    """

    type: MeldType
    tiles: tuple[TileKind, ...]
    claimed: TileKind | None = None
    from_seat: int | None = None

    def __post_init__(self) -> None:
        try:
            kind = MeldType(self.type)
        except ValueError:
            names = ", ".join(k.value for k in MeldType)
            raise MeldError(f"unknown meld kind {self.type!r}; use one of {names}") from None
        object.__setattr__(self, "type", kind)
        tiles = tuple(sorted(self.tiles))
        object.__setattr__(self, "tiles", tiles)
        if kind is MeldType.CHOW:
            if len(tiles) != 3:
                raise MeldError(f"a chow has 3 tiles, {_text(tiles)} has {len(tiles)}")
            a, b, c = tiles
            if a >= 27 or not (b == a + 1 and c == a + 2 and suit_of(a) == suit_of(c)):
                raise MeldError(f"{_text(tiles)} is not a chow: a chow is three consecutive tiles of one suit")
        else:
            need = 3 if kind is MeldType.PUNG else 4
            if len(tiles) != need:
                raise MeldError(f"a {kind.value} has {need} identical tiles, {_text(tiles)} has {len(tiles)}")
            if tiles[0] != tiles[-1]:
                raise MeldError(f"{_text(tiles)} is not a {kind.value}: its tiles must be identical")
        if not (tiles[0].__class__ is int and tiles[0] >= 0 and tiles[-1] < 34):
            raise MeldError(f"meld tiles must be kinds 0..33, got {tiles!r}")

    @property
    def kind(self) -> MeldType:
        """The 0.1.0 name of :attr:`type`."""
        return self.type

    @property
    def is_kong(self) -> bool:
        return self.type in (MeldType.KONG, MeldType.CONCEALED_KONG)

    @property
    def is_pung_like(self) -> bool:
        """Pung or kong (counts toward 碰碰糊)."""
        return self.type is not MeldType.CHOW

    def __str__(self) -> str:
        return f"{self.type.value}:{format_tiles(self.tiles)}"

    def __repr__(self) -> str:
        """Evaluable: ``Meld.parse('pung:555p')``, with ``claimed``/``from_seat`` when set."""
        extra = ""
        if self.claimed is not None:
            extra += f", claimed={self.claimed!r}"
        if self.from_seat is not None:
            extra += f", from_seat={self.from_seat!r}"
        return f"Meld.parse({str(self)!r}{extra})"

    def to_json(self) -> str:
        return str(self)

    @classmethod
    def parse(cls, text: str, claimed: TileKind | None = None, from_seat: int | None = None) -> Meld:
        """Read ``KIND:TILES`` (kinds: chow, pung, kong, concealed_kong); ``claimed`` (a kind of the
        meld) and ``from_seat`` as in the constructor.

        Raises :class:`MeldError` (a ``ValueError``) quoting the text.
        """
        m = parse_meld(text)
        if claimed is None and from_seat is None:
            return m
        if claimed is not None and claimed not in m.tiles:
            raise MeldError(f"meld {text!r}: the claimed tile {claimed!r} is not one of its tiles")
        return cls(m.type, m.tiles, claimed=claimed, from_seat=from_seat)


def _text(tiles: Iterable[object]) -> str:
    tiles = tuple(tiles)
    return format_tiles(tiles) if all(isinstance(t, int) and 0 <= t < 34 for t in tiles) else repr(tiles)  # type: ignore[arg-type]


def parse_meld(text: str) -> Meld:
    """Read one meld in ``KIND:TILES`` notation.  See :class:`Meld`."""
    if not isinstance(text, str) or ":" not in text:
        raise MeldError(f"meld {text!r} must be written KIND:TILES, e.g. pung:555p")
    kind_text, _, tiles_text = text.partition(":")
    kind_text = kind_text.strip().lower()
    try:
        kind = MeldType(kind_text)
    except ValueError:
        names = ", ".join(k.value for k in MeldType)
        raise MeldError(f"unknown meld kind {kind_text!r} in {text!r}; use one of {names}") from None
    try:
        tiles = parse_tiles(tiles_text)
    except TileParseError as err:
        raise MeldError(f"meld {text!r}: {err}") from None
    try:
        return Meld(kind, tuple(tiles))
    except MeldError as err:
        raise MeldError(f"meld {text!r}: {err}") from None


def melds_tiles(melds: Iterable[Meld]) -> list[int]:
    """All kinds in the given melds."""
    return [t for m in melds for t in m.tiles]
