"""Bot specs on the command line: policy:PATH, ext:COMMAND with --workers 2 and --ray local."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE_BOT = ROOT / "examples" / "bots" / "first_legal_bot.js"
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (.ci/run installs nodejs)")


@pytest.fixture(scope="module")
def ckpt(tmp_path_factory):
    from shangrao.bots.policy import MLPPolicy

    rng = np.random.default_rng(0)
    path = tmp_path_factory.mktemp("ckpt") / "p.npz"
    MLPPolicy(
        [
            (rng.standard_normal((680, 8)).astype(np.float32), np.zeros(8, np.float32)),
            (rng.standard_normal((8, 110)).astype(np.float32), np.zeros(110, np.float32)),
        ]
    ).save(path)
    return str(path)


@needs_node
def test_the_node_sample_bot_in_the_arena_command_with_two_workers(run):
    proc = run(
        "arena",
        "--bots",
        f"ext:node {NODE_BOT},greedy",
        "--deals",
        "5",
        "--seed",
        "1",
        "--workers",
        "2",
        "--no-store",
        "--json",
    )
    assert proc.returncode == 0, proc.stderr
    res = json.loads(proc.stdout)
    assert res["hands"] == 20 and res["bots"][0]["hands"] == 20


def test_arena_with_a_policy_checkpoint_and_two_workers(run, ckpt):
    proc = run(
        "arena",
        "--bots",
        f"policy:{ckpt},greedy",
        "--deals",
        "4",
        "--seed",
        "2",
        "--workers",
        "2",
        "--no-store",
        "--json",
    )
    assert proc.returncode == 0, proc.stderr
    res = json.loads(proc.stdout)
    assert res["bots"][0]["bot"] == f"policy:{ckpt}" and res["hands"] == 16


def test_arena_with_a_policy_checkpoint_on_local_ray(run, ckpt):
    pytest.importorskip("ray")
    proc = run(
        "arena",
        "--bots",
        f"policy:{ckpt},greedy",
        "--deals",
        "2",
        "--seed",
        "2",
        "--ray",
        "local",
        "--no-store",
        "--json",
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["bots"][0]["bot"] == f"policy:{ckpt}"


def test_simulate_and_play_take_bot_specs(run, ckpt):
    proc = run("simulate", "--hands", "2", "--seed", "1", "--bots", f"policy:{ckpt},greedy,learned,ukeire", "--json")
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize(
    "args, words",
    [
        (("arena", "--bots", "policy:/no/such.npz,greedy", "--no-store"), ["--bots", "/no/such.npz"]),
        (("simulate", "--bots", "ext:/no/such/bot"), ["--bots", "not found"]),
        (("play", "--bot", "policy:"), ["--bot", "give a file"]),
    ],
)
def test_bad_bot_specs_are_one_error_line(run, args, words):
    proc = run(*args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in proc.stderr, proc.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])


def test_dataset_command_writes_a_dataset_and_reports_it(run_here, tmp_path):
    out = tmp_path / "ds"
    proc = run_here("dataset", "--bots", "ukeire", "--hands", "4", "--seed", "1", "--out", str(out), "--json")
    assert proc.returncode == 0, proc.stderr
    meta = json.loads(proc.stdout)
    assert meta["hands"] == 4 and meta["decisions"] > 50 and (out / "meta.json").is_file()
    again = run_here("dataset", "--bots", "ukeire", "--hands", "4", "--seed", "1", "--out", str(out))
    assert again.returncode == 2 and "not empty" in again.stderr and "--force" in again.stderr
    dag = run_here(
        "dataset",
        "--bots",
        "greedy",
        "--label",
        "ukeire",
        "--hands",
        "2",
        "--seed",
        "1",
        "--out",
        str(tmp_path / "dag"),
        "--json",
    )
    assert dag.returncode == 0, dag.stderr
    assert json.loads(dag.stdout)["policies"] == ["ukeire"]


@pytest.mark.parametrize(
    "args, words",
    [
        (("dataset", "--out", "x"), ["--hands", "--games"]),
        (("dataset", "--out", "x", "--hands", "2", "--games", "1"), ["--hands", "--games"]),
        (("dataset", "--out", "x", "--games", "a..b"), ["--games"]),
        (("dataset", "--out", "x", "--hands", "2", "--bots", "nobot"), ["--bots", "unknown bot"]),
        (("dataset", "--out", "x", "--hands", "2", "--label", "expert", "--engine", "fast"), ["--engine", "expert"]),
        (("dataset", "--out", "x", "--hands", "2", "--tables", "2", "--bots", "policy:p.npz"), ["--tables", "--label"]),
        (("dataset", "--out", "x", "--games", "1", "--tables", "2"), ["--tables", "--games"]),
        (("dataset", "--out", "x", "--hands", "2", "--tables", "2", "--label", "expert"), ["label", "core bot"]),
    ],
)
def test_dataset_bad_options_are_one_error_line(run, args, words):
    proc = run(*args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in proc.stderr, proc.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])
