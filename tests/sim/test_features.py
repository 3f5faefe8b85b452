"""The per-action features compiled for a batch (shangrao.sim.features) equal the Python ones
(shangrao.bots.features) value for value — versions 1 and 2, on thousands of decisions of the batched
environment, win offers, claims, kongs and rob windows among them (issue 36)."""

from __future__ import annotations

import numpy as np
import pytest

from shangrao.bots.features import action_features as py_features
from shangrao.bots.features import decision_features, meld_split
from shangrao.sim.batch import BatchError
from shangrao.sim.features import action_features
from shangrao.sim.vector import VectorEnv


def _policy(rng: np.random.Generator, f: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Play towards wins (lowest shanten, then most useful tiles) with some random moves, taking 7 wins
    in 10, so that the decisions compared include win offers, declined wins and ready hands."""
    score = -f[:, :, 0] * 8 + f[:, :, 4] / 10 + rng.random(mask.shape) * 0.01
    score = np.where(mask, score, -np.inf)
    act = score.argmax(axis=1)
    rand = (rng.random(mask.shape) * mask).argmax(axis=1)
    explore = rng.random(len(act)) < 0.15
    act = np.where(explore, rand, act)
    win = mask[:, 107] & (rng.random(len(act)) < 0.7)
    return np.where(win, 107, act)


def test_compiled_features_equal_the_python_ones_on_thousands_of_decisions() -> None:
    env = VectorEnv(64, ("learner", "greedy", "learner", "ukeire"))
    rng = np.random.default_rng(5)
    b = env.reset(seed=36)
    compared = wins = passes = claims = kongs = ready = 0
    while compared < 2400:
        f1 = action_features(b.observation, b.legal_action_mask, 1)
        f2 = action_features(b.observation, b.legal_action_mask, 2)
        mask8 = b.legal_action_mask.astype(np.int8)
        for i in range(env.num_envs):
            p, mk = b.observation[i], mask8[i]
            if mk.sum() < 2:
                continue
            for version, got in ((1, f1[i]), (2, f2[i])):
                want = decision_features(p, mk, version)
                if not np.array_equal(want, got):
                    a, col = (int(x) for x in np.argwhere(want != got)[0])
                    raise AssertionError(
                        f"decision {compared}, version {version}, action {a}, feature {col}: "
                        f"python {want[a, col]!r}, compiled {got[a, col]!r}; legal {np.flatnonzero(mk).tolist()}"
                    )
            compared += 1
            wins += int(mk[107])
            passes += int(mk[108])
            claims += int(mk[34:39].any())
            kongs += int(mk[39:107].any())
            ready += int((f2[i, :, 6] > 0).any())
        b = env.step(_policy(rng, f2, b.legal_action_mask))
    assert wins >= 40 and passes >= 100 and claims >= 100 and kongs >= 5 and ready >= 20, (
        wins,
        passes,
        claims,
        kongs,
        ready,
    )


def test_the_batch_function_is_the_per_row_function() -> None:
    env = VectorEnv(8, ("learner",) * 4)
    b = env.reset(seed=1)
    want = py_features(b.observation, b.legal_action_mask.astype(np.int8), 2)
    assert np.array_equal(action_features(b.observation, b.legal_action_mask, 2), want)
    assert action_features(b.observation[:0], b.legal_action_mask[:0], 1).shape == (0, 110, 4)


def test_bad_input_is_refused_naming_the_field() -> None:
    planes = np.zeros((2, 20, 34), np.int8)
    with pytest.raises(BatchError, match="version"):
        action_features(planes, np.zeros((2, 110), bool), 3)
    with pytest.raises(BatchError, match="planes"):
        action_features(planes.astype(np.int16), np.zeros((2, 110), bool), 2)
    with pytest.raises(BatchError, match="mask"):
        action_features(planes, np.zeros((3, 110), bool), 2)
    with pytest.raises(ValueError, match="feature version"):
        decision_features(planes[0], np.zeros(110, np.int8), 0)


def test_melds_are_read_back_from_their_tile_counts() -> None:
    row = np.zeros(34, np.int8)
    kongs = np.zeros(34, np.int8)
    for k in (0, 1, 2, 1, 2, 3):  # chows 1-2-3m and 2-3-4m
        row[k] += 1
    row[31] += 4  # an exposed kong of 白
    kongs[31] = 1
    assert meld_split(row, kongs) == [(2, 31), (0, 0), (0, 1)]
    row[:] = 0
    row[:3] = 3  # three identical chows read as three pungs (the planes cannot tell them apart)
    assert meld_split(row, np.zeros(34, np.int8)) == [(1, 0), (1, 1), (1, 2)]
