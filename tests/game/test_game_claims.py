"""Claims on a discard: kinds, priority, and what is refused (seed 行牌, 开杠; R6)."""

import pytest
from game_helpers import do, legal_strs, make_game, pass_windows

from shangrao.game import ActionParseError, IllegalActionError, parse_action
from shangrao.melds import MeldType

SEAT0 = "5m2p3p4p7p8p9p1s2s3s7s8s9s"  # dealer; discards 5m
SEAT1 = "4m6m1m9m2p5p9p3s5s9s1z2z3z"  # next seat: chow 456m possible
SEAT2_PAIR = "5m5m2m8m3p6p4s6s2z3z4z5z5z"  # pung 5m possible
SEAT2_TRIPLET = "5m5m5m2m8m3p6p4s6s2z3z4z5z"  # kong 5m possible
SEAT3 = "3m7m8m4p4p8s8s1z1z2z4z5z7z"


def test_chow_by_next_seat():
    g = make_game({0: SEAT0, 1: SEAT1, 2: "2m8m3p6p4s6s2z3z4z5z5z6s7m", 3: SEAT3}, draws="4z")
    do(g, "0:discard 5m")
    assert g.phase == "claim" and g.current_seat == 1
    assert legal_strs(g) == ["chow 456m", "pass"]
    do(g, "1:chow 456m")
    assert g.phase == "discard" and g.current_seat == 1
    m = g.melds[1][0]
    assert m.type is MeldType.CHOW and m.tiles == (3, 4, 5) and m.claimed == 4 and m.from_seat == 0
    assert all(a.startswith("discard") for a in legal_strs(g))


def test_pung_beats_chow():
    g = make_game({0: SEAT0, 1: SEAT1, 2: SEAT2_PAIR, 3: SEAT3}, draws="4z")
    do(g, "0:discard 5m")
    assert g.current_seat == 1
    do(g, "1:chow 456m")
    assert g.current_seat == 2 and legal_strs(g) == ["pung 5m", "pass"]
    do(g, "2:pung 5m")
    assert g.phase == "discard" and g.current_seat == 2
    assert [str(m) for m in g.melds[2]] == ["pung:555m"] and g.melds[1] == []
    assert g.counts[1][3] == 1 and g.counts[1][5] == 1  # the chow did not happen
    ev = [e for e in g.events if e["type"] in ("call", "pung", "chow")]
    assert [e["type"] for e in ev] == ["call", "call", "pung"]


def test_kong_beats_chow():
    g = make_game({0: SEAT0, 1: SEAT1, 2: SEAT2_TRIPLET, 3: SEAT3}, draws="4z", replacements="6s")
    do(g, "0:discard 5m", "1:chow 456m")
    assert legal_strs(g) == ["pung 5m", "kong 5m", "pass"]
    do(g, "2:kong 5m")
    # nobody can rob 5m: the kong stands, 碰杠 bonus 1 from each, replacement from the tail
    assert [str(m) for m in g.melds[2]] == ["kong:5555m"]
    assert [(t.payer, t.payee, t.points, t.reason) for t in g.transfers] == [
        (3, 2, 1, "pung_kong"),
        (0, 2, 1, "pung_kong"),
        (1, 2, 1, "pung_kong"),
    ]
    assert g.phase == "act" and g.current_seat == 2 and g.kong_chain == 1
    assert g.events[-1]["type"] == "draw" and g.events[-1]["source"] == "tail" and g.events[-1]["kind"] == "6s"


def test_pung_when_nobody_chows():
    g = make_game({0: SEAT0, 1: SEAT1, 2: SEAT2_PAIR, 3: SEAT3}, draws="4z")
    do(g, "0:discard 5m", "1:pass", "2:pung 5m")
    assert [str(m) for m in g.melds[2]] == ["pung:555m"]


