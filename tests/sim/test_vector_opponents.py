"""Opponents in the batched environment (issue 36, item 2): frozen ``policy:`` checkpoints asked in
batches (their per-action features from the core) decide exactly as ``PolicyBot`` does on the Python
engine; the compiled ``search`` bot plays a seat inside the core; the learner takes several seats
beside a policy callable; ``state()`` is ``encode_state``; ``features=`` hands out the features."""

from __future__ import annotations

import numpy as np
import pytest

from shangrao.bots.features import action_features
from shangrao.bots.learned import WEIGHTS
from shangrao.bots.policy import MLPPolicy, PolicyBot, load_policy
from shangrao.encoding import encode_observation, encode_state, legal_index_map
from shangrao.game import EngineError, Game
from shangrao.sim.batch import BatchError
from shangrao.sim.vector import VectorEnv


def _replay(env: VectorEnv, i: int, last: bool = False, check: dict[int, PolicyBot] | None = None) -> tuple[Game, int]:
    """Game ``i``'s hand replayed in the engine; with ``check``, every decision of those seats with more
    than one legal action must be the bot's own choice.  Returns the game and the decisions checked."""
    seed, dealer, actions = env.decisions(i, last=last)
    g = Game(env.rules, seed=seed, dealer=dealer)
    checked = 0
    for a in actions:
        seat = g.current_seat
        legal = g.legal_actions()
        if check and seat in check and len(legal) > 1:
            assert check[seat].choose(g.observation(seat), legal) == a, (i, seat, a)
            checked += 1
        g.apply(a)
    return g, checked


def _v2_checkpoint(path) -> str:
    rng = np.random.default_rng(7)
    layers = [
        (rng.standard_normal((680, 16)).astype(np.float32) * 0.1, np.zeros(16, np.float32)),
        (rng.standard_normal((16, 110)).astype(np.float32) * 0.1, np.zeros(110, np.float32)),
    ]
    fnet = [
        (rng.standard_normal((7, 8)).astype(np.float32), np.zeros(8, np.float32)),
        (rng.standard_normal((8, 1)).astype(np.float32), np.zeros(1, np.float32)),
    ]
    MLPPolicy(layers, "mlp-features", {}, fnet, feature_version=2).save(path)
    return str(path)


def test_a_policy_opponent_in_vector_env_plays_as_policy_bot_on_the_engine(tmp_path) -> None:
    v2 = _v2_checkpoint(tmp_path / "v2.npz")
    env = VectorEnv(6, ("learner", f"policy:{WEIGHTS}", "greedy", f"policy:{v2}"))
    assert env.seats == ("learner", f"policy:{WEIGHTS}", "greedy", f"policy:{v2}")
    bots = {1: PolicyBot(load_policy(WEIGHTS)), 3: PolicyBot(load_policy(v2))}
    rng = np.random.default_rng(3)
    b = env.reset(seed=21)
    checked = ended = 0
    for _ in range(60):
        assert set(b.current_player.tolist()) <= {0}
        b = env.step((rng.random(b.legal_action_mask.shape) * b.legal_action_mask).argmax(axis=1))
        for i in np.flatnonzero(b.terminated):
            g, n = _replay(env, int(i), last=True, check=bots)
            assert g.result is not None and [float(x) for x in g.result.deltas] == b.rewards[i].tolist()
            checked += n
            ended += 1
    for i in range(env.num_envs):  # the hands under way: the policies' decisions so far, and the planes now
        g, n = _replay(env, i, check=bots)
        checked += n
        assert g.current_seat == 0
        assert np.array_equal(encode_observation(g.observation(0), 1), b.observation[i])
        assert sorted(legal_index_map(g)) == np.flatnonzero(b.legal_action_mask[i]).tolist()
    assert ended >= 6 and checked >= 300 and env.opponent_decisions >= checked, (ended, checked)


