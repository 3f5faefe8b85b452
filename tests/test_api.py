"""The public API (``import shangrao``) and its errors for bad input."""

from __future__ import annotations

import pytest

import shangrao
from shangrao import Form, MeldError, SituationError, TileParseError
from shangrao.tiles import parse_tile, parse_tiles, to_34


def t34(text: str) -> list[int]:
    return to_34(parse_tiles(text))


# ------------------------------------------------------------------ analyze / is_winning / shanten


def test_analyze_complete_hand_readings():
    a = shangrao.analyze("123m456p789s123s55z", bao="9p")
    assert a.winning and a.shanten == -1 and a.forms == [Form.STANDARD]
    d = a.to_dict()
    assert d["winning"] is True and d["forms"] == ["standard"] and d["shanten"] == -1


def test_analyze_accepts_kinds_and_tiles_34_and_meld_strings():
    kinds = parse_tiles("123m456p789s55z")
    a = shangrao.analyze(kinds, bao=None, melds=["chow:123s"])
    b = shangrao.analyze(tiles_34=to_34(kinds), bao=None, melds=[shangrao.parse_meld("chow:123s")])
    assert a.winning and b.winning


def test_analyze_list_hand_is_always_kinds():
    """Issue 10 (4): one meaning per input form — a list is kinds, a count vector only as tiles_34=."""
    vector = [1] * 14 + [0] * 20  # 34 entries: read as 34 tiles, not as counts
    with pytest.raises(ValueError, match="20 copies of 1m"):
        shangrao.analyze(vector, bao=None)
    with pytest.raises(TypeError, match="one of them"):
        shangrao.analyze("123m", tiles_34=[0] * 34)


def test_analyze_waits_and_baodiao():
    a = shangrao.analyze("123m456m789m123p9p", bao="9p")
    assert not a.winning and a.shanten == 0 and a.baodiao
    assert len(a.waits) == 34
    b = shangrao.analyze("123m456m789m12p55z", bao=None)
    assert set(b.waits) == {parse_tile("3p")} and not b.baodiao
    assert b.to_dict()["waits"] == [{"tile": "3p", "name": "三筒", "forms": ["standard"]}]


def test_bao_may_stand_for_its_own_face():
    # 宝 = 5m standing for 5m in 456m: a win with no 宝 acting (清 / 平糊)
    a = shangrao.analyze("456m123p789s123s55z", bao="5m")
    assert a.winning and any(not r.bao_acting for r in a.readings)


def test_bao_may_be_a_fifth_copy():
    # four real 1m in hand plus a 宝 standing for 1m: 111m + 1m1m(宝)… as a 5th copy
    hand = t34("1111m234p567s999s")
    hand[parse_tile("5z")] += 1  # 宝 = 白
    assert shangrao.is_winning(hand, parse_tile("5z"))


def test_bao_in_meld_is_its_face():
    # a pung of the 宝 kind is three real 9p: it does not make the hand win
    assert not shangrao.analyze("123m456m78p1z1z", bao="9p", melds=["pung:999p"]).waits.get(parse_tile("1s"))


def test_fast_entry_points():
    hand = t34("123m456p789s123s55z")
    assert shangrao.is_winning(hand, None) is True
    assert shangrao.shanten(hand, None) == -1
    assert shangrao.shanten(t34("123m456p789s123s5z"), None) == 0
    assert shangrao.is_winning(t34("123m456p789s55z"), None, declared_melds=1)


def test_jiuyao_with_melds_needs_the_melds():
    # 九幺 counts declared melds' tiles: pass the melds, not a count
    melds = [shangrao.parse_meld("pung:111m"), shangrao.parse_meld("pung:999p")]
    hand = t34("19s1z2z3z5z6z7z")  # eight 1/9/honor tiles, no shape
    assert shangrao.is_winning(hand, None, melds)
    assert not shangrao.is_winning(hand, None, 2)
    assert not shangrao.is_winning(hand, None, [shangrao.parse_meld("chow:789m"), melds[1]])


# ------------------------------------------------------------------ score


