"""The flat action table is exact and the observation planes hold only what the seat may see."""

from collections import Counter

import numpy as np
import pytest

import shangrao.env as senv
from shangrao.bots import get_bot
from shangrao.env import encoding as enc
from shangrao.game import Action, ActionType, Game, Match, script_wall
from shangrao.rules import DEFAULT_RULES

A = ActionType


def test_action_table_layout():
    assert senv.N_ACTIONS == 110
    assert [
        senv.DISCARD_INDEX,
        senv.CHOW_INDEX,
        senv.PUNG_INDEX,
        senv.KONG_INDEX,
        senv.ADDED_KONG_INDEX,
        senv.CONCEALED_KONG_INDEX,
        senv.WIN_INDEX,
        senv.PASS_INDEX,
        senv.CATCH_BAO_INDEX,
    ] == [0, 34, 37, 38, 39, 73, 107, 108, 109]
    assert senv.index_to_action(5) == Action(A.DISCARD, 5)
    assert senv.index_to_action(34, claimed=4) == Action(A.CHOW, 4)  # 567m... claimed lowest
    assert senv.index_to_action(35, claimed=4) == Action(A.CHOW, 3)  # claimed in the middle
    assert senv.index_to_action(36, claimed=4) == Action(A.CHOW, 2)  # claimed highest
    assert senv.index_to_action(37, claimed=30) == Action(A.PUNG, 30)
    assert senv.index_to_action(38, claimed=30) == Action(A.KONG, 30)
    assert senv.index_to_action(39 + 33) == Action(A.ADDED_KONG, 33)
    assert senv.index_to_action(73) == Action(A.CONCEALED_KONG, 0)
    assert senv.index_to_action(107) == Action(A.WIN)
    assert senv.index_to_action(108) == Action(A.PASS)
    assert senv.index_to_action(109) == Action(A.CATCH_BAO)
    with pytest.raises(ValueError):
        senv.index_to_action(110)
    with pytest.raises(ValueError):
        senv.index_to_action(34)  # a chow needs the discard on the table


def test_every_index_round_trips():
    for i in range(senv.N_ACTIONS):
        a = senv.index_to_action(i, claimed=13)
        assert senv.action_to_index(a, claimed=13) == i
        assert senv.action_name(i)


def _check_step(game, seen_types):
    claimed = enc.claimed_kind(game)
    legal = game.legal_actions()
    idx = [senv.action_to_index(a, claimed) for a in legal]
    assert len(set(idx)) == len(legal), legal
    for i, a in zip(idx, legal):
        assert senv.index_to_action(i, claimed) == a
        seen_types[a.type] += 1
    mask = senv.action_mask(senv.legal_index_map(game))
    assert set(np.flatnonzero(mask)) == set(idx)
    for s in range(4):
        planes = senv.encode_observation(game.observation(s))
        assert planes.shape == senv.OBS_SHAPE and planes.dtype == np.int8
        assert (planes >= 0).all() and (planes <= senv.OBS_HIGH).all()
        assert planes[0].sum() == len(game.hand_kinds(s))


def test_mask_equals_legal_actions_over_random_hands():
    """Every legal engine action has its own index and the mask is exactly the legal set."""
    seen = Counter()
    for m in range(12):
        match = Match(
            seed=f"mask:{m}", bots=[get_bot("greedy" if s % 2 else "random", seed=f"{m}:{s}") for s in range(4)]
        )
        for _ in range(DEFAULT_RULES.hands_per_match):
            g = match.new_hand()
            while not g.is_over:
                _check_step(g, seen)
                legal = g.legal_actions()
                seat = g.current_seat
                g.push(legal[0] if len(legal) == 1 else match.bots[seat].choose(g.observation(seat), legal))
            match.finish_hand(g)
    for t in (A.DISCARD, A.CHOW, A.PUNG, A.KONG, A.ADDED_KONG, A.CONCEALED_KONG, A.WIN, A.PASS):
        assert seen[t] > 0, (t, seen)


def test_catch_bao_and_chow_positions_on_a_scripted_wall():
    # 宝 = 6z (indicator 7z); seat 1 holds three 宝 and can 接宝 seat 0's discarded 宝
    rules = DEFAULT_RULES.replace(earthly_win=False)
    w = script_wall({0: "6z1m2m3m7m8m9m1s2s3s2z2z3p", 1: "6z6z6z1m4m7m2p5p8p3s6s9s1z"}, draws="4z", indicator="7z")
    g = Game(rules, dealer=0, **w)
    g.apply("discard 6z")
    legal = senv.legal_index_map(g)
    assert senv.CATCH_BAO_INDEX in legal and senv.PUNG_INDEX in legal and senv.PASS_INDEX in legal
    g.push(legal[senv.CATCH_BAO_INDEX])
    assert senv.CATCH_BAO_INDEX not in senv.legal_index_map(g)

    # seat 1 can chow 3m three ways: 123m, 234m, 345m
    w = script_wall({0: "3m9m9m9p9p9p1z1z1z2z2z2z5z", 1: "1m2m4m5m7p8p9p7s8s9s3z3z4z"}, draws="6z", indicator="7z")
    g = Game(rules, dealer=0, **w)
    g.apply("discard 3m")
    legal = senv.legal_index_map(g)
    assert {i: str(a) for i, a in legal.items() if senv.CHOW_INDEX <= i < senv.PUNG_INDEX} == {
        34: "chow 345m",
        35: "chow 234m",
        36: "chow 123m",
    }


def test_observation_does_not_depend_on_other_hands():
    """Swapping two other seats' concealed hands leaves a seat's planes unchanged (no hidden info)."""
    h = {
        0: "1m2m3m4m5m6m7m8m9m1p2p3p4p",
        1: "1s2s3s4s5s6s7s8s9s1z1z1z2z",
        2: "5p6p7p8p9p5p6p7p8p9p3z3z3z",
        3: "2s3s4s5s6s7s8s9s2z2z4z4z4z",
    }
    swapped = {0: h[0], 1: h[2], 2: h[1], 3: h[3]}
    ga = Game(dealer=0, **script_wall(h, draws="5z", indicator="7z"))
    gb = Game(dealer=0, **script_wall(swapped, draws="5z", indicator="7z"))
    assert (senv.encode_observation(ga.observation(0)) == senv.encode_observation(gb.observation(0))).all()
    assert (senv.encode_observation(ga.observation(3)) == senv.encode_observation(gb.observation(3))).all()
    assert not (senv.encode_observation(ga.observation(1)) == senv.encode_observation(gb.observation(1))).all()


def test_planes_of_a_fresh_hand():
    g = Game(seed=11, dealer=2)
    p = senv.encode_observation(g.observation(2), hands_left=3)
    sc = p[senv.PLANE_NAMES.index("scalars")]
    S = senv.SCALAR
    assert p[0].sum() == 14 and p[1].sum() == 1 and p[14, g.bao] == 1 and p[15, g.indicator] == 1
    assert sc[S["tiles_left"]] == g.tiles_left and sc[S["dealer"]] == 1  # dealer is self (relative 0)
    assert sc[S["phase"]] == 1 and sc[S["seat"] + 2] == 1 and sc[S["hands_left"]] == 3
    assert list(sc[S["hand_size"] : S["hand_size"] + 4]) == [14, 13, 13, 13]
    q = senv.encode_observation(g.observation(3))
    qs = q[senv.PLANE_NAMES.index("scalars")]
    assert qs[S["dealer"] + 3] == 1 and q[1].sum() == 0  # dealer is seat 3's 上家; seat 3 drew nothing
    assert (senv.encode_observation(g.observation(2), 3) == p).all()
