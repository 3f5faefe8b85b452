"""Table manners on the table protocol's fake clock (issue 24): 托管 on and off, the 解散 vote (pass,
fail, tie, a single person, timeout, restart mid-vote) and the quick phrases' rate limit.  No sleeps:
every time is a number passed in."""

from __future__ import annotations

import pytest
from game_helpers import TABLE_NOBODY as NOBODY
from game_helpers import TABLE_NOBODY2 as NOBODY2
from game_helpers import TABLE_SEAT0 as SEAT0
from game_helpers import TABLE_SEAT2_TRIPLET as SEAT2_TRIPLET
from game_helpers import TABLE_SEAT3 as SEAT3
from game_helpers import Scripted, make_game

from shangrao.game import IllegalActionError, parse_action, replay
from shangrao.game.manners import PHRASES, Manners, MannersError, TooFast, majority
from shangrao.game.table import Player, TableState, Timing

T = Timing(
    bot_delay=0.5,
    claim_timeout=10.0,
    turn_timeout=30.0,
    absent_timeout=20.0,
    claim_pause=1.0,
    dissolve_timeout=60.0,
    phrase_interval=3.0,
)


def _people() -> list[Player]:
    return [Player(standin=Scripted("discard 5m", "pass")) for _ in range(4)]


def _table(hands, seats=None, now=0.0, manners=None) -> TableState:
    g = make_game(hands, draws="9s", replacements="6s")
    return TableState(g, seats or _people(), T, now, manners=manners)


HANDS = {0: SEAT0, 1: NOBODY, 2: NOBODY2, 3: SEAT3}


# ------------------------------------------------------------------ 托管
def test_tuoguan_hands_the_turn_to_the_standin_after_the_bot_delay():
    t = _table(HANDS)
    assert t.next_wakeup(0.0) == 30.0
    assert t.set_managed(0, True, 2.0) and t.manners.is_managed(0)
    assert t.next_wakeup(2.0) == 2.5  # bot_delay after the hand-over, not the turn's 30 s
    assert t.step(2.4) == []
    assert [e["type"] for e in t.step(2.5)][:1] == ["discard"] and t.seats[0].standin.calls == 1


def test_tuoguan_a_second_time_changes_nothing():
    t = _table(HANDS)
    assert t.set_managed(0, True, 0.0) and not t.set_managed(0, True, 1.0)
    assert t.manners.managed == {0: 0.0}


def test_tuoguan_in_a_window_the_standin_answers_for_the_person():
    seats = _people()
    seats[2].standin = Scripted("pung 5m")
    t = _table({0: SEAT0, 1: NOBODY, 2: SEAT2_TRIPLET, 3: SEAT3}, seats=seats)
    t.set_managed(2, True, 0.0)
    t.act(0, parse_action("discard 5m"), 0.0)
    assert t.step(0.4) == [] and 2 not in t.answers
    assert t.step(0.5) == [] and 2 in t.answers  # answered by the stand-in; the pause still holds it
    assert "pung" in [e["type"] for e in t.step(1.0)]


def test_taking_tuoguan_back_mid_turn_returns_the_decision_to_the_person():
    t = _table(HANDS)
    t.set_managed(0, True, 0.0)
    assert t.set_managed(0, False, 0.3)  # before the stand-in played
    assert not t.manners.is_managed(0)
    assert t.step(0.5) == [] and t.seats[0].standin.calls == 0
    assert t.deadline_for(0, 0.3) == 30.0  # the whole turn again, from the take-back
    assert t.next_wakeup(0.3) == pytest.approx(30.3)
    assert t.act(0, parse_action("discard 5m"), 1.0)[0]["type"] == "discard"


def test_taking_tuoguan_back_returns_the_next_window_decision_to_the_person():
    seats = _people()
    t = _table({0: SEAT0, 1: NOBODY, 2: SEAT2_TRIPLET, 3: SEAT3}, seats=seats)
    t.set_managed(2, True, 0.0)
    t.set_managed(2, False, 0.1)
    t.act(0, parse_action("discard 5m"), 0.2)
    assert t.step(0.9) == [] and 2 not in t.answers and seats[2].standin.calls == 0
    assert t.options(2) and t.deadline_for(2, 0.9) == pytest.approx(9.3)  # the person's own countdown


def test_tuoguan_of_a_bot_seat_is_refused():
    seats = _people()
    seats[1] = Player(player="greedy", bot=Scripted())
    t = _table(HANDS, seats=seats)
    with pytest.raises(IllegalActionError, match="bot"):
        t.set_managed(1, True, 0.0)


def test_tuoguan_is_data_that_survives_a_restart():
    t = _table(HANDS, now=10.0)
    t.set_managed(0, True, 10.0)
    data = t.manners.to_data(10.1)
    assert data["managed"] == [0]
    # another server takes the hand up from the stored log and the stored manners
    m = Manners.from_data(data, 50.0)
    again = TableState(replay(t.game.events, hold_windows=True), _people(), T, 50.0, manners=m)
    again.resume(10.0, 50.0)
    assert again.manners.is_managed(0)
    assert [e["type"] for e in again.step(50.5)][:1] == ["discard"]


# ------------------------------------------------------------------ 解散
def test_dissolve_vote_passes_with_more_than_half_of_the_people():
    m = Manners()
    assert m.propose(0, (0, 1, 2, 3), 0.0) is None
    assert m.answer(1, True, 1.0) is None  # 2 of 4: a tie is no majority yet
    assert m.answer(2, True, 2.0) == "passed" and m.vote is None and m.result == "passed"


