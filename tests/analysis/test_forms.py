"""Worked examples of the four winning forms and of the 宝 wildcard (糊牌的规定 2; 宝)."""

from __future__ import annotations

import pytest

from shangrao.analysis import (
    Form,
    enumerate_readings,
    form_shanten,
    is_baodiao_state,
    is_winning,
    shanten,
    waits,
    winning_forms,
)
from shangrao.melds import parse_meld
from shangrao.tiles import parse_tile, parse_tiles, to_34


def t34(text: str) -> list[int]:
    return to_34(parse_tiles(text))


def forms(text, bao=None, melds=()):
    ms = [parse_meld(m) for m in melds]
    return set(winning_forms(t34(text), None if bao is None else parse_tile(bao), ms))


# ------------------------------------------------------------------ standard: AA XXX XXX XXX XXX


def test_standard_form():
    assert forms("123m456p789s123s55z") == {Form.STANDARD}
    assert forms("111m222p333s444z55z") == {Form.STANDARD}
    assert forms("123m456p789s124s55z") == set()
    assert forms("55z", melds=["chow:123m", "pung:222p", "kong:3333s", "concealed_kong:4444z"]) == {Form.STANDARD}


def test_honors_do_not_chow():
    assert forms("123z456p789s123s55z") == set()


# ------------------------------------------------------------------ 宝


def test_bao_is_a_wildcard_for_any_kind():
    assert forms("123m456p789s12s55z9p", bao="9p") == {Form.STANDARD}  # 宝 as 3s
    assert forms("123m456p789s123s5z9p", bao="9p") == {Form.STANDARD}  # 宝 as 5z


def test_bao_in_meld_is_only_its_face():
    ms = [parse_meld("pung:999p")]
    # the melded 9p are real faces: the hand 123m456m78p1z1z still needs 6p/9p
    assert set(waits(t34("123m456m78p11z"), parse_tile("9p"), ms)) == {parse_tile("6p"), parse_tile("9p")}


def test_bao_standing_for_its_own_face_does_not_act():
    readings = enumerate_readings(t34("456m123p789s123s55z"), parse_tile("5m"))
    assert readings and all(not r.bao_acting for r in readings if r.substitutions == (parse_tile("5m"),))
    assert any(not r.bao_acting for r in readings)


def test_bao_as_fifth_copy():
    hand = t34("1111m234p567s999s")
    hand[parse_tile("5z")] += 1
    readings = enumerate_readings(hand, parse_tile("5z"))
    assert any(r.substitutions == (parse_tile("1m"),) for r in readings)


def test_four_bao_alone_with_a_pair():
    # four 宝 and 10 real tiles that are three melds and a single
    hand = t34("123m456p789s1z")
    hand[parse_tile("5m")] += 4
    assert is_winning(hand, parse_tile("5m"))


# ------------------------------------------------------------------ 七对


def test_seven_pairs():
    assert forms("11m22m33p44p55s66s77z") == {Form.SEVEN_PAIRS}
    assert forms("11m22m33p44p55s66s7z9p", bao="9p") == {Form.SEVEN_PAIRS}  # 宝 as 7z
    assert forms("11m22m33p44p55s66s67z") == set()


def test_seven_pairs_four_identical_is_two_pairs():
    r = [x for x in enumerate_readings(t34("1111m22m33p44p55s66s"), None) if x.form is Form.SEVEN_PAIRS]
    assert len(r) == 1 and r[0].quads == 1
    r = [x for x in enumerate_readings(t34("1111m2222m3333p55s"), None) if x.form is Form.SEVEN_PAIRS]
    assert r[0].quads == 3


def test_seven_pairs_need_no_declared_meld():
    assert Form.SEVEN_PAIRS not in forms("11m22m33p44p55s6s", melds=["pung:777z"])
    assert form_shanten(t34("11m22m33p44p55s"), None, [parse_meld("pung:777z")])[Form.SEVEN_PAIRS] == 99


