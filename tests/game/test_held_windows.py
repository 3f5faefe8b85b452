"""``Game.hold_windows``: the engine holds open every claim or rob window an action opens, also one
nobody can claim or rob, until ``release()`` (issue 12, issue 21: the table's fair pause is the
engine's, not a patched copy).  The events are those of the plain engine, only later."""

from __future__ import annotations

import random

from shangrao.game import Game, replay


def _pair(seed: str) -> tuple[Game, Game]:
    plain, held = Game(seed=seed), Game(seed=seed)
    held.hold_windows = True
    return plain, held


def test_a_held_game_emits_the_plain_engines_events_and_holds_exactly_the_windows_nobody_can_claim():
    holds = 0
    for h in range(30):
        rng = random.Random(h)
        plain, held = _pair(f"hold:{h}")
        while not plain.is_over:
            action = rng.choice(plain.legal_actions())
            window_before = plain.window
            plain.apply(action)
            held.apply(action)
            if held.held:
                holds += 1
                assert held.legal_actions() == [] and held.window_options() == {} and held.current_seat is None
                assert held.window is not None and held.window != window_before
                assert plain.window != held.window  # the plain engine went straight on
                held.release()
            assert held.events == plain.events and held.state_key() == plain.state_key()
    assert holds > 100


def test_replay_with_hold_windows_ends_held_where_the_log_ends_in_a_held_window():
    rng = random.Random(7)
    _plain, held = _pair("hold:replay")
    while not held.is_over:
        if held.held:
            n = len(held.events)
            again = replay(held.events, hold_windows=True)
            assert again.held and again.window == held.window and len(again.events) == n
            held.release()
            after = replay(held.events, hold_windows=True)  # the log goes on past the window: released
            assert not after.held and after.state_key() == held.state_key()
            continue
        held.apply(rng.choice(held.legal_actions()))
    assert replay(held.events, hold_windows=True).state_key() == held.state_key()


def test_window_after_names_the_actions_that_can_open_a_window():
    g = Game(seed="after")
    for a in g.legal_actions():
        assert g.window_after(a) == (a.type.value in ("discard", "added_kong", "concealed_kong"))
