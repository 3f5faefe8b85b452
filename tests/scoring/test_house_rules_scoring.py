"""Issue 10 (11)(12): 宝吊宝 vs 宝吊无宝 by the clause that fits, and the house-rule options in scoring."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import shangrao
from shangrao import SituationError
from shangrao.rules import DEFAULT_RULES

LARGEST = json.loads((Path(__file__).parents[2] / "examples" / "seed_largest.json").read_text(encoding="utf-8"))


def test_three_bao_pung_drawn_bao_names_both_clauses():
    """(8) the drawn tile is a 宝, (9) "在有其它对子的情况下用3个宝形成了碰子": both fit, both named."""
    r = shangrao.score({"hand": "123m456p789s1z1z5z5z", "win_tile": "5z", "bao": "5z"})
    assert r.pattern.name == "宝吊宝" and r.hand_value == 6
    assert "宝吊宝 (clause 8" in r.breakdown() and "宝吊无宝 (clause 9" in r.breakdown()


def test_three_bao_pung_drawn_plain_tile_is_baodiao_wubao():
    """The drawn 1z makes the three 宝 a pung of their own face beside the 1z pair: (9) alone."""
    r = shangrao.score({"hand": "123m456p789s1z5z5z5z", "win_tile": "1z", "bao": "5z"})
    assert r.pattern.name == "宝吊无宝" and r.hand_value == 6 and not r.notes


def test_baodiao_bao_with_a_bao_acting_is_only_clause_8():
    r = shangrao.score({"hand": "123m456p78s5z5z", "win_tile": "5z", "bao": "5z", "melds": ["pung:111z"]})
    assert r.pattern.name == "宝吊宝" and not any("clause 9" in n for n in r.notes)


def test_baodiao_bao_needs_touji_in_the_calculator():
    sit = {"hand": "123m456p789s1z1z5z5z", "win_tile": "5z", "bao": "5z"}
    strict = DEFAULT_RULES.replace(baodiao_bao_needs_touji=True)
    r = shangrao.score(sit, strict)
    assert (r.pattern.name, r.hand_value) == ("宝吊头", 3) and "偷机" in r.breakdown()
    assert shangrao.score({**sit, "touji": 1}, strict).pattern.name == "宝吊宝"


def test_jiuyao_with_melds_house_rule():
    """R7 (default): the largest example scores 九幺 (doubling) with four kongs; the strict table
    plays 九幺 only with no declared melds."""
    assert shangrao.score(LARGEST).payments[0] == 10258
    strict = shangrao.score(LARGEST, DEFAULT_RULES.replace(jiuyao_melds=False))
    assert strict.payments[0] == 10240 // 2 + 18
    assert "jiuyao" not in [d.id for d in strict.doublings]
    sit = {"hand": "1m1m9m9p9p9s1z1z9s9s", "win_tile": "1z", "bao": None, "melds": ["pung:111p"]}
    assert shangrao.score(sit).pattern.name == "无宝九幺"
    assert not shangrao.score(sit, DEFAULT_RULES.replace(jiuyao_melds=False)).winning


def test_win_on_a_bao_tile_house_rule():
    sit = {
        "hand": "1m2m3m1p2p3p7p8p9p4s4s4s1z",
        "win_tile": "6z",
        "bao": "6z",
        "win_by": "dealer_first_discard",
        "payers_flown": [0, 0, 1],
    }  # the dealer flew the 宝 it discarded
    assert shangrao.score(sit).pattern.name == "地糊"
    with pytest.raises(SituationError, match="win_on_bao_tile"):
        shangrao.score(sit, DEFAULT_RULES.replace(win_on_bao_tile=False))


def test_house_rule_defaults_are_todays_reading():
    r = DEFAULT_RULES
    assert (
        r.kong_after_pung,
        r.added_kong_drawn_only,
        r.jiuyao_melds,
        r.win_on_bao_tile,
        r.baodiao_bao_needs_touji,
        r.rob_concealed_kong,
    ) == (False, False, True, True, False, False)
