"""Fuzzing the web's incoming socket message parser (:func:`shangrao.web.messages.parse_client_message`):
random text and bytes, random JSON and mutated valid messages either give a message model or raise
the ``ValueError`` its docstring names (``pydantic.ValidationError``, not JSON, nested too deeply, a
key given twice) — which the socket answers with ``malformed``.  Never another exception."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from shangrao.web.messages import parse_client_message

FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

VALID = [
    {"type": "action", "action": "discard 5m", "hand": 0, "seq": 3},
    {"type": "hint", "hand": 2, "seq": 17},
    {"type": "ready"},
    {"type": "fill_bots"},
    {"type": "ping"},
    {"type": "dissolve"},
    {"type": "manage", "on": True},
    {"type": "vote", "agree": False},
    {"type": "phrase", "phrase": "快点吧"},
]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=45),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
KEYS = ["type", "action", "hand", "seq", "on", "agree", "phrase", "extra", ""]


@st.composite
def mutated(draw) -> str:
    """A valid message with a field replaced, added or removed, as JSON text (sometimes cut, or with a
    key repeated)."""
    msg = dict(draw(st.sampled_from(VALID)))
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from(KEYS))
        if draw(st.booleans()) and key in msg:
            del msg[key]
        else:
            msg[key] = draw(st.one_of(JSON_VALUES, st.sampled_from(["action", "ping", "vote", 2**31, 2**31 + 1, -1])))
    text = json.dumps(msg, ensure_ascii=draw(st.booleans()))
    how = draw(st.sampled_from(["whole", "cut", "repeat_key"]))
    if how == "cut":
        text = text[: draw(st.integers(0, len(text)))]
    elif how == "repeat_key" and len(msg) > 0:
        text = text[:-1] + ', "type": "ping"}'
    return text


def _message_or_value_error(text: str | bytes) -> None:
    try:
        msg = parse_client_message(text)
    except ValueError as err:
        assert str(err)
    else:
        assert isinstance(msg, BaseModel) and msg.type in {m["type"] for m in VALID}  # type: ignore[attr-defined]


def test_the_valid_messages_parse():
    for m in VALID:
        assert parse_client_message(json.dumps(m)).model_dump() == m


@FUZZ
@given(st.one_of(mutated(), st.text(max_size=50), st.text(alphabet='{}[]":, 0123456789.e-typeactionhd', max_size=50)))
def test_fuzz_socket_text_gives_a_message_or_a_value_error(text):
    _message_or_value_error(text)


@FUZZ
@given(
    st.one_of(
        st.binary(max_size=50), mutated().map(lambda t: t.encode("utf-8")), mutated().map(lambda t: t.encode("utf-16"))
    )
)
def test_fuzz_socket_bytes_give_a_message_or_a_value_error(data):
    _message_or_value_error(data)


def test_deep_nesting_is_a_value_error():
    _message_or_value_error("[" * 100_000 + "]" * 100_000)
    _message_or_value_error('{"type": ' + "[" * 100_000)