def test_score_dict_and_situation_round_trip():
    situation = {"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p"}
    r = shangrao.score(situation)
    assert r.payments == (2, 2, 2) and r.total == 6
    again = shangrao.score(shangrao.WinSituation.from_dict(shangrao.WinSituation.from_dict(situation).to_dict()))
    assert again.payments == r.payments
    d = r.to_dict()
    assert d["pattern"]["name"] == "平糊自摸" and d["payments"] == [2, 2, 2] and d["total"] == 6


def test_score_kinds_as_ints():
    r = shangrao.score({"hand": parse_tiles("123m456p789s123s5z"), "win_tile": 31})
    assert r.total == 6


# ------------------------------------------------------------------ bad input


def test_fifth_copy_in_analyze():
    with pytest.raises(ValueError, match="5 copies of 1m"):
        shangrao.analyze("11111m234p567s99s", bao=None)


def test_fifth_copy_across_hand_and_melds():
    with pytest.raises(ValueError, match=r"hand and melds together.*5 copies of 5p"):
        shangrao.analyze("55p234m567s11z", bao=None, melds=["pung:555p"])


def test_fifth_copy_in_score():
    with pytest.raises(SituationError, match="5 copies of 1z"):
        shangrao.score({"hand": "1111z123m456p789s", "win_tile": "1z"})


def test_wrong_tile_count_for_melds_in_analyze():
    with pytest.raises(ValueError, match=r"1 declared meld.*10 or 11 concealed tiles, got 14"):
        shangrao.analyze("123m456p789s123s55z", bao=None, melds=["pung:111z"])


def test_wrong_tile_count_for_melds_in_score():
    with pytest.raises(SituationError, match=r"hand: with 1 meld.*10 tiles, got 13"):
        shangrao.score({"hand": "123m456p789s123s5z", "win_tile": "5z", "melds": ["pung:111z"]})


def test_wrong_tile_count_fast_entry_points():
    with pytest.raises(ValueError, match="concealed tiles"):
        shangrao.is_winning(t34("123m"), None)
    with pytest.raises(ValueError, match="concealed tiles"):
        shangrao.shanten(t34("123m"), None)


def test_unknown_meld_kind_in_analyze_and_score():
    with pytest.raises(MeldError, match="unknown meld kind 'triple'"):
        shangrao.analyze("123m456p789s55z", melds=["triple:111z"])
    with pytest.raises(SituationError, match=r"melds\[0\].*unknown meld kind 'triple'"):
        shangrao.score({"hand": "456p789s123s5z", "win_tile": "5z", "melds": ["triple:111z"]})


def test_bad_tile_strings():
    with pytest.raises(TileParseError, match="position 2"):
        shangrao.analyze("12x")
    with pytest.raises(SituationError, match=r"win_tile.*8z"):
        shangrao.score({"hand": "123m456p789s123s5z", "win_tile": "8z"})
    with pytest.raises(SituationError, match=r"hand.*position"):
        shangrao.score({"hand": "123m456p789s123q5z", "win_tile": "5z"})


@pytest.mark.parametrize(
    "extra,what",
    [
        ({"win_by": "ron"}, "win_by"),
        ({"win_by": "robbing_kong"}, "robbed"),
        ({"robbed": 1}, "robbed"),
        ({"kong_chain": 1}, "kong_chain"),
        ({"payers_flown": [0, 0]}, "payers_flown"),
        ({"winner_flown": 3, "payers_flown": [1, 1, 0]}, "four 宝"),
        ({"four_bao": True}, "need a bao"),
        ({"heavenly": "yes"}, "heavenly"),
        ({"colour": "red"}, "unknown field"),
    ],
)
def test_bad_situation_fields(extra, what):
    situation = {"hand": "123m456p789s123s5z", "win_tile": "5z", **extra}
    with pytest.raises(SituationError, match=what):
        shangrao.score(situation)


def test_missing_fields():
    with pytest.raises(SituationError, match="win_tile: missing"):
        shangrao.score({"hand": "123m"})
    with pytest.raises(SituationError, match="WinSituation or a JSON object"):
        shangrao.score([1, 2])  # type: ignore[arg-type]
    assert issubclass(SituationError, ValueError)
