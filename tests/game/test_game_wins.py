"""Wins and settlement on scripted walls: 地糊, 天糊, 抢杠, 杠开, 偷机/宝吊宝, 接宝, 四个宝, 荒牌,
and the dealer rotation after each (seed 糊牌的规定, 糊牌的方式, 奖励分; D1, D8, D9)."""

import pytest
from game_helpers import do, legal_strs, make_game, pass_windows, reasons, tsumogiri_to_end

from shangrao.game import Game, IllegalActionError, Match, script_wall
from shangrao.rules import DEFAULT_RULES
from shangrao.scoring import WinBy


def _tsumogiri(g, seat):
    assert g.current_seat == seat and g.phase == "act"
    g.apply(f"discard {g.events[-1]['kind']}")
    pass_windows(g)


# ---------------------------------------------------------------- 地糊
E0 = "5m1s2s3s7s8s9s1z2z3z4z5z7z"
E1 = "4m6m9m4p5p6p2s5s6s8s1z2z3z"
E2 = "1m2m3m1p2p3p7p8p9p4s4s4m6m"  # waits 5m
E3_PUNG = "5m5m7m8m4p9p3s9s4z5z7z1z2z"
E3_WIN = "7m8m9m4p5p6p7s8s9s1z1z3m4m"  # waits 2m / 5m


def test_earthly_win_beats_chow_and_pung():
    g = make_game({0: E0, 1: E1, 2: E2, 3: E3_PUNG}, draws="6m")
    do(g, "0:discard 5m")
    assert g.current_seat == 1 and "chow 456m" in legal_strs(g)
    do(g, "1:chow 456m")
    assert legal_strs(g) == ["win", "pass"]
    do(g, "2:win")
    assert g.is_over  # seat 3 (pung) is not asked: it cannot beat a win
    r = g.result
    assert r.winners == (2,) and r.wins[0].situation.win_by is WinBy.DEALER_FIRST_DISCARD
    assert r.wins[0].score.pattern.name == "地糊"
    assert reasons(g) == [(3, 2, 10, "win"), (0, 2, 10, "win"), (1, 2, 10, "win")]
    assert r.deltas == (-10, -10, 30, -10) and r.next_dealer == 2 and not r.drawn


def test_earthly_win_first_in_turn_order():
    g = make_game({0: E0, 1: E1, 2: E2, 3: E3_WIN}, draws="6m")
    do(g, "0:discard 5m", "1:pass", "2:win")
    assert g.is_over and g.result.winners == (2,)  # seat 3 could win too but comes later


def test_earthly_win_declined_then_next_seat_wins():
    g = make_game({0: E0, 1: E1, 2: E2, 3: E3_WIN}, draws="6m")
    do(g, "0:discard 5m", "1:pass", "2:pass", "3:win")
    assert g.result.winners == (3,) and g.result.next_dealer == 3


def test_earthly_win_only_on_dealers_first_discard():
    g = make_game({0: E0, 1: E1, 2: E2, 3: E3_WIN}, draws="6m8p")
    do(g, "0:discard 6m")  # the dealer's first discard is not a winning tile for anyone
    pass_windows(g)
    assert g.current_seat == 1
    do(g, "1:discard 8p")
    pass_windows(g)
    assert g.current_seat == 2 and g.phase == "act"


def test_earthly_win_off_by_rule():
    g = make_game({0: E0, 1: E1, 2: E2, 3: E3_PUNG}, draws="6m", rules=DEFAULT_RULES.replace(earthly_win=False))
    do(g, "0:discard 5m")
    assert "win" not in legal_strs(g)


def test_no_win_on_an_ordinary_discard():
    # D1: wins are by self-draw; seat 2 waits on 5m but a later discard of 5m gives only pung/pass
    g = make_game({0: E0.replace("5m", "9p"), 1: "5m" + E1[2:], 2: E2, 3: E3_WIN}, draws="6m8p")
    do(g, "0:discard 9p")
    pass_windows(g)
    do(g, "1:discard 5m")
    assert g.phase != "claim" or "win" not in legal_strs(g)


# ---------------------------------------------------------------- 天糊
def test_heavenly_win():
    g = make_game({0: "1m2m3m4p5p6p7s8s9s1z1z1z5m"}, draws="5m")
    assert legal_strs(g)[0] == "win"
    do(g, "0:win")
    r = g.result
    assert r.wins[0].situation.heavenly and r.wins[0].score.pattern.name == "天糊"
    assert r.deltas == (30, -10, -10, -10) and r.next_dealer == 0


