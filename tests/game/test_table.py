"""The table protocol (``shangrao.game.table.TableState``) on a fake clock: no sleeps, every time is
a number passed in (issue 21).  Claim windows (nobody can claim / one / several / 抢杠), countdowns,
stand-ins and returning players, and a restart in a window resuming its countdown."""

from __future__ import annotations

import pytest
from game_helpers import TABLE_NOBODY as NOBODY
from game_helpers import TABLE_NOBODY2 as NOBODY2
from game_helpers import TABLE_SEAT0 as SEAT0
from game_helpers import TABLE_SEAT2_TRIPLET as SEAT2_TRIPLET
from game_helpers import TABLE_SEAT3 as SEAT3
from game_helpers import Scripted, make_game

from shangrao.game import Game, IllegalActionError, parse_action, replay
from shangrao.game.table import Player, TableState, Timing

T = Timing(bot_delay=0.5, claim_timeout=10.0, turn_timeout=30.0, absent_timeout=20.0, claim_pause=1.0)

SEAT1_CHOW = "4m6m1m9m2p5p9p3s5s9s1z2z3z"  # may chow 456m on 5m

# 抢杠 (test_game_wins): seat 2 makes a kong on seat 1's 5p, seats 3 and 0 wait on 5p
R0_WAIT = "1m2m3m7m8m9m1s2s3s4p6p2z2z"
R1 = "5p9m9p9s3z4z5z4m7p3s5s7s1z"
R2_TRIPLET = "5p5p5p2p8p4s6s8s5m1z3z4z5z"
R3_WAIT = "4m5m6m1p2p3p7s8s9s4p6p6m6m"


def _people(n: int = 4) -> list[Player]:
    return [Player(standin=Scripted("pass")) for _ in range(n)]


def _table(hands, seats=None, timing=T, draws="9s", now=0.0) -> TableState:
    g = make_game(hands, draws=draws, replacements="6s")
    return TableState(g, seats or _people(), timing, now)


def _kinds(events) -> list[str]:
    return [e["type"] for e in events]


def test_a_window_nobody_can_claim_is_held_open_for_the_whole_pause():
    t = _table({0: SEAT0, 1: NOBODY, 2: NOBODY2, 3: SEAT3})
    assert _kinds(t.act(0, parse_action("discard 5m"), 0.0)) == ["discard"]
    assert t.game.held and t.game.phase == "claim" and t.next_wakeup(0.0) == 1.0
    assert all(t.options(s) == [] and t.deadline_for(s, 0.0) is None for s in range(4))
    with pytest.raises(IllegalActionError, match="waiting for claims"):
        t.act(1, parse_action("pass"), 0.5)
    assert t.step(0.99) == [] and t.game.held
    assert _kinds(t.step(1.0)) == ["draw"] and t.game.current_seat == 1
    assert t.deadline_for(1, 1.0) == 30.0  # the next turn's clock starts at the release


def test_a_window_one_seat_can_claim_lasts_as_long_though_its_answer_came_at_once():
    t = _table({0: SEAT0, 1: NOBODY, 2: SEAT2_TRIPLET, 3: SEAT3})
    t.act(0, parse_action("discard 5m"), 0.0)
    assert not t.game.held and list(t.game.window_options()) == [2]
    assert t.deadline_for(2, 0.0) == 10.0 and t.deadline_for(1, 0.0) is None
    assert t.act(2, parse_action("pass"), 0.1) == []  # held: the pause is not over
    assert t.options(2) == [] and t.deadline_for(2, 0.1) is None
    assert t.next_wakeup(0.1) == 1.0
    assert t.step(0.5) == []
    assert _kinds(t.step(1.0)) == ["pass", "draw"] and t.game.current_seat == 1


def test_a_window_several_seats_can_claim_asks_them_at_once_and_applies_the_engines_priority():
    t = _table({0: SEAT0, 1: SEAT1_CHOW, 2: SEAT2_TRIPLET, 3: SEAT3})
    t.act(0, parse_action("discard 5m"), 0.0)
    assert set(t.game.window_options()) == {1, 2}  # both asked at once, not one after the other
    t.act(1, parse_action("chow 456m"), 0.2)  # the next seat's chow came first
    t.act(2, parse_action("pung 5m"), 0.3)
    events = t.step(1.0)
    assert [e["type"] for e in events if e["type"] in ("chow", "pung")] == ["pung"]
    assert t.game.current_seat == 2 and t.game.phase == "discard"


