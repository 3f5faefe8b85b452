"""Fair claim and rob windows (seed 行牌, 开杠; issue 12): a seat sees that a window is open,
then what was claimed — never which other seat may claim or rob, nor another seat's pass.

Checked at every decision of whole hands (scripted walls with robs + seeded bot hands) for
:meth:`Game.observation` and :func:`redact`.  The full log and replay are unchanged.
"""

from __future__ import annotations

from game_helpers import do, make_game, pass_windows

from shangrao.bots import get_bot
from shangrao.game import ActionType, Game, redact, replay
from shangrao.rules import DEFAULT_RULES

WINDOW = ("claim", "rob")

# scripted 抢杠 situations (see test_game_wins)
R0_WAIT = "1m2m3m7m8m9m1s2s3s4p6p2z2z"
R0_IDLE = "1m2m3m7m8m9m1s2s3s2z2z3p7p"
R1 = "5p9m9p9s3z4z5z4m7p3s5s7s1z"
R2_TRIPLET = "5p5p5p2p8p4s6s8s5m1z3z4z5z"
R3_WAIT = "4m5m6m1p2p3p7s8s9s4p6p6m6m"


def _window_id(g: Game):
    if g.phase == "claim":
        return ("claim", len([e for e in g.events if e["type"] == "discard"]))
    if g.phase == "rob":
        return ("rob", g.pending_kong.seat, g.pending_kong.meld.tiles[0])
    return None


def _views(g: Game):
    return [(g.observation(s).to_dict(), redact(g.events, s)) for s in range(4)]


def check_views(g: Game) -> None:
    """Invariants of one moment: no deciding seat named to the others, no other seat's pass/call."""
    d = g.current_seat
    for s in range(4):
        obs = g.observation(s)
        if g.phase in WINDOW:
            assert obs.current_seat == (d if s == d else None), (s, d, g.phase)
        else:
            assert obs.current_seat == g.current_seat
        for ev in redact(g.events, s):
            if ev["type"] in ("pass", "call"):
                assert ev["seat"] == s, f"seat {s} sees seat {ev['seat']}'s {ev['type']}"


def play_checked(g: Game, choose) -> dict:
    """Play ``g`` to the end with ``choose(game) -> action``, checking fairness at every step.

    A decision inside a window that leaves the window open (a pass, or a call that a later seat
    may still beat) must leave every other seat's observation and redacted log unchanged.
    Returns counts of windows, claims and robs seen.
    """
    stats = {"windows": 0, "claims": 0, "rob_windows": 0, "hidden_steps": 0}
    last_window = None
    while not g.is_over:
        check_views(g)
        wid = _window_id(g)
        if wid is not None and wid != last_window:
            stats["windows"] += 1
            stats["rob_windows"] += wid[0] == "rob"
        last_window = wid
        d = g.current_seat
        before = _views(g)
        action = choose(g)
        n = len(g.events)
        g.apply(action, seat=d)
        new = g.events[n:]
        stats["claims"] += sum(e["type"] in ("chow", "pung", "kong") for e in new)
        if wid is not None and _window_id(g) == wid and action.type is not ActionType.CATCH_BAO:
            stats["hidden_steps"] += 1
            after = _views(g)
            for s in range(4):
                if s in (d, g.current_seat):
                    continue
                assert after[s] == before[s], f"seat {s} saw seat {d}'s {action} in a window"
            # the seat that just decided now waits like everyone else
            if g.current_seat != d:
                assert g.observation(d).current_seat is None
    check_views(g)
    # the full log still replays exactly
    assert replay(g.events).state_key() == g.state_key()
    return stats


def _bot_chooser(names, seed):
    bots = [get_bot(n, seed=f"{seed}:{i}") for i, n in enumerate(names)]

    def choose(g):
        legal = g.legal_actions()
        return legal[0] if len(legal) == 1 else bots[g.current_seat].choose(g.observation(g.current_seat), legal)

    return choose


def _tsumogiri(g):
    if g.phase in WINDOW:
        legal = g.legal_actions()
        win = [a for a in legal if a.type is ActionType.WIN]
        return win[0] if win else next(a for a in legal if a.type is ActionType.PASS)
    legal = g.legal_actions()
    win = [a for a in legal if a.type is ActionType.WIN]
    if win:
        return win[0]
    tid = g.last_draw[g.current_seat]
    if tid is not None:
        return next(a for a in legal if a.type is ActionType.DISCARD and a.tile == tid >> 2)
    return next(a for a in legal if a.type is ActionType.DISCARD)


