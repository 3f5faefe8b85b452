"""Checkpoints record the version of their per-action features (issue 36): version 1 (4 features,
every checkpoint written before, the first shipped ``learned`` among them) still loads; the shipped
``learned`` is version 2; version 2 (7 features)
round-trips; an unknown version or a feature net of the wrong width is refused naming it; version 2's
value of the win on offer is what the engine pays."""

from __future__ import annotations

import numpy as np
import pytest

from shangrao.bots import get_bot
from shangrao.bots.features import FEATURE_VERSIONS, LATEST, action_features
from shangrao.bots.learned import WEIGHTS
from shangrao.bots.policy import MLPPolicy, PolicyBot, PolicyLoadError, encode_decision
from shangrao.game import Game, play_hand


def _policy(version: int, seed: int = 0) -> MLPPolicy:
    rng = np.random.default_rng(seed)
    nf = FEATURE_VERSIONS[version]
    layers = [
        (rng.standard_normal((680, 8)).astype(np.float32), np.zeros(8, np.float32)),
        (rng.standard_normal((8, 110)).astype(np.float32), np.zeros(110, np.float32)),
    ]
    fnet = [
        (rng.standard_normal((nf, 4)).astype(np.float32), np.zeros(4, np.float32)),
        (rng.standard_normal((4, 1)).astype(np.float32), np.zeros(1, np.float32)),
    ]
    return MLPPolicy(layers, "mlp-features", {}, fnet, feature_version=version)


def test_a_checkpoint_without_a_feature_version_reads_as_version_1(tmp_path) -> None:
    path = tmp_path / "old.npz"
    _policy(1).save(path)
    with np.load(path) as z:  # as every checkpoint before feature versions was written
        arrays = {k: z[k] for k in z.files if k != "feature_version"}
    np.savez(path, **arrays)
    assert MLPPolicy.load(path).feature_version == 1


def test_the_shipped_learned_uses_version_2_features() -> None:
    with np.load(WEIGHTS) as z:
        assert "feature_version" in z.files
    assert MLPPolicy.load(WEIGHTS).feature_version == 2


def test_a_version_2_checkpoint_round_trips_and_plays(tmp_path) -> None:
    assert LATEST == 2
    p = _policy(2)
    p.save(tmp_path / "v2.npz")
    q = MLPPolicy.load(tmp_path / "v2.npz")
    assert q.feature_version == 2 and q.feature_net[0][0].shape[0] == 7
    g = Game(seed=3)
    planes, mask, _ = encode_decision(g.observation(g.current_seat), g.legal_actions())
    f = action_features(planes[None], mask[None], 2)
    np.testing.assert_array_equal(q(planes[None], mask[None]), q.logits(planes[None], mask[None], f))
    result = play_hand(Game(seed=4), [PolicyBot(q), get_bot("greedy", 1), get_bot("greedy", 2), get_bot("greedy", 3)])
    assert sum(result.deltas) == 0


def test_an_unknown_feature_version_or_a_net_of_the_wrong_width_is_refused(tmp_path) -> None:
    p = _policy(2)
    p.save(tmp_path / "v2.npz")
    with np.load(tmp_path / "v2.npz") as z:
        arrays = dict(z)
    arrays["feature_version"] = np.array(9)
    np.savez(tmp_path / "v9.npz", **arrays)
    with pytest.raises(PolicyLoadError, match=r"v9\.npz: feature version 9; this reader knows 1, 2"):
        MLPPolicy.load(tmp_path / "v9.npz")
    arrays["feature_version"] = np.array(1)  # a 7-input feature net declared as version 1
    np.savez(tmp_path / "bad.npz", **arrays)
    with pytest.raises(PolicyLoadError, match=r"feature version 1 needs a feature net U0\.\. from 4 features"):
        MLPPolicy.load(tmp_path / "bad.npz")


def test_the_value_of_the_win_on_offer_is_what_the_engine_pays_for_it() -> None:
    """Column 5 (version 2), read from the planes alone, equals the win payments of the engine's own
    scoring when the win is taken: every win of 60 hands of four ``ukeire``."""
    from shangrao.bots.features import VALUE_CAP, VALUE_SCALE, decision_features
    from shangrao.encoding import WIN_INDEX
    from shangrao.game import ActionType

    wins = 0
    for h in range(60):
        g = Game(seed=f"value:{h}")
        bots = [get_bot("ukeire", seed=f"{h}:{s}") for s in range(4)]
        offered: tuple[int, float] | None = None
        while g.result is None:
            seat = g.current_seat
            legal = g.legal_actions()
            a = bots[seat].choose(g.observation(seat), legal)
            if len(legal) > 1 and a.type is ActionType.WIN:
                planes, mask, _ = encode_decision(g.observation(seat), legal)
                offered = (seat, float(decision_features(planes, mask, 2)[WIN_INDEX, 5]))
            g.apply(a)
        for w in g.result.wins:
            if offered is not None and w.seat == offered[0]:
                assert offered[1] == min(sum(w.score.win_payments) / VALUE_SCALE, VALUE_CAP), (h, w.to_dict())
                wins += 1
    assert wins >= 40
