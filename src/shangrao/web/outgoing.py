"""The server -> client messages as msgspec Structs: their one definition, their one writer
(:func:`encode`: one ``msgspec.json.Encoder`` for every message the server sends) and their published
JSON Schema (``docs/web-messages.schema.json``, generated from the same types by
``python -m shangrao.web.outgoing``; ``tests/web/test_outgoing_schema.py`` fails when it is out of
date, and reads the messages of whole hands back with these types).

Every object the server writes itself refuses unknown keys when read back (``forbid_unknown_fields``),
so a key added without its field fails the test.  ``table.rules``, a ``state``'s ``settlement`` and
``reveal``, a log event and a hint's choices are described by their own documents
(``RuleSet.to_dict``, ``hands.result``, ``game/protocol.py``, :func:`shangrao.bots.advice.choice_text`)
and are objects here.  A field typed :data:`Encoded` (or ``msgspec.Raw``, with its type named in
the schema: a state's ``table``) holds an object already encoded by :func:`encode` — what the seats
see alike is encoded once, not once per message — and is sent as it is."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Annotated, Any, Literal

import msgspec

__all__ = [
    "JS_PATH",
    "SCHEMA_PATH",
    "Encoded",
    "EncodedOrNull",
    "ErrorCode",
    "ErrorMessage",
    "HintMessage",
    "LegalAction",
    "MeldView",
    "NoticeMessage",
    "OutgoingMessage",
    "PhraseMessage",
    "PlayerInfo",
    "PongMessage",
    "PublicView",
    "SeatView",
    "StateMessage",
    "WatchMessage",
    "TableInfo",
    "Wait",
    "encode",
    "encode_text",
    "jsdoc_text",
    "schema",
    "validate",
]

SCHEMA_PATH = "docs/web-messages.schema.json"
JS_PATH = "src/shangrao/web/static/messages.js"

#: an object already encoded by :func:`encode` (``msgspec.Raw``), sent as it is
Encoded = Annotated[msgspec.Raw, msgspec.Meta(extra_json_schema={"type": "object"})]
#: the same, or ``null`` (``msgspec.Raw(b"null")``: a union with Raw is not read back by msgspec)
EncodedOrNull = Annotated[
    msgspec.Raw, msgspec.Meta(extra_json_schema={"anyOf": [{"type": "object"}, {"type": "null"}]})
]


D = msgspec.Meta  # a field's description in the schema: Annotated[T, D(description=...)]


class _Strict(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, gc=False):
    """Not tracked by the garbage collector (``gc=False``): a message is a tree, never a cycle."""


class MeldView(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, gc=False):
    kind: Annotated[str, D(description="the meld's type: chow, pung, kong, concealed_kong")]
    tiles: Annotated[Sequence[int], D(description="its kinds 0..33")]
    claimed: Annotated[int | None, D(description="the kind claimed from another seat, if any")]
    from_: Annotated[int | None, D(description="the seat it was claimed from, if any")] = msgspec.field(name="from")


class SeatView(_Strict):
    """A seat's view (:meth:`shangrao.game.Game.observation` of that seat, and the seat winds)."""

    seat: int
    phase: Literal["act", "discard", "claim", "rob", "over"]
    current_seat: Annotated[int | None, D(description="the seat deciding; in a window only the seat itself, else None")]
    hand: Annotated[Sequence[int], D(description="the seat's concealed kinds")]
    drawn: int | None
    hand_sizes: Sequence[int]
    melds: Sequence[Sequence[MeldView]]
    discards: Sequence[Sequence[int]]
    bao: int
    indicator: int
    tiles_left: int
    dealer: int
    scores: Sequence[int]
    flown: Sequence[int]
    bao_drawn: int
    last_discard: Sequence[int] | None
    kong: Sequence[int | str] | None
    kong_chain: int
    first_discard: bool
    winds: Sequence[str]
    bao_count: int


class PlayerInfo(_Strict):
    kind: Annotated[str, D(description='"human" or a bot name')]
    claimed: bool
    connected: bool
    standin: bool
    ready: bool
    name: Annotated[str | None, D(description="the name a room's member chose (issue 24); null elsewhere")] = None
    managed: Annotated[bool, D(description="托管: the player handed the seat to the stand-in bot (issue 24)")] = False


