"""What the web's settlement and hint say (issue 24, items 3 and 6): each payer's 飞宝 factor with
its reason, no decision codes, and a word when the hint's order is not that of its expected points."""

from __future__ import annotations

import pytest

from shangrao.game.frames import replay_frames
from shangrao.web.hints import hint_note
from shangrao.web.views import reveal

from .sample import greedy_hand
from .test_pages_phone import FEIBAO_HAND, FEIBAO_SEED


@pytest.fixture(scope="module")
def feibao_hand():
    """The finished Game of the scripted match's hand won with a payer's 飞宝."""
    return greedy_hand(FEIBAO_SEED, FEIBAO_HAND)


def test_the_table_settlement_gives_each_payers_feibao_factor_and_count(feibao_hand):
    r = reveal(feibao_hand)
    assert r is not None
    (w,) = [w for w in r["wins"] if max(w["payer_factors"]) > 1]
    for f, n in zip(w["payer_factors"], w["payers_flown"]):
        assert f == 2**n  # 注 1: ×2 for each 宝 that payer discarded
    assert w["win_payments"] == [w["hand_value"] * f for f in w["payer_factors"]]


def test_the_replays_last_frame_gives_the_payer_factors(feibao_hand):
    frames = replay_frames(list(feibao_hand.events))
    assert "wins" not in frames[0]
    wins = frames[-1]["wins"]
    assert any(max(w["payer_factors"]) > 1 for w in wins)
    assert [w["seat"] for w in wins] == list(feibao_hand.result.winners)


def test_the_replays_last_frame_shows_the_winners_whole_hand_with_the_tile_won_on(feibao_hand):
    """The engine takes the tile won on out of the winner's hand; the replay's last frame puts it back
    (a newcomer saw the winner's last frame one tile short) and names it ``win_tile``."""
    frames = replay_frames(feibao_hand.events)
    win = next(e for e in feibao_hand.events if e["type"] == "win")
    (w,) = frames[-1]["wins"]
    assert w["seat"] == win["seat"] and w["win_tile"] == win["tile"] // 4
    melds = sum(3 for _ in frames[-1]["melds"][w["seat"]])
    assert len(frames[-1]["hands"][w["seat"]]) + melds == 14
    assert sorted(frames[-1]["hands"][w["seat"]]) == sorted([*win["hand"], win["tile"] // 4])


def test_no_decision_code_in_a_shown_clause():
    from shangrao.scoring.items import PATTERNS, seed_clause

    for p in PATTERNS.values():
        shown = seed_clause(p.clause)
        assert "D" not in shown.replace("计分方法", ""), (p.id, shown)
        assert shown.strip() == shown and shown
    assert seed_clause(PATTERNS["basic"].clause) == "基本分 1 分"


def test_the_hint_says_why_a_win_is_listed_above_a_discard_of_higher_expected_points():
    choices = ({"action": "win", "ev": 3.0, "useful": None}, {"action": "discard 5m", "ev": 3.9, "useful": None})
    note = hint_note(choices)
    assert note is not None and "不按期望" in note["zh"] and "not the expected points" in note["en"]
    assert hint_note(tuple(reversed(choices))) is None  # in the order of the points: nothing to explain
    speed = ({"action": "discard 1m", "ev": -1.0, "useful": 20}, {"action": "discard 9m", "ev": 0.5, "useful": 12})
    assert "向听" in hint_note(speed)["zh"]