def test_heavenly_win_dealer_seat_1():
    g = make_game({1: "1m2m3m4p5p6p7s8s9s1z1z1z5m"}, draws="5m", dealer=1)
    assert g.current_seat == 1 and g.dealer == 1
    do(g, "1:win")
    assert g.result.wins[0].situation.heavenly and g.result.next_dealer == 1


def test_no_heavenly_after_a_kong():
    g = make_game({0: "1m1m1m1m4p5p6p7s8s9s1z1z1z"}, draws="5m", replacements="5m")
    do(g, "0:concealed_kong 1m", "0:win")
    w = g.result.wins[0]
    assert not w.situation.heavenly and w.situation.kong_chain == 1


# ---------------------------------------------------------------- 抢杠
R0_WAIT = "1m2m3m7m8m9m1s2s3s4p6p2z2z"  # waits 5p
R0_IDLE = "1m2m3m7m8m9m1s2s3s2z2z3p7p"
R1 = "5p9m9p9s3z4z5z4m7p3s5s7s1z"
R2_TRIPLET = "5p5p5p2p8p4s6s8s5m1z3z4z5z"
R2_PAIR = "5p5p2p8p4s6s8s5m1z3z4z5z9s"
R3_WAIT = "4m5m6m1p2p3p7s8s9s4p6p6m6m"  # waits 5p


def test_robbing_exposed_kong_two_robbers():
    g = make_game({0: R0_WAIT, 1: R1, 2: R2_TRIPLET, 3: R3_WAIT}, draws="7z8m")
    do(g, "0:discard 7z")
    pass_windows(g)
    do(g, "1:discard 5p", "2:kong 5p")
    assert g.phase == "rob" and g.current_seat == 3 and legal_strs(g) == ["win", "pass"]
    do(g, "3:win", "0:win")
    r = g.result
    assert r.winners == (3, 0)  # in turn order from the robbed seat 2
    assert r.next_dealer == 3
    for w in r.wins:
        assert w.situation.win_by is WinBy.ROBBING_KONG
        assert w.situation.kong_chain == 0
        # the robbed player (seat 2) alone pays, ×6
        pays = dict(zip(w.payers, w.score.win_payments))
        assert pays[2] == w.score.hand_value and all(v == 0 for s, v in pays.items() if s != 2)
        assert any(d.id == "qianggang" for d in w.score.doublings)
    assert all(t.reason == "win" and t.payer == 2 for t in g.transfers)  # no kong bonus: the kong was robbed
    assert [(t.payee, t.points) for t in g.transfers] == [(3, 12), (0, 12)]
    assert r.deltas == (12, 0, -24, 12)
    assert g.melds[2] == []


def test_robbing_added_kong_one_robber():
    g = make_game({0: R0_IDLE, 1: R1, 2: R2_PAIR, 3: R3_WAIT}, draws="7z8m2s3s1z5p")
    do(g, "0:discard 7z")
    pass_windows(g)
    do(g, "1:discard 5p", "2:pung 5p", "2:discard 1z")
    pass_windows(g)
    do(g, "3:discard 2s")
    pass_windows(g)
    do(g, "0:discard 3s")
    pass_windows(g)
    do(g, "1:discard 1z")
    pass_windows(g)
    assert g.current_seat == 2 and "added_kong 5p" in legal_strs(g)
    do(g, "2:added_kong 5p")
    assert g.phase == "rob" and g.current_seat == 3
    do(g, "3:win")
    r = g.result
    assert r.winners == (3,) and r.next_dealer == 3
    assert reasons(g) == [(2, 3, 12, "win")]
    assert [str(m) for m in g.melds[2]] == ["pung:555p"]  # the kong did not stand


def test_robbing_declined_kong_stands_and_pays():
    g = make_game({0: R0_IDLE, 1: R1, 2: R2_TRIPLET, 3: R3_WAIT}, draws="7z8m", replacements="8s")
    do(g, "0:discard 7z")
    pass_windows(g)
    do(g, "1:discard 5p", "2:kong 5p", "3:pass")
    assert [str(m) for m in g.melds[2]] == ["kong:5555p"]
    assert reasons(g) == [(3, 2, 1, "pung_kong"), (0, 2, 1, "pung_kong"), (1, 2, 1, "pung_kong")]
    assert g.phase == "act" and g.current_seat == 2


def test_exposed_kong_not_robbable_when_rule_off():
    rules = DEFAULT_RULES.replace(rob_exposed_kong=False)
    g = make_game({0: R0_WAIT, 1: R1, 2: R2_TRIPLET, 3: R3_WAIT}, draws="7z8m", replacements="8s", rules=rules)
    do(g, "0:discard 7z")
    pass_windows(g)
    do(g, "1:discard 5p", "2:kong 5p")
    assert g.phase == "act" and g.current_seat == 2


