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
``{"type": "manage", "on": true}`` (since issue 24) 托管: the seat's stand-in plays for it (``false``: the
    person takes it back; the next decision is theirs).  Every seat sees a ``managed`` badge.
``{"type": "dissolve"}`` propose 解散 (the proposer agrees); ``{"type": "vote", "agree": true}`` answer an
    open vote (同意 / 拒绝).  The rule (a strict majority of the seated people) is
    :mod:`shangrao.game.manners`'s; a passed vote ends the match (``table.end_reason`` "dissolved").
``{"type": "phrase", "phrase": "hurry"}`` a quick phrase (快捷语, an id of
    :data:`shangrao.game.manners.PHRASES`), sent to every seat and spectator as ``{"type": "phrase",
    "seat", "phrase", "text"}``; more than one per ``phrase_interval`` seconds is refused as
    ``rate_limited`` in words.
``{"type": "ping"}``     answered with ``{"type": "pong"}`` after every state change in progress
    (queued in order: a client may use it as a barrier).

Server -> client: ``state`` (the seat's whole view, see :mod:`shangrao.web.views`), ``hint``,
``error`` (``{"type": "error", "code": ..., "message": ...}``; nothing changed), ``pong``, and
``notice`` (``{"type": "notice", "code": "server_problem", "message": ...}``, since issue 13: the
table cannot be stored right now, another player's action or a bot's move is waiting; play goes
on by itself, announced by the next ``state``).

Error codes: ``malformed`` (not a message of this vocabulary: not JSON, a key given twice in one
object, an unknown type or field, a field of the wrong type), ``illegal`` (not legal now, or
not your turn), ``stale`` (answers an earlier position; look at the newest state), ``unavailable``
(``could not save; try again``: the database refused the write, nothing changed),
``hints_off`` (a ``hint`` at a table whose host switched hints off),
``rate_limited`` (more messages per second than the server allows; the excess is ignored, with
one such error a second at most),
``forbidden`` (a wrong seat link; the socket is closed), ``full`` (the server holds as many
tables as it may; the socket is closed), ``busy`` (the seat already has as many open sockets as
one seat may: ``tables.MAX_CONNECTIONS_PER_SEAT``; the socket is closed).  After any error but
``forbidden``/``full``/``busy`` the connection stays usable.

A client that does not read its messages (its queue at the server fills up) or does not answer
pings is disconnected; its seat stays reserved for its link and the absent-player rule applies.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    TypeAdapter,
)

from .. import strictjson

