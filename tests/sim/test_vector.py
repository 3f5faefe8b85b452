"""The batched environment on the compiled core (shangrao.sim.vector, issue 23) against the Python engine.

At every step, each game's hand is replayed by :class:`~shangrao.game.Game` from
``VectorEnv.decisions`` and must give the same deciding seat, the same observation planes
(``encode_observation``), the same legal flat actions (``legal_index_map``) and, when it ends, the
same rewards (``HandResult.deltas``).  Then autoreset, seeds, and bad input to the batched API.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_identity import HOUSE_RULES  # tests/sim is on the path (pytest's rootdir-relative import)

from shangrao.encoding import N_ACTIONS, OBS_SHAPE, encode_observation, legal_index_map
from shangrao.game import Game
from shangrao.rules import DEFAULT_RULES, RuleSet
from shangrao.sim.batch import BatchError
from shangrao.sim.vector import NORMALIZE_POINTS, VectorEnv


def _replayed(env: VectorEnv, i: int, last: bool = False) -> Game:
    seed, dealer, actions = env.decisions(i, last=last)
    g = Game(env.rules, seed=seed, dealer=dealer)
    for a in actions:
        g.apply(a)
    return g


def _random_actions(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    return (rng.random(mask.shape) * mask).argmax(axis=1)


def _check_against_engine(env: VectorEnv, steps: int, seed: int = 1) -> tuple[int, int]:
    """Play ``steps`` batched steps of random legal actions, comparing every game at every step;
    returns (decisions compared, hands ended)."""
    rng = np.random.default_rng(seed)
    b = env.reset(seed=seed)
    compared = ended = 0
    for t in range(steps):
        for i in range(env.num_envs):
            g = _replayed(env, i)
            seat = g.current_seat
            assert seat == b.current_player[i], f"step {t}, game {i}: seat {seat} vs {b.current_player[i]}"
            assert env.seats[seat] == "learner"
            want = encode_observation(g.observation(seat), 1)
            if not np.array_equal(want, b.observation[i]):
                r, k = (int(x) for x in np.argwhere(want != b.observation[i])[0])
                raise AssertionError(
                    f"step {t}, game {i}: plane {r}, kind {k}: engine {want[r, k]}, core {b.observation[i][r, k]}"
                )
            assert sorted(legal_index_map(g)) == np.flatnonzero(b.legal_action_mask[i]).tolist(), (t, i)
            assert int(b.hand_seed[i]) == g.seed and int(b.dealer[i]) == g.dealer
            compared += 1
        b = env.step(_random_actions(rng, b.legal_action_mask))
        for i in np.flatnonzero(b.terminated):
            g = _replayed(env, int(i), last=True)
            assert g.result is not None, f"step {t}, game {i}: the ended hand does not end in the engine"
            assert [float(x) for x in g.result.deltas] == b.rewards[i].tolist()
            ended += 1
        assert not b.rewards[~b.terminated].any()
    return compared, ended


def test_self_play_observations_masks_and_rewards_are_the_engines_at_every_decision() -> None:
    compared, ended = _check_against_engine(VectorEnv(6, ("learner",) * 4), 300)
    assert compared == 1800 and ended >= 12


def test_one_learner_against_the_core_bots_is_the_engine_at_every_decision() -> None:
    env = VectorEnv(8, ("random", "learner", "greedy", "ukeire"))
    _compared, ended = _check_against_engine(env, 150, seed=7)
    assert ended >= 20


@pytest.mark.parametrize(
    "name", ["rob_concealed_kong", "kong_after_pung", "added_kong_drawn_only", "no_win_on_bao_tile", "points"]
)
def test_a_house_rule_is_played_by_the_batched_env_as_by_the_engine(name: str) -> None:
    rules = DEFAULT_RULES.replace(**HOUSE_RULES[name])
    _check_against_engine(VectorEnv(4, ("learner", "learner", "random", "learner"), rules=rules), 120, seed=3)


def test_autoreset_never_hands_over_an_all_zero_mask_and_the_next_hand_starts_at_once() -> None:
    env = VectorEnv(32, ("learner", "random", "random", "random"))
    rng = np.random.default_rng(0)
    b = env.reset(seed=11)
    seeds = set(b.hand_seed.tolist())
    ends = 0
    for _ in range(400):
        assert b.legal_action_mask.any(axis=1).all()
        assert (b.current_player == 0).all()
        before = b.hand_seed.copy()
        b = env.step(_random_actions(rng, b.legal_action_mask))
        ends += int(b.terminated.sum())
        assert (b.hand_seed[b.terminated] != before[b.terminated]).all()  # the observation is the next hand's
        assert (b.hand_seed[~b.terminated] == before[~b.terminated]).all()
        seeds.update(b.hand_seed.tolist())
    assert ends >= 100 and len(seeds) >= 100
    assert b.observation.shape == (32, *OBS_SHAPE) and b.legal_action_mask.shape == (32, N_ACTIONS)


def test_the_same_seed_plays_the_same_games_and_a_list_of_seeds_seeds_them_one_by_one() -> None:
    def run(seed: object) -> list[np.ndarray]:
        env = VectorEnv(5, ("learner", "greedy", "learner", "random"))
        rng = np.random.default_rng(2)
        b = env.reset(seed=seed)  # type: ignore[arg-type]
        out = [b.observation, b.hand_seed]
        for _ in range(60):
            b = env.step(_random_actions(rng, b.legal_action_mask))
            out += [b.observation, b.rewards, b.hand_seed]
        return out

    a, b = run(4), run(4)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not all(np.array_equal(x, y) for x, y in zip(a, run(5)))
    one_by_one = run([f"4:{i}" for i in range(5)])
    assert all(np.array_equal(x, y) for x, y in zip(a, one_by_one))


def test_normalized_rewards_are_the_points_divided_by_ten() -> None:
    seats = ("learner", "random", "random", "random")
    pts, norm = VectorEnv(8, seats), VectorEnv(8, seats, reward="normalized")
    bp, bn = pts.reset(seed=3), norm.reset(seed=3)
    rng = np.random.default_rng(0)
    seen = 0
    for _ in range(200):
        a = _random_actions(rng, bp.legal_action_mask)
        bp, bn = pts.step(a), norm.step(a)
        np.testing.assert_allclose(bn.rewards, bp.rewards / NORMALIZE_POINTS, rtol=1e-6)
        seen += int(bp.terminated.sum())
    assert seen > 0


# ---------------------------------------------------------------------------------------------- bad input
@pytest.fixture()
def env() -> VectorEnv:
    e = VectorEnv(4, ("learner", "random", "random", "random"))
    e.reset(seed=9)
    return e


def _legal(env: VectorEnv) -> np.ndarray:
    return env._mask.argmax(axis=1)


@pytest.mark.parametrize(
    ("actions", "says"),
    [
        (np.zeros(3, dtype=np.int64), r"actions: one flat action per game, shape \(4,\), got \(3,\)"),
        (np.zeros((4, 1), dtype=np.int64), r"shape \(4,\), got \(4, 1\)"),
        (np.zeros(4), r"actions: integer flat actions 0\.\.109, got dtype float64"),
        (["a", "b", "c", "d"], r"got dtype <U1"),
        (np.array([0, 0, 110, 0]), r"actions\[2\]: flat action 110 of game 2 is out of range 0\.\.109"),
        (np.array([0, -1, 0, 0]), r"actions\[1\]: flat action -1 of game 1 is out of range"),
        ([[1], [1, 2], [3], [4]], r"actions: one flat action per game, shape \(4,\), not list"),
        ([0, True, 0, 0], r"actions\[1\]: True of game 1 is a bool, not a flat action"),
        (np.ma.masked_array(np.zeros(4, dtype=np.int64), mask=[True] * 4), r"actions: a masked array"),
    ],
)
def test_a_batch_of_the_wrong_shape_or_type_is_refused_naming_the_field(
    env: VectorEnv, actions: object, says: str
) -> None:
    with pytest.raises(BatchError, match=says):
        env.step(actions)


def test_an_illegal_action_for_one_game_names_it_and_steps_no_game(env: VectorEnv) -> None:
    before = (env._st.copy(), env._obs.copy(), env._dec.copy())
    actions = _legal(env)
    bad = int(np.flatnonzero(~env._mask[2])[0])
    actions[2] = bad
    with pytest.raises(
        BatchError,
        match=rf"actions\[2\]: flat action {bad} \(.*\) is not legal in game 2 "
        r"\(seat 0, hand seed \d+\); legal: .*; no game was stepped",
    ):
        env.step(actions)
    assert all(np.array_equal(x, y) for x, y in zip(before, (env._st, env._obs, env._dec)))
    # the corrected batch goes on, and every game is still the engine's
    b = env.step(_legal(env))
    for i in range(4):
        g = _replayed(env, i)
        assert np.array_equal(encode_observation(g.observation(g.current_seat), 1), b.observation[i])


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"num_envs": 0}, r"num_envs: an int 1\.\.65536 .*, got 0"),
        ({"num_envs": 2.0}, r"num_envs: an int 1\.\.65536 .*, got 2\.0"),
        ({"num_envs": True}, r"num_envs: an int 1\.\.65536 .*, got True"),
        ({"num_envs": 2**70}, r"num_envs: an int 1\.\.65536"),
        ({"seats": ("random",) * 4}, r"seats: at least one seat must be 'learner'"),
        (
            {"seats": ("learner", "expert", "random", "random")},
            r"seats\[1\]: 'expert' is neither 'learner' nor a core bot",
        ),
        ({"seats": ("learner",) * 3}, r"seats: a sequence of 4 names"),
        ({"seats": "learner"}, r"seats: a sequence of 4 names"),
        ({"seats": {"learner", "random", "greedy", "ukeire"}}, r"seats: a sequence of 4 names in seat order"),
        ({"seats": None}, r"seats: a sequence of 4 names"),
        ({"seats": iter(("learner",) * 4)}, r"seats: a sequence of 4 names"),
        ({"reward": np.array(["points", "x"])}, r"reward: 'points' or 'normalized'"),
        ({"reward": np.array(["normalized"])}, r"reward: 'points' or 'normalized'"),
        ({"rules": {"base_points": 2}}, r"rules: a RuleSet, got dict"),
        ({"reward": "rank"}, r"reward: 'points' or 'normalized', got 'rank'"),
    ],
)
def test_bad_arguments_are_refused_naming_them(kwargs: dict, says: str) -> None:
    with pytest.raises(BatchError, match=says):
        VectorEnv(**kwargs)


@pytest.mark.parametrize(
    ("seed", "says"),
    [
        (1.5, r"seed: an int, a str, one per game, or None, got 1\.5"),
        ([1, 2, 3], r"seed: one seed or one per game \(4\), got 3"),
        ([1, 2, None, 4], r"seed\[2\]: a seed of game 2 is an int or a str, got None"),
        ([1, True, 3, 4], r"seed\[1\]: a seed of game 1 is an int or a str, got True"),
        (b"abcd", r"seed: an int, a str, one per game, or None, got b'abcd'"),
        ("\ud800", r"seed: the seed of game 0 cannot be used"),
        ([1, 2, 3, "\udfff"], r"seed\[3\]: the seed of game 3 cannot be used"),
    ],
)
def test_a_bad_seed_is_refused_naming_the_game(seed: object, says: str) -> None:
    with pytest.raises(BatchError, match=says):
        VectorEnv(4).reset(seed=seed)  # type: ignore[arg-type]


def test_a_refused_seed_leaves_every_game_as_it_was() -> None:
    # every key is made before any game is reseeded: the games go on as their twin's
    seats = ("learner", "random", "random", "random")
    a, b = VectorEnv(3, seats), VectorEnv(3, seats)
    first = a.reset(seed=0)
    b.reset(seed=0)
    with pytest.raises(BatchError, match=r"seed\[2\]"):
        a.reset(seed=[1, 2, "\udfff"])
    rng = np.random.default_rng(1)
    ba = bb = first
    for _ in range(50):
        act = _random_actions(rng, ba.legal_action_mask)
        ba, bb = a.step(act), b.step(act)
        assert np.array_equal(ba.observation, bb.observation) and np.array_equal(ba.rewards, bb.rewards)


def test_a_0d_array_seed_is_a_seed() -> None:
    assert np.array_equal(VectorEnv(2).reset(seed=np.array(5)).observation, VectorEnv(2).reset(seed=5).observation)


def test_step_before_reset_and_a_bad_game_index_are_refused() -> None:
    env = VectorEnv(2)
    with pytest.raises(BatchError, match=r"step: call reset\(\) first"):
        env.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(BatchError, match=r"decisions: call reset\(\) first"):
        env.decisions(0)
    env.reset(seed=0)
    with pytest.raises(BatchError, match=r"game 1 has not ended a hand"):
        env.decisions(1, last=True)
    with pytest.raises(BatchError, match=r"i: a game index 0\.\.1, got 2"):
        env.decisions(2)


def test_the_batched_env_is_documented_with_its_convention_and_repr_evaluates() -> None:
    import shangrao.sim.vector as V

    doc = V.__doc__ or ""
    assert "pgx" in doc and "SAME_STEP" in doc and "legal_action_mask" in doc
    env = VectorEnv(3, ("learner", "random", "learner", "ukeire"), rules=DEFAULT_RULES.replace(base_points=2))
    again = eval(repr(env), {"VectorEnv": VectorEnv, "RuleSet": RuleSet})
    assert again.seats == env.seats and again.rules == env.rules and again.num_envs == 3