def _concealed_kong_game(rules):
    g = make_game(
        {0: R0_IDLE, 1: R1.replace("5p", "6z"), 2: R2_TRIPLET, 3: R3_WAIT},
        draws="7z8m2m2s3s1z5p",
        replacements="8s",
        rules=rules,
    )
    do(g, "0:discard 7z")
    pass_windows(g)
    do(g, "1:discard 6z")
    pass_windows(g)
    for seat in (2, 3, 0, 1):
        _tsumogiri(g, seat)
    assert g.current_seat == 2 and "concealed_kong 5p" in legal_strs(g)
    do(g, "2:concealed_kong 5p")
    return g


def test_concealed_kong_not_robbable_by_default():
    g = _concealed_kong_game(DEFAULT_RULES)
    assert g.phase == "act" and g.current_seat == 2
    assert [str(m) for m in g.melds[2]] == ["concealed_kong:5555p"]
    assert reasons(g)[-3:] == [(3, 2, 2, "concealed_kong"), (0, 2, 2, "concealed_kong"), (1, 2, 2, "concealed_kong")]


def test_concealed_kong_robbable_with_rule():
    g = _concealed_kong_game(DEFAULT_RULES.replace(rob_concealed_kong=True))
    assert g.phase == "rob" and g.current_seat == 3
    do(g, "3:win")
    assert g.result.winners == (3,)
    assert not any(t.reason == "concealed_kong" for t in g.transfers)


# ---------------------------------------------------------------- 杠开
def test_gangkai_after_two_kongs_in_a_row():
    g = make_game({0: "1m1m1m1m9p9p9p2s3s4s6s7s8s"}, draws="5z", replacements="9p5z")
    assert "win" not in legal_strs(g)
    do(g, "0:concealed_kong 1m")
    assert g.events[-1]["source"] == "tail" and g.kong_chain == 1
    do(g, "0:concealed_kong 9p")
    assert g.kong_chain == 2 and legal_strs(g)[0] == "win"
    do(g, "0:win")
    w = g.result.wins[0]
    assert w.situation.kong_chain == 2 and not w.situation.heavenly
    assert [(d.id, d.factor) for d in w.score.doublings] == [("gangkai", 4)]
    assert w.score.win_payments == (8, 8, 8)  # 平糊自摸 2 × 杠开 2²
    # each kong paid its 自摸杠 bonus when it stood; the win adds only the win part
    assert [t.reason for t in g.transfers] == ["concealed_kong"] * 6 + ["win"] * 3
    assert g.result.deltas == (36, -12, -12, -12) and g.result.next_dealer == 0


# ---------------------------------------------------------------- 偷机 then 宝吊宝 (宝 = 6z)
BAODIAO1 = "1m2m3m4m5m6m7m8m9m1p2p3p6z"


def test_touji_then_baodiao_bao():
    g = make_game({1: BAODIAO1}, draws="4z5s4z4z1z6z")
    assert g.bao == 32
    _tsumogiri(g, 0) if g.phase == "act" else None
    assert g.current_seat == 1 and g.phase == "act"
    assert legal_strs(g)[0] == "win"  # 宝吊头 on offer
    do(g, "1:discard 5s")  # 偷机: declined, the 宝吊 state is kept
    pass_windows(g)
    for seat in (2, 3, 0):
        _tsumogiri(g, seat)
    assert g.current_seat == 1 and g.events[-1]["kind"] == "6z"
    do(g, "1:win")
    w = g.result.wins[0]
    assert w.score.pattern.name == "宝吊宝" and w.score.hand_value == 6
    assert g.result.deltas == (-6, 18, -6, -6) and g.result.next_dealer == 1


def test_touji_declining_earthly_win():
    # in the 宝吊 state any tile wins, even the dealer's first discard: a seat may pass it
    g = make_game({1: BAODIAO1}, draws="4z5s")
    do(g, "0:discard 4z")
    assert g.current_seat == 1 and "win" in legal_strs(g)
    do(g, "1:pass")
    pass_windows(g)
    assert g.current_seat == 1 and g.phase == "act"


