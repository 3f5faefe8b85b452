"""200 hands through the AEC env with random masked actions: rewards equal the engine's settlement."""

import numpy as np

import shangrao.env as senv
from shangrao.env import AGENTS


def _play_episode(e, rng, totals):
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
        else:
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(rng.choice(legal)))
        for a, r in e.rewards.items():
            totals[a] += r


def test_200_hands_rewards_equal_settlement_and_sum_to_zero():
    rng = np.random.default_rng(2024)
    hands = 0
    # 120 one-hand episodes and 10 matches of 8 hands
    for hands_per_episode, episodes in ((1, 120), (8, 10)):
        e = senv.env(hands=hands_per_episode)
        for ep in range(episodes):
            e.reset(seed=1000 * hands_per_episode + ep)
            totals = dict.fromkeys(AGENTS, 0.0)
            _play_episode(e, rng, totals)
            results = e.unwrapped.hand_results
            assert len(results) == hands_per_episode
            for r in results:
                assert sum(r.deltas) == 0
                assert (
                    sum(t.points for t in r.transfers if t.payee == 0)
                    - sum(t.points for t in r.transfers if t.payer == 0)
                    == r.deltas[0]
                )
            expected = [sum(r.deltas[s] for r in results) for s in range(4)]
            assert [totals[a] for a in AGENTS] == expected
            assert sum(totals.values()) == 0
            assert list(results[-1].scores) == expected  # the match started at 0
            hands += len(results)
    assert hands == 200


def test_normalized_rewards_are_scaled_deltas():
    rng = np.random.default_rng(7)
    e = senv.env(normalize=True)
    for ep in range(10):
        e.reset(seed=ep)
        totals = dict.fromkeys(AGENTS, 0.0)
        _play_episode(e, rng, totals)
        (r,) = e.unwrapped.hand_results
        for s, a in enumerate(AGENTS):
            assert totals[a] == r.deltas[s] / senv.NORMALIZE_POINTS
