"""The server -> client messages as pydantic models, and their published JSON Schema
(``docs/web-messages.schema.json``, written by ``python -m shangrao.web.outgoing``; the test
``tests/web/test_outgoing_schema.py`` fails when it is out of date, and checks the messages of
whole hands against these models).

The messages themselves are still written by :mod:`shangrao.web.views` (the ``state`` message as
JSON text built once per change, the fast path) and by the table and socket code; these models
describe them (``extra="forbid"`` on every object the server writes itself, so a key added without
its model fails the test).  ``table.rules``, a ``state``'s ``settlement`` and ``reveal``, a log event
and a hint's choices are described by their own documents (``RuleSet.to_dict``, ``hands.result``,
``game/protocol.py``, :func:`shangrao.bots.advice.choice_text`) and are objects here."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

__all__ = ["JS_PATH", "SCHEMA_PATH", "ErrorMessage", "HintMessage", "NoticeMessage", "OutgoingMessage", "PhraseMessage",
           "PongMessage", "StateMessage", "WatchMessage", "jsdoc_text", "schema"]

SCHEMA_PATH = "docs/web-messages.schema.json"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MeldView(_Strict):
    kind: str = Field(description="the meld's type: chow, pung, kong, concealed_kong")
    tiles: list[int] = Field(description="its kinds 0..33")
    claimed: int | None = Field(description="the kind claimed from another seat, if any")
    from_: int | None = Field(alias="from", description="the seat it was claimed from, if any")


class SeatView(_Strict):
    """A seat's view (:meth:`shangrao.game.Game.observation` of that seat, and the seat winds)."""

    seat: int
    phase: Literal["act", "discard", "claim", "rob", "over"]
    current_seat: int | None = Field(description="the seat deciding; in a window only the seat itself, else None")
    hand: list[int] = Field(description="the seat's concealed kinds")
    drawn: int | None
    hand_sizes: list[int]
    melds: list[list[MeldView]]
    discards: list[list[int]]
    bao: int
    indicator: int
    tiles_left: int
    dealer: int
    scores: list[int]
    flown: list[int]
    bao_drawn: int
    last_discard: list[int] | None
    kong: list[int | str] | None
    kong_chain: int
    first_discard: bool
    winds: list[str]
    bao_count: int


class PlayerInfo(_Strict):
    kind: str = Field(description='"human" or a bot name')
    claimed: bool
    connected: bool
    standin: bool
    ready: bool
    managed: bool = Field(False, description="托管: the player handed the seat to the stand-in bot (issue 24)")


class VoteInfo(_Strict):
    """An open 解散 vote (:meth:`shangrao.game.manners.Manners.public`)."""

    proposer: int
    voters: list[int] = Field(description="the seated players, who vote")
    answers: dict[str, bool] = Field(description="seat (as text) -> agrees; the proposer's is true")
    left: float = Field(description="seconds left of the vote's countdown")


class MannersInfo(_Strict):
    """The table manners every seat and spectator sees (issue 24)."""

    managed: list[int] = Field(description="the seats in 托管")
    vote: VoteInfo | None
    result: Literal["passed", "failed"] | None = Field(description="the last vote's outcome")


class TableInfo(_Strict):
    """The table's public facts (the lobby shows the same)."""

    id: int
    name: str
    status: Literal["waiting", "playing", "between", "finished"]
    hands_total: int | None
    hands_played: int
    scores: list[int]
    rules: dict[str, Any]
    free_seats: list[int]
    players: list[PlayerInfo]
    history: list[list[int]] | None = None
    rematch: int | None
    hints: bool
    manners: MannersInfo | None = None
    end_reason: Literal["dissolved"] | None = Field(None, description='"dissolved": ended by a 解散 vote')


class LegalAction(_Strict):
    action: str = Field(description="the engine's string form, sent back in an action message")
    type: str
    tile: int | None
    tiles: list[int] | None = None
    declines_win: bool | None = Field(None, description="偷机: passing up a win")


class Wait(_Strict):
    kind: int
    unseen: int


class StateMessage(_Strict):
    """The seat's whole view after a change (:func:`shangrao.web.views.seat_texts`)."""

    type: Literal["state"]
    you: int
    hand_no: int
    seq: int = Field(description="the seat's own counter: the length of its redacted log of the hand")
    table: TableInfo
    view: SeatView | None
    legal: list[LegalAction]
    can_win: bool
    deadline: float | None = Field(description="seconds left of the seat's countdown")
    waits: list[Wait] | None
    discard_waits: dict[str, list[Wait]] | None
    baodiao_discards: list[str] | None = Field(None, description="the discards (mpsz) among discard_waits that "
                                               "leave the hand in the 宝吊 state: any tile wins (任意牌（宝吊）)")
    settlement: dict[str, Any] | None
    reveal: dict[str, Any] | None
    log: list[dict[str, Any]] = Field(description="the last events of the seat's redacted log")


