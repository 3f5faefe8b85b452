"""Issue 10 (10)(12): 地糊 after the dealer's concealed kong, and the house-rule options of
:class:`shangrao.rules.RuleSet` (docs/rules.md, beside each clause), on scripted walls."""

import pytest
from game_helpers import do, legal_strs, make_game, pass_windows

from shangrao.rules import DEFAULT_RULES
from shangrao.scoring import WinBy

E1 = "4m6m9m4p5p6p2s5s6s8s1z2z3z"
E2 = "1m2m3m1p2p3p7p8p9p4s4s4m6m"  # waits 5m
E3 = "5m5m7m8m4p9p3s9s4z5z7z1z2z"


# ---------------------------------------------------------------- (3) 地糊 after a concealed kong
@pytest.mark.parametrize("earthly", [True, False])
def test_earthly_win_after_the_dealers_concealed_kong(earthly):
    """地糊 (3) "在第一轮庄家出牌时": a concealed kong and its replacement draw before the dealer's
    first discard do not change whose first discard it is."""
    rules = DEFAULT_RULES.replace(earthly_win=earthly)
    g = make_game({0: "5m1s1s1s1s8s9s1z2z3z4z5z7z", 1: E1, 2: E2, 3: E3}, draws="6m", replacements="8p", rules=rules)
    do(g, "0:concealed_kong 1s", "0:discard 5m", "1:pass")
    if not earthly:
        assert "win" not in legal_strs(g)
        return
    assert legal_strs(g)[0] == "win"
    do(g, "2:win")
    w = g.result.wins[0]
    assert w.situation.win_by is WinBy.DEALER_FIRST_DISCARD and w.score.pattern.name == "地糊"


def test_no_earthly_win_after_the_dealers_first_discard_was_claimed_kong():
    """Still only the dealer's first discard: after it, no 地糊 (R15)."""
    g = make_game({0: "5m1s1s1s1s8s9s1z2z3z4z5z7z", 1: E1, 2: E2, 3: E3}, draws="6m3p", replacements="8p")
    do(g, "0:concealed_kong 1s", "0:discard 6m")
    pass_windows(g)
    do(g, "1:discard 3p")
    assert g.phase != "claim" or "win" not in legal_strs(g)


# ---------------------------------------------------------------- kong_after_pung (开杠, R6)
P0 = "1m2m3m4m5m6m7m8m9m1p1p2p2z"
P1 = "2z2z5p5p5p5p5s6s7s8s9s1s4z"
P2 = "1s2s3s4s6p7p8p9p9p9p3z3z3z"
P3 = "1z1z1z2m3m4m6m7m8m2s3s4s4z"


@pytest.mark.parametrize("allowed", [False, True])
def test_kong_right_after_pung(allowed):
    g = make_game(
        {0: P0, 1: P1, 2: P2, 3: P3},
        draws="4p",
        replacements="9m",
        rules=DEFAULT_RULES.replace(kong_after_pung=allowed),
    )
    do(g, "0:discard 2z", "1:pung 2z")
    assert g.phase == "discard"
    assert ("concealed_kong 5p" in legal_strs(g)) is allowed
    if allowed:
        do(g, "1:concealed_kong 5p")
        assert g.current_seat == 1 and g.phase == "act" and g.events[-1]["source"] == "tail"


# ---------------------------------------------------------------- added_kong_drawn_only (碰杠 (一))
A1 = "2z2z2z5s6s7s8s9s1s4z6p7p8p"


@pytest.mark.parametrize("drawn_only", [False, True])
def test_added_kong_with_a_held_tile(drawn_only):
    g = make_game(
        {0: P0, 1: A1, 2: P2, 3: P3}, draws="4p3m8s6s7s", rules=DEFAULT_RULES.replace(added_kong_drawn_only=drawn_only)
    )
    do(g, "0:discard 2z", "1:pung 2z", "1:discard 4z")
    for seat in (2, 3, 0):
        pass_windows(g)
        assert g.current_seat == seat
        do(g, f"{seat}:discard {g.events[-1]['kind']}")
    pass_windows(g)
    assert g.current_seat == 1 and g.phase == "act"
    assert ("added_kong 2z" in legal_strs(g)) is not drawn_only


