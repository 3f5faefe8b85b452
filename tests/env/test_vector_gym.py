"""The Gymnasium vector adapter of the batched environment (shangrao.env.vector_env, issue 36)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import shangrao.env  # noqa: F401  (registers Shangrao-v1 with its vector entry point)
from shangrao.bots.learned import WEIGHTS
from shangrao.env.vector_env import ShangraoVectorEnv
from shangrao.sim.batch import BatchError


def test_the_adapter_is_a_gymnasium_vector_env_with_a_policy_opponent() -> None:
    envs = ShangraoVectorEnv(4, opponents=("greedy", f"policy:{WEIGHTS}", "random"), seat=1, features=1)
    assert isinstance(envs, gymnasium.vector.VectorEnv)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    obs, info = envs.reset(seed=0)
    assert envs.observation_space.contains(obs)
    assert info["action_features"].shape == (4, 110, 4)
    rng = np.random.default_rng(0)
    total = np.zeros(4, dtype=np.float64)
    ends = 0
    for _ in range(80):
        assert (info["current_player"] == 1).all() and obs["action_mask"].any(axis=1).all()
        actions = (rng.random(obs["action_mask"].shape) * obs["action_mask"]).argmax(axis=1)
        obs, reward, terminated, truncated, info = envs.step(actions)
        assert reward.dtype == np.float32 and reward.shape == (4,) and not truncated.any()
        assert not reward[~terminated].any()
        total += reward
        ends += int(terminated.sum())
    assert ends >= 3 and envs.state().shape == (4, 82, 34)


def test_make_vec_builds_it_and_several_learners_are_refused_with_the_reason() -> None:
    envs = gymnasium.make_vec(
        "Shangrao-v1", num_envs=3, vectorization_mode="vector_entry_point", opponents=("ukeire",) * 3
    )
    assert isinstance(envs.unwrapped, ShangraoVectorEnv) and envs.num_envs == 3
    obs, _ = envs.reset(seed=1)
    assert obs["observation"].shape == (3, 20, 34)
    with pytest.raises(BatchError, match="one learner seat per table"):
        ShangraoVectorEnv(2, opponents=("learner", "greedy", "greedy"))
    with pytest.raises(BatchError, match="seat"):
        ShangraoVectorEnv(2, seat=4)
