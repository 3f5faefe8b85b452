"""The expert's opponent model (``shangrao.bots.opponents``): features, reads, calibration."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from shangrao.bots.opponents import (
    FEATURE_NAMES,
    HORIZONS,
    OpponentModel,
    OpponentRead,
    default_model,
    opponent_features,
)
from shangrao.game import Game

ROOT = Path(__file__).resolve().parents[2]


def _tool():
    spec = importlib.util.spec_from_file_location("train_opponents", ROOT / "tools" / "train_opponents.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def held_out():
    # a fixed small sample of hands never used for the fit (the fit used run seeds 20 and 21)
    return _tool().sample(60, seed=977, log=False)


def test_features_are_the_named_ones_and_the_observer_is_refused():
    obs = Game(seed="opp:1").observation(0)
    x = opponent_features(obs, 1)
    assert len(x) == len(FEATURE_NAMES) and x[0] == 1.0
    with pytest.raises(ValueError, match="another seat"):
        opponent_features(obs, 0)
    with pytest.raises(ValueError, match="another seat"):
        opponent_features(obs, 4)


def test_reads_are_chances_non_decreasing_in_k_and_cumulative_interpolates():
    obs = Game(seed="opp:2").observation(2)
    reads = default_model().reads(obs)
    assert [r.seat for r in reads] == [3, 0, 1]
    for r in reads:
        assert all(0.0 <= p <= 1.0 for p in r.p_within) and list(r.p_within) == sorted(r.p_within)
        assert 0.0 <= r.p_ready <= 1.0 and r.value >= 1.0
        cum = [r.cumulative(n) for n in range(14)]
        assert cum[0] == 0.0 and cum == sorted(cum) and cum[-1] <= 1.0
        assert [cum[k] for k in HORIZONS] == pytest.approx(list(r.p_within))


def test_constant_hazard_between_the_horizons():
    r = OpponentRead(1, (0.1, 0.19, 0.3439, 0.5), 0.5, 2.0)
    assert r.cumulative(3) == pytest.approx(1 - 0.9**3)


def test_weights_of_the_wrong_shape_are_refused(tmp_path):
    f = len(FEATURE_NAMES)
    p = tmp_path / "bad.npz"
    np.savez(p, within=np.zeros((3, f)), ready=np.zeros(f), value=np.zeros(f))
    with pytest.raises(ValueError, match="opponent model weights"):
        OpponentModel(p)


def test_the_model_is_calibrated_on_held_out_hands(held_out):
    # stated tolerance: on this fixed sample (60 hands, ~5,000 samples) the mean predicted chance of a win
    # within k turns is within 0.03 of the realised rate for every k, and within 0.08 in each decile of the
    # prediction that holds at least 300 samples
    model = default_model()
    reads = [model.read_features(1, row) for row in held_out["x"]]
    pred = np.array([r.p_within for r in reads])
    tw = held_out["to_win"]
    for i, k in enumerate(HORIZONS):
        real = ((tw > 0) & (tw <= k)).astype(float)
        assert abs(pred[:, i].mean() - real.mean()) <= 0.03, k
        order = np.argsort(pred[:, i])
        for chunk in np.array_split(order, 10):
            if len(chunk) >= 300:
                assert abs(pred[chunk, i].mean() - real[chunk].mean()) <= 0.08, k


def test_the_model_reads_ready_hands_as_closer(held_out):
    model = default_model()
    reads = [model.read_features(1, row) for row in held_out["x"]]
    p1 = np.array([r.p_within[0] for r in reads])
    ready = np.array([r.p_ready for r in reads])
    sh = held_out["shanten"]
    assert p1[sh == 0].mean() > 2 * p1[sh >= 2].mean()
    assert ready[sh == 0].mean() > ready[sh == 1].mean() > ready[sh >= 2].mean()
