"""Fuzzing the action parser and the event-log reader (a stored hand's JSON lines): random text and
mutated valid input either parse (replay) or raise the package's documented error —
:class:`~shangrao.game.actions.ActionParseError` quoting the action text,
:class:`~shangrao.game.events.ReplayError` naming the line or event — both
:class:`~shangrao.errors.InputError` (a ``ValueError``).  Never another exception."""

from __future__ import annotations

import functools
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shangrao.bots import get_bot
from shangrao.errors import InputError
from shangrao.game import Game
from shangrao.game.actions import ActionParseError, ActionType, parse_action
from shangrao.game.events import ReplayError, events_from_jsonl, events_to_jsonl, replay
from shangrao.game.match import play_hand

FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

ACTION_WORDS = [t.value for t in ActionType] + ["Discard", "PUNG", "concealed-kong", "chi", "hu", ""]
tiles = st.sampled_from(["5m", "1z", "7z", "8z", "0p", "345s", "123", "五万", "东", "🀄", "5m5m", "m", "4567p", ""])
valid_actions = st.builds(
    lambda a, t, sep: f"{a}{sep}{t}".strip() if t else a,
    st.sampled_from(ACTION_WORDS),
    tiles,
    st.sampled_from([" ", "  ", "\t", ""]),
)
action_text = st.one_of(
    valid_actions, st.text(max_size=25), st.text(alphabet="discardpungkowinas _-0123456789mpsz东中", max_size=25)
)


@FUZZ
@given(action_text)
def test_fuzz_action_text_parses_or_raises_action_parse_error_quoting_it(text):
    try:
        action = parse_action(text)
    except ActionParseError as err:
        assert isinstance(err, InputError) and repr(text) in str(err)
    else:
        assert action.tile is None or 0 <= action.tile <= 33


@functools.cache
def _log() -> tuple[str, ...]:
    """The JSON lines of one whole hand (random bots, a fixed seed)."""
    game = Game(seed="fuzz:log")
    play_hand(game, [get_bot("random", f"fuzz:{i}") for i in range(4)])
    return tuple(events_to_jsonl(game.events).splitlines())


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=8,
)


@st.composite
def mutated_logs(draw) -> str:
    """A stored hand's log with one to three edits: a field's value replaced (by another JSON value
    or another event's), a field removed, a line removed, repeated or moved, or text cut or inserted."""
    lines = list(_log())
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["value", "drop_key", "drop_line", "repeat", "move", "cut", "insert"]))
        try:
            ev = json.loads(lines[i])
        except ValueError:
            ev = None
        if op in ("value", "drop_key") and isinstance(ev, dict) and ev:
            key = draw(st.sampled_from(sorted(ev)))
            if op == "drop_key":
                del ev[key]
            else:
                ev[key] = draw(st.one_of(JSON_VALUES, st.sampled_from(list(ev.values()))))
            lines[i] = json.dumps(ev, ensure_ascii=False)
        elif op == "drop_line" and len(lines) > 1:
            del lines[i]
        elif op == "repeat":
            lines.insert(i, lines[i])
        elif op == "move":
            lines.insert(draw(st.integers(0, len(lines) - 1)), lines.pop(i))
        elif op == "cut":
            j = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:j]
        else:
            j = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:j] + draw(st.text(max_size=3)) + lines[i][j:]
    return "\n".join(lines)


def test_the_unedited_log_replays():
    assert replay("\n".join(_log())).is_over


@FUZZ
@given(st.one_of(mutated_logs(), st.text(max_size=60)))
def test_fuzz_a_stored_event_log_replays_or_raises_replay_error(text):
    try:
        replay(events_from_jsonl(text))
    except ReplayError as err:
        assert isinstance(err, InputError) and str(err)
