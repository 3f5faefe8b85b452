"""Bots: registry, random bot legality/determinism, greedy rules (win, 偷机, keep 宝, claims)."""

import pytest

from shangrao.bots import GreedyBot, RandomBot, UnknownBotError, get_bot
from shangrao.game import Action, ActionType, Game, play_hand, play_match, script_wall
from shangrao.game.events import events_to_jsonl
from shangrao.rules import DEFAULT_RULES


def game(hands, draws="", dealer=0, **kw):
    return Game(dealer=dealer, **script_wall(hands, draws=draws, indicator="7z", dealer=dealer), **kw)  # 宝 = 6z


def test_get_bot_registry():
    assert isinstance(get_bot("random", 1), RandomBot)
    assert isinstance(get_bot("Greedy", 1), GreedyBot)
    with pytest.raises(UnknownBotError, match="known: random, greedy"):
        get_bot("smart")


def test_random_bot_seeded_and_legal():
    def run():
        return events_to_jsonl(play_match([get_bot("random", seed=i) for i in range(4)], seed=3).hands[0].events)

    assert run() == run()


def test_greedy_hands_are_legal_and_zero_sum():
    for seed in range(5):
        g = Game(seed=seed)
        r = play_hand(g, [get_bot("greedy", seed=i) for i in range(4)], check=True)
        assert sum(r.deltas) == 0


def test_greedy_always_wins_heavenly():
    g = game({0: "1m2m3m4p5p6p7s8s9s1z1z1z5m"}, draws="5m")
    bot = GreedyBot(0)
    assert bot.choose(g.observation(0), g.legal_actions()) == Action(ActionType.WIN)


def test_greedy_keeps_bao():
    # 6z is 宝: a hand of junk plus one 宝 never discards the 宝
    g = game({0: "6z1m1m1m2m2m5p5p5p7s8s1z1z"}, draws="3z")
    a = GreedyBot(0).choose(g.observation(0), g.legal_actions())
    assert a.type is ActionType.DISCARD and a.tile != 32


def test_greedy_discards_isolated_honor():
    g = game({0: "1m2m3m4m5m6m7m8m9m1p2p5s5s"}, draws="3z")
    a = GreedyBot(0).choose(g.observation(0), g.legal_actions())
    assert a == Action(ActionType.DISCARD, 29)


BAODIAO1 = "1m2m3m4m5m6m7m8m9m1p2p3p6z"  # 宝吊 state (宝 = 6z)


def _baodiao_turn():
    g = game({1: BAODIAO1}, draws="4z5s")
    g.apply("discard 4z")
    while g.phase == "claim":
        g.apply("pass")
    assert g.current_seat == 1 and g.phase == "act" and "win" in [str(a) for a in g.legal_actions()]
    return g


def test_greedy_touji_declines_plain_baodiao_when_ev_higher():
    g = _baodiao_turn()
    bot = GreedyBot(0, touji_min_wall=16, survival=1.0)  # EV = 3 + 3·P(宝) > 3
    assert bot.choose(g.observation(1), g.legal_actions()) == Action(ActionType.DISCARD, 22)  # discards 5s


def test_greedy_takes_baodiao_with_default_ev():
    g = _baodiao_turn()
    assert GreedyBot(0).choose(g.observation(1), g.legal_actions()) == Action(ActionType.WIN)


def test_greedy_no_touji_when_wall_short():
    g = _baodiao_turn()
    bot = GreedyBot(0, touji_min_wall=200, survival=1.0)
    assert bot.choose(g.observation(1), g.legal_actions()) == Action(ActionType.WIN)


def test_greedy_claims_pung_that_helps_and_passes_otherwise():
    # seat 2 holds 5m5m in a hand where the pung keeps its shanten
    g = game(
        {
            0: "5m2p3p4p7p8p9p1s2s3s7s8s9s",
            1: "1m9m2p5p9p3s5s9s1z2z3z7m7m",
            2: "5m5m1m2m3m4p5p6p1s2s3s4z4z",
            3: "3m7m8m4p4p8s8s1z1z2z4z5z7z",
        },
        draws="4z",
        rules=DEFAULT_RULES.replace(earthly_win=False),
    )
    g.apply("discard 5m")
    assert g.current_seat == 2
    assert GreedyBot(0).choose(g.observation(2), g.legal_actions()) == Action(ActionType.PUNG, 4)


def test_greedy_passes_pung_that_breaks_hand():
    # the claim rule: pung exactly when the shanten after it is not worse than now
    g = game(
        {
            0: "5m2p3p4p7p8p9p1s2s3s7s8s9s",
            1: "1m9m2p5p9p3s5s9s1z2z3z7m7m",
            2: "5m5m1m2m3m4p5p6p1s2s3s7m8m",
            3: "3m7m8m4p4p8s8s1z1z2z4z5z7z",
        },
        draws="4z",
        rules=DEFAULT_RULES.replace(earthly_win=False),
    )
    g.apply("discard 5m")
    obs = g.observation(2)
    a = GreedyBot(0).choose(obs, g.legal_actions())
    from shangrao.analysis import shanten

    now = shanten(list(obs.hand_34), obs.bao, [])
    c = list(obs.hand_34)
    c[4] -= 2
    from shangrao.melds import Meld, MeldType

    after = shanten(c, obs.bao, [Meld(MeldType.PUNG, (4, 4, 4))])
    assert (a.type is ActionType.PUNG) == (after <= now)


def test_ukeire_bot_is_greedy_with_useful_tile_tie_break_and_plays_legally():
    from shangrao.game import Game, play_hand

    bot = get_bot("ukeire", 3)
    assert isinstance(bot, GreedyBot) and bot.ukeire and bot.name == "ukeire"
    for i in range(5):
        g = Game(seed=100 + i)
        r = play_hand(
            g, [get_bot("ukeire", i), get_bot("greedy", i), get_bot("ukeire", i + 9), get_bot("random", i)], check=True
        )
        assert sum(r.deltas) == 0