def test_an_answer_after_the_pause_is_applied_at_once():
    t = _table({0: SEAT0, 1: NOBODY, 2: SEAT2_TRIPLET, 3: SEAT3})
    t.act(0, parse_action("discard 5m"), 0.0)
    assert _kinds(t.act(2, parse_action("pung 5m"), 4.0)) == ["call", "pung"]


def test_a_claim_countdown_that_runs_out_is_a_pass():
    t = _table({0: SEAT0, 1: NOBODY, 2: SEAT2_TRIPLET, 3: SEAT3})
    t.act(0, parse_action("discard 5m"), 0.0)
    assert t.next_wakeup(2.0) == 10.0 and t.step(9.9) == []
    assert _kinds(t.step(10.0)) == ["pass", "draw"]
    assert t.seats[2].standin.calls == 0  # present: 过, not the stand-in


def test_robbing_kong_window_holds_the_robbers_answers_and_applies_them_after_the_pause():
    seats = _people()
    t = _table({0: R0_WAIT, 1: R1, 2: R2_TRIPLET, 3: R3_WAIT}, seats=seats, draws="7z8m")
    t.act(0, parse_action("discard 7z"), 0.0)
    t.step(1.0)  # nobody could claim 7z
    t.act(1, parse_action("discard 5p"), 2.0)
    t.act(2, parse_action("kong 5p"), 3.0)
    assert t.game.phase == "rob" and set(t.game.window_options()) == {3, 0}
    t.act(0, parse_action("win"), 3.1)
    t.act(3, parse_action("win"), 3.2)
    assert not t.game.is_over and t.step(3.9) == []
    t.step(4.0)
    assert t.game.is_over and t.game.result.winners == (3, 0)


def test_robbing_kong_window_nobody_can_rob_is_held_open_too():
    t = _table({0: SEAT0, 1: SEAT1_CHOW, 2: SEAT2_TRIPLET, 3: SEAT3})
    t.act(0, parse_action("discard 5m"), 0.0)
    t.act(1, parse_action("chow 456m"), 0.1)
    t.act(2, parse_action("kong 5m"), 0.2)  # after the pause: the kong beats the chow at once
    t.step(1.0)
    assert t.game.phase == "rob" and t.game.held and t.game.observation(0).kong == (2, 4, "kong")
    assert t.step(1.9) == [] and "kong_stands" in _kinds(t.step(2.0))


def test_a_bot_answers_inside_the_pause_and_a_bots_turn_waits_its_delay():
    seats = _people()
    seats[2] = Player(player="bot", bot=Scripted("pung 5m"))
    t = _table({0: SEAT0, 1: NOBODY, 2: SEAT2_TRIPLET, 3: SEAT3}, seats=seats)
    t.act(0, parse_action("discard 5m"), 0.0)
    assert t.step(0.1) == [] and 2 in t.answers  # answered at once, applied after the pause
    assert "pung" in _kinds(t.step(1.0))
    assert t.advance_clock(1.2) == [] and t.next_wakeup(1.2) == 1.5  # the bot's own turn: after bot_delay
    assert _kinds(t.step(1.5))[0] == "discard"


def test_a_persons_turn_countdown_that_runs_out_is_played_by_the_standin():
    t = _table({0: SEAT0, 1: NOBODY, 2: NOBODY2, 3: SEAT3})
    assert t.deadline_for(0, 0.0) == 30.0 and t.next_wakeup(0.0) == 30.0
    assert t.step(29.9) == []
    assert t.step(30.0)[0]["type"] == "discard" and t.seats[0].standin.calls == 1


def test_an_absent_seat_is_played_by_its_standin_and_a_returning_player_gets_it_back():
    seats = _people()
    t = _table({0: SEAT0, 1: NOBODY, 2: NOBODY2, 3: SEAT3}, seats=seats)
    seats[0].present, seats[0].gone_since = False, 0.0
    assert t.next_wakeup(0.0) == 20.0  # absent_timeout, then the stand-in after bot_delay
    assert t.step(20.0) == [] and t.next_wakeup(20.0) == 20.5
    seats[0].present = True  # back before the stand-in played
    assert t.step(20.5) == [] and t.next_wakeup(20.5) == 30.0
    seats[0].present, seats[0].gone_since = False, 21.0  # gone again: not absent long enough before
    assert t.step(29.9) == [] and t.step(30.0)[0]["type"] == "discard"  # the turn's countdown ran out
    assert seats[0].standin.calls == 1