class HintMessage(_Strict):
    type: Literal["hint"]
    hand: int
    seq: int
    choices: list[dict[str, Any]]
    note: str | None


class ErrorMessage(_Strict):
    type: Literal["error"]
    code: Literal["malformed", "illegal", "stale", "unavailable", "hints_off", "rate_limited", "forbidden",
                  "full", "busy", "damaged"]
    message: str
    hand: int | None = None
    seq: int | None = None
    action: str | None = None
    count: int | None = None


class NoticeMessage(_Strict):
    type: Literal["notice"]
    code: Literal["server_problem"]
    message: str


class PongMessage(_Strict):
    type: Literal["pong"]


class PublicView(_Strict):
    """What every seat sees alike (a spectator's view, :func:`shangrao.web.spectators.public_view`): no hand."""

    phase: Literal["act", "discard", "claim", "rob", "over"]
    current_seat: int | None = Field(description="the seat deciding; None in a claim/rob window")
    hand_sizes: list[int]
    melds: list[list[MeldView]]
    discards: list[list[int]]
    bao: int
    indicator: int
    tiles_left: int
    dealer: int
    scores: list[int]
    flown: list[int]
    last_discard: list[int] | None
    kong: list[int | str] | None
    kong_chain: int
    first_discard: bool
    winds: list[str]


class WatchMessage(_Strict):
    """A spectator's state (:func:`shangrao.web.spectators.spectator_state`): only what is public."""

    type: Literal["watch"]
    hand_no: int
    table: TableInfo
    view: PublicView | None
    log: list[dict[str, Any]] = Field(description="the last events of the public log (no draw's tile, no 过)")
    settlement: dict[str, Any] | None
    reveal: dict[str, Any] | None


class PhraseMessage(_Strict):
    """A quick phrase (快捷语) said at the table (issue 24)."""

    type: Literal["phrase"]
    seat: int
    phrase: str = Field(description="its id (shangrao.game.manners.PHRASES)")
    text: str = Field(description="its Chinese words")


OutgoingMessage = Annotated[StateMessage | HintMessage | ErrorMessage | NoticeMessage | PongMessage | WatchMessage
                            | PhraseMessage, Field(discriminator="type")]
_ADAPTER: TypeAdapter[Any] = TypeAdapter(OutgoingMessage)


def validate(text: str) -> BaseModel:
    """A message the server wrote (JSON text) read by its model; raises pydantic's ValidationError."""
    return _ADAPTER.validate_json(text)


def schema() -> dict[str, Any]:
    """The JSON Schema of every server -> client message (by-alias field names, as sent)."""
    out = _ADAPTER.json_schema(by_alias=True)
    out["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    out["title"] = "shangrao web: server -> client messages"
    return out


def schema_text() -> str:
    return json.dumps(schema(), ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def _js_type(node: dict[str, Any]) -> str:
    """A JSON Schema node as a JSDoc (TypeScript) type."""
    if "$ref" in node:
        return node["$ref"].rsplit("/", 1)[1]
    if "const" in node:
        return json.dumps(node["const"])
    if "enum" in node:
        return " | ".join(json.dumps(v) for v in node["enum"])
    if "anyOf" in node or "oneOf" in node:
        return " | ".join(_js_type(x) for x in node.get("anyOf", node.get("oneOf", [])))
    t = node.get("type")
    if t == "array":
        return f"Array<{_js_type(node.get('items', {}))}>"
    if t == "object":
        extra = node.get("additionalProperties")
        return f"Object<string, {_js_type(extra)}>" if isinstance(extra, dict) else "Object<string, any>"
    return {"integer": "number", "number": "number", "string": "string", "boolean": "boolean",
            "null": "null"}.get(str(t), "any")


def jsdoc_text() -> str:
    """``static/messages.js``: the schema's types as JSDoc typedefs (for ``// @ts-check`` in the JS)."""
    sch = schema()
    lines = ["// Generated by `python -m shangrao.web.outgoing` from docs/web-messages.schema.json: do not edit.",
             "// The server -> client messages (shangrao/web/outgoing.py), as JSDoc types for // @ts-check.",
             '"use strict";', ""]
    for name, node in sorted(sch["$defs"].items()):
        lines.append("/**")
        lines.append(f" * @typedef {{Object}} {name}")
        required = set(node.get("required", []))
        for prop, sub in node.get("properties", {}).items():
            key = prop if prop in required else f"[{prop}]"
            lines.append(f" * @property {{{_js_type(sub)}}} {key}")
        lines.append(" */")
        lines.append("")
    lines.append("/** @typedef {" + _js_type(sch) + "} OutgoingMessage */")
    return "\n".join(lines) + "\n"


JS_PATH = "src/shangrao/web/static/messages.js"

if __name__ == "__main__":  # python -m shangrao.web.outgoing: write the schema and the JSDoc types
    with open(SCHEMA_PATH, "w", encoding="utf-8") as f:
        f.write(schema_text())
    with open(JS_PATH, "w", encoding="utf-8") as f:
        f.write(jsdoc_text())
