"""The situation of one win (seed 三、计分和等级 and 糊牌的方式): what scoring needs to know
apart from the rules — the hand, the winning tile, melds, the 宝, how the win came, 飞宝 and bonuses.

:class:`WinSituation` validates every field (:class:`SituationError`, a ``ValueError`` that names
the field) and reads/writes the JSON vocabulary of ``shangrao score`` (``from_dict``/``to_dict``).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..errors import InputError
from ..melds import Meld, MeldError, MeldType, parse_meld
from ..rules import _printable as printable
from ..tiles import (
    TileParseError,
    format_tile,
    format_tiles,
    parse_tile,
    parse_tiles,
    to_34,
)

__all__ = ["SituationError", "WinBy", "WinSituation"]

#: words for "no 宝" in a ``bao`` field (shared with ``analyze --bao``)
_NO_BAO = frozenset({"none", "null", "no", "-"})


class SituationError(InputError):
    """A win situation is malformed: says which field and what is wrong."""


class WinBy(str, Enum):
    """How the win came (D1): self-draw (incl. 杠开), 抢杠, or 地糊 on the dealer's first discard."""

    SELF_DRAW = "self_draw"
    ROBBING_KONG = "robbing_kong"
    DEALER_FIRST_DISCARD = "dealer_first_discard"

    @property
    def chinese(self) -> str:
        """自摸, 抢杠, 地糊."""
        return _WIN_BY_LABELS[self.value][0]

    @property
    def english(self) -> str:
        return _WIN_BY_LABELS[self.value][1]


_WIN_BY_LABELS: dict[str, tuple[str, str]] = {
    "self_draw": ("自摸", "self-draw"),
    "robbing_kong": ("抢杠", "robbing the kong"),
    "dealer_first_discard": ("地糊", "dealer's first discard"),
}


def _as_int(v: Any) -> Any:
    """A numpy integer as a plain int (``operator.index``); anything else unchanged, for
    :meth:`WinSituation.validate` to judge (bools and floats stay refused there)."""
    if v.__class__ is int or v is None or isinstance(v, bool):
        return v
    try:
        return operator.index(v)
    except TypeError:
        return v


def _items(value: Any, field: str, what: str) -> list[Any]:
    """The entries of a list field; :class:`SituationError` naming the field if it is not one."""
    if isinstance(value, (str, bytes, dict)) or not isinstance(value, Iterable):
        raise SituationError(f"{field}: must be {what}, got {value!r}")
    return list(value)


def _meld(m: Any) -> Meld:
    """A meld, or a meld string (``"pung:111z"``) parsed with :func:`~shangrao.melds.parse_meld`."""
    if isinstance(m, Meld):
        return m
    if isinstance(m, str):
        try:
            return parse_meld(m)
        except MeldError as err:
            raise SituationError(f"melds: {err}") from None
    raise SituationError(f"melds: each meld must be a Meld or a string like 'pung:111z', got {m!r}")


