"""Dataset rows encoded in the compiled core (issue 36, item 4): the same rows as the Python path.

``shangrao dataset --engine fast`` plays the hands in the core and encodes every decision there
(:mod:`shangrao.sim.record`); ``--engine python`` plays them on the engine with the Python bots and
:class:`~shangrao.data.write.DecisionRecorder`.  For the same seeds, bots and labeller, every column
of every row, the shard boundaries and the metadata are equal.
"""

from __future__ import annotations

import numpy as np
import pytest

from shangrao.data import Dataset, DatasetError, write_selfplay
from shangrao.data.stream import count_rows, training_batches


def _both(tmp_path, hands, seed, bots, label=None, shard_rows=400):
    metas = {}
    for engine in ("python", "fast"):
        metas[engine] = write_selfplay(
            tmp_path / engine, hands, seed, bots, engine=engine, label=label, shard_rows=shard_rows
        )
    for m in metas.values():
        for k in ("seconds", "decisions_per_second", "hands_per_second"):
            m.pop(k)
    return Dataset(tmp_path / "python"), Dataset(tmp_path / "fast"), metas


def _assert_same(a: Dataset, b: Dataset, metas) -> dict[str, np.ndarray]:
    assert metas["python"] == metas["fast"]  # shards, decisions, policies, label
    assert [p.name for p in a.shards] == [p.name for p in b.shards]
    for i in range(len(a.shards)):
        x, y = a.shard(i), b.shard(i)
        for col in x:
            assert x[col].dtype == y[col].dtype, col
            assert np.array_equal(x[col], y[col]), (i, col)
    return a.load()


@pytest.mark.parametrize(
    ("bots", "hands"),
    [
        (["ukeire"] * 4, 12),  # a match and a half: hands_left counts down, scores carry over
        (["greedy"] * 4, 10),
        (["random"] * 4, 10),
        (["search:8", "ukeire", "search:8", "greedy"], 3),
    ],
)
def test_the_core_path_writes_the_python_paths_rows(tmp_path, bots, hands):
    a, b, metas = _both(tmp_path, hands, 5, bots)
    cols = _assert_same(a, b, metas)
    assert len(cols["action"]) > 50 and (cols["action"] >= 0).all()
    assert len(np.unique(cols["planes"][:, 19, 33])) > 1 or hands <= 8  # hands_left of each hand of the match


@pytest.mark.parametrize("label", ["ukeire", "random", "search:8"])
def test_a_core_labeller_labels_as_the_python_labeller(tmp_path, label):
    a, b, metas = _both(tmp_path, 3, 9, ["random", "greedy", "random", "greedy"], label=label)
    cols = _assert_same(a, b, metas)
    assert metas["fast"]["policies"] == [label]
    assert (cols["action"] >= 0).all()
    assert cols["mask"][np.arange(len(cols["action"])), cols["action"]].all()  # a legal label
    plain = write_selfplay(tmp_path / "plain", 3, 9, ["random", "greedy", "random", "greedy"], engine="fast")
    assert plain["decisions"] == metas["fast"]["decisions"]  # the same decisions, other labels
    assert not np.array_equal(Dataset(tmp_path / "plain").load(["action"])["action"], cols["action"])


def test_a_labeller_the_core_lacks_needs_the_python_engine(tmp_path):
    with pytest.raises(DatasetError, match="engine fast"):
        write_selfplay(tmp_path / "x", 2, 1, ["greedy"] * 4, label="expert", engine="fast")


