"""Why a payer's 飞宝 did not count reaches the web (issue 38): the reveal and the replay's last frame
carry ``flown_not_counted`` beside ``payer_factors``, the reason the CLI gives in the score's note."""

from __future__ import annotations

from types import SimpleNamespace

import shangrao
from shangrao.game.frames import payer_factors

PINGHU = dict(hand="123m456p789s123s5z", win_tile="5z", bao="9p")


def _win(**situation):
    score = shangrao.score(situation)
    return SimpleNamespace(
        score=score, situation=SimpleNamespace(payers_flown=tuple(situation.get("payers_flown", (0, 0, 0))))
    )


def test_a_winner_who_never_held_a_bao_leaves_the_payers_feibao_uncounted_and_says_so():
    w = _win(**PINGHU, payers_flown=[1, 1, 0])
    assert any("never held a 宝" in n for n in w.score.notes)  # what the CLI prints
    assert payer_factors(w) == {
        "payer_factors": [1, 1, 1],
        "payers_flown": [1, 1, 0],
        "flown_not_counted": "never_held",
    }


def test_counted_feibao_and_no_feibao_give_no_reason():
    held = _win(**PINGHU, winner_flown=1, payers_flown=[1, 0, 2])
    assert payer_factors(held)["payer_factors"] == [2, 1, 4]
    assert payer_factors(held)["flown_not_counted"] is None
    assert payer_factors(_win(**PINGHU))["flown_not_counted"] is None