def test_dissolve_vote_fails_once_a_majority_cannot_be_reached():
    m = Manners()
    m.propose(0, (0, 1, 2), 0.0)
    assert m.answer(1, False, 1.0) is None  # 1 agrees, 1 refuses, 1 to answer: 2 of 3 still possible
    assert m.answer(2, False, 2.0) == "failed" and m.result == "failed" and m.vote is None


def test_a_failed_vote_says_whether_it_was_refused_or_timed_out_with_its_tally_and_survives_storage():
    m = Manners(dissolve_timeout=10.0)
    m.propose(0, (0, 1, 2), 0.0)
    m.answer(1, False, 1.0)
    assert m.answer(2, False, 2.0) == "failed"
    pub = m.public(2.0)
    assert (pub["why"], pub["tally"], pub["closed"]) == ("refused", [1, 2, 3], 1)
    back = Manners.from_data(m.to_data(2.0), 5.0)
    assert (back.why, back.tally, back.closed) == ("refused", (1, 2, 3), 1)
    m.propose(1, (0, 1, 2), 20.0)  # a new vote clears the last result
    assert m.public(20.0)["why"] is None and m.public(20.0)["tally"] is None
    assert m.answer(0, True, 21.0) == "passed" and m.public(21.0)["why"] is None  # 2 of 3 agreed
    m.propose(2, (0, 1, 2), 40.0)
    assert m.settle(50.0) == "failed"  # nobody else answered: its countdown ran out
    pub = m.public(50.0)
    assert (pub["why"], pub["tally"], pub["closed"]) == ("timeout", [1, 0, 3], 3)


def test_dissolve_vote_tie_fails():
    m = Manners()
    m.propose(0, (0, 1, 2, 3), 0.0)
    m.answer(1, True, 1.0)
    assert m.answer(2, False, 1.0) is None  # 2 agree, 1 refuses: 3 of 4 still possible
    assert m.answer(3, False, 2.0) == "failed"  # 2 of 4: a tie is no majority
    assert not majority(2, 4) and majority(3, 4) and majority(2, 3) and majority(1, 1) and not majority(1, 2)


def test_dissolve_by_a_single_person_passes_at_once():
    m = Manners()
    assert m.propose(1, (1,), 5.0) == "passed" and m.result == "passed"


def test_dissolve_vote_timeout_fails_without_the_missing_answers():
    t = _table(HANDS)
    m = t.manners
    m.propose(0, (0, 1, 2), 0.0)  # nobody else answers
    t.act(0, parse_action("discard 5m"), 1.0)
    assert m.next_wakeup() == 60.0
    assert t.vote_due(59.9) is None and m.vote is not None
    assert t.vote_due(60.0) == "failed" and m.vote is None


def test_dissolve_vote_countdown_is_a_wakeup_of_the_table():
    t = _table(HANDS, manners=Manners(dissolve_timeout=10.0))
    assert t.next_wakeup(0.0) == 30.0  # the person's turn
    t.manners.propose(0, (0, 1), 0.0)
    assert t.next_wakeup(0.0) == 10.0  # the vote's countdown runs out first


def test_dissolve_vote_refusals_name_what_is_wrong():
    m = Manners()
    with pytest.raises(MannersError, match="no vote"):
        m.answer(1, True, 0.0)
    with pytest.raises(MannersError, match="seated player"):
        m.propose(3, (0, 1), 0.0)
    m.propose(0, (0, 1, 2), 0.0)
    with pytest.raises(MannersError, match="open already"):
        m.propose(1, (0, 1, 2), 0.0)
    with pytest.raises(MannersError, match="answered"):
        m.answer(0, False, 0.0)
    with pytest.raises(MannersError, match="seated players vote"):
        m.answer(3, True, 0.0)
    assert isinstance(MannersError("x"), ValueError)


def test_dissolve_vote_restart_mid_vote_goes_on_with_its_countdown():
    m = Manners()
    m.propose(0, (0, 1, 2, 3), 100.0)
    m.answer(1, True, 110.0)
    data = m.to_data(120.0)  # stored with 40 s left
    again = Manners.from_data(data, 5.0, elapsed=15.0)  # read by another server 15 s later
    assert again.vote is not None and again.vote.deadline == pytest.approx(30.0)
    assert again.vote.answers == {0: True, 1: True}
    assert again.answer(2, True, 6.0) == "passed"
    late = Manners.from_data(data, 5.0, elapsed=45.0)  # the countdown ran out while it was down
    assert late.settle(5.0) == "failed"


def test_manners_data_of_another_shape_is_no_manners():
    for bad in (None, [], {"managed": "x", "vote": {"proposer": 0}}, {"managed": [7, True, 1]}):
        m = Manners.from_data(bad, 0.0)
        assert m.vote is None and set(m.managed) <= {1}


# ------------------------------------------------------------------ 快捷语
def test_quick_phrase_rate_limit_one_per_interval_per_seat():
    m = Manners(phrase_interval=3.0)
    assert m.say(0, "hurry", 0.0) == PHRASES["hurry"][0] == "快点吧"
    with pytest.raises(TooFast, match=r"wait 0\.1 s more"):
        m.say(0, "sorry", 2.9)
    assert m.say(1, "sorry", 2.9) == "不好意思"  # another seat has its own limit
    assert m.say(0, "well_played", 3.0) == "打得好"


def test_quick_phrase_refused_is_not_counted():
    m = Manners(phrase_interval=3.0)
    m.say(0, "hurry", 0.0)
    with pytest.raises(TooFast):
        m.say(0, "hurry", 1.0)
    assert m.say(0, "hurry", 3.0)  # the refused one did not restart the interval


def test_quick_phrase_unknown_is_refused_by_name():
    with pytest.raises(MannersError, match="no quick phrase 'shout'"):
        Manners().say(0, "shout", 0.0)
