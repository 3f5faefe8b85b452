"""Fuzzing the rule-set readers: :meth:`RuleSet.from_dict` (stored ``games.rules``, the web's table
options, ``--rules`` files) and ``--rule KEY=VALUE`` options (:func:`shangrao.cli.simulate.parse_rule_options`):
random and mutated options either give a rule set or raise the documented error —
:class:`~shangrao.rules.RuleSetError` naming the option, :class:`~shangrao.cli.common.CliError`
quoting the item — both :class:`~shangrao.errors.InputError` (a ``ValueError``).  Never another
exception; and :func:`shangrao.strictjson.loads` reads JSON or raises a ``ValueError``."""

from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shangrao import strictjson
from shangrao.cli.common import CliError
from shangrao.cli.simulate import parse_rule_options
from shangrao.errors import InputError
from shangrao.rules import DEFAULT_RULES, RuleSet, RuleSetError

FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

NAMES = [f.name for f in dataclasses.fields(RuleSet)]
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 20),
    st.integers(),
    st.floats(),
    st.text(max_size=8),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@st.composite
def rule_dicts(draw) -> dict:
    """The default rules' dict (full, or only its house rules) with one to four options replaced,
    removed or added."""
    d = DEFAULT_RULES.to_dict() if draw(st.booleans()) else {}
    for _ in range(draw(st.integers(1, 4))):
        key = draw(st.one_of(st.sampled_from(NAMES), st.text(max_size=10)))
        if draw(st.booleans()) and key in d:
            del d[key]
        else:
            d[key] = draw(VALUES)
    return d


@FUZZ
@given(st.one_of(rule_dicts(), VALUES))
def test_fuzz_rule_options_give_a_rule_set_or_raise_rule_set_error(data):
    try:
        rules = RuleSet.from_dict(data)
    except RuleSetError as err:
        assert isinstance(err, InputError) and str(err)
    else:
        assert RuleSet.from_dict(rules.to_dict()) == rules


items = st.one_of(
    st.builds(
        lambda k, sep, v: f"{k}{sep}{v}",
        st.one_of(st.sampled_from(NAMES), st.text(max_size=8)),
        st.sampled_from(["=", " = ", "", "=="]),
        st.one_of(
            st.sampled_from(["true", "false", "on", "0", "1", "12", "-3", "1e3", "", "10000000"]), st.text(max_size=6)
        ),
    ),
    st.text(max_size=20),
)


@FUZZ
@given(st.lists(items, max_size=4))
def test_fuzz_rule_command_line_options_give_a_rule_set_or_raise_cli_error(options):
    try:
        rules = parse_rule_options(options)
    except CliError as err:
        assert isinstance(err, InputError) and "--rule" in str(err)
    else:
        assert isinstance(rules, RuleSet)


@FUZZ
@given(st.one_of(st.text(max_size=40), st.text(alphabet='{}[]":, 0123456789.eE+-truefalsn\\u', max_size=40)))
def test_fuzz_strict_json_reads_or_raises_a_value_error(text):
    try:
        strictjson.loads(text)
    except (ValueError, RecursionError) as err:
        assert str(err) or isinstance(err, RecursionError)
