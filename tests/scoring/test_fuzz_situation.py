"""Fuzzing the situation reader of ``shangrao score`` (:meth:`WinSituation.from_dict` through
:func:`shangrao.score`) and its JSON text: random and mutated situations either score or raise
:class:`~shangrao.scoring.situation.SituationError` (an :class:`~shangrao.errors.InputError`, a
``ValueError``) naming what is wrong.  Never another exception."""

from __future__ import annotations

import contextlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import shangrao
from shangrao.cli.common import CliError, parse_json
from shangrao.errors import InputError
from shangrao.scoring.situation import SituationError

FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: valid situations of several forms (the seed's examples and the CLI docs')
VALID = [
    {"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p"},
    {"hand": "123m456p789s12s9p9p", "win_tile": "9p", "bao": "9p", "payers_flown": [1, 0, 0]},
    {"hand": "5z5z5z5z123m456m789m", "win_tile": "1z", "bao": "5z", "win_by": "self_draw", "four_bao": True},
    {
        "hand": "123m456p123s5z",
        "win_tile": "5z",
        "bao": "9p",
        "melds": ["concealed_kong:9999p"],
        "four_bao": True,
        "win_by": "self_draw",
        "kong_chain": 1,
    },
    {
        "hand": "1123m",
        "win_tile": "4m",
        "melds": ["pung:222p", "pung:333s", "chow:678s"],
        "bao": "5p",
        "robbed": 1,
        "win_by": "robbing_kong",
    },
    {"hand": "1122m3344p5566s7z", "win_tile": "7z", "bao": "1z", "win_by": "self_draw", "winner_flown": 1},
]
FIELDS = [
    "hand",
    "win_tile",
    "melds",
    "bao",
    "win_by",
    "heavenly",
    "kong_chain",
    "winner_flown",
    "payers_flown",
    "winner_held_bao",
    "four_bao",
    "caught_bao",
    "robbed",
    "touji",
    "unknown",
    "Hand",
]
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 6),
    st.integers(),
    st.floats(),
    st.text(max_size=12),
    st.sampled_from(
        [
            "self_draw",
            "discard",
            "robbing_kong",
            "kong_replacement",
            "dealer_first_discard",
            "heaven",
            "9p",
            "5z",
            "8z",
            "123m",
            "pung:555p",
            "chow:123z",
            "宝",
            "东",
            "🀄",
        ]
    ),
    st.lists(st.one_of(st.integers(-1, 3), st.sampled_from(["pung:555p", "kong:1111z", "chow:789s", "x"])), max_size=4),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)


@st.composite
def situations(draw):
    """One of the valid situations with one to three fields replaced, added or removed."""
    sit = dict(draw(st.sampled_from(VALID)))
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from(FIELDS))
        if draw(st.booleans()) and key in sit:
            del sit[key]
        else:
            sit[key] = draw(VALUES)
    return sit


def test_the_valid_situations_score():
    for sit in VALID:
        assert shangrao.score(sit).total > 0


@FUZZ
@given(st.one_of(situations(), VALUES))
def test_fuzz_a_situation_scores_or_raises_situation_error(sit):
    try:
        result = shangrao.score(sit)
    except SituationError as err:
        assert isinstance(err, InputError) and str(err)
    else:
        assert isinstance(result.total, int)


@FUZZ
@given(st.one_of(st.text(max_size=40), st.text(alphabet='{}[]":,0123456789 truefalsenul-hand', max_size=40)))
def test_fuzz_situation_json_text_reads_or_raises_a_cli_error_naming_the_input(text):
    try:
        obj = parse_json(text, "situation.json")
    except CliError as err:
        assert "situation.json" in str(err)
        return
    with contextlib.suppress(SituationError):
        shangrao.score(obj)
