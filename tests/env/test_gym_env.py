"""The Gymnasium single-agent wrapper: check_env, registration, rewards, illegal actions."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import shangrao.env as senv
from shangrao.bots import RandomBot
from shangrao.game import IllegalActionError


def test_registered_on_import_and_check_env_passes():
    assert senv.GYM_ID == "Shangrao-v1" and "Shangrao-v1" in gymnasium.registry
    for kwargs in ({}, {"opponents": ("greedy", "random", "greedy"), "seat": 2, "hands": 2, "normalize": True}):
        e = gymnasium.make("Shangrao-v1", **kwargs)
        check_env(e.unwrapped, skip_render_check=True)
        e.close()


def test_check_env_with_terminate_mode():
    check_env(senv.ShangraoGymEnv(illegal_action="terminate"), skip_render_check=True)


def _episode(e, seed, rng):
    obs, info = e.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        assert obs["action_mask"].any() and (obs["action_mask"] == info["action_mask"]).all()
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = e.step(action)
        total += reward
        steps += 1
        assert not truncated and "illegal_action" not in info
        if terminated:
            return total, steps


@pytest.mark.parametrize("hands", [1, 3])
def test_rewards_are_the_learners_settlement(hands):
    e = gymnasium.make("Shangrao-v1", opponents="greedy", hands=hands)
    rng = np.random.default_rng(1)
    for ep in range(6):
        total, _ = _episode(e, ep, rng)
        u = e.unwrapped
        assert len(u.hand_results) == hands
        assert total == sum(r.deltas[u.seat] for r in u.hand_results)
    with pytest.raises(RuntimeError, match="reset"):
        e.unwrapped.step(0)


def test_seeded_reset_is_deterministic_and_seat_is_drawn():
    e1, e2 = senv.ShangraoGymEnv(), senv.ShangraoGymEnv()
    seats = set()
    for seed in range(12):
        o1, _ = e1.reset(seed=seed)
        o2, _ = e2.reset(seed=seed)
        assert (o1["observation"] == o2["observation"]).all() and e1.match.seed == e2.match.seed
        seats.add(e1.seat)
    assert len(seats) > 1
    r1 = _episode(e1, 99, np.random.default_rng(3))
    r2 = _episode(e2, 99, np.random.default_rng(3))
    assert r1 == r2


def test_illegal_action_modes():
    def first_illegal(obs):
        return int(np.flatnonzero(obs["action_mask"] == 0)[0])

    e = senv.ShangraoGymEnv(seat=0, dealer=0)
    obs, _ = e.reset(seed=3)
    obs, _, _, _, info = e.step(first_illegal(obs))
    assert info["illegal_action"] is True

    e = senv.ShangraoGymEnv(seat=0, dealer=0, illegal_action="terminate", illegal_reward=-5)
    obs, _ = e.reset(seed=3)
    _, reward, terminated, _, info = e.step(first_illegal(obs))
    assert terminated and reward == -5.0 and info["illegal_action"]
    with pytest.raises(RuntimeError):
        e.step(0)

    e = senv.ShangraoGymEnv(seat=0, dealer=0, illegal_action="raise")
    obs, _ = e.reset(seed=3)
    with pytest.raises(IllegalActionError):
        e.step(first_illegal(obs))


def test_fallback_is_the_most_passive_action():
    e = senv.ShangraoGymEnv(seat=0, dealer=0)
    _obs, _ = e.reset(seed=3)
    drawn = e.game.observation(0).drawn
    assert e.passive_action() == e.legal_actions()[senv.DISCARD_INDEX + drawn]


def test_opponent_objects_and_bad_options():
    e = senv.ShangraoGymEnv(opponents=[RandomBot(1), RandomBot(2), "greedy"], seat=1)
    e.reset(seed=0)
    assert e.bots[1] is None and isinstance(e.bots[0], RandomBot)
    assert e.action_masks().dtype == bool
    for bad in (
        {"opponents": ("random",) * 2},
        {"opponents": ("nobody",) * 3},
        {"seat": 4},
        {"illegal_action": "ignore"},
        {"hands": 0},
        {"opponents": (1, 2, 3)},
    ):
        with pytest.raises(ValueError):
            senv.ShangraoGymEnv(**bad)


def test_render_ansi():
    e = senv.ShangraoGymEnv(render_mode="ansi")
    e.reset(seed=0)
    assert "legal:" in e.render()
    a = senv.raw_env(render_mode="ansi")
    a.reset(seed=0)
    assert "to act" in a.render()