class VoteInfo(_Strict):
    """An open 解散 vote (:meth:`shangrao.game.manners.Manners.public`)."""

    proposer: int
    voters: Annotated[Sequence[int], D(description="the seated players, who vote")]
    answers: Annotated[dict[str, bool], D(description="seat (as text) -> agrees; the proposer's is true")]
    left: Annotated[float, D(description="seconds left of the vote's countdown")]


class MannersInfo(_Strict):
    """The table manners every seat and spectator sees (issue 24)."""

    managed: Annotated[Sequence[int], D(description="the seats in 托管")]
    vote: VoteInfo | None
    result: Annotated[Literal["passed", "failed"] | None, D(description="the last vote's outcome")]
    why: Annotated[
        Literal["refused", "timeout"] | None,
        D(description="why the last vote failed: too many 拒绝, or its countdown ran out (issue 38)"),
    ] = None
    tally: Annotated[Sequence[int] | None, D(description="the last vote's [agreed, refused, voters]")] = None
    closed: Annotated[int, D(description="votes closed in this match (a new outcome raises it)")] = 0


class TableInfo(_Strict, kw_only=True):
    """The table's public facts (the lobby shows the same)."""

    id: int
    name: str
    status: Literal["waiting", "playing", "between", "finished"]
    hands_total: int | None
    hands_played: int
    scores: Sequence[int]
    rules: dict[str, Any]
    free_seats: Sequence[int]
    players: Sequence[PlayerInfo]
    history: Sequence[Sequence[int]] | None = None
    rematch: int | None
    hints: bool
    room: Annotated[str | None, D(description="the code of the room this match is played in (issue 24), or null")] = (
        None
    )
    manners: MannersInfo | None = None
    end_reason: Annotated[Literal["dissolved"] | None, D(description='"dissolved": ended by a 解散 vote')] = None
    paused: Annotated[bool, D(description="every person has left: nothing is played until one is back (issue 38)")] = (
        False
    )


class LegalAction(_Strict, omit_defaults=True):
    action: Annotated[str, D(description="the engine's string form, sent back in an action message")]
    type: str
    tile: int | None
    tiles: Sequence[int] | None = None
    declines_win: Annotated[bool | None, D(description="偷机: passing up a win")] = None


class Wait(_Strict):
    kind: int
    unseen: int


class StateMessage(_Strict, tag_field="type", tag="state"):
    """The seat's whole view after a change (:func:`shangrao.web.views.seat_texts`).  ``deadline`` is
    written last (:func:`shangrao.web.views.seat_texts` cuts it off to tell a change)."""

    you: int
    hand_no: int
    seq: Annotated[int, D(description="the seat's own counter: the length of its redacted log of the hand")]
    table: Annotated[
        msgspec.Raw,
        D(
            description="the table's facts (a TableInfo, encoded once for the seats)",
            extra_json_schema={"$ref": "#/$defs/TableInfo"},
        ),
    ]
    view: SeatView | None
    legal: Sequence[LegalAction]
    can_win: bool
    waits: Sequence[Wait] | None
    discard_waits: dict[str, Sequence[Wait]] | None
    baodiao_discards: Annotated[
        Sequence[str] | None,
        D(
            description="the discards (mpsz) among discard_waits that "
            "leave the hand in the 宝吊 state: any tile wins "
            "(任意牌（宝吊）)"
        ),
    ]
    settlement: dict[str, Any] | None
    reveal: Annotated[
        EncodedOrNull,
        D(description="倒牌: every hand laid down at the end of a hand (shangrao.web.views.reveal), else null"),
    ]
    log: Annotated[Sequence[Encoded], D(description="the last events of the seat's redacted log")]
    deadline: Annotated[float | None, D(description="seconds left of the seat's countdown")]


class HintMessage(_Strict, tag_field="type", tag="hint"):
    hand: int
    seq: int
    choices: Sequence[dict[str, Any]]
    note: Annotated[
        dict[str, str] | None,
        D(description="why the choices are not in the order of their expected points (zh, en); None when they are"),
    ]


#: the error codes (listed with their meaning in :mod:`shangrao.web.messages`)
ErrorCode = Literal[
    "malformed", "illegal", "stale", "unavailable", "hints_off", "rate_limited", "forbidden", "full", "busy", "damaged"
]


class ErrorMessage(_Strict, tag_field="type", tag="error", omit_defaults=True):
    code: ErrorCode
    message: str
    hand: int | None = None
    seq: int | None = None
    action: str | None = None
    count: int | None = None


