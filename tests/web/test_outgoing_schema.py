"""The server -> client messages have one definition, one writer and a published JSON Schema (issue 21):
``docs/web-messages.schema.json`` is what ``python -m shangrao.web.outgoing`` writes from the Structs that
the server encodes, and the messages of whole hands — every seat's ``state`` after every change, held
windows included — are read back by those types (unknown keys fail)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import msgspec
import pytest

from shangrao.game import Game
from shangrao.web.outgoing import (
    JS_PATH,
    SCHEMA_PATH,
    ErrorMessage,
    HintMessage,
    NoticeMessage,
    PongMessage,
    StateMessage,
    encode_text,
    jsdoc_text,
    schema_text,
    validate,
)
from shangrao.web.views import LogCache, seat_texts

from .sample import TABLE

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src/shangrao/web"


def test_the_published_schema_is_up_to_date():
    assert (ROOT / SCHEMA_PATH).read_text(encoding="utf-8") == schema_text(), "run: python -m shangrao.web.outgoing"
    assert (ROOT / JS_PATH).read_text(encoding="utf-8") == jsdoc_text(), "run: python -m shangrao.web.outgoing"
    table_js = (ROOT / "src/shangrao/web/static/table.js").read_text(encoding="utf-8")
    assert table_js.startswith("// @ts-check") and 'import("./messages.js").OutgoingMessage' in table_js
    union = json.loads(schema_text())
    assert {x["$ref"].rsplit("/", 1)[1] for x in union["anyOf"]} == {
        "StateMessage",
        "HintMessage",
        "ErrorMessage",
        "NoticeMessage",
        "PongMessage",
        "WatchMessage",
        "PhraseMessage",
    }
    assert union["discriminator"]["propertyName"] == "type"


def test_every_state_of_whole_hands_is_read_by_its_model():
    checked = 0
    for h in range(4):
        rng = random.Random(h)
        g = Game(seed=f"outgoing:{h}")
        g.hold_windows = True
        logs = LogCache()
        while True:
            for seat in range(4):
                text, _ = seat_texts(g, seat, hand_no=0, table=TABLE, deadline=3.5, settlement=None, logs=logs)
                msg = validate(text)
                assert isinstance(msg, StateMessage) and msg.you == seat
                checked += 1
            if g.is_over:
                break
            if g.held:
                g.release()
                continue
            g.apply(rng.choice(g.legal_actions()))
    assert checked > 1000


def test_the_other_messages_keep_their_wire_format():
    """The same JSON as before the Structs: the tag ``type`` first, an error's optional fields left
    out when not given, a hint's note an object of zh/en words."""
    assert encode_text(PongMessage()) == '{"type":"pong"}'
    assert encode_text(NoticeMessage(code="server_problem", message="x")) == (
        '{"type":"notice","code":"server_problem","message":"x"}'
    )
    assert encode_text(ErrorMessage(code="stale", message="x")) == '{"type":"error","code":"stale","message":"x"}'
    rate = ErrorMessage(code="rate_limited", message="x", hand=0, seq=3, action="pass", count=2)
    assert json.loads(encode_text(rate)) == {
        "type": "error",
        "code": "rate_limited",
        "message": "x",
        "hand": 0,
        "seq": 3,
        "action": "pass",
        "count": 2,
    }
    hint = HintMessage(hand=0, seq=3, choices=[{"action": "pass"}], note={"zh": "快", "en": "fast"})
    assert encode_text(hint) == (
        '{"type":"hint","hand":0,"seq":3,"choices":[{"action":"pass"}],"note":{"zh":"快","en":"fast"}}'
    )
    for msg in (PongMessage(), rate, hint):
        assert validate(encode_text(msg)) == msg


def test_a_key_without_its_field_is_refused_when_read_back():
    with pytest.raises(msgspec.ValidationError, match="unknown field"):
        validate('{"type":"notice","code":"server_problem","message":"x","extra":1}')
    with pytest.raises(msgspec.ValidationError):
        validate('{"type":"shout","message":"x"}')


def test_one_writer_every_message_is_encoded_by_outgoing():
    """No message text written by hand: the web package encodes what it sends only through
    ``outgoing.encode`` (no f-string JSON, no json/orjson dumps of a message, no ``send_json``)."""
    for path in WEB.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for banned in ("orjson", "send_json(", '\'{"type"', "f'{\"", "json.dumps({"):
            assert banned not in text, f"{path.name}: {banned}"