def test_training_batches_stream_every_kept_row_once_with_the_core_features(tmp_path):
    from shangrao.bots.features import action_features

    write_selfplay(tmp_path / "a", 6, 3, "ukeire", engine="fast", shard_rows=97)
    write_selfplay(tmp_path / "b", 4, 4, ["greedy", "random", "greedy", "random"], engine="fast", shard_rows=61)
    dss = [Dataset(tmp_path / "a"), Dataset(tmp_path / "b")]
    assert len(dss[0].shards) > 2 and len(dss[1].shards) > 2
    total = len(dss[0]) + len(dss[1])
    assert count_rows(dss) == total
    batches = list(training_batches(dss, 50, np.random.default_rng(0), buffer_shards=2, feature_version=2))
    assert sum(len(b["action"]) for b in batches) == total
    assert all(len(b["action"]) == 50 for b in batches[:-1])
    got = sorted(bytes(p.tobytes()) + bytes(m.tobytes()) for b in batches for p, m in zip(b["planes"], b["mask"]))
    rows = [ds.load(["planes", "mask"]) for ds in dss]
    planes = np.concatenate([r["planes"] for r in rows])
    planes[:, 19, 33] = 1  # bots_view
    mask = np.concatenate([r["mask"] for r in rows]).astype(bool)
    assert got == sorted(bytes(p.tobytes()) + bytes(m.tobytes()) for p, m in zip(planes, mask))
    b = batches[0]
    np.testing.assert_array_equal(b["features"], action_features(b["planes"], b["mask"], 2))
    again = list(training_batches(dss, 50, np.random.default_rng(0), buffer_shards=2))
    assert all(np.array_equal(x["action"], y["action"]) for x, y in zip(batches, again))  # seeded order
    greedy = count_rows(dss, policies=["greedy"])
    assert 0 < greedy < total
    kept = list(training_batches(dss, 64, np.random.default_rng(1), policies=["greedy"], min_hand_points=0))
    assert 0 < sum(len(k["action"]) for k in kept) <= greedy


def test_dagger_in_the_batched_env_labels_each_decision_as_the_core_bot_would(tmp_path):
    """write_dagger: a policy plays every seat of the batched environment and ukeire labels; each row's
    label is what ukeire picks in that position on the Python engine (the hand replayed there)."""
    from shangrao.bots import get_bot
    from shangrao.data.dagger import write_dagger
    from shangrao.encoding import action_to_index, encode_observation
    from shangrao.game import Game
    from shangrao.sim.vector import VectorEnv

    def first(planes, mask):
        return np.asarray(mask.argmax(axis=1), dtype=np.int64)

    meta = write_dagger(tmp_path / "d", 12, 3, first, "ukeire", num_envs=4, shard_rows=100)
    ds = Dataset(tmp_path / "d")
    assert meta["hands"] == 12 and meta["policies"] == ["ukeire"] and len(ds) == meta["decisions"] > 100
    cols = ds.load()
    assert len(np.unique(cols["hand_id"])) == 12
    for h in np.unique(cols["hand_id"]):
        sel = cols["hand_id"] == h
        pts = {int(s): int(p) for s, p in zip(cols["seat"][sel], cols["hand_points"][sel])}
        assert len(pts) <= 4 and (len(pts) < 4 or sum(pts.values()) == 0)
    assert cols["mask"][np.arange(len(cols["action"])), cols["action"]].all()
    # replay table 0's first hand on the Python engine: first-legal play, ukeire labels
    env = VectorEnv(4, ("learner",) * 4)
    b = env.reset(3)
    game = Game(env.rules, seed=int(b.hand_seed[0]), dealer=int(b.dealer[0]))
    bot = get_bot("ukeire")
    rows = []
    while not game.is_over:
        seat = game.current_seat
        legal = game.legal_actions()
        obs = game.observation(seat)
        if len(legal) > 1:
            claimed = obs.last_discard[1] if obs.last_discard is not None else None
            idx = {action_to_index(a, claimed): a for a in legal}
            planes = encode_observation(obs, 1)
            rows.append((planes, action_to_index(bot.choose(obs, legal), claimed)))
            game.apply(idx[min(idx)])
        else:
            game.apply(legal[0])
    mine = [(p, int(a)) for p, a in zip(cols["planes"], cols["action"])]
    for planes, label in rows:
        match = [a for p, a in mine if np.array_equal(p, planes)]
        assert match and label in match


def test_dataset_tables_writes_dagger_rows_from_the_command_line(run_here, tmp_path):
    import json
    from pathlib import Path

    import shangrao

    weights = Path(shangrao.__file__).parent / "bots" / "data" / "learned.npz"
    args = ["--tables", "4", "--bots", f"policy:{weights}", "--label", "greedy", "--hands", "6", "--seed", "2"]
    proc = run_here("dataset", *args, "--out", str(tmp_path / "d"), "--json")
    assert proc.returncode == 0, proc.stderr
    meta = json.loads(proc.stdout)
    assert meta["source"] == "dagger" and meta["hands"] == 6 and meta["policies"] == ["greedy"]
    assert len(Dataset(tmp_path / "d")) == meta["decisions"] > 50