class NoticeMessage(_Strict, tag_field="type", tag="notice"):
    code: Literal["server_problem"]
    message: str


class PongMessage(_Strict, tag_field="type", tag="pong"):
    pass


class PublicView(_Strict):
    """What every seat sees alike (a spectator's view, :func:`shangrao.web.spectators.public_view`): no hand."""

    phase: Literal["act", "discard", "claim", "rob", "over"]
    current_seat: Annotated[int | None, D(description="the seat deciding; None in a claim/rob window")]
    hand_sizes: Sequence[int]
    melds: Sequence[Sequence[MeldView]]
    discards: Sequence[Sequence[int]]
    bao: int
    indicator: int
    tiles_left: int
    dealer: int
    scores: Sequence[int]
    flown: Sequence[int]
    last_discard: Sequence[int] | None
    kong: Sequence[int | str] | None
    kong_chain: int
    first_discard: bool
    winds: Sequence[str]


class WatchMessage(_Strict, tag_field="type", tag="watch"):
    """A spectator's state (:func:`shangrao.web.spectators.spectator_state`): only what is public."""

    hand_no: int
    table: TableInfo
    view: PublicView | None
    log: Annotated[Sequence[dict[str, Any]], D(description="the last events of the public log (no draw's tile, no 过)")]
    settlement: dict[str, Any] | None
    reveal: dict[str, Any] | None


class PhraseMessage(_Strict, tag_field="type", tag="phrase"):
    """A quick phrase (快捷语) said at the table (issue 24)."""

    seat: int
    phrase: Annotated[str, D(description="its id (shangrao.game.manners.PHRASES)")]
    text: Annotated[str, D(description="its Chinese words")]


OutgoingMessage = StateMessage | HintMessage | ErrorMessage | NoticeMessage | PongMessage | WatchMessage | PhraseMessage

_encoder = msgspec.json.Encoder()
#: the one writer of every server -> client message (and of the parts encoded ahead, :data:`Encoded`):
#: ``encode(msg) -> bytes``, compact JSON, UTF-8 (non-ASCII as it is); raises TypeError for what JSON
#: cannot hold
encode = _encoder.encode


def encode_text(msg: Any) -> str:
    """:func:`encode` as text (what a WebSocket's ``send_text`` takes)."""
    return _encoder.encode(msg).decode()


_decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(OutgoingMessage)


def validate(text: str | bytes) -> Any:
    """A message the server wrote (JSON text) read back by its type: one of :data:`OutgoingMessage`'s
    Structs (a state's ``table`` read as a :class:`TableInfo` too); raises ``msgspec.ValidationError``
    (a ``ValueError``) for anything else."""
    msg = _decoder.decode(text)
    if isinstance(msg, StateMessage):
        msgspec.json.decode(msg.table, type=TableInfo)
    return msg


def schema() -> dict[str, Any]:
    """The JSON Schema of every server -> client message (the field names as sent), generated from
    the Structs (``msgspec.json.schema_components``)."""
    (union, _), defs = msgspec.json.schema_components([OutgoingMessage, TableInfo], ref_template="#/$defs/{name}")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "shangrao web: server -> client messages",
        **union,
        "$defs": defs,
    }


def schema_text() -> str:
    return json.dumps(schema(), ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def _js_type(node: dict[str, Any]) -> str:
    """A JSON Schema node as a JSDoc (TypeScript) type."""
    if "$ref" in node:
        ref: str = node["$ref"]
        return ref.rsplit("/", 1)[1]
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
    return {"integer": "number", "number": "number", "string": "string", "boolean": "boolean", "null": "null"}.get(
        str(t), "any"
    )


def jsdoc_text() -> str:
    """``static/messages.js``: the schema's types as JSDoc typedefs (for ``// @ts-check`` in the JS)."""
    sch = schema()
    lines = [
        "// Generated by `python -m shangrao.web.outgoing` from docs/web-messages.schema.json: do not edit.",
        "// The server -> client messages (shangrao/web/outgoing.py), as JSDoc types for // @ts-check.",
        '"use strict";',
        "",
    ]
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


if __name__ == "__main__":  # python -m shangrao.web.outgoing: write the schema and the JSDoc types
    with open(SCHEMA_PATH, "w", encoding="utf-8") as f:
        f.write(schema_text())
    with open(JS_PATH, "w", encoding="utf-8") as f:
        f.write(jsdoc_text())
