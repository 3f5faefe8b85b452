"""Decision datasets: `shangrao dataset` / shangrao.data (schema, workers, stored games, the loader, a BC step)."""

from __future__ import annotations

import json
import multiprocessing

import numpy as np
import pytest

from shangrao.data import COLUMNS, Dataset, DatasetError, write_from_games, write_selfplay

HANDS = 24  # "a dataset of 10,000 ukeire hands" at a test's size


@pytest.fixture(scope="module")
def ukeire_ds(tmp_path_factory):
    out = tmp_path_factory.mktemp("ds") / "ukeire"
    meta = write_selfplay(out, HANDS, seed=7, bots="ukeire", shard_rows=300)
    return out, meta


def test_a_dataset_of_ukeire_hands_has_the_documented_schema(ukeire_ds):
    out, meta = ukeire_ds
    ds = Dataset(out)
    assert meta["hands"] == HANDS and len(ds) == meta["decisions"] > 20 * HANDS
    assert ds.policies == ["ukeire"] and meta["bots"] == ["ukeire"] * 4
    assert len(ds.shards) == -(-len(ds) // 300)
    a = ds.load()
    for col, (dtype, shape) in COLUMNS.items():
        assert a[col].dtype == np.dtype(dtype) and a[col].shape == (len(ds), *shape), col
    assert (a["action"] >= 0).all()
    assert a["mask"][np.arange(len(ds)), a["action"]].all()  # the action taken was legal
    assert (a["mask"].sum(axis=1) > 1).all()  # only real decisions
    assert set(np.unique(a["hand_id"])) == set(range(HANDS))
    meta_json = json.loads((out / "meta.json").read_text())
    assert meta_json["format"] == "shangrao-dataset" and meta_json["version"] == 1


def test_hand_points_are_the_settlement_and_sum_to_zero_per_hand(ukeire_ds):
    a = Dataset(ukeire_ds[0]).load()
    for h in np.unique(a["hand_id"]):
        sel = a["hand_id"] == h
        per_seat = {int(s): int(p) for s, p in zip(a["seat"][sel], a["hand_points"][sel])}
        assert len(set(a["deal_id"][sel])) == 1
        if len(per_seat) == 4:
            assert sum(per_seat.values()) == 0


def test_two_spawned_workers_write_the_same_rows(ukeire_ds, tmp_path):
    out, _ = ukeire_ds
    two = tmp_path / "two"
    write_selfplay(
        two, HANDS, seed=7, bots="ukeire", shard_rows=300, workers=2, mp_context=multiprocessing.get_context("spawn")
    )
    a, b = Dataset(out).load(), Dataset(two).load()
    for col in COLUMNS:
        np.testing.assert_array_equal(a[col], b[col], err_msg=col)


def test_stored_games_give_the_same_decisions_as_the_self_play_that_made_them(tmp_path):
    from shangrao.records import Store
    from shangrao.selfplay import iter_hands

    store = Store(str(tmp_path / "r.sqlite3"))
    gid = None
    for rec in iter_hands(3, seed=5, bots=["greedy"] * 4):
        if gid is None:
            gid = store.create_game("simulate", rec["bots"], seed=rec["match_seed"])
        store.append_hand(
            gid,
            rec["hand_no"],
            rec["dealer"],
            rec["events"],
            rec["summary"],
            scores_after=list(rec["result"]["scores"]),
        )
    write_selfplay(tmp_path / "fresh", 3, seed=5, bots="greedy")
    write_from_games(tmp_path / "stored", store, [gid])
    store.close()
    a, b = Dataset(tmp_path / "fresh").load(), Dataset(tmp_path / "stored").load()
    for col in ("planes", "mask", "action", "seat", "hand_points", "deal_id"):
        np.testing.assert_array_equal(a[col], b[col], err_msg=col)


def test_the_loader_streams_shuffled_batches_covering_every_row_once(ukeire_ds):
    ds = Dataset(ukeire_ds[0])
    seen = []
    sizes = []
    for batch in ds.batches(batch_size=64, seed=1, columns=["hand_id", "action", "planes"]):
        sizes.append(len(batch["action"]))
        seen.append(batch["hand_id"])
    ids = np.concatenate(seen)
    assert len(ids) == len(ds) and all(s == 64 for s in sizes[:-1])
    stored = ds.load(["hand_id"])["hand_id"]
    assert sorted(ids.tolist()) == sorted(stored.tolist())
    assert not np.array_equal(ids, stored)  # shuffled
    again = np.concatenate([b["hand_id"] for b in ds.batches(batch_size=64, seed=1, columns=["hand_id"])])
    np.testing.assert_array_equal(ids, again)  # the same seed, the same order


def test_the_loader_feeds_a_behaviour_cloning_step_that_lowers_the_loss(ukeire_ds):
    from shangrao.bots.policy import PLANE_SCALE, MLPPolicy
    from shangrao.train import _Adam, _init, bc_step

    rng = np.random.default_rng(0)
    policy = MLPPolicy(_init([680, 32, 110], rng))
    opt = _Adam([p for layer in policy.layers for p in layer], lr=3e-3)
    ds = Dataset(ukeire_ds[0])
    batch = next(ds.batches(batch_size=256, seed=0))
    x = batch["planes"].reshape(len(batch["planes"]), -1).astype(np.float32) / PLANE_SCALE
    first, _ = bc_step(policy, opt, x, None, batch["mask"], batch["action"].astype(np.int64))
    for _ in range(30):
        loss, _acc = bc_step(policy, opt, x, None, batch["mask"], batch["action"].astype(np.int64))
    assert loss < 0.7 * first


def test_train_bc_with_action_features_fits_the_data(ukeire_ds, tmp_path):
    from shangrao.bots.policy import load_policy
    from shangrao.train import train_bc

    policy, history = train_bc(ukeire_ds[0], hidden=(32,), epochs=4, seed=0)
    assert history[-1]["loss"] < history[0]["loss"]
    assert history[-1]["accuracy"] > history[0]["accuracy"]
    policy.save(tmp_path / "bc.npz")
    assert load_policy(tmp_path / "bc.npz").arch == "mlp-features"


def test_bad_dataset_inputs_are_clear_errors(tmp_path):
    with pytest.raises(DatasetError, match=r"no meta\.json"):
        Dataset(tmp_path)
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "junk").write_text("x")
    with pytest.raises(DatasetError, match="not empty"):
        write_selfplay(tmp_path / "x", 1, seed=1)
    with pytest.raises(DatasetError, match="hands must be"):
        write_selfplay(tmp_path / "y", 0, seed=1)
    with pytest.raises(ValueError, match="unknown bot"):
        write_selfplay(tmp_path / "z", 1, seed=1, bots="nobot")