# ---------------------------------------------------------------- win_on_bao_tile (R4)
B0 = "6z1s2s3s7s8s9s1z2z3z4z5z7z"  # the dealer discards the 宝 (6z) first
B2 = "1m2m3m1p2p3p7p8p9p4s4s4s1z"  # wins on anything with a 宝, e.g. the discarded 6z


@pytest.mark.parametrize("allowed", [True, False])
def test_earthly_win_on_a_bao_tile(allowed):
    g = make_game({0: B0, 1: E1, 2: B2, 3: E3}, draws="6m", rules=DEFAULT_RULES.replace(win_on_bao_tile=allowed))
    do(g, "0:discard 6z")
    while g.phase == "claim" and g.current_seat != 2:
        g.apply("pass")
    assert (g.phase == "claim" and g.current_seat == 2 and "win" in legal_strs(g)) is allowed


# ---------------------------------------------------------------- baodiao_bao_needs_touji ((8)(9), 偷机 (7))
BAODIAO1 = "1m2m3m4m5m6m7m8m9m1p2p3p6z"  # 宝 = 6z: one 宝 and four melds, the 宝吊 state


def _win_after_touji(rules):
    g = make_game({1: BAODIAO1}, draws="4z5s4z4z1z6z", rules=rules)
    do(g, "0:discard 4z")
    pass_windows(g)
    do(g, "1:discard 5s")  # 偷机: the 宝吊头 win on 5s declined
    for seat in (2, 3, 0):
        pass_windows(g)
        do(g, f"{seat}:discard {g.events[-1]['kind']}")
    pass_windows(g)
    do(g, "1:win")  # drew the 宝
    return g.result.wins[0]


def _win_at_once(rules):
    g = make_game({1: BAODIAO1}, draws="4z6z", rules=rules)
    do(g, "0:discard 4z")
    pass_windows(g)
    do(g, "1:win")
    return g.result.wins[0]


def test_touji_is_counted_and_baodiao_bao_names_both_clauses():
    w = _win_after_touji(DEFAULT_RULES)
    assert w.situation.touji == 1
    assert w.score.pattern.name == "宝吊宝" and w.score.hand_value == 6
    # the 宝 pair stands for its own face: (9) 宝吊无宝 fits too, and the formula says so
    assert "宝吊无宝 (clause 9: no 宝 acts) both fit" in w.score.breakdown()


@pytest.mark.parametrize("strict", [False, True])
def test_baodiao_bao_only_after_touji(strict):
    rules = DEFAULT_RULES.replace(baodiao_bao_needs_touji=strict)
    now = _win_at_once(rules)
    assert now.situation.touji == 0
    assert (now.score.pattern.name, now.score.hand_value) == (("宝吊头", 3) if strict else ("宝吊宝", 6))
    later = _win_after_touji(rules)
    assert (later.score.pattern.name, later.score.hand_value) == ("宝吊宝", 6)


# ---------------------------------------------------------------- every house rule: whole hands
HOUSE = [
    {"kong_after_pung": True},
    {"rob_concealed_kong": True},
    {"added_kong_drawn_only": True},
    {"jiuyao_melds": False},
    {"win_on_bao_tile": False},
    {"baodiao_bao_needs_touji": True},
    {
        "kong_after_pung": True,
        "rob_concealed_kong": True,
        "added_kong_drawn_only": True,
        "jiuyao_melds": False,
        "win_on_bao_tile": False,
        "baodiao_bao_needs_touji": True,
    },
]


@pytest.mark.parametrize("changes", HOUSE, ids=lambda c: ",".join(c))
def test_house_rules_play_whole_hands_and_replay(changes):
    """Random and greedy bots play 40 hands under the option: every offered win scores, the
    points are zero-sum and the log replays to the same state (the rules travel in the deal)."""
    from shangrao.bots import get_bot
    from shangrao.game import Game, replay

    rules = DEFAULT_RULES.replace(**changes)
    for seed in range(40):
        g = Game(rules, seed=seed, dealer=seed % 4)
        bots = [get_bot("greedy" if i % 2 else "random", seed=seed * 4 + i) for i in range(4)]
        while not g.is_over:
            legal = g.legal_actions()
            g.apply(bots[g.current_seat].choose(g.observation(g.current_seat), legal))
        assert sum(g.result.deltas) == 0
        assert replay(g.events).state_key() == g.state_key()
