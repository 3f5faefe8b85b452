"""The baselines run from one command each and write checkpoints that play as policy:PATH (small sizes)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from shangrao.arena import run_arena

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=300, cwd=ROOT)


@pytest.fixture(scope="module")
def small_dataset(tmp_path_factory):
    from shangrao.data import write_selfplay

    out = tmp_path_factory.mktemp("bcdata") / "ukeire"
    write_selfplay(out, 8, seed=3, bots="ukeire")
    return out


def test_bc_example_saves_a_checkpoint_every_n_epochs_that_plays(small_dataset, tmp_path):
    out = tmp_path / "bc.npz"
    proc = _run(
        "examples/train_bc.py", str(small_dataset), "--out", str(out), "--epochs", "2", "--every", "1", "--hidden", "16"
    )
    assert proc.returncode == 0, proc.stderr
    assert out.is_file() and (tmp_path / "bc.epoch1.npz").is_file() and (tmp_path / "bc.epoch2.npz").is_file()
    res = run_arena([f"policy:{out}", "greedy", "greedy", "greedy"], deals=1, seed=1)
    assert res["hands"] == 4


def test_ppo_example_numpy_backend_saves_checkpoints_that_play_in_the_arena(small_dataset, tmp_path):
    bc = tmp_path / "bc.npz"
    assert (
        _run("examples/train_bc.py", str(small_dataset), "--out", str(bc), "--epochs", "1", "--hidden", "16").returncode
        == 0
    )
    run = tmp_path / "ppo"
    proc = _run(
        "examples/ppo_masked.py",
        "--init",
        str(bc),
        "--opponents",
        "greedy",
        "--updates",
        "2",
        "--episodes",
        "2",
        "--every",
        "1",
        "--out",
        str(run),
        "--backend",
        "numpy",
    )
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in run.glob("*.npz")) == ["ppo-0000.npz", "ppo-0001.npz", "ppo-0002.npz"]
    assert '"update": 2' in proc.stdout
    res = run_arena([f"policy:{run / 'ppo-0002.npz'}", "greedy", "greedy", "greedy"], deals=1, seed=1)
    assert res["bots"][0]["hands"] == 4


def test_the_learned_recipe_resumes_at_the_first_missing_chunk_with_the_same_weights(tmp_path):
    import numpy as np

    def recipe(out: Path) -> subprocess.CompletedProcess:
        args = [
            "--out",
            str(out),
            "--seeds",
            "5,6",
            "--hands",
            "2",
            "--bots",
            "greedy",
            "--epochs",
            "2",
            "--every",
            "1",
        ]
        return _run("examples/train_learned.py", *args)

    whole = recipe(tmp_path / "whole")
    assert whole.returncode == 0, whole.stderr
    assert (tmp_path / "whole" / "learned.epoch01.npz").is_file()
    # a run stopped during its second chunk: the first is complete, the second left half-written
    cut = tmp_path / "cut" / "data"
    cut.mkdir(parents=True)
    (tmp_path / "whole" / "data" / "e5").rename(cut / "e5")
    (cut / ".e6.partial").mkdir()
    (cut / ".e6.partial" / "shard-00000.npz").write_bytes(b"half")
    again = recipe(tmp_path / "cut")
    assert again.returncode == 0, again.stderr
    assert "chunk 5: done before, kept" in again.stdout and "chunk 6: 2 hands" in again.stdout
    with np.load(tmp_path / "whole" / "learned.npz") as a, np.load(tmp_path / "cut" / "learned.npz") as b:
        weights = [k for k in a.files if k != "meta"]
        assert weights and all(np.array_equal(a[k], b[k]) for k in weights)
