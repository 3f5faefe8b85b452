"""Messages between the browser and the server, validated with pydantic.

Client -> server (JSON objects over the table's WebSocket):

``{"type": "action", "action": "discard 5m", "seq": 12}``
    one decision in the engine's string form (see :mod:`shangrao.game.actions`);
    ``seq`` (optional) is the state's ``seq`` the player saw: a stale click
    (the state moved on) is refused instead of applied to a new situation.
``{"type": "ready"}``   ready for the next hand (after a settlement).
``{"type": "fill_bots"}`` seat bots on the seats nobody has claimed yet.
``{"type": "ping"}``     answered with ``{"type": "pong"}``.

Server -> client: ``state`` (the seat's whole view, see :mod:`shangrao.web.views`),
``error`` (``{"type": "error", "code": ..., "message": ...}``; nothing changed), ``pong``.
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
    "PingMsg",
    "ReadyMsg",
    "parse_client_message",
]


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ActionMsg(_Msg):
    type: Literal["action"]
    action: Annotated[str, Field(min_length=1, max_length=40)]
    seq: Annotated[int, Field(ge=0)] | None = None
    hand: Annotated[int, Field(ge=0)] | None = None


class ReadyMsg(_Msg):
    type: Literal["ready"]


class FillBotsMsg(_Msg):
    type: Literal["fill_bots"]


class PingMsg(_Msg):
    type: Literal["ping"]


ClientMessage = Annotated[ActionMsg | ReadyMsg | FillBotsMsg | PingMsg, Field(discriminator="type")]
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

    model_config = ConfigDict(extra="forbid")
    token: Annotated[str, Field(min_length=1, max_length=100)]


class CreateTable(BaseModel):
    """POST /api/tables: a new table.  seats: seat 0 is the creator (human); 1-3 human or a bot."""

    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(max_length=40)] = ""
    hands: Annotated[int, Field(ge=1, le=32)] = 8
    seats: Annotated[list[SeatKind], Field(min_length=3, max_length=3)] = Field(
        default_factory=lambda: [default_bot()] * 3)
    # strict: "1" or "true" is not silently turned into True (RuleSet names the bad option)
    rules: dict[str, StrictBool | StrictInt] = Field(default_factory=dict)
