"""Fuzzing the stored compact hand (``hands.decisions``, :mod:`shangrao.records.compact`): a valid
value with its bytes flipped, cut or extended, or read with another seed, dealer, rules or result,
either expands to the hand's events or raises :class:`~shangrao.records.compact.CompactHandError`
(a :class:`~shangrao.errors.InputError`, a ``ValueError``) naming the game and the hand.  Never
another exception, never a wrong log."""

from __future__ import annotations

import functools
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shangrao.bots import get_bot
from shangrao.errors import InputError
from shangrao.game import Game
from shangrao.game.actions import ActionType, parse_action
from shangrao.game.match import play_hand
from shangrao.records.compact import CompactHandError, expand_hand, pack_hand, rules_key
from shangrao.records.store import event_to_dict
from shangrao.records.summary import hand_summary
from shangrao.rules import DEFAULT_RULES

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GAME_SEED, HAND, DEALER, SCORES = 41, 2, 1, (3, -1, 0, -2)
_TYPES = list(ActionType)


@functools.cache
def _stored() -> tuple[bytes, dict, list[dict]]:
    """A whole hand as the fast engine stores it: (``hands.decisions``, ``hands.result``, its events)."""
    game = Game(DEFAULT_RULES, seed=f"{GAME_SEED}:{HAND}", dealer=DEALER, scores=SCORES, hand_no=HAND)
    play_hand(game, [get_bot("random", f"fuzz:{i}") for i in range(4)])
    codes = []
    for ev in game.events:
        if "action" in ev:
            a = parse_action(ev["action"])
            codes.append(_TYPES.index(a.type) * 34 + (a.tile or 0))
    value = pack_hand(rules_key(DEFAULT_RULES), GAME_SEED, HAND, DEALER, SCORES, codes)
    events = json.loads(json.dumps([event_to_dict(e) for e in game.events], ensure_ascii=False))
    return value, json.loads(json.dumps(hand_summary(game.result, game.events))), events


def _expand(value, seed=GAME_SEED, dealer=DEALER, rules=None, result=None):
    _, stored_result, _ = _stored()
    return expand_hand(
        9,
        HAND,
        dealer,
        value,
        seed,
        DEFAULT_RULES.to_dict() if rules is None else rules,
        stored_result if result is None else result,
    )


def test_the_stored_hand_expands_to_its_events():
    value, _, events = _stored()
    assert _expand(value) == events


@st.composite
def damaged_values(draw) -> bytes:
    """The stored value with one to three bytes changed, a cut, or bytes inserted."""
    data = bytearray(_stored()[0])
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["flip", "cut", "insert"]))
        i = draw(st.integers(0, len(data) - 1))
        if how == "flip":
            data[i] ^= draw(st.integers(1, 255))
        elif how == "cut":
            del data[i : i + draw(st.integers(1, 4))]
        else:
            data[i:i] = draw(st.binary(min_size=1, max_size=4))
    return bytes(data)


def _events_or_named_error(**kw) -> None:
    try:
        events = _expand(**kw)
    except CompactHandError as err:
        assert isinstance(err, InputError) and str(err).startswith(f"game 9, hand {HAND} (0-based)")
    else:
        assert events == _stored()[2]  # what expands is the hand itself, never another log


@FUZZ
@given(st.one_of(damaged_values(), st.binary(max_size=60)))
def test_fuzz_damaged_decision_bytes_expand_or_raise_compact_hand_error(value):
    _events_or_named_error(value=value)


JSON_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 50),
    st.integers(),
    st.text(max_size=5),
    st.lists(st.integers(-2, 5), max_size=4),
    st.dictionaries(st.text(max_size=5), st.integers()),
)


@FUZZ
@given(st.sampled_from(["seed", "dealer", "rules", "result"]), JSON_VALUES)
def test_fuzz_a_changed_seed_dealer_rules_or_result_expand_or_raise_compact_hand_error(field, new):
    if field == "rules" and isinstance(new, dict):
        new = {**DEFAULT_RULES.to_dict(), **new}
    _events_or_named_error(value=_stored()[0], **{field: new})
