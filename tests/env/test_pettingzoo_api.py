"""PettingZoo's own checks on the AEC environment (issue 6 Must show)."""

import pytest
from pettingzoo.test import api_test, seed_test

import shangrao.env as senv


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize(
    "factory",
    [lambda: senv.env(), lambda: senv.raw_env(hands=3, normalize=True)],
    ids=["env-one-hand", "raw-match-of-3"],
)
def test_api_test_passes(factory):
    api_test(factory(), num_cycles=2000, verbose_progress=False)


def test_seed_test_passes():
    seed_test(senv.env, num_cycles=1000)
    seed_test(lambda: senv.env(hands=2), num_cycles=1000)


def test_reset_with_seed_reproduces_the_episode_and_unseeded_resets_follow_the_stream():
    a, b = senv.raw_env(), senv.raw_env()
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.match.seed == b.match.seed and a.game.dealer == b.game.dealer
    a.reset()
    b.reset()
    assert a.match.seed == b.match.seed
    b.reset(seed=6)
    assert a.match.seed != b.match.seed


def test_raw_env_raises_on_an_illegal_action_and_env_terminates():
    from shangrao.game import IllegalActionError

    e = senv.raw_env(dealer=0)
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    bad = int(next(i for i in range(senv.N_ACTIONS) if not mask[i]))
    with pytest.raises(IllegalActionError, match="not legal"):
        e.step(bad)

    w = senv.env(illegal_reward=-7.0, dealer=0)
    w.reset(seed=1)
    agent = w.agent_selection
    w.step(bad)  # logs PettingZoo's "Illegal move made" warning
    assert all(w.terminations.values())
    assert w.rewards[agent] == -7.0 and sum(w.rewards.values()) == -7.0
