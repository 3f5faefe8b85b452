"""The game protocol: the event types of a hand's log and the shape of each event (documented once).

Every :class:`~shangrao.game.Game` appends plain dicts to ``game.events``; each is one of the
``TypedDict``\\ s below, tagged by ``"type"`` (an :class:`EventType`, a ``str`` enum, so
``ev["type"] == EventType.DRAW`` and ``ev["type"] == "draw"`` both hold).  The JSON form of the log
(:func:`shangrao.game.events_to_jsonl`) is a stored format: games written by 0.1.0 replay unchanged
(``tests/game/test_replay_fixtures.py``).  Front ends (CLI narration, records summaries, the web
client) read events by these names.

Tiles are ids 0..135 (kind = id // 4) unless the key says ``kind``, which is mpsz text (``"5m"``).
Seats are absolute 0..3.  Events that record a decision carry ``seat`` and ``action`` (the action's
string form, :mod:`shangrao.game.actions`): replaying those actions in order rebuilds the hand.

==================  ===========================================================================
type                keys
==================  ===========================================================================
``deal``            hand_no, rules (RuleSet dict), seed, dealer, scores (before the hand), wall
                    (136 ids, head first), dice [a, b], indicator (id), indicator_kind (mpsz),
                    bao (mpsz), hands (13 ids per seat, seat order).  A redacted deal (one seat's
                    view, :func:`~shangrao.game.redact`) has no wall, seed, hands but ``hand`` and ``seat``.
``draw``            seat, tile (id), kind (mpsz), source (``head`` | ``tail``: a kong replacement).
                    Redacted for other seats: tile and kind None.
``discard``         seat, tile, kind, action (``discard 5m``).
``call``            seat, action: a declaration in a claim or rob window (``pung 5m``, ``kong 5m``,
                    ``chow 345m``, ``win``, ``catch_bao``).
``pass``            seat, action ``pass``: a seat asked in a window declines.  (:func:`~shangrao.game.redact`
                    drops other seats' ``call`` and ``pass``: a seat sees only that a window was open.)
``chow`` ``pung``   seat, from (the discarder), meld (``pung:555m``), tiles (ids): the claim that
``kong``            won the window (a kong then waits in the rob window).
``concealed_kong``  seat, kind (mpsz), action: declared in the seat's own turn.
``added_kong``
``kong_stands``     seat, meld, tiles: no one robbed the kong; its bonus follows.
``catch_bao``       seat, tile: 接宝 declared.
``four_bao``        seat: the fourth 宝 drawn (四个宝).
``transfer``        payer, payee, points, reason (``pung_kong`` | ``concealed_kong`` | ``four_bao`` |
                    ``caught_bao`` | ``win``), name (Chinese: the bonus, or the win's pattern).
``declare_win``     seat, action ``win``: a self-drawn win declared.
``win``             seat, win_by (:class:`~shangrao.scoring.WinBy` value), tile (id), kind (mpsz),
                    from (the robbed or discarding seat, None for self-draw), hand (kinds before the
                    win tile), melds (strings), pattern (Chinese), pattern_id, hand_value,
                    win_payments (3 ints, payers in seat order after the winner), breakdown (text).
``end``             drawn (荒牌), winners, deltas, scores, next_dealer.
==================  ===========================================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, Literal, TypedDict, Union

__all__ = [
    "EventType",
    "Event",
    "EVENT_KEYS",
    "DISPLAY_KEYS",
    "event_type",
    "DealEvent",
    "DrawEvent",
    "DiscardEvent",
    "CallEvent",
    "PassEvent",
    "MeldEvent",
    "DeclareKongEvent",
    "KongStandsEvent",
    "CatchBaoEvent",
    "FourBaoEvent",
    "TransferEvent",
    "DeclareWinEvent",
    "WinEvent",
    "EndEvent",
]


class EventType(StrEnum):
    """The ``"type"`` of an event (see the module table)."""

    DEAL = "deal"
    DRAW = "draw"
    DISCARD = "discard"
    CALL = "call"
    PASS = "pass"
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    CONCEALED_KONG = "concealed_kong"
    ADDED_KONG = "added_kong"
    KONG_STANDS = "kong_stands"
    CATCH_BAO = "catch_bao"
    FOUR_BAO = "four_bao"
    TRANSFER = "transfer"
    DECLARE_WIN = "declare_win"
    WIN = "win"
    END = "end"

    def __repr__(self) -> str:
        # an event prints as its JSON reads (``{'type': 'draw', …}``), as logs read from a file do
        return repr(self.value)


class DealEvent(TypedDict):
    type: Literal[EventType.DEAL]
    hand_no: int
    rules: dict[str, Any]
    seed: int | str | None
    dealer: int
    scores: list[int]
    wall: list[int]
    dice: list[int]
    indicator: int
    indicator_kind: str
    bao: str
    hands: list[list[int]]


class DrawEvent(TypedDict):
    type: Literal[EventType.DRAW]
    seat: int
    tile: int | None
    kind: str | None
    source: Literal["head", "tail"]


class DiscardEvent(TypedDict):
    type: Literal[EventType.DISCARD]
    seat: int
    tile: int
    kind: str
    action: str


class CallEvent(TypedDict):
    type: Literal[EventType.CALL]
    seat: int
    action: str


class PassEvent(TypedDict):
    type: Literal[EventType.PASS]
    seat: int
    action: str


# "from" is a keyword: the functional form
MeldEvent = TypedDict(
    "MeldEvent",
    {
        "type": Literal[EventType.CHOW, EventType.PUNG, EventType.KONG],
        "seat": int,
        "from": int,
        "meld": str,
        "tiles": list[int],
    },
)


class DeclareKongEvent(TypedDict):
    type: Literal[EventType.CONCEALED_KONG, EventType.ADDED_KONG]
    seat: int
    kind: str
    action: str


class KongStandsEvent(TypedDict):
    type: Literal[EventType.KONG_STANDS]
    seat: int
    meld: str
    tiles: list[int]


class CatchBaoEvent(TypedDict):
    type: Literal[EventType.CATCH_BAO]
    seat: int
    tile: int


class FourBaoEvent(TypedDict):
    type: Literal[EventType.FOUR_BAO]
    seat: int


class TransferEvent(TypedDict):
    type: Literal[EventType.TRANSFER]
    payer: int
    payee: int
    points: int
    reason: str
    name: str


class DeclareWinEvent(TypedDict):
    type: Literal[EventType.DECLARE_WIN]
    seat: int
    action: str


WinEvent = TypedDict(
    "WinEvent",
    {
        "type": Literal[EventType.WIN],
        "seat": int,
        "win_by": str,
        "tile": int | None,
        "kind": str,
        "from": int | None,
        "hand": list[int],
        "melds": list[str],
        "pattern": str,
        "pattern_id": str,
        "hand_value": int,
        "win_payments": list[int],
        "breakdown": str,
    },
)


class EndEvent(TypedDict):
    type: Literal[EventType.END]
    drawn: bool
    winners: list[int]
    deltas: list[int]
    scores: list[int]
    next_dealer: int


Event = Union[  # noqa: UP007 - a runtime alias; `|` of TypedDicts would need 3.12's `type`
    DealEvent,
    DrawEvent,
    DiscardEvent,
    CallEvent,
    PassEvent,
    MeldEvent,
    DeclareKongEvent,
    KongStandsEvent,
    CatchBaoEvent,
    FourBaoEvent,
    TransferEvent,
    DeclareWinEvent,
    WinEvent,
    EndEvent,
]

_SHAPES: dict[EventType, type] = {
    EventType.DEAL: DealEvent,
    EventType.DRAW: DrawEvent,
    EventType.DISCARD: DiscardEvent,
    EventType.CALL: CallEvent,
    EventType.PASS: PassEvent,
    EventType.CHOW: MeldEvent,
    EventType.PUNG: MeldEvent,
    EventType.KONG: MeldEvent,
    EventType.CONCEALED_KONG: DeclareKongEvent,
    EventType.ADDED_KONG: DeclareKongEvent,
    EventType.KONG_STANDS: KongStandsEvent,
    EventType.CATCH_BAO: CatchBaoEvent,
    EventType.FOUR_BAO: FourBaoEvent,
    EventType.TRANSFER: TransferEvent,
    EventType.DECLARE_WIN: DeclareWinEvent,
    EventType.WIN: WinEvent,
    EventType.END: EndEvent,
}

#: the keys of each event type (a redacted deal has ``hand``/``seat`` instead of ``wall``/``seed``/``hands``)
EVENT_KEYS: dict[EventType, frozenset[str]] = {t: frozenset(s.__annotations__) for t, s in _SHAPES.items()}


#: keys that are labels for people, derived from ids the event also carries (``pattern_id``,
#: ``reason``): a win's ``pattern`` (Chinese name) and ``breakdown`` (text), a transfer's ``name``.
#: They follow the version that wrote the log (0.1.0 named the basic pattern 基本分, later 有宝平糊);
#: :func:`~shangrao.game.replay` compares everything else.
DISPLAY_KEYS: dict[str, tuple[str, ...]] = {
    EventType.WIN: ("pattern", "breakdown"),
    EventType.TRANSFER: ("name",),
}


def event_type(event: Mapping[str, Any]) -> EventType | None:
    """The :class:`EventType` of an event dict, or None for a dict that is not a known event."""
    t = event.get("type")
    try:
        return EventType(t) if isinstance(t, str) else None
    except ValueError:
        return None
