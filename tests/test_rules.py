"""The rule set (defaults = the seed's values)."""

from __future__ import annotations

import pytest

from shangrao.rules import DEFAULT_RULES, RuleSet, RuleSetError


def test_defaults_are_the_seeds_values():
    r = DEFAULT_RULES
    assert r.base_points == 1  # 基本分： 1 分
    assert r.heavenly_points == 10  # 天糊：10分
    assert r.earthly_points == 10  # 地糊：10分
    assert r.robbing_kong_factor == 6  # 抢杠 …乘以6倍
    assert r.pung_kong_bonus == 1  # 碰杠： 1分
    assert r.concealed_kong_bonus == 2  # 自摸杠： 2分
    assert r.caught_bao_bonus == 10  # 接宝： 10分
    assert r.four_bao_bonus == 10  # 四个宝： 10分


def test_round_trip_and_replace():
    d = DEFAULT_RULES.to_dict()
    assert RuleSet.from_dict(d) == DEFAULT_RULES
    r = DEFAULT_RULES.replace(base_points=2)
    assert r.base_points == 2 and DEFAULT_RULES.base_points == 1
    assert hash(r) != hash(DEFAULT_RULES) or r != DEFAULT_RULES


def test_unknown_option_named():
    with pytest.raises(RuleSetError, match=r"unknown rule option.*bogus"):
        RuleSet.from_dict({"bogus": 1})


@pytest.mark.parametrize(
    "field,value",
    [("base_points", -1), ("base_points", "1"), ("earthly_win", 1), ("hands_per_match", 0), ("base_points", True)],
)
def test_bad_values(field, value):
    with pytest.raises(RuleSetError, match=field):
        RuleSet.from_dict({field: value})
    assert issubclass(RuleSetError, ValueError)


def test_from_dict_needs_a_dict():
    with pytest.raises(RuleSetError):
        RuleSet.from_dict([1])  # type: ignore[arg-type]
