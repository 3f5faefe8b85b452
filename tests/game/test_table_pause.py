"""A table whose only player has left pauses and goes on where it stood when one is back (issue 38;
``shangrao.game.table``, docs/web.md "The table waits for its only player")."""

from __future__ import annotations

from shangrao.bots import get_bot
from shangrao.game import Game
from shangrao.game.table import Player, TableState, Timing

TIMING = Timing(bot_delay=0.5, claim_timeout=5.0, turn_timeout=20.0, absent_timeout=3.0, claim_pause=0.4)


def seats(people: int) -> list[Player]:
    out = [
        Player(player="human", standin=get_bot("greedy", seed=1), present=True, was_here=True) for _ in range(people)
    ]
    return out + [Player(player="greedy", bot=get_bot("greedy", seed=1)) for _ in range(4 - people)]


def run_until_turn(t: TableState, seat: int, now: float, step: float = 0.1) -> float:
    """Step the fake clock until ``seat`` decides in its own turn; returns the time."""
    for _ in range(10_000):
        g = t.game
        if not g.is_over and g.phase not in ("claim", "rob") and g.current_seat == seat and len(g.legal_actions()) > 1:
            return now
        t.step(now)
        now += step
    raise AssertionError("the seat never got a turn")


def test_a_table_whose_only_player_left_plays_nothing_and_goes_on_at_the_same_position():
    st = seats(1)
    t = TableState(Game(seed=7, dealer=1), st, TIMING, 0.0)
    now = run_until_turn(t, 0, 0.0)
    left = t.decision_deadline - now
    n = len(t.game.events)
    st[0].present, st[0].gone_since = False, now  # the tab closed
    for later in (now, now + 30, now + 1000):  # far past absent_timeout and turn_timeout
        assert t.step(later) == [] and t.requests(later) == []
        assert t.next_wakeup(later) is None and t.paused
    assert len(t.game.events) == n
    st[0].present = True  # back
    back = now + 1000
    assert t.step(back) == [] and not t.paused
    assert abs((t.decision_deadline - back) - left) < 1e-9  # its countdown goes on where it stood
    assert len(t.game.events) == n


def test_bots_stop_moving_while_the_only_player_is_away_and_move_again_when_back():
    st = seats(1)
    t = TableState(Game(seed=11, dealer=1), st, TIMING, 0.0)  # seat 1 deals: a bot's turn first
    st[0].present, st[0].gone_since = False, 0.0
    assert t.step(100.0) == [] and len(t.game.events) == len(Game(seed=11, dealer=1).events)
    st[0].present = True
    assert t.step(100.0 + TIMING.bot_delay + 0.01)  # the bot's delay runs from where it stood


def test_where_another_person_is_seated_the_stand_in_plays_for_the_one_who_left():
    st = seats(2)
    t = TableState(Game(seed=7, dealer=0), st, TIMING, 0.0)
    now = run_until_turn(t, 0, 0.0)
    st[0].present, st[0].gone_since = False, now
    assert not t.deserted()
    out = t.step(now + TIMING.absent_timeout + TIMING.bot_delay + 0.01)
    assert out and out[0]["seat"] == 0  # the stand-in played for seat 0


def test_a_seat_nobody_ever_took_up_does_not_make_the_table_wait():
    st = seats(1)
    st[0].present, st[0].was_here = False, False  # a script's table: its person never came
    t = TableState(Game(seed=7, dealer=0), st, TIMING, 0.0)
    assert not t.deserted() and t.step(100.0)


def test_where_two_people_played_and_both_left_the_stand_ins_play_on():
    st = seats(2)
    t = TableState(Game(seed=7, dealer=0), st, TIMING, 0.0)
    now = run_until_turn(t, 0, 0.0)
    for s in st[:2]:
        s.present, s.gone_since = False, now
    assert not t.deserted()
    assert t.step(now + TIMING.absent_timeout + TIMING.bot_delay + 0.01)  # friends: the stand-in plays


def test_a_person_who_never_came_is_still_a_person_seated_and_the_stand_in_plays():
    st = seats(2)
    st[1].was_here, st[1].present = False, False  # a room member who never opened their seat
    t = TableState(Game(seed=7, dealer=0), st, TIMING, 0.0)
    now = run_until_turn(t, 0, 0.0)
    st[0].present, st[0].gone_since = False, now
    assert not t.deserted()
    assert t.step(now + TIMING.absent_timeout + TIMING.bot_delay + 0.01)
