"""views.window_game: the open window every seat is shown after a discard or a robbable kong,
whether or not anyone can claim or rob (issue 12), on scripted walls."""

from __future__ import annotations

from shangrao.game import Game, parse_action, script_wall
from shangrao.rules import DEFAULT_RULES
from shangrao.web.views import seat_view, window_game

SEAT0 = "5m2p3p4p7p8p9p1s2s3s7s8s9s"
SEAT1 = "4m6m1m9m2p5p9p3s5s9s1z2z3z"
SEAT2_TRIPLET = "5m5m5m2m8m3p6p4s6s2z3z4z5z"
SEAT3 = "3m7m8m4p4p8s8s1z1z2z4z5z7z"
NOBODY = "1m1m9m9m1p1p9p9p2s2s4z4z3z"      # seat 1: no chow, pung or kong on 5m
NOBODY2 = "2m2m8m8m5p5p6p6p3s3s7m3z5s"     # seat 2: nothing on 5m


def _game(hands, rules=DEFAULT_RULES, draws="9s", replacements="6s"):
    w = script_wall(hands, draws=draws, replacements=replacements, indicator="7z", dice=(1, 1), dealer=0)
    return Game(rules, dealer=0, **w)


def _view(g, seat):
    v = seat_view(g, seat, hand_no=0, table={}, deadline=None)
    return {k: v[k] for k in ("view", "legal", "log", "seq")}


def test_a_discard_nobody_can_claim_still_shows_an_open_window():
    g = _game({0: SEAT0, 1: NOBODY, 2: NOBODY2, 3: SEAT3})
    w = window_game(g, parse_action("discard 5m"))
    g.apply("discard 5m")
    assert g.phase == "act" and g.current_seat == 1  # the engine went straight on
    assert w is not None and w.phase == "claim"
    for s in range(4):
        v = _view(w, s)["view"]
        assert v["phase"] == "claim" and v["current_seat"] is None and v["last_discard"] == [0, 4]
        assert _view(w, s)["legal"] == []


def test_the_window_looks_the_same_when_someone_can_claim():
    g1 = _game({0: SEAT0, 1: NOBODY, 2: SEAT2_TRIPLET, 3: SEAT3})  # seat 2 may pung/kong 5m
    g2 = _game({0: SEAT0, 1: NOBODY, 2: NOBODY2, 3: SEAT3})  # nobody may
    w1, w2 = window_game(g1, parse_action("discard 5m")), window_game(g2, parse_action("discard 5m"))
    g1.apply("discard 5m")
    assert g1.phase == "claim" and g1.current_seat == 2
    for s in (0, 1, 3):  # the seats not asked see the real window exactly as the made-up one
        assert _view(g1, s) == _view(w1, s)
        assert _view(w1, s)["view"]["phase"] == _view(w2, s)["view"]["phase"] == "claim"
    assert _view(g1, 2)["legal"]  # the asked seat still sees its options


def test_a_kong_on_a_discard_shows_a_rob_window_though_nobody_can_rob():
    g = _game({0: SEAT0, 1: SEAT1, 2: SEAT2_TRIPLET, 3: SEAT3})
    g.apply("discard 5m")
    g.apply("chow 456m")
    w = window_game(g, parse_action("kong 5m"))
    g.apply("kong 5m")
    assert g.phase == "act" and g.current_seat == 2  # the kong stood at once
    assert w is not None and w.phase == "rob"
    assert all(_view(w, s)["view"]["kong"] == [2, 4, "kong"] for s in range(4))
    # with the rule off there is no rob window to show
    g = _game({0: SEAT0, 1: SEAT1, 2: SEAT2_TRIPLET, 3: SEAT3}, rules=DEFAULT_RULES.replace(rob_exposed_kong=False))
    g.apply("discard 5m")
    g.apply("chow 456m")
    assert window_game(g, parse_action("kong 5m")) is None


def test_a_pass_that_keeps_the_window_open_opens_no_new_one():
    g = _game({0: SEAT0, 1: SEAT1, 2: SEAT2_TRIPLET, 3: SEAT3})
    g.apply("discard 5m")
    assert g.current_seat == 1
    assert window_game(g, parse_action("pass")) is None
