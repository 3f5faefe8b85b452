"""Messages between the browser and the server, validated with pydantic.

Client -> server (JSON objects over the table's WebSocket):

``{"type": "action", "action": "discard 5m", "hand": 2, "seq": 12}``
    one decision in the engine's string form (see :mod:`shangrao.game.actions`) answering the
    state the player saw: its ``hand_no`` as ``hand`` and its ``seq``.  Both are REQUIRED
    (since issue 13; ``seq`` restarts every hand, so ``seq`` alone could match a position of a
    later hand): an action whose (hand, seq) is not the seat's current position is refused
    as ``stale`` instead of being applied to a new situation.

    ``seq`` is the SEAT'S OWN counter (issue 12): the number of events of the hand this seat has
    seen, i.e. the length of its redacted log (:func:`shangrao.game.redact`, which drops other
    seats' ``pass``/``call`` in a claim/rob window).  A table-wide counter would tell a seat how
    many hidden decisions were taken.  Every event a seat sees raises its ``seq``, and each of
    its own decisions is such an event, so no two decisions of a seat share a (hand, seq): the
    pair names one position of the seat's view unambiguously.  Between hands ``hand`` tells
    positions apart.  Other seats' hidden window decisions leave the seat's ``seq`` as it is.
    In a claim/rob window every seat with options is asked at once; its answer is held and
    applied when the engine reaches that seat (a second answer is refused as ``illegal``).
    During a window's pause (``claim_pause``) actions are refused as ``illegal`` ("waiting for
    claims"), never as ``stale``, so that the refusal tells nothing about the game behind it.
``{"type": "ready"}``   ready for the next hand (after a settlement); repeated, it does nothing.
``{"type": "fill_bots"}`` seat bots on the seats nobody has claimed yet; with none, nothing.
``{"type": "hint", "hand": 2, "seq": 12}`` (since issue 9) the 提示 button: the expert's top three
    choices for the seat's decision at (hand, seq) — the same position rule as ``action``: anything
    but the seat's current position is refused as ``stale``, and a seat without a decision there
    (not its turn, its window answer already given, a window's pause) gets ``illegal``.  Computed
    from the seat's own :meth:`~shangrao.game.Game.observation` and legal actions only
    (:func:`shangrao.bots.expert.advise`), once per decision (asked again, the same answer is sent
    again).  Answered with ``{"type": "hint", "hand": 2, "seq": 12, "choices": [{"action":
    "discard 5m", "ev": 1.23, "p_win": 0.3, "gain": 4.0, "aim": "qidui", "zh": "打 五万 (5m)  期望
    +1.23  糊率 30%  → 七对", "en": "discard 5m  EV +1.23  win 30%  → seven pairs"}, ...]}`` (best
    first; the lines of :func:`shangrao.bots.advice.choice_text`).  At a table created with
    ``"hints": false`` it is refused as ``hints_off``.  Like every message it counts against the
    connection's rate limit.
``{"type": "ping"}``     answered with ``{"type": "pong"}`` after every state change in progress
    (queued in order: a client may use it as a barrier).

Server -> client: ``state`` (the seat's whole view, see :mod:`shangrao.web.views`), ``hint``,
``error`` (``{"type": "error", "code": ..., "message": ...}``; nothing changed), ``pong``, and
``notice`` (``{"type": "notice", "code": "server_problem", "message": ...}``, since issue 13: the
table cannot be stored right now, another player's action or a bot's move is waiting; play goes
on by itself, announced by the next ``state``).

Error codes: ``malformed`` (not a message of this vocabulary), ``illegal`` (not legal now, or
not your turn), ``stale`` (answers an earlier position; look at the newest state), ``unavailable``
(``could not save; try again``: the database refused the write, nothing changed),
``hints_off`` (a ``hint`` at a table whose host switched hints off),
``rate_limited`` (more messages per second than the server allows; the excess is ignored, with
one such error a second at most),
``forbidden`` (a wrong seat link; the socket is closed), ``full`` (the server holds as many
tables as it may; the socket is closed).  After any error but ``forbidden``/``full`` the
connection stays usable.

A client that does not read its messages (its queue at the server fills up) or does not answer
pings is disconnected; its seat stays reserved for its link and the absent-player rule applies.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    TypeAdapter,
)

__all__ = [
    "ActionMsg",
    "ClientMessage",
    "CreateTable",
    "FillBotsMsg",
    "HintMsg",
    "PingMsg",
    "ReadyMsg",
    "parse_client_message",
]


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ActionMsg(_Msg):
    type: Literal["action"]
    action: Annotated[str, Field(min_length=1, max_length=40)]
    hand: Annotated[StrictInt, Field(ge=0, le=2**31)]
    seq: Annotated[StrictInt, Field(ge=0, le=2**31)]


class HintMsg(_Msg):
    type: Literal["hint"]
    hand: Annotated[StrictInt, Field(ge=0, le=2**31)]
    seq: Annotated[StrictInt, Field(ge=0, le=2**31)]


class ReadyMsg(_Msg):
    type: Literal["ready"]


class FillBotsMsg(_Msg):
    type: Literal["fill_bots"]


class PingMsg(_Msg):
    type: Literal["ping"]


ClientMessage = Annotated[ActionMsg | HintMsg | ReadyMsg | FillBotsMsg | PingMsg, Field(discriminator="type")]
_ADAPTER: TypeAdapter = TypeAdapter(ClientMessage)


def parse_client_message(text: str | bytes):
    """A validated client message; raises ``pydantic.ValidationError`` (a ValueError)."""
    return _ADAPTER.validate_json(text)


def _seat_kind(v: str) -> str:
    from ..bots import BOT_NAMES

    if v != "human" and v not in BOT_NAMES:
        raise ValueError(f"a seat is 'human' or a bot ({', '.join(BOT_NAMES)}), got {v!r}")
    return v


#: 'human' or any bot of the registry (:data:`shangrao.bots.BOT_NAMES`)
SeatKind = Annotated[str, AfterValidator(_seat_kind)]


def default_bot() -> str:
    """The strongest bot of the registry: ``shangrao.bots.STRONGEST`` if it names one, else the last
    of ``BOT_NAMES`` (listed weakest first)."""
    from .. import bots

    return getattr(bots, "STRONGEST", None) or bots.BOT_NAMES[-1]


class RematchMsg(BaseModel):
    """POST /api/tables/{id}/rematch: a seat's token of the finished table."""

    model_config = ConfigDict(extra="forbid", strict=True)
    token: Annotated[str, Field(min_length=1, max_length=100)]


class CreateTable(BaseModel):
    """POST /api/tables: a new table.  seats: seat 0 is the creator (human); 1-3 human or a bot.
    hints: whether the players may ask for the expert's advice (the 提示 button; stored with the table).

    Strictly typed: ``{"hands": true}`` or ``{"hands": "8"}`` is refused (422), not read as 1 or 8.
    The name's length is also checked against the server's ``--max-name``.  The seats default to
    the strongest bot (:func:`default_bot`)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: Annotated[str, Field(max_length=200)] = ""
    hands: Annotated[StrictInt, Field(ge=1, le=32)] = 8
    seats: Annotated[list[SeatKind], Field(min_length=3, max_length=3)] = Field(
        default_factory=lambda: [default_bot()] * 3)
    # strict: "1" or "true" is not silently turned into True (RuleSet names the bad option)
    rules: dict[str, StrictBool | StrictInt] = Field(default_factory=dict)
    hints: StrictBool = True
