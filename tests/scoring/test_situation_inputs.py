"""Issue 10 (3)(6): impossible 宝 counts and contradictions are errors, not inputs to obey."""

from __future__ import annotations

import pytest

import shangrao
from shangrao import SituationError


def _sit(**kw):
    base = {"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p"}
    return {**base, **kw}


def test_four_bao_held_and_one_flown_is_five():
    with pytest.raises(SituationError, match="more than the four 宝"):
        shangrao.score({"hand": "5z5z5z5z123m456m789m", "win_tile": "1z", "bao": "5z", "winner_flown": 1})


def test_bao_in_sight_plus_payers_flown_cannot_pass_four():
    with pytest.raises(SituationError, match="more than the four 宝"):
        shangrao.score(_sit(hand="123m456p789s12s9p9p", win_tile="9p", payers_flown=[1, 1, 0]))
    # three in sight + one flown is fine
    assert shangrao.score(_sit(hand="123m456p789s12s9p9p", win_tile="9p", payers_flown=[1, 0, 0])).winning


def test_indicator_copy_is_out_of_play():
    """R1: with 宝 9p the indicator 8p is flipped; a hand with four 8p is impossible."""
    with pytest.raises(SituationError, match="indicator"):
        shangrao.score({"hand": "8888p123m456m789m", "win_tile": "1z", "bao": "9p"})


def test_winner_held_bao_false_with_a_bao_in_hand_is_a_contradiction():
    with pytest.raises(SituationError, match="winner_held_bao: false, but the hand"):
        shangrao.score(_sit(winner_held_bao=False, hand="123m456p789s123s9p", win_tile="1z"))
    with pytest.raises(SituationError, match="winner_held_bao: false, but four_bao"):
        shangrao.score(
            _sit(hand="123m456p123s5z", melds=["concealed_kong:9999p"], winner_held_bao=False, four_bao=True)
        )


def test_four_bao_and_caught_bao_leave_the_payers_few_to_fly():
    with pytest.raises(SituationError, match="four_bao"):
        shangrao.score(_sit(four_bao=True, payers_flown=[1, 0, 0]))
    with pytest.raises(SituationError, match="caught_bao"):
        shangrao.score(_sit(caught_bao=True, payers_flown=[1, 1, 0]))


def test_flown_without_a_bao_kind():
    with pytest.raises(SituationError, match="飞宝 needs a bao"):
        shangrao.score(_sit(bao=None, winner_flown=1))


@pytest.mark.parametrize("word", ["none", "None", "null", "-"])
def test_bao_none_means_no_bao_as_in_analyze(word):
    r = shangrao.score({"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": word})
    assert r.winning and r.pattern.name == "平糊自摸"
    with pytest.raises(SituationError, match="empty"):
        shangrao.score({"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": " "})


def test_payers_flown_without_a_bao_ever_held_is_explained():
    """注 1: payers' 飞宝 count only when the winner held a 宝; the breakdown says why ×1."""
    r = shangrao.score(_sit(payers_flown=[1, 0, 2]))  # 5z drawn, no 9p ever held
    assert r.payer_factors == (1, 1, 1)
    assert "注 1" in r.breakdown() and "never held a 宝" in r.breakdown()
    assert r.to_dict()["notes"] and "注 1" in r.to_dict()["notes"][0]
    held = shangrao.score(_sit(hand="123m456p789s12s9p5z", win_tile="5z", payers_flown=[1, 0, 0]))
    assert held.payer_factors == (2, 1, 1) and "注 1" not in held.breakdown()