def test_state_is_the_perfect_information_planes_of_the_engine() -> None:
    env = VectorEnv(5, ("learner", "ukeire", "learner", f"policy:{WEIGHTS}"))
    with pytest.raises(BatchError, match="reset"):
        env.state()
    rng = np.random.default_rng(1)
    b = env.reset(seed=2)
    for t in range(40):
        if t % 8 == 0:
            st = env.state()
            assert st.shape == (5, 82, 34) and st.dtype == np.int8
            for i in range(env.num_envs):
                g, _ = _replay(env, i)
                assert np.array_equal(encode_state(g, 1), st[i]), (t, i)
        b = env.step((rng.random(b.legal_action_mask.shape) * b.legal_action_mask).argmax(axis=1))


def test_the_search_bot_plays_a_seat_inside_the_core() -> None:
    env = VectorEnv(3, ("learner", "search:4", "greedy", "random"))
    rng = np.random.default_rng(0)
    b = env.reset(seed=5)
    ended = 0
    for _ in range(30):
        for i in range(env.num_envs):
            g, _ = _replay(env, i)
            assert np.array_equal(encode_observation(g.observation(0), 1), b.observation[i])
        b = env.step((rng.random(b.legal_action_mask.shape) * b.legal_action_mask).argmax(axis=1))
        ended += int(b.terminated.sum())
    assert ended >= 1


def test_the_learner_in_several_seats_beside_a_policy_callable_asked_in_batches() -> None:
    sizes: list[int] = []

    def first_legal(planes: np.ndarray, mask: np.ndarray) -> np.ndarray:
        assert planes.dtype == np.int8 and mask.dtype == np.int8 and planes.shape[1:] == (20, 34)
        sizes.append(len(planes))
        return mask.argmax(axis=1).astype(np.int64)

    env = VectorEnv(16, ("learner", first_legal, "learner", "ukeire"))
    rng = np.random.default_rng(2)
    b = env.reset(seed=8)
    seen = set()
    for _ in range(40):
        seen |= set(b.current_player.tolist())
        b = env.step((rng.random(b.legal_action_mask.shape) * b.legal_action_mask).argmax(axis=1))
    assert seen == {0, 2} and max(sizes) > 1
    for i in range(env.num_envs):
        g, _ = _replay(env, i)
        assert g.current_seat == int(b.current_player[i])


def test_features_come_with_each_batch() -> None:
    env = VectorEnv(4, ("learner", "greedy", "greedy", "greedy"), features=2)
    b = env.reset(seed=3)
    assert b.action_features is not None and b.action_features.shape == (4, 110, 7)
    want = action_features(b.observation, b.legal_action_mask.astype(np.int8), 2)
    assert np.array_equal(b.action_features, want)
    assert VectorEnv(2, ("learner", "random", "random", "random")).reset(seed=1).action_features is None


def test_bad_opponents_are_refused_naming_the_seat(tmp_path) -> None:
    with pytest.raises(BatchError, match=r"seats\[1\]: policy file '/nonexistent/x\.npz'"):
        VectorEnv(2, ("learner", "policy:/nonexistent/x.npz", "greedy", "greedy"))
    with pytest.raises(BatchError, match=r"seats\[2\]: .*unknown option"):
        VectorEnv(2, ("learner", "greedy", "search:foo=1", "greedy"))
    with pytest.raises(BatchError, match="one search spec per environment"):
        VectorEnv(2, ("learner", "search:4", "search:8", "greedy"))
    with pytest.raises(BatchError, match=r"seats\[3\]: 'expert' is neither 'learner' nor a core bot"):
        VectorEnv(2, ("learner", "greedy", "greedy", "expert"))
    with pytest.raises(BatchError, match="at least one seat must be 'learner'"):
        VectorEnv(2, (f"policy:{WEIGHTS}", "greedy", "greedy", "greedy"))
    with pytest.raises(BatchError, match="features: None or a feature version"):
        VectorEnv(2, features=3)

    def illegal(planes: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.full(len(planes), 109, dtype=np.int64)  # 接宝: hardly ever legal

    env = VectorEnv(2, ("learner", illegal, "greedy", "greedy"))
    with pytest.raises(EngineError, match=r"seats\[1\] policy:function: returned flat action 109, not legal"):
        for _ in range(20):
            b = env.reset(seed=1)
            env.step(b.legal_action_mask.argmax(axis=1))
    with pytest.raises(BatchError, match="reset"):
        env.step(np.zeros(2, dtype=np.int64))
