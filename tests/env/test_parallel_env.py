"""Shangrao-v1 API: the parallel env (simultaneous claims), state(), render, action checks, renames."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, render_test, seed_test

import shangrao.env as senv
from shangrao.env import encoding as enc
from shangrao.game import IllegalActionError


def test_parallel_api_test_passes():
    parallel_api_test(senv.parallel_env(), num_cycles=3000)


def test_parallel_api_test_passes_for_a_match_of_three_hands():
    parallel_api_test(senv.parallel_env(hands=3), num_cycles=3000)


def test_parallel_seed_test_passes():
    parallel_seed_test(lambda: senv.parallel_env(), num_cycles=300)


def test_api_test_and_seed_test_pass_for_v1_aec():
    api_test(senv.env(), num_cycles=300)
    seed_test(senv.env, num_cycles=300)


@pytest.mark.parametrize("factory", [senv.env, senv.parallel_env], ids=["aec", "parallel"])
def test_render_test_passes_human_returns_none_ansi_returns_text(factory, capsys):
    if factory is senv.parallel_env:
        e = factory(render_mode="ansi")
        e.reset(seed=1)
        assert isinstance(e.render(), str)
        e = factory(render_mode="human")
        e.reset(seed=1)
        assert e.render() is None
        assert "hand 0" in capsys.readouterr().out
    else:
        render_test(lambda render_mode=None: factory(render_mode=render_mode))


def _play_parallel(seed: int, hands: int = 1):
    e = senv.parallel_env(hands=hands)
    obs, _ = e.reset(seed=seed)
    windows = []
    totals = dict.fromkeys(e.possible_agents, 0.0)
    rng = np.random.default_rng(seed)
    while e.agents:
        deciding = [a for a, o in obs.items() if o["action_mask"].any()]
        assert deciding == e.deciding_agents()
        if len(deciding) > 1:
            windows.append(deciding)
        actions = {
            a: int(rng.choice(np.flatnonzero(o["action_mask"]))) if o["action_mask"].any() else 0
            for a, o in obs.items()
        }
        obs, rew, _terms, _truncs, _infos = e.step(actions)
        for a, r in rew.items():
            totals[a] += r
    return e, windows, totals


def test_simultaneous_claims_every_seat_of_a_window_answers_in_one_step():
    seen_multi = False
    for seed in range(40):
        e, windows, totals = _play_parallel(seed)
        assert sum(totals.values()) == pytest.approx(0.0)
        assert [totals[a] for a in e.possible_agents] == list(e.hand_results[-1].deltas)
        seen_multi |= bool(windows)
    assert seen_multi, "no claim window with two seats to ask in 40 hands"


def test_parallel_window_masks_are_the_engines_window_options():
    e = senv.parallel_env()
    obs, _ = e.reset(seed=3)
    checked = 0
    rng = np.random.default_rng(0)
    while e.agents and checked < 300:
        g = e.unwrapped.game
        window = g.window_options()
        if window:
            claimed = enc.claimed_kind(g)
            for s, opts in window.items():
                want = {enc.action_to_index(a, claimed) for a in opts}
                assert set(np.flatnonzero(obs[senv.AGENTS[s]]["action_mask"])) == want
            for s in set(range(4)) - set(window):
                assert not obs[senv.AGENTS[s]]["action_mask"].any()
        checked += 1
        actions = {
            a: int(rng.choice(np.flatnonzero(o["action_mask"]))) if o["action_mask"].any() else 0
            for a, o in obs.items()
        }
        obs, *_ = e.step(actions)


def test_parallel_step_without_a_deciding_agents_action_names_it():
    e = senv.parallel_env()
    e.reset(seed=1)
    with pytest.raises(IllegalActionError, match=e.deciding_agents()[0]):
        e.step({})


@pytest.mark.parametrize("bad", [3.0, np.float32(3.0), True, np.bool_(True), "3", 500, -1, 110])
def test_non_integer_or_out_of_range_actions_are_refused_naming_the_action(bad):
    aec = senv.raw_env()
    aec.reset(seed=1)
    import re

    named = repr(bad) if not isinstance(bad, int) or isinstance(bad, bool) else str(bad)
    with pytest.raises(senv.InvalidActionError, match=re.escape(named)):
        aec.step(bad)
    par = senv.parallel_env()
    par.reset(seed=1)
    with pytest.raises(senv.InvalidActionError):
        par.step({a: bad for a in par.deciding_agents()})
    import gymnasium

    g = gymnasium.make("Shangrao-v1").unwrapped
    g.reset(seed=1)
    with pytest.raises(senv.InvalidActionError):
        g.step(bad)


def test_numpy_integer_actions_are_accepted():
    aec = senv.raw_env()
    aec.reset(seed=1)
    i = int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0])
    aec.step(np.int64(i))


def test_state_is_perfect_information_with_every_hand_and_the_wall():
    for factory in (senv.raw_env, senv.parallel_env):
        e = factory()
        e.reset(seed=5)
        st = e.state()
        assert st.shape == senv.STATE_SHAPE and st.dtype == np.int8
        assert e.state_space.contains(st)
        g = e.unwrapped.game
        for s in range(4):
            assert list(st[20 * s]) == list(g.observation(s).hand_34)
        loc = g.tile_locations()
        assert int(st[80].sum()) == len(loc["wall"])
        assert st[81].argmax() == loc["wall"][0] // 4
        # every tile is somewhere: the four hands, the wall and the indicator
        assert int(st[80].sum()) + sum(int(st[20 * s].sum()) for s in range(4)) + 1 == 136


@pytest.mark.parametrize("mode", ["points", "normalized", "rank"])
def test_reward_options_points_normalized_and_match_rank(mode):
    e = senv.parallel_env(hands=2, reward=mode)
    obs, _ = e.reset(seed=2)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    rng = np.random.default_rng(1)
    while e.agents:
        actions = {
            a: int(rng.choice(np.flatnonzero(o["action_mask"]))) if o["action_mask"].any() else 0
            for a, o in obs.items()
        }
        obs, rew, *_ = e.step(actions)
        for a, r in rew.items():
            totals[a] += r
    scores = e.unwrapped.match.scores
    got = [totals[a] for a in e.possible_agents]
    if mode == "points":
        assert got == list(scores)
    elif mode == "normalized":
        assert got == pytest.approx([s / senv.NORMALIZE_POINTS for s in scores])
    else:
        assert sum(got) == pytest.approx(0.0)
        assert got == pytest.approx(senv.aec.rank_rewards(scores))
        assert max(got) <= 1 and min(got) >= -1


def test_rank_rewards_share_ties():
    assert senv.aec.rank_rewards([5, 5, -5, -5]) == pytest.approx([2 / 3, 2 / 3, -2 / 3, -2 / 3])


def test_bad_reward_option_is_refused():
    with pytest.raises(ValueError, match="reward"):
        senv.parallel_env(reward="money")


def test_old_names_are_importable_with_a_deprecation_warning():
    with pytest.warns(DeprecationWarning, match="WIN_INDEX"):
        from shangrao.env import WIN  # noqa: F401
    with pytest.warns(DeprecationWarning, match="PASS_INDEX"):
        assert enc.PASS == enc.PASS_INDEX
    with pytest.warns(DeprecationWarning, match="discards_self"):
        assert senv.PLANE_NAMES.index("pond_self") == senv.PLANE_NAMES.index("discards_self") == 10
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert senv.WIN_INDEX == 107


def test_env_ids_are_versioned_v1():
    import gymnasium

    assert senv.GYM_ID == "Shangrao-v1"
    assert "Shangrao-v1" in gymnasium.registry
    assert senv.raw_env().metadata["name"] == "shangrao_v1"
    assert senv.parallel_env().metadata["name"] == "shangrao_v1"