def test_all_pass_next_seat_draws():
    g = make_game({0: SEAT0, 1: SEAT1, 2: SEAT2_PAIR, 3: SEAT3}, draws="4z8m")
    do(g, "0:discard 5m", "1:pass", "2:pass")
    assert g.phase == "act" and g.current_seat == 1 and g.events[-1]["kind"] == "8m"


def test_chow_from_non_next_seat_refused():
    # seat 2 holds 4m6m but is not the next seat: no chow option, it is not even asked
    g = make_game({0: SEAT0, 1: "1m9m2p5p9p3s5s9s1z2z3z7m7m", 2: "4m6m2m8m3p6p4s6s2z3z4z5z5z", 3: SEAT3}, draws="4z8m")
    do(g, "0:discard 5m")
    assert g.phase == "act" and g.current_seat == 1  # no window at all
    with pytest.raises(IllegalActionError):
        g.apply("chow 456m", seat=2)


def test_chow_on_honors_refused():
    # seat 1 holds 1z 3z; seat 0 discards 2z: no chow on honors
    g = make_game({0: "2z" + SEAT0[2:], 1: SEAT1, 2: "2m8m3p6p4s6s4z5z5z6s7m1p1p", 3: SEAT3}, draws="4z8m")
    assert g.counts[1][27] == 1 and g.counts[1][29] == 1
    do(g, "0:discard 2z")
    assert g.phase == "act" and g.current_seat == 1
    with pytest.raises(ActionParseError):
        parse_action("chow 123z")


def test_kong_right_after_chow_refused():
    seat1 = "4m6m1p1p1p1p9m5p9p3s5s9s1z"  # four 1p in hand
    g = make_game(
        {0: "5m2p3p4p7p8p9p2s3s4s7s8s9s", 1: seat1, 2: "2m8m3p6p4s6s2z3z4z5z5z6s7m", 3: SEAT3}, draws="4z8m2m3m4s"
    )
    do(g, "0:discard 5m", "1:chow 456m")
    assert "concealed_kong 1p" not in legal_strs(g)
    before = g.state_key()
    with pytest.raises(IllegalActionError, match="not legal"):
        g.apply("concealed_kong 1p")
    assert g.state_key() == before  # nothing changed
    do(g, "1:discard 9m")
    # after its next draw the kong is allowed
    while not (g.phase == "act" and g.current_seat == 1):
        if g.phase in ("claim", "rob"):
            pass_windows(g)
        else:
            g.apply(f"discard {g.events[-1]['kind']}")
    assert "concealed_kong 1p" in legal_strs(g)


def test_kong_right_after_pung_refused():
    seat2 = "5m5m2z2z2z2z8m3p6p4s6s4z5z"  # four 2z in hand
    g = make_game({0: SEAT0, 1: "4m6m1m9m2p5p9p3s5s9s1z3z7m", 2: seat2, 3: "3m7m8m4p4p8s8s1z1z9m4z5z7z"}, draws="4z")
    do(g, "0:discard 5m", "1:pass", "2:pung 5m")
    assert g.phase == "discard"
    assert not any(a.startswith(("concealed_kong", "added_kong", "win")) for a in legal_strs(g))


def test_exposed_kong_needs_wall_tile_for_replacement():
    g = make_game({0: SEAT0, 1: SEAT1, 2: SEAT2_TRIPLET, 3: SEAT3}, draws="4z")
    g.tail = g.head - 1  # empty the wall artificially
    do(g, "0:discard 5m")
    assert "kong 5m" not in legal_strs(g, 2) and "kong 5m" not in legal_strs(g)


def test_apply_by_wrong_seat_refused():
    g = make_game({0: SEAT0, 1: SEAT1, 2: SEAT2_PAIR, 3: SEAT3}, draws="4z")
    with pytest.raises(IllegalActionError, match="seat 0"):
        g.apply("discard 5m", seat=1)
    with pytest.raises(IllegalActionError):
        g.apply("discard 6z")