# ---------------------------------------------------------------- 接宝, 四个宝 (宝 = 6z)
def test_catch_bao():
    rules = DEFAULT_RULES.replace(earthly_win=False)
    g = make_game({0: "6z1m2m3m7m8m9m1s2s3s2z2z3p", 1: "6z6z6z1m4m7m2p5p8p3s6s9s1z"}, draws="4z", rules=rules)
    assert g.bao_drawn[1] == 3
    do(g, "0:discard 6z")
    assert g.flown[0] == 1
    assert g.current_seat == 1 and "catch_bao" in legal_strs(g)
    do(g, "1:catch_bao")
    assert reasons(g) == [(2, 1, 10, "caught_bao"), (3, 1, 10, "caught_bao"), (0, 1, 10, "caught_bao")]
    assert g.current_seat == 1 and "catch_bao" not in legal_strs(g) and "pung 6z" in legal_strs(g)
    do(g, "1:pass")
    assert g.caught[1] and g.scores == [-10, 30, -10, -10]


def test_catch_bao_needs_three_drawn():
    rules = DEFAULT_RULES.replace(earthly_win=False)
    g = make_game({0: "6z1m2m3m7m8m9m1s2s3s2z2z3p", 1: "6z6z1m4m7m2p5p8p3s6s9s1z1p"}, draws="4z", rules=rules)
    do(g, "0:discard 6z")
    assert "catch_bao" not in legal_strs(g, 1)


def test_four_bao_on_the_fourth_draw():
    g = make_game({1: "6z6z6z1m4m7m2p5p8p3s6s9s1z"}, draws="4z6z")
    _tsumogiri(g, 0)
    assert g.current_seat == 1 and g.bao_drawn[1] == 4
    assert reasons(g) == [(2, 1, 10, "four_bao"), (3, 1, 10, "four_bao"), (0, 1, 10, "four_bao")]
    assert any(e["type"] == "four_bao" and e["seat"] == 1 for e in g.events)


def test_four_bao_dealt():
    g = make_game({2: "6z6z6z6z1m4m7m2p5p8p3s9s1z"}, draws="4z")
    assert reasons(g) == [(3, 2, 10, "four_bao"), (0, 2, 10, "four_bao"), (1, 2, 10, "four_bao")]


# ---------------------------------------------------------------- 荒牌
def test_drawn_hand_keeps_kong_points():
    g = make_game({0: "1m1m1m1m2p5p8p3s6s9s1z4z7z"}, draws="5z")
    do(g, "0:concealed_kong 1m")
    tsumogiri_to_end(g)
    r = g.result
    assert r.drawn and r.winners == () and r.wins == ()
    kong = [(t.payer, t.payee, t.points) for t in g.transfers if t.reason == "concealed_kong"]
    assert kong == [(1, 0, 2), (2, 0, 2), (3, 0, 2)]
    assert r.deltas[0] >= 6 and sum(r.deltas) == 0
    assert r.next_dealer == 1
    assert g.tiles_left == 0


def test_drawn_hand_next_dealer_wraps():
    g = make_game({3: "1m2p5p8p3s6s9s1z4z7z2m3m5m"}, draws="5z", dealer=3)
    tsumogiri_to_end(g)
    assert g.result.drawn and g.result.next_dealer == 0


# ---------------------------------------------------------------- dealer rotation through a Match
def test_match_dealer_rotation_win_and_drawn():
    m = Match(seed=5)
    g = Game(
        m.rules,
        dealer=m.dealer,
        scores=m.scores,
        **script_wall({0: E0, 1: E1, 2: E2, 3: E3_WIN}, draws="6m", indicator="7z"),
    )
    do(g, "0:discard 5m", "1:pass", "2:pass", "3:win")
    m.finish_hand(g)
    assert m.dealer == 3 and m.scores == (-10, -10, -10, 30)
    g = Game(
        m.rules,
        dealer=m.dealer,
        scores=m.scores,
        hand_no=1,
        **script_wall({3: "1m2p5p8p3s6s9s1z4z7z2m3m5m"}, draws="5z", dealer=3, indicator="7z"),
    )
    tsumogiri_to_end(g)
    m.finish_hand(g)
    assert m.dealer == 0 and sum(m.scores) == 0


def test_match_dealer_after_several_robbers():
    m = Match(seed=5)
    g = Game(
        m.rules,
        dealer=m.dealer,
        **script_wall({0: R0_WAIT, 1: R1, 2: R2_TRIPLET, 3: R3_WAIT}, draws="7z8m", indicator="7z"),
    )
    do(g, "0:discard 7z")
    pass_windows(g)
    do(g, "1:discard 5p", "2:kong 5p", "3:win", "0:win")
    m.finish_hand(g)
    assert m.dealer == 3


def test_illegal_action_leaves_state_unchanged():
    g = make_game({0: E0, 1: E1, 2: E2, 3: E3_PUNG}, draws="6m")
    key = g.state_key()
    for bad in ("win", "pung 5m", "discard 9s9s", "discard 6z", "bogus"):
        with pytest.raises(IllegalActionError):
            g.apply(bad)
    assert g.state_key() == key
