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
    indicator_of,
    parse_tile,
    parse_tiles,
    tile_name,
    to_34,
)

__all__ = ["SituationError", "WinBy", "WinSituation"]

#: words for "no 宝" in a ``bao`` field (shared with ``analyze --bao``)
_NO_BAO = frozenset({"none", "null", "no", "-"})


#: the most 偷机 one hand can hold: one a draw, and 136 − 4×13 dealt − the indicator are left to draw
MAX_TOUJI = 136 - 4 * 13 - 1


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
        set_(
            self,
            "payers_flown",
            tuple(_as_int(v) for v in _items(self.payers_flown, "payers_flown", "three ints 0..4")),
        )
        for name in ("win_tile", "bao", "robbed", "touji", "kong_chain", "winner_flown"):
            set_(self, name, _as_int(getattr(self, name)))
        try:
            set_(self, "win_by", WinBy(self.win_by))
        except ValueError:
            raise SituationError(
                f"win_by: must be one of {', '.join(w.value for w in WinBy)}, got {self.win_by!r}"
            ) from None
        self.validate()

    def validate(self) -> None:
        """Raise :class:`SituationError` (one line naming the field and the clause) if the situation is
        malformed or no game can produce it: the four-copy limit over hand, win tile and melds, the
        indicator (R1), 抢杠, 天糊, 地糊, 接宝, 四个宝, 飞宝 and ``winner_held_bao``/``touji`` against the
        宝 in sight (docs/rules.md R19, docs/cli.md).  Run on construction."""

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
        if not isinstance(self.touji, int) or isinstance(self.touji, bool) or not 0 <= self.touji <= MAX_TOUJI:
            raise SituationError(
                f"touji: must be an int 0..{MAX_TOUJI} (偷机 count: at most one a draw of the "
                f"{MAX_TOUJI} tiles left after the deal and the indicator), got {self.touji!r}"
            )
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
            raise SituationError(
                f"kong_chain: {self.kong_chain} kongs in a row but only "
                f"{sum(1 for m in self.melds if m.is_kong)} kong meld(s)"
            )
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
        self._check_possible(counts)

    def _check_possible(self, counts: list[int]) -> None:
        """The one place that decides whether a game can produce this win (issue 22): every flag and
        count must fit the others (docs/rules.md R19).  Each refusal names the field and the seed
        clause (``tests/scoring/test_possible.py``); every situation the engine builds passes
        (``tests/game/test_engine_situations.py``)."""
        bao = self.bao
        k = self.win_tile
        win_by = self.win_by
        fp = sum(self.payers_flown)
        fw = self.winner_flown
        # 抢杠 (seed 糊牌的方式 (20)): the robbed kong holds all four copies of its kind, the robbed
        # tile being the win tile; so the robber holds none in hand or melds, and it is not the
        # indicator's kind (one copy of that is out of play, R1)
        if win_by is WinBy.ROBBING_KONG:
            held_k = counts[k] - 1
            if held_k:
                where = "hand" if k in self.hand else "melds"
                raise SituationError(
                    f"{where}: 抢杠 robs a kong of {format_tile(k)}, whose four copies are the kong itself "
                    f"(the robbed tile is the win_tile); the robber cannot hold {held_k} more"
                )
            if bao is not None and k == indicator_of(bao):
                raise SituationError(
                    f"win_tile: 抢杠 of {format_tile(k)} ({tile_name(k)}): it is the indicator's kind of 宝 "
                    f"{format_tile(bao)}, one copy is out of play (R1), so no kong of it exists"
                )
        if self.touji and (self.heavenly or win_by is WinBy.DEALER_FIRST_DISCARD):
            raise SituationError(
                "touji: 偷机 declines a win at one's own turn; 天糊 and 地糊 come before the winner has had one"
            )
        if self.touji and bao is None:
            raise SituationError("touji: 偷机 declines a win in the 宝吊 state, which needs a 宝 (bao)")
        if bao is None:
            if self.winner_held_bao:
                raise SituationError("winner_held_bao: true, but there is no 宝 (bao is null)")
            return
        if self.heavenly:
            # 天糊 (seed (2)): the dealer's first action; nobody has discarded anything yet
            if fw or fp:
                field = "winner_flown" if fw else "payers_flown"
                raise SituationError(
                    f"{field}: 天糊 is the dealer's first action, before any discard, "
                    "so nobody can have flown a 宝 (飞宝)"
                )
            if self.caught_bao:
                raise SituationError(
                    "caught_bao: 天糊 is the dealer's first action; 接宝 needs a 宝 discarded by another seat before it"
                )
        self._check_bao(counts, bao)

    def _check_bao(self, counts: list[int], bao: int) -> None:
        """The 宝 and the indicator against the flags: R1, 接宝, 四个宝, 地糊, 注 1 (飞宝), R17."""
        k = self.win_tile
        win_by = self.win_by
        fp = sum(self.payers_flown)
        fw = self.winner_flown
        ind = indicator_of(bao)
        if counts[ind] > 3:
            raise SituationError(
                f"hand, win_tile and melds hold 4 {format_tile(ind)} ({tile_name(ind)}), "
                f"but one is the indicator of 宝 {format_tile(bao)}, out of play (R1)"
            )
        n_hand = sum(1 for x in self.hand if x == bao)
        n_win = 1 if k == bao else 0
        n_melds = sum(1 for m in self.melds for t in m.tiles if t == bao)
        # a 宝 discarded by a payer may sit in one of the winner's melds, claimed as its face (R2):
        # at most one claimed tile a meld, none in a concealed kong; the winner never claims its own;
        # a chow is claimed from 上家 only (the last payer), a pung or a kong from any of them
        chows = sum(1 for m in self.melds if bao in m.tiles and m.type is MeldType.CHOW)
        others = sum(1 for m in self.melds if bao in m.tiles and m.type not in (MeldType.CHOW, MeldType.CONCEALED_KONG))
        claimable = min(fp, others + min(chows, self.payers_flown[2]))
        # the win tile of 地糊 is the dealer's discard, that of a robbed kong on a discard may be one
        win_discarded = n_win if win_by is not WinBy.SELF_DRAW and fw + fp else 0
        if n_hand + n_win + n_melds + fw + fp - claimable - win_discarded > 4:
            raise SituationError(
                f"bao: {n_hand + n_win + n_melds} 宝 ({format_tile(bao)}) in hand, win_tile and "
                f"melds plus {fw + fp} flown (winner_flown + payers_flown) make more than "
                "the four 宝"
            )
        # 宝 the winner drew this hand (deal included; R17): in hand, in its melds or flown by it, and
        # the win tile when self-drawn; a meld's 宝 may be a payer's claimed discard instead
        drawn_most = n_hand + n_melds + fw + (n_win if win_by is WinBy.SELF_DRAW else 0)
        drawn_least = drawn_most - claimable
        if win_by is WinBy.DEALER_FIRST_DISCARD:
            # 地糊 (seed (3)): on the dealer's first discard — the only discard so far, the win tile (so
            # 接宝 before 地糊, R14, is on that discard: the win tile is then the 宝, fp == 1 below)
            if fw:
                raise SituationError(
                    "winner_flown: 地糊 comes on the dealer's first discard; the winner "
                    "has not discarded yet, so it cannot have flown a 宝 (飞宝)"
                )
            if fp != n_win or max(self.payers_flown) > 1:
                raise SituationError(
                    f"payers_flown: 地糊 comes on the dealer's first discard, the only discard so far; the payers "
                    f"can have flown {n_win} 宝 (the win_tile {format_tile(k)} is{'' if n_win else ' not'} "
                    f"the 宝), got {list(self.payers_flown)}"
                )
        if win_by is WinBy.ROBBING_KONG and n_win:
            # the robbed kong holds the four 宝: three drawn by the robbed player, one discarded by another
            robbed = self.robbed
            assert robbed is not None
            if fw + fp > 1 or self.payers_flown[robbed]:
                raise SituationError(
                    f"payers_flown: 抢杠 of a kong of the 宝 {format_tile(bao)}: the robbed player drew three of "
                    "the four, the fourth was at most one discard by another seat; got winner_flown "
                    f"{fw}, payers_flown {list(self.payers_flown)} (robbed {robbed})"
                )
        if self.four_bao:
            # 四个宝 (seed (22)): the winner drew all four 宝, so no payer discarded one
            if self.caught_bao:
                raise SituationError(
                    "four_bao and caught_bao: 四个宝 means the winner drew all four 宝; 接宝 "
                    "needs one discarded by another seat"
                )
            if fp:
                raise SituationError(
                    "payers_flown: with four_bao (四个宝) the winner drew all four 宝, so no payer could discard one"
                )
            if drawn_most != 4:
                raise SituationError(
                    f"four_bao: 四个宝 means the winner drew all four 宝 ({format_tile(bao)}): in hand, melds, "
                    f"flown (winner_flown) or the self-drawn win_tile; here {drawn_most}"
                )
        elif drawn_least == 4:
            raise SituationError(
                f"four_bao: false, but the winner drew all four 宝 ({format_tile(bao)}): they are "
                "in its hand, its own melds, flown by it or its self-drawn win_tile (四个宝)"
            )
        if self.caught_bao:
            # 接宝 (seed (21)): three 宝 drawn before, and a fourth discarded by a payer
            if n_hand + n_melds + fw < 3:
                raise SituationError(
                    f"caught_bao: 接宝 needs three 宝 ({format_tile(bao)}) drawn before the caught one, in hand, "
                    f"melds or flown (winner_flown); here {n_hand + n_melds + fw}"
                )
            if fp != 1:
                raise SituationError(
                    f"payers_flown: with caught_bao (接宝) the winner drew three 宝 and a payer discarded the "
                    f"fourth: the payers flew exactly one, got {list(self.payers_flown)}"
                )
        if self.winner_held_bao is False:
            if n_hand or n_win:
                raise SituationError(
                    f"winner_held_bao: false, but the hand or win_tile holds a 宝 ({format_tile(bao)})"
                )
            for name in ("winner_flown", "four_bao", "caught_bao", "touji"):
                if getattr(self, name):
                    raise SituationError(f"winner_held_bao: false, but {name} says the winner held a 宝")
            if drawn_least > 0:
                raise SituationError(
                    f"winner_held_bao: false, but the melds hold {n_melds} 宝 ({format_tile(bao)}); only "
                    f"{claimable} can be payers' discards claimed as their face"
                )
        elif self.winner_held_bao and not drawn_most and not n_win:
            raise SituationError(
                f"winner_held_bao: true, but no 宝 ({format_tile(bao)}) is in hand, win_tile or melds and "
                "winner_flown is 0: a 宝 the winner drew would be in one of them (R17)"
            )
        if self.touji and not drawn_most:
            raise SituationError(
                f"touji: 偷机 declines a win in the 宝吊 state, holding a 宝; no 宝 "
                f"({format_tile(bao)}) is in hand, melds or flown (winner_flown)"
            )

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
        known = {
            "hand",
            "win_tile",
            "melds",
            "bao",
            "win_by",
            "heavenly",
            "kong_chain",
            "winner_flown",
            "payers_flown",
            "winner_held_bao",
            "four_bao",
            "caught_bao",
            "robbed",
            "touji",
        }
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
            if isinstance(v, list):
                v = [_as_int(x) for x in v]  # numpy integers as plain ints, as WinSituation takes them
                if all(isinstance(x, int) and not isinstance(x, bool) for x in v):
                    return v
            raise SituationError(f"{name}: must be a tile string like '123m' or a list of kinds 0..33")

        def tile(name: str) -> int | None:
            v = _as_int(data.get(name))
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
            raise SituationError('melds: must be a list like ["pung:555p"]')
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