__all__ = [
    "ActionMsg",
    "ClientMessage",
    "CreateTable",
    "DissolveMsg",
    "FillBotsMsg",
    "HintMsg",
    "ManageMsg",
    "PhraseMsg",
    "PingMsg",
    "ReadyMsg",
    "RuleOptions",
    "SeatKind",
    "TableName",
    "VoteMsg",
    "check_name",
    "clean_name",
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


class ManageMsg(_Msg):
    type: Literal["manage"]
    on: StrictBool


class DissolveMsg(_Msg):
    type: Literal["dissolve"]


class VoteMsg(_Msg):
    type: Literal["vote"]
    agree: StrictBool


class PhraseMsg(_Msg):
    type: Literal["phrase"]
    phrase: Annotated[str, Field(min_length=1, max_length=20)]


ClientMessage = Annotated[
    ActionMsg | HintMsg | ReadyMsg | FillBotsMsg | PingMsg | ManageMsg | DissolveMsg | VoteMsg | PhraseMsg,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[Any] = TypeAdapter(ClientMessage)


def parse_client_message(text: str | bytes) -> Any:
    """A validated client message.  Raises ``pydantic.ValidationError`` or another ValueError: not
    JSON, nested too deeply, or a key given twice in one object
    (:class:`shangrao.strictjson.DuplicateKeyError`: ``{"type": "action", "seq": 3, "seq": 9}`` is not
    read as seq 9)."""
    try:
        data = strictjson.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"not JSON ({strictjson.error_words(err)} at character {err.pos})") from None
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    return _ADAPTER.validate_python(data)


#: bidirectional formatting characters (ALM, LRM, RLM, the embeddings and overrides U+202A-U+202E, the
#: isolates U+2066-U+2069): in a name they could make it, and the text around it, show as something else
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _refused(ch: str) -> bool:
    """Characters no name may hold: controls (NUL, tab, line breaks, DEL, C1), lone surrogates, the
    line and paragraph separators, and the bidirectional formatting characters."""
    return ch in _BIDI or unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp")


def check_name(name: str) -> str:
    """``name`` if it holds no refused character (see :func:`_refused`) and shows something (not only
    spaces and invisible format characters such as U+200B, U+FEFF, U+00AD); else ValueError naming the
    first refused one by code point and position (the name itself is not echoed)."""
    for i, ch in enumerate(name):
        if _refused(ch):
            kind = "a bidirectional formatting" if ch in _BIDI else "a control"
            raise ValueError(
                f"a name may not hold control or bidirectional formatting characters: "
                f"{kind} character U+{ord(ch):04X} at position {i + 1}"
            )
    if name and all(ch.isspace() or unicodedata.category(ch) == "Cf" for ch in name):
        raise ValueError("a name must show something: this one is only spaces or invisible characters")
    return name


def clean_name(name: Any) -> str:
    """A stored name as it is shown: without the characters :func:`check_name` refuses (a record
    written before they were refused, or edited by hand); not a string: ``""``."""
    if not isinstance(name, str):
        return ""
    return name if not any(_refused(ch) for ch in name) else "".join(ch for ch in name if not _refused(ch))


#: a table name: at most 200 characters here (the server's ``--max-name`` is checked too), none refused
#: by :func:`check_name`
TableName = Annotated[str, Field(max_length=200), AfterValidator(check_name)]


def _no_hands_rule(rules: dict[str, Any]) -> dict[str, Any]:
    if "hands_per_match" in rules:
        raise ValueError(
            "hands_per_match is not a rule option here: the number of hands is the field 'hands' (an integer 1..32)"
        )
    return rules


#: a table's (or room's) rule options: strict booleans and ints, range-checked by RuleSet; never
#: ``hands_per_match`` (that is the field ``hands``)
RuleOptions = Annotated[dict[str, StrictBool | StrictInt], AfterValidator(_no_hands_rule)]


def _seat_kind(v: str) -> str:
    from ..bots import BOT_NAMES, web_bot_labels

    labels = web_bot_labels()  # a browser names an offered bot by its label, never its command
    if v != "human" and v not in BOT_NAMES and v not in labels:
        raise ValueError(f"a seat is 'human' or a bot ({', '.join((*BOT_NAMES, *labels))}), got {v[:80]!r}")
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

    Strictly typed: ``{"hands": true}`` or ``{"hands": "8"}`` is refused (422), not read as 1 or 8;
    so is every rule option (an int 0..1000000 or a boolean, as :class:`~shangrao.rules.RuleSet`
    checks; ``rules.hands_per_match`` is refused: it is ``hands``).  The name's length is also checked
    against the server's ``--max-name``; a name with a control or bidirectional formatting character
    is refused (:func:`check_name`).  The seats default to
    the strongest bot (:func:`default_bot`)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: TableName = ""
    hands: Annotated[StrictInt, Field(ge=1, le=32)] = 8
    seats: Annotated[list[SeatKind], Field(min_length=3, max_length=3)] = Field(
        default_factory=lambda: [default_bot()] * 3
    )
    # strict: "1" or "true" is not silently turned into True (RuleSet names the bad option)
    # RuleSet.from_dict range-checks the values and names unknown options; the number of hands is `hands`
    rules: Annotated[dict[str, StrictBool | StrictInt], AfterValidator(_no_hands_rule)] = Field(default_factory=dict)
    hints: StrictBool = True
    #: the table's pace (issue 38): the bots' delay and the windows' pause, × 2, 1 or 0.35
    pace: Literal["slow", "normal", "fast"] = "normal"
