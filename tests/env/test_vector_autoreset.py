"""The Gymnasium env under vector autoreset: no observation handed to the learner has an all-zero mask."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402

import shangrao.env  # noqa: E402


def test_check_env_passes_for_v1():
    check_env(gymnasium.make("Shangrao-v1").unwrapped, skip_render_check=True)


def test_terminal_observation_mask_is_pass_alone():
    env = gymnasium.make("Shangrao-v1").unwrapped
    obs, _ = env.reset(seed=0)
    done = False
    while not done:
        obs, _, done, _, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert list(np.flatnonzero(obs["action_mask"])) == [shangrao.env.PASS_INDEX]
    assert list(np.flatnonzero(info["action_mask"])) == [shangrao.env.PASS_INDEX]


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_vector_autoreset_never_hands_an_all_zero_mask(mode):
    venv = SyncVectorEnv([lambda: gymnasium.make("Shangrao-v1") for _ in range(3)], autoreset_mode=mode)
    obs, _ = venv.reset(seed=1)
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(400):
        masks = obs["action_mask"]
        assert masks.any(axis=1).all(), f"an all-zero mask under {mode}"
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, _, term, trunc, _ = venv.step(actions)
        episodes += int(np.sum(term | trunc))
    assert episodes >= 3
    venv.close()
