"""Issue 22: one place (``WinSituation.validate``) decides whether a game can produce a win; each
impossible combination is refused with one line naming the field and the seed clause.

The engine's own situations are all accepted (``tests/game/test_engine_situations.py``); here each
clause has its refusal and, beside it, the nearest situation a game can reach, accepted.
"""

from __future__ import annotations

import pytest

import shangrao
from shangrao import SituationError

# the three examples
ROBBER_HOLDS_THE_KIND = {
    "hand": "123m456p789s123s1m",
    "win_tile": "1m",
    "bao": "5z",
    "win_by": "robbing_kong",
    "robbed": 0,
}
HEAVENLY_CAUGHT = {"hand": "123m456p789s2s6z6z6z", "win_tile": "3s", "bao": "6z", "heavenly": True, "caught_bao": True}
FOUR_BAO_WITHOUT_BAO = {"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "6z", "four_bao": True}


def refused(situation: dict, *needles: str) -> str:
    with pytest.raises(SituationError) as err:
        shangrao.score(situation)
    msg = str(err.value)
    assert "\n" not in msg
    for n in needles:
        assert n in msg, (n, msg)
    return msg


# ---------------------------------------------------------------- 抢杠 (20)
def test_robbing_kong_with_the_robbed_kind_in_hand_is_refused():
    """The robbed kong holds all four 1m (three in the kong, the robbed one the win tile)."""
    refused(ROBBER_HOLDS_THE_KIND, "hand:", "抢杠", "1m")
    # robbing a kind it does not hold (its 宝 5z pairs the robbed 9m) is a win, paid by the robbed player
    ok = {**ROBBER_HOLDS_THE_KIND, "hand": "123m456p789s123s5z", "win_tile": "9m"}
    r = shangrao.score(ok)
    assert r.winning and r.win_payments[0] > 0 and r.win_payments[1:] == (0, 0)


def test_robbing_kong_with_the_robbed_kind_in_a_meld_is_refused():
    refused(
        {
            "hand": "456p789s123s9m",
            "melds": ["chow:123m"],
            "win_tile": "1m",
            "bao": "5z",
            "win_by": "robbing_kong",
            "robbed": 1,
        },
        "melds:",
        "抢杠",
    )


def test_robbing_kong_of_the_indicators_kind_is_refused():
    """R1: one copy of the indicator is out of play, so no kong of that kind exists (宝 1m: indicator 9m)."""
    refused(
        {"hand": "123m456p789s123s5z", "win_tile": "9m", "bao": "1m", "win_by": "robbing_kong", "robbed": 0},
        "win_tile:",
        "抢杠",
        "indicator",
    )


def test_robbing_kong_of_the_bao_kind_leaves_one_bao_to_fly():
    """A kong of the 宝: the robbed player drew three, the fourth was one discard by another seat."""
    base = {"hand": "123m456p789s123s5z", "win_tile": "9p", "bao": "9p", "win_by": "robbing_kong", "robbed": 0}
    assert shangrao.score({**base, "winner_flown": 1}).winning  # the robber flew it, the kong claimed it
    refused({**base, "payers_flown": [1, 0, 0]}, "payers_flown:", "抢杠")  # the robbed player flew one
    refused({**base, "payers_flown": [0, 1, 1]}, "payers_flown:", "抢杠")
    refused({**base, "caught_bao": True, "payers_flown": [0, 1, 0]}, "caught_bao:", "接宝")


# ---------------------------------------------------------------- 天糊 (2), 地糊 (3)
def test_heavenly_with_caught_bao_is_refused():
    refused(HEAVENLY_CAUGHT, "caught_bao:", "天糊", "接宝")
    assert shangrao.score({**HEAVENLY_CAUGHT, "caught_bao": False}).pattern.name == "天糊"


def test_heavenly_with_feibao_is_refused():
    """Nobody can have discarded a 宝 before the dealer's first action."""
    refused({**HEAVENLY_CAUGHT, "caught_bao": False, "payers_flown": [1, 0, 0]}, "payers_flown:", "天糊", "飞宝")
    refused({**HEAVENLY_CAUGHT, "caught_bao": False, "winner_flown": 1}, "winner_flown:", "天糊")


def test_heavenly_or_earthly_with_touji_is_refused():
    refused({**HEAVENLY_CAUGHT, "caught_bao": False, "touji": 1}, "touji:", "偷机", "天糊")
    refused(
        {"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p", "win_by": "dealer_first_discard", "touji": 1},
        "touji:",
        "地糊",
    )


def test_earthly_feibao_is_the_dealers_bao_discard_only():
    """地糊 is on the dealer's first discard, the only discard so far: the payers flew a 宝 iff the win
    tile is one (then the dealer did), the winner none."""
    plain = {"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p", "win_by": "dealer_first_discard"}
    assert shangrao.score(plain).pattern.name == "地糊"
    refused({**plain, "payers_flown": [1, 0, 0]}, "payers_flown:", "地糊")
    refused({**plain, "winner_flown": 1}, "winner_flown:", "地糊")
    on_bao = {**plain, "win_tile": "9p"}
    assert shangrao.score({**on_bao, "payers_flown": [0, 1, 0]}).pattern.name == "地糊"
    refused(on_bao, "payers_flown:", "地糊")
    refused({**on_bao, "payers_flown": [1, 1, 0]}, "payers_flown:", "地糊")


def test_earthly_with_caught_bao_needs_the_dealers_bao():
    """The engine lets a seat dealt three 宝 declare 接宝 on the dealer's first discard of the fourth
    and then win on it (R14, 地糊): accepted; 接宝 on a 地糊 that is not on a 宝 is refused."""
    on_bao = {
        "hand": "123456789m1p999p",
        "win_tile": "9p",
        "bao": "9p",
        "win_by": "dealer_first_discard",
        "caught_bao": True,
        "payers_flown": [0, 0, 1],
    }
    r = shangrao.score(on_bao)
    assert r.pattern.name == "地糊" and [b.name for b in r.bonuses] == ["接宝"]
    refused({**on_bao, "hand": "123456789m999p2p", "win_tile": "1p"}, "payers_flown:", "地糊")


# ---------------------------------------------------------------- 接宝 (21), 四个宝 (22)
def test_caught_bao_without_three_bao_is_refused():
    refused(
        {"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p", "caught_bao": True, "payers_flown": [1, 0, 0]},
        "caught_bao:",
        "接宝",
        "three 宝",
    )


def test_caught_bao_without_a_payers_feibao_is_refused():
    """The caught 宝 was discarded by a payer: exactly one payer's 飞宝 (the winner drew the other three)."""
    ok = {
        "hand": "123m456p123s5z",
        "win_tile": "5z",
        "melds": ["pung:999p"],
        "bao": "9p",
        "caught_bao": True,
        "payers_flown": [1, 0, 0],
    }
    assert shangrao.score(ok).winning
    refused({**ok, "payers_flown": [0, 0, 0]}, "payers_flown:", "接宝")
    refused({**ok, "payers_flown": [1, 0, 0], "winner_flown": 1, "hand": "123m456p123s9p"}, "bao:")


def test_four_bao_with_no_bao_is_refused():
    refused(FOUR_BAO_WITHOUT_BAO, "four_bao:", "四个宝")


def test_four_bao_counts_the_bao_in_hand_melds_flown_and_the_drawn_win_tile():
    four = {"hand": "123m456p123s6z6z6z5z", "win_tile": "6z", "bao": "6z", "four_bao": True}
    assert shangrao.score(four).winning  # three in hand and the self-drawn fourth
    refused({**four, "win_by": "robbing_kong", "robbed": 0}, "抢杠")  # someone else's kong of the 宝
    refused({**four, "four_bao": False}, "four_bao: false", "四个宝")  # the winner drew all four
    flown = {"hand": "123m456p123s6z6z5z5z", "win_tile": "5z", "bao": "6z", "winner_flown": 2, "four_bao": True}
    assert shangrao.score(flown).winning


def test_four_bao_with_caught_bao_is_refused():
    refused(
        {"hand": "123m456p123s6z6z6z5z", "win_tile": "6z", "bao": "6z", "four_bao": True, "caught_bao": True},
        "four_bao and caught_bao",
        "四个宝",
        "接宝",
    )


# ---------------------------------------------------------------- 注 1 (payers' 飞宝), R17
def test_payers_feibao_against_the_bao_in_sight():
    """Four 宝 in sight leave none to fly; a claimed 宝 in a meld is a payer's flown one (counted once)."""
    refused(
        {"hand": "123m456p789s1s9p9p9p", "win_tile": "9p", "bao": "9p", "payers_flown": [1, 0, 0]},
        "bao:",
        "more than the four 宝",
    )
    claimed = {
        "hand": "123m456p123s5z",
        "win_tile": "5z",
        "melds": ["chow:789p"],
        "bao": "9p",
        "payers_flown": [1, 0, 0],
    }
    assert shangrao.score(claimed).winning
    # the winner's own 飞宝 cannot be in its own meld: three 宝 in sight and the winner flew two
    refused(
        {"hand": "123m456p12s9p9p", "win_tile": "3s", "melds": ["chow:789p"], "bao": "9p", "winner_flown": 2},
        "bao:",
        "more than the four 宝",
    )


def test_winner_held_bao_true_with_no_bao_anywhere_is_refused():
    refused(
        {"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p", "winner_held_bao": True},
        "winner_held_bao: true",
        "R17",
    )
    refused({"hand": "123m456p789s123s5z", "win_tile": "5z", "winner_held_bao": True}, "winner_held_bao: true")


def test_winner_held_bao_false_with_a_pung_of_bao_is_refused():
    refused(
        {
            "hand": "123m456p123s5z",
            "win_tile": "5z",
            "melds": ["pung:999p"],
            "bao": "9p",
            "payers_flown": [1, 0, 0],
            "winner_held_bao": False,
        },
        "winner_held_bao: false",
        "melds",
    )


def test_touji_needs_a_bao():
    """偷机 declines a 宝吊 win, holding a 宝."""
    refused({"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p", "touji": 1}, "touji:", "偷机")
    refused({"hand": "123m456p789s123s5z", "win_tile": "5z", "touji": 1}, "touji:", "偷机")
    refused(
        {"hand": "123m456p789s123s9p", "win_tile": "4s", "bao": "9p", "touji": 1, "winner_held_bao": False},
        "winner_held_bao: false",
    )
    assert shangrao.score({"hand": "123m456p789s123s9p", "win_tile": "4s", "bao": "9p", "touji": 1}).winning


# -- found by a tester after the first round (issue 22, same kinds) ------------------------------------
def test_a_chow_holds_a_bao_claimed_from_the_previous_player_only():
    # a chow is claimed from 上家, the last payer: 下家's or 对家's flown 宝 cannot be in it
    chow = {"hand": "555p123m789s1z", "win_tile": "1z", "bao": "5p", "melds": ["chow:456p"]}
    refused({**chow, "payers_flown": [1, 0, 0]}, "bao")
    refused({**chow, "payers_flown": [0, 1, 0]}, "bao")
    assert shangrao.score({**chow, "payers_flown": [0, 0, 1]}).winning
    plain = {"hand": "123m789s234p1z", "win_tile": "1z", "bao": "5p", "melds": ["chow:456p"], "winner_held_bao": False}
    refused({**plain, "payers_flown": [0, 1, 0]}, "winner_held_bao")
    assert shangrao.score({**plain, "payers_flown": [0, 0, 1]}).winning
    # a pung takes a discard from anyone
    pung = {"hand": "123m789s234p1z", "win_tile": "1z", "bao": "5p", "melds": ["pung:555p"], "winner_held_bao": False}
    refused({**pung, "payers_flown": [1, 0, 0]}, "winner_held_bao")  # a pung of three 宝: two are its own
    assert shangrao.score(
        {"hand": "123m789s234p1z", "win_tile": "1z", "bao": "5p", "melds": ["pung:555p"], "payers_flown": [1, 0, 0]}
    ).winning


def test_touji_counts_at_most_one_a_draw():
    base = {"hand": "123m456p789s6z12s5z", "win_tile": "5z", "bao": "6z"}
    assert shangrao.score({**base, "touji": 3}).winning
    for n in (84, 100, 136):
        refused({**base, "touji": n}, "touji", "83")


def test_numpy_integers_are_tile_kinds_in_a_situation_dict():
    np = pytest.importorskip("numpy")
    from shangrao.tiles import parse_tiles

    r = shangrao.score(
        {"hand": [np.int64(x) for x in parse_tiles("123m456p789s123s5z")], "win_tile": np.int64(31), "bao": "9p"}
    )
    assert r.payments == (2, 2, 2)