def scripted_rob_hands():
    """Whole hands with rob windows on scripted walls (exposed, added, concealed kongs)."""
    out = []
    g = make_game({0: R0_WAIT, 1: R1, 2: R2_TRIPLET, 3: R3_WAIT}, draws="7z8m")
    out.append(("two robbers", g, ["0:discard 7z", "*", "1:discard 5p", "2:kong 5p"]))
    g = make_game({0: R0_IDLE, 1: R1, 2: R2_TRIPLET, 3: R3_WAIT}, draws="7z8m", replacements="8s")
    out.append(("declined rob", g, ["0:discard 7z", "*", "1:discard 5p", "2:kong 5p"]))
    rules = DEFAULT_RULES.replace(rob_concealed_kong=True)
    g = make_game({0: R0_IDLE, 1: R1, 2: R2_TRIPLET, 3: R3_WAIT}, draws="7z8m", replacements="8s", rules=rules)
    out.append(("robbable kong declined", g, ["0:discard 7z", "*", "1:discard 5p", "2:kong 5p"]))
    return out


def test_issue_example_rob_window_names_no_robber():
    """After seat 2's kong only seat 3 can rob: seat 0 sees a rob window, not that seat 3 decides."""
    g = make_game({0: R0_IDLE, 1: R1, 2: R2_TRIPLET, 3: R3_WAIT}, draws="7z8m", replacements="8s")
    do(g, "0:discard 7z")
    pass_windows(g)
    do(g, "1:discard 5p", "2:kong 5p")
    assert g.phase == "rob" and g.current_seat == 3
    for s in (0, 1, 2):
        obs = g.observation(s)
        assert obs.phase == "rob" and obs.current_seat is None and obs.kong == (2, 13, "kong")
    assert g.observation(3).current_seat == 3
    do(g, "3:pass")
    assert any(e["type"] == "pass" and e["seat"] == 3 for e in g.events)  # the full log keeps it
    for s in (0, 1, 2):
        assert not [e for e in redact(g.events, s) if e["type"] == "pass"]
    assert [e["type"] for e in redact(g.events, 3) if e["type"] == "pass"] == ["pass"]


def test_fair_windows_over_whole_hands_with_claims_and_robs():
    totals = {"hands": 0, "windows": 0, "claims": 0, "rob_windows": 0, "hidden_steps": 0}
    for _name, g, steps in scripted_rob_hands():
        for step in steps:
            if step == "*":
                pass_windows(g)
            else:
                do(g, step)
        stats = play_checked(g, _tsumogiri)
        totals["hands"] += 1
        for k, v in stats.items():
            totals[k] += v
    for seed in range(40):
        names = ("greedy", "random", "greedy", "random") if seed % 2 else ("random",) * 4
        rules = DEFAULT_RULES.replace(rob_concealed_kong=bool(seed % 3 == 0))
        g = Game(rules, seed=seed, dealer=seed % 4)
        stats = play_checked(g, _bot_chooser(names, seed))
        totals["hands"] += 1
        for k, v in stats.items():
            totals[k] += v
    assert totals["hands"] >= 20
    assert totals["windows"] >= 100 and totals["claims"] >= 20 and totals["hidden_steps"] >= 10
    assert totals["rob_windows"] >= 3, totals


def test_window_options_lists_every_seat_to_be_asked_in_engine_order():
    """Game.window_options: what a table needs to ask a window's seats at once."""
    seat0 = "5m2p3p4p7p8p9p1s2s3s7s8s9s"
    seat1 = "4m6m1m9m2p5p9p3s5s9s1z2z3z"  # chow 456m
    seat2 = "5m5m2m8m3p6p4s6s2z3z4z5z5z"  # pung 5m
    seat3 = "3m7m8m4p4p8s8s1z1z2z4z5z7z"
    g = make_game({0: seat0, 1: seat1, 2: seat2, 3: seat3}, draws="4z")
    assert g.window_options() == {}
    do(g, "0:discard 5m")
    opts = {s: [str(a) for a in v] for s, v in g.window_options().items()}
    assert list(opts) == [1, 2] and opts[1] == ["chow 456m", "pass"] and opts[2] == ["pung 5m", "pass"]
    assert [str(a) for a in g.legal_actions()] == opts[1]
    do(g, "1:chow 456m")  # seat 2 may still beat the chow
    assert {s: [str(a) for a in v] for s, v in g.window_options().items()} == {2: ["pung 5m", "pass"]}
    g2 = make_game({0: seat0, 1: seat1, 2: seat2, 3: seat3}, draws="4z")
    do(g2, "0:discard 5m", "1:pass")
    assert list(g2.window_options()) == [2]
    # a rob window lists its robbers
    g3 = make_game({0: R0_WAIT, 1: R1, 2: R2_TRIPLET, 3: R3_WAIT}, draws="7z8m")
    do(g3, "0:discard 7z")
    pass_windows(g3)
    do(g3, "1:discard 5p", "2:kong 5p")
    assert {s: [str(a) for a in v] for s, v in g3.window_options().items()} == {3: ["win", "pass"], 0: ["win", "pass"]}
