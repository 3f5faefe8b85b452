"""The open window every seat is shown after a discard or a robbable kong, whether or not anyone
can claim or rob (issue 12): the engine holds it open (``Game.hold_windows``), on scripted walls."""

from __future__ import annotations

import pytest

from shangrao.game import Game, IllegalActionError, script_wall
from shangrao.rules import DEFAULT_RULES
from shangrao.web.views import seat_view

from .sample import TABLE

SEAT0 = "5m2p3p4p7p8p9p1s2s3s7s8s9s"
SEAT1 = "4m6m1m9m2p5p9p3s5s9s1z2z3z"
SEAT2_TRIPLET = "5m5m5m2m8m3p6p4s6s2z3z4z5z"
SEAT3 = "3m7m8m4p4p8s8s1z1z2z4z5z7z"
NOBODY = "1m1m9m9m1p1p9p9p2s2s4z4z3z"  # seat 1: no chow, pung or kong on 5m
NOBODY2 = "2m2m8m8m5p5p6p6p3s3s7m3z5s"  # seat 2: nothing on 5m


def _game(hands, rules=DEFAULT_RULES, draws="9s", replacements="6s", hold=True):
    w = script_wall(hands, draws=draws, replacements=replacements, indicator="7z", dice=(1, 1), dealer=0)
    g = Game(rules, dealer=0, **w)
    g.hold_windows = hold
    return g


def _view(g, seat):
    v = seat_view(g, seat, hand_no=0, table=TABLE, deadline=None)
    return {k: v[k] for k in ("view", "legal", "log", "seq")}


def test_a_discard_nobody_can_claim_still_shows_an_open_window():
    g = _game({0: SEAT0, 1: NOBODY, 2: NOBODY2, 3: SEAT3})
    plain = _game({0: SEAT0, 1: NOBODY, 2: NOBODY2, 3: SEAT3}, hold=False)
    g.apply("discard 5m")
    plain.apply("discard 5m")
    assert plain.phase == "act" and plain.current_seat == 1  # without the hold the engine goes straight on
    assert g.held and g.phase == "claim" and g.window == ("claim", 0, plain.events[-2]["tile"])
    for s in range(4):
        v = _view(g, s)["view"]
        assert v["phase"] == "claim" and v["current_seat"] is None and v["last_discard"] == [0, 4]
        assert _view(g, s)["legal"] == []
    with pytest.raises(IllegalActionError, match="held open"):
        g.apply("pass")
    g.release()
    assert g.events == plain.events and g.state_key() == plain.state_key()


def test_the_window_looks_the_same_when_someone_can_claim():
    g1 = _game({0: SEAT0, 1: NOBODY, 2: SEAT2_TRIPLET, 3: SEAT3})  # seat 2 may pung/kong 5m
    g2 = _game({0: SEAT0, 1: NOBODY, 2: NOBODY2, 3: SEAT3})  # nobody may
    g1.apply("discard 5m")
    g2.apply("discard 5m")
    assert g1.phase == "claim" and g1.current_seat == 2 and not g1.held and g2.held
    for s in (0, 1, 3):  # the seats not asked see the same open window, held or real
        assert _view(g1, s)["view"]["phase"] == _view(g2, s)["view"]["phase"] == "claim"
        assert _view(g1, s)["view"]["current_seat"] is _view(g2, s)["view"]["current_seat"] is None
        assert _view(g1, s)["legal"] == _view(g2, s)["legal"] == []
    assert _view(g1, 2)["legal"]  # the asked seat still sees its options


def test_a_kong_on_a_discard_shows_a_rob_window_though_nobody_can_rob():
    g = _game({0: SEAT0, 1: SEAT1, 2: SEAT2_TRIPLET, 3: SEAT3})
    g.apply("discard 5m")
    g.apply("chow 456m")
    g.apply("kong 5m")
    assert g.held and g.phase == "rob"
    assert all(_view(g, s)["view"]["kong"] == [2, 4, "kong"] for s in range(4))
    g.release()
    assert g.phase == "act" and g.current_seat == 2 and any(e["type"] == "kong_stands" for e in g.events)
    # with the rule off there is no rob window to hold
    g = _game({0: SEAT0, 1: SEAT1, 2: SEAT2_TRIPLET, 3: SEAT3}, rules=DEFAULT_RULES.replace(rob_exposed_kong=False))
    g.apply("discard 5m")
    g.apply("chow 456m")
    g.apply("kong 5m")
    assert not g.held and g.phase == "act" and g.current_seat == 2


def test_a_pass_that_keeps_the_window_open_opens_no_new_one():
    g = _game({0: SEAT0, 1: SEAT1, 2: SEAT2_TRIPLET, 3: SEAT3})
    g.apply("discard 5m")
    assert g.current_seat == 1
    before = g.window
    assert g.window_after("pass")
    g.apply("pass")
    assert g.window == before and not g.held


def test_release_outside_a_held_window_is_refused():
    g = _game({0: SEAT0, 1: NOBODY, 2: NOBODY2, 3: SEAT3})
    with pytest.raises(IllegalActionError, match="no window is held"):
        g.release()