@dataclass(frozen=True)
class WinSituation:
    """Everything about one win that scoring needs (the situation, apart from the rules).

    hand: kinds of the concealed hand *before* the winning tile
        (``13 - 3*len(melds)`` tiles, 宝 included).
    win_tile: the kind drawn (or robbed / claimed for 地糊).
    melds: declared melds.
    bao: the 宝 kind, or None.
    win_by: :class:`WinBy`.
    heavenly: 天糊 (the dealer's first 14 tiles).
    kong_chain: kongs made in a row in the winning turn before the winning draw (杠开 n).
    winner_flown: 宝 the winner discarded this hand (飞宝 n).
    payers_flown: 宝 each payer discarded, seat order after the winner.
    winner_held_bao: whether the winner held a 宝 at some point this hand; None derives it
        from hand, win tile, melds and ``winner_flown``.
    four_bao: the winner drew all four 宝 this hand (四个宝).
    caught_bao: the winner declared 接宝 this hand.
    robbed: for 抢杠, the payer (0-2, seat order after the winner) whose kong was robbed.
    touji: 偷机 — how many times this hand the winner declined a win in the 宝吊 state before
        this one (only the rule ``baodiao_bao_needs_touji`` asks for it; the engine counts it).
    """

    hand: tuple[int, ...]
    win_tile: int
    melds: tuple[Meld, ...] = ()
    bao: int | None = None
    win_by: WinBy = WinBy.SELF_DRAW
    heavenly: bool = False
    kong_chain: int = 0
    winner_flown: int = 0
    payers_flown: tuple[int, int, int] = (0, 0, 0)
    winner_held_bao: bool | None = None
    four_bao: bool = False
    caught_bao: bool = False
    robbed: int | None = None
    touji: int = 0

    def __post_init__(self) -> None:
        hand: Any = self.hand
        if isinstance(hand, str):
            try:
                hand = parse_tiles(hand)
            except TileParseError as err:
                raise SituationError(f"hand: {err}") from None
        set_ = object.__setattr__
        set_(self, "hand", tuple(_as_int(k) for k in _items(hand, "hand", "a list of tile kinds 0..33")))
        set_(self, "melds", tuple(_meld(m) for m in _items(self.melds, "melds", "a list of melds")))
        set_(self, "payers_flown", tuple(_as_int(v) for v in
                                         _items(self.payers_flown, "payers_flown", "three ints 0..4")))
        for name in ("win_tile", "bao", "robbed", "touji", "kong_chain", "winner_flown"):
            set_(self, name, _as_int(getattr(self, name)))
        try:
            set_(self, "win_by", WinBy(self.win_by))
        except ValueError:
            raise SituationError(f"win_by: must be one of {', '.join(w.value for w in WinBy)}, "
                                 f"got {self.win_by!r}") from None
        self.validate()

    def validate(self) -> None:
        """Raise :class:`SituationError` if the situation is impossible."""
        def kind(v: object) -> bool:
            return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 34

        for k in self.hand:
            if not kind(k):
                raise SituationError(f"hand: tile kinds must be 0..33, got {k!r}")
        if not kind(self.win_tile):
            raise SituationError(f"win_tile: must be a tile kind 0..33, got {self.win_tile!r}")
        if self.bao is not None and not kind(self.bao):
            raise SituationError(f"bao: must be a tile kind 0..33 or null, got {self.bao!r}")
        for name in ("heavenly", "four_bao", "caught_bao", "winner_held_bao"):
            v = getattr(self, name)
            if not isinstance(v, bool) and not (v is None and name == "winner_held_bao"):
                raise SituationError(f"{name}: must be true or false, got {v!r}")
        if len(self.melds) > 4:
            raise SituationError(f"melds: at most 4, got {len(self.melds)}")
        want = 13 - 3 * len(self.melds)
        if len(self.hand) != want:
            raise SituationError(
                f"hand: with {len(self.melds)} meld(s) the hand before the winning tile has {want} tiles, got {len(self.hand)}"
            )
        counts = to_34(list(self.hand) + [self.win_tile] + [t for m in self.melds for t in m.tiles])
        for k, c in enumerate(counts):
            if c > 4:
                raise SituationError(f"hand, win_tile and melds hold {c} copies of {format_tile(k)}; there are only 4")
        if not isinstance(self.touji, int) or isinstance(self.touji, bool) or not 0 <= self.touji <= 136:
            raise SituationError(f"touji: must be an int >= 0 (偷机 count), got {self.touji!r}")
        for name in ("kong_chain", "winner_flown"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 4:
                raise SituationError(f"{name}: must be an int 0..4, got {v!r}")
        if len(self.payers_flown) != 3 or any(
            not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 4 for v in self.payers_flown
        ):
            raise SituationError(f"payers_flown: must be three ints 0..4, got {list(self.payers_flown)!r}")
        if self.winner_flown + sum(self.payers_flown) > 4:
            raise SituationError("winner_flown + payers_flown: more than the four 宝 were discarded")
        if self.kong_chain > sum(1 for m in self.melds if m.is_kong):
            raise SituationError(f"kong_chain: {self.kong_chain} kongs in a row but only "
                                 f"{sum(1 for m in self.melds if m.is_kong)} kong meld(s)")
        if self.win_by is WinBy.ROBBING_KONG:
            if self.robbed.__class__ is not int or self.robbed not in (0, 1, 2):
                raise SituationError("robbed: 抢杠 needs the robbed payer, 0-2 in seat order after the winner")
        elif self.robbed is not None:
            raise SituationError(f"robbed: only for win_by robbing_kong (then a payer 0-2), got {self.robbed!r}")
        if self.win_by is not WinBy.SELF_DRAW and self.kong_chain:
            raise SituationError("kong_chain: 杠开 is a self-draw; win_by must be self_draw")
        if self.heavenly and (self.win_by is not WinBy.SELF_DRAW or self.melds):
            raise SituationError("heavenly: 天糊 is the dealer's first 14 tiles, self-drawn, with no melds")
        if self.win_by is WinBy.DEALER_FIRST_DISCARD and self.melds:
            raise SituationError("melds: 地糊 comes on the dealer's first discard, before anyone has declared a meld")
        if self.bao is None and (self.four_bao or self.caught_bao):
            raise SituationError("four_bao/caught_bao: need a bao")
        if self.bao is None and (self.winner_flown or any(self.payers_flown)):
            raise SituationError("winner_flown/payers_flown: 飞宝 needs a bao")
        if self.bao is not None:
            self._check_bao_copies(counts)

    def _check_bao_copies(self, counts: list[int]) -> None:
        """Copies of the 宝 kind and of the indicator (out of play, R1) can never pass four."""
        from ..tiles import indicator_of, tile_name

        bao = self.bao
        assert bao is not None
        ind = indicator_of(bao)
        if counts[ind] > 3:
            raise SituationError(f"hand, win_tile and melds hold 4 {format_tile(ind)} ({tile_name(ind)}), "
                                 f"but one is the indicator of 宝 {format_tile(bao)}, out of play (R1)")
        in_sight = counts[bao]
        flown = self.winner_flown + sum(self.payers_flown)
        # a flown 宝 may have been claimed into one of the winner's melds (as its face, R2):
        # each meld made on a discard holds at most one claimed tile
        claimable = sum(1 for m in self.melds if bao in m.tiles and m.type is not MeldType.CONCEALED_KONG)
        if in_sight + flown - min(claimable, flown) > 4:
            raise SituationError(f"bao: {in_sight} 宝 ({format_tile(bao)}) in hand, win_tile and melds plus {flown} "
                                 "flown (winner_flown + payers_flown) make more than the four 宝")
        held = sum(1 for k in (*self.hand, self.win_tile) if k == bao)
        if self.winner_held_bao is False:
            if held:
                raise SituationError(f"winner_held_bao: false, but the hand or win_tile holds a 宝 ({format_tile(bao)})")
            for name in ("winner_flown", "four_bao", "caught_bao"):
                if getattr(self, name):
                    raise SituationError(f"winner_held_bao: false, but {name} says the winner held a 宝")
        if self.four_bao and any(self.payers_flown):
            raise SituationError("payers_flown: with four_bao the winner drew all four 宝, so no payer could discard one")
        if self.caught_bao and sum(self.payers_flown) > 1:
            raise SituationError("payers_flown: with caught_bao (接宝) the winner drew three 宝; "
                                 "the payers can have discarded at most one")

    @property
    def held_bao(self) -> bool:
        if self.winner_held_bao is not None:
            return bool(self.winner_held_bao)
        if self.bao is None:
            return False
        tiles = list(self.hand) + [self.win_tile] + [t for m in self.melds for t in m.tiles]
        return self.winner_flown > 0 or self.four_bao or self.caught_bao or self.bao in tiles

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> WinSituation:
        """Build from the JSON situation object of ``shangrao score`` (tiles in any notation).

        Raises :class:`SituationError` naming the field.
        """
        if not isinstance(data, dict):
            raise SituationError(f"a situation must be a JSON object, got {type(data).__name__}")
        known = {"hand", "win_tile", "melds", "bao", "win_by", "heavenly", "kong_chain", "winner_flown",
                 "payers_flown", "winner_held_bao", "four_bao", "caught_bao", "robbed", "touji"}
        unknown = sorted(str(k) for k in set(data) - known)
        if unknown:
            raise SituationError(f"unknown field(s): {', '.join(printable(x) for x in unknown)}")
        for req in ("hand", "win_tile"):
            if req not in data:
                raise SituationError(f"{req}: missing")

        def tiles(name: str) -> list[int]:
            v = data[name]
            if isinstance(v, str):
                try:
                    return parse_tiles(v)
                except TileParseError as err:
                    raise SituationError(f"{name}: {err}") from None
            if isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
                return list(v)
            raise SituationError(f"{name}: must be a tile string like '123m' or a list of kinds 0..33")

        def tile(name: str) -> int | None:
            v = data.get(name)
            if v is None:
                return None
            if name == "bao" and isinstance(v, str) and v.strip().lower() in _NO_BAO:
                return None  # as in analyze: "none" means no 宝
            if isinstance(v, str) and not v.strip():
                raise SituationError(f"{name}: empty; give one tile like 5p" + (", or 'none'" if name == "bao" else ""))
            if isinstance(v, int) and not isinstance(v, bool):
                return v
            if isinstance(v, str):
                try:
                    return parse_tile(v)
                except TileParseError as err:
                    raise SituationError(f"{name}: {err}") from None
            raise SituationError(f"{name}: must be one tile like '5p'")

        melds = []
        raw = data.get("melds", [])
        if not isinstance(raw, list):
            raise SituationError("melds: must be a list like [\"pung:555p\"]")
        for i, m in enumerate(raw):
            try:
                if isinstance(m, str):
                    melds.append(parse_meld(m))
                elif isinstance(m, dict) and set(m) <= {"kind", "tiles"}:
                    melds.append(parse_meld(f"{m.get('kind')}:{m.get('tiles')}"))
                else:
                    raise MeldError(f"{m!r} is not KIND:TILES")
            except (MeldError, ValueError) as err:
                raise SituationError(f"melds[{i}]: {err}") from None

        def flag(name: str, default: bool | None) -> Any:
            v = data.get(name, default)
            if v is None and default is not None:  # only winner_held_bao has a null (derive it)
                raise SituationError(f"{name}: must be true or false, got null")
            if v is not None and not isinstance(v, bool):
                raise SituationError(f"{name}: must be true or false, got {v!r}")
            return v

        def integer(name: str, default: int) -> int:
            v = data.get(name, default)
            if not isinstance(v, int) or isinstance(v, bool):
                raise SituationError(f"{name}: must be an int, got {v!r}")
            return v

        win_by = data.get("win_by", "self_draw")
        try:
            win_by = WinBy(win_by)
        except ValueError:
            raise SituationError(
                f"win_by: {win_by!r} is not one of self_draw, robbing_kong, dealer_first_discard"
            ) from None
        payers = data.get("payers_flown", [0, 0, 0])
        if not isinstance(payers, list):
            raise SituationError("payers_flown: must be a list of three ints")
        robbed = data.get("robbed")
        if robbed is not None and (not isinstance(robbed, int) or isinstance(robbed, bool)):
            raise SituationError(f"robbed: must be 0, 1 or 2, got {robbed!r}")
        win_tile = tile("win_tile")
        if win_tile is None:
            raise SituationError("win_tile: must be a tile kind 0..33, got None")
        return cls(
            hand=tuple(tiles("hand")),
            win_tile=win_tile,
            melds=tuple(melds),
            bao=tile("bao"),
            win_by=win_by,
            heavenly=flag("heavenly", False),
            kong_chain=integer("kong_chain", 0),
            winner_flown=integer("winner_flown", 0),
            payers_flown=tuple(payers),
            winner_held_bao=flag("winner_held_bao", None),
            four_bao=flag("four_bao", False),
            caught_bao=flag("caught_bao", False),
            robbed=robbed,
            touji=integer("touji", 0),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": format_tiles(self.hand),
            "win_tile": format_tile(self.win_tile),
            "melds": [str(m) for m in self.melds],
            "bao": None if self.bao is None else format_tile(self.bao),
            "win_by": self.win_by.value,
            "heavenly": self.heavenly,
            "kong_chain": self.kong_chain,
            "winner_flown": self.winner_flown,
            "payers_flown": list(self.payers_flown),
            "winner_held_bao": self.winner_held_bao,
            "four_bao": self.four_bao,
            "caught_bao": self.caught_bao,
            "robbed": self.robbed,
            "touji": self.touji,
        }