def test_an_absent_seat_in_a_window_is_answered_by_its_standin_after_the_bot_delay():
    seats = _people()
    seats[2].present, seats[2].gone_since = False, -100.0
    seats[2].standin = Scripted("pung 5m")
    t = _table({0: SEAT0, 1: NOBODY, 2: SEAT2_TRIPLET, 3: SEAT3}, seats=seats)
    t.act(0, parse_action("discard 5m"), 0.0)
    assert t.step(0.4) == [] and 2 not in t.answers
    assert t.step(0.5) == [] and 2 in t.answers  # answered; the pause still holds it
    assert "pung" in _kinds(t.step(1.0))


def test_a_restart_in_a_window_resumes_its_countdown_where_it_was():
    t = _table({0: SEAT0, 1: NOBODY, 2: SEAT2_TRIPLET, 3: SEAT3})
    t.act(0, parse_action("discard 5m"), 100.0)
    assert t.deadline_for(2, 104.0) == 6.0
    # the server stops; another takes the hand up from the stored log at 104 (last event at 100)
    again = TableState(replay(t.game.events, hold_windows=True), _people(), T, 104.0)
    again.resume(100.0, 104.0)
    assert again.deadline_for(2, 104.0) == 6.0 and again.clocks()["window_deadline"] == 110.0
    assert again.step(109.9) == [] and _kinds(again.step(110.0)) == ["pass", "draw"]


def test_a_restart_in_a_held_window_keeps_the_rest_of_its_pause():
    t = _table({0: SEAT0, 1: NOBODY, 2: NOBODY2, 3: SEAT3})
    t.act(0, parse_action("discard 5m"), 50.0)
    again = TableState(replay(t.game.events, hold_windows=True), _people(), T, 50.4)
    again.resume(50.0, 50.4)
    assert again.game.held and again.next_wakeup(50.4) == 51.0
    assert again.step(50.9) == [] and _kinds(again.step(51.0)) == ["draw"]


def test_a_restart_in_a_turn_resumes_the_turns_countdown():
    t = _table({0: SEAT0, 1: NOBODY, 2: NOBODY2, 3: SEAT3}, now=10.0)
    again = TableState(replay(t.game.events, hold_windows=True), _people(), T, 25.0)
    again.resume(10.0, 25.0)
    assert again.deadline_for(0, 25.0) == 15.0


def test_a_change_that_could_not_be_stored_is_undone_with_its_clocks():
    t = _table({0: SEAT0, 1: NOBODY, 2: SEAT2_TRIPLET, 3: SEAT3})
    saved, n = t.snapshot(), len(t.game.events)
    t.act(0, parse_action("discard 5m"), 0.0)
    t.restore(saved, replay(t.game.events[:n], hold_windows=True))
    assert t.game.current_seat == 0 and t.game.phase == "act" and t.deadline_for(0, 0.0) == 30.0
    assert not t.answers and t.clocks()["window_deadline"] is None


def test_a_whole_hand_of_bots_on_the_fake_clock_opens_every_window_for_the_pause():
    from shangrao.bots import get_bot

    windows = 0
    for seed in range(6):
        g = Game(seed=f"table:{seed}")
        seats = [Player(player="bot", bot=get_bot("greedy", seed=f"{seed}:{i}")) for i in range(4)]
        t = TableState(g, seats, T, 0.0)
        now, opened, steps = 0.0, None, 0
        while not t.game.is_over:
            steps += 1
            assert steps < 2000
            before = t.game.window
            t.step(now)
            if t.game.window != before:
                if before is not None:
                    assert now - opened >= T.claim_pause  # no window closes before its pause
                    windows += 1
                opened = now if t.game.window is not None else None
            if t.game.is_over:
                break
            wake = t.next_wakeup(now)
            assert wake is not None and wake >= now
            now = max(wake, now)
        assert t.game.result is not None
    assert windows > 50