def test_seven_pairs_bao_pair_may_read_as_terminal():
    # a pair made only of 宝 may stand for a 1/9/honor, so every tile can be 1/9/honor
    hand = t34("11119999m111p55m")
    hand[parse_tile("5m")] += 1
    readings = [r for r in enumerate_readings(hand, parse_tile("5m")) if r.form is Form.SEVEN_PAIRS]
    assert any(r.all_terminal_honor and r.quads == 3 for r in readings)


# ------------------------------------------------------------------ 十三浪


def test_shisanlang():
    assert forms("147m258p369s12345z") == {Form.SHISANLANG}
    assert forms("147m258p369s12344z") == set()  # an honor repeated
    assert forms("146m258p369s12345z") == set()  # 4m and 6m only 2 apart
    assert forms("1m147p258s1234567z") == {Form.SHISANLANG}  # uneven suits allowed


def test_shisanlang_qixing():
    r = enumerate_readings(t34("147m25p36s1234567z"), None)
    assert [x.qixing for x in r if x.form is Form.SHISANLANG] == [True]


def test_shisanlang_bao_may_be_an_absent_honor():
    hand = t34("147m258p369s1234z")
    hand[parse_tile("5m")] += 1  # 宝 = 5m cannot be its own face next to 4m
    r = [x for x in enumerate_readings(hand, parse_tile("5m")) if x.form is Form.SHISANLANG]
    assert r and all(x.bao_acting for x in r)
    assert {x.substitutions[0] for x in r} == set(parse_tiles("567z"))


def test_shisanlang_needs_14_concealed():
    assert Form.SHISANLANG not in forms("147m258p369s12z", melds=["pung:777z"])


# ------------------------------------------------------------------ 九幺


def test_jiuyao_any_terminals_and_honors():
    assert forms("119m199p19s11235z6z") == {Form.JIUYAO}
    assert Form.JIUYAO in forms("111m999p111s111z22z")


def test_jiuyao_counts_meld_tiles():
    assert forms("119m19s1235z67z", melds=["pung:111p"]) == {Form.JIUYAO}
    assert forms("119m19s1235z67z", melds=["chow:789p"]) == set()


def test_jiuyao_qixing_each_honor_exactly_once():
    r = [x for x in enumerate_readings(t34("19m19p19s1234567z1m"), None) if x.form is Form.JIUYAO]
    assert [x.qixing for x in r] == [True]
    r = [x for x in enumerate_readings(t34("1m19p19s1234567z11z"), None) if x.form is Form.JIUYAO]
    assert [x.qixing for x in r] == [False]


# ------------------------------------------------------------------ waits, shanten, 宝吊


def test_waits_with_forms():
    w = waits(t34("123m456p789s12s55z"), None)
    assert w == {parse_tile("3s"): [Form.STANDARD]}


def test_waits_leave_out_dead_kinds():
    # all four 3s are in sight (one meld has them): 3s cannot be drawn
    ms = [parse_meld("kong:3333s")]
    hand = t34("123m456p12s55z")
    assert parse_tile("3s") not in waits(hand, None, ms)
    assert parse_tile("3s") in waits(hand, None, ms, exclude_dead=False)


def test_shanten_values():
    assert shanten(t34("123m456p789s123s55z"), None) == -1
    assert shanten(t34("123m456p789s123s5z"), None) == 0
    assert shanten(t34("123m456p789s13s56z"), None) == 1
    hand = t34("123m456p789s13s5z")
    hand[parse_tile("9p")] += 1
    assert shanten(hand, parse_tile("9p")) == 0


def test_baodiao_state():
    hand = t34("123m456m789m123p9p")
    assert is_baodiao_state(hand, parse_tile("9p"))
    assert not is_baodiao_state(hand, parse_tile("8p"))  # no 宝 in hand
    # other 宝 may act in the melds
    assert is_baodiao_state(t34("123m456m789m12p99p"), parse_tile("9p"))


@pytest.mark.parametrize("fn", [is_winning, shanten])
def test_wrong_size_raises(fn):
    with pytest.raises(ValueError, match="concealed tiles"):
        fn(t34("123m"), None)
