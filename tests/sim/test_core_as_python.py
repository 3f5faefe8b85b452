"""The compiled core run as plain Python, for coverage: with ``NUMBA_DISABLE_JIT=1`` numba's kernels
are the Python functions they are compiled from, so coverage sees their lines (compiled, they run
outside the interpreter and count as never run).  ``.ci/run`` runs this module so, under coverage,
and combines it with the suite's (``[tool.coverage.*]`` in pyproject.toml).

It replays the identity tests' own checks (``test_identity``, ``test_kernels``, ``test_vector``:
the same helpers and assertions, unchanged) on a few hands each — the plain-Python core is about a
thousand times slower than compiled.  Its tables (``kernels.tables()``, 43 MB) are taken from a
compiled process (numba's cache): filled as plain Python under coverage they cost minutes; the
filler itself runs as Python on the honour table and must give the compiled one.  With the JIT on
(the normal suite) the module is skipped: the identity tests themselves play thousands of hands
there.  ``SHANGRAO_PY_CORE_HANDS`` sets the hands per bot (default 3).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numba
import numpy as np
import pytest
import test_features as feature_tests
import test_identity as identity  # tests/sim is on the path (pytest's rootdir-relative import)
import test_kernels as kernel_tests
import test_vector as vector_tests
import test_vector_opponents as opponent_tests

from shangrao.rules import DEFAULT_RULES
from shangrao.sim import kernels as K
from shangrao.sim.vector import VectorEnv

pytestmark = pytest.mark.skipif(
    not numba.config.DISABLE_JIT, reason="the core as plain Python, for coverage: run with NUMBA_DISABLE_JIT=1"
)

HANDS = int(os.environ.get("SHANGRAO_PY_CORE_HANDS", "3"))

_SAVE_TABLES = (
    "import sys, numpy as np; from shangrao.sim import kernels as K; s, h = K.build_tables(); "
    "np.savez(sys.argv[1], suit=s, honor=h)"
)


def _compiled_tables() -> tuple[np.ndarray, np.ndarray]:
    """``(suit, honor)`` as a process with the JIT on fills them (its compiled filler, cached by numba)."""
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_DISABLE_JIT", "COVERAGE_PROCESS_START")}
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "tables.npz"
        subprocess.run([sys.executable, "-c", _SAVE_TABLES, str(path)], env=env, check=True, timeout=1800)
        with np.load(path) as z:
            return z["suit"], z["honor"]


if numba.config.DISABLE_JIT:
    _SUIT, _HONOR = _compiled_tables()
    K.build_tables = lambda: (_SUIT.copy(), _HONOR.copy())  # read by K.tables(), once per process


def test_the_table_filler_as_python_fills_the_honour_table_as_compiled():
    honor = np.zeros_like(_HONOR)
    K._fill(honor, 7, False, K._SL_MASKS)
    assert np.array_equal(honor, _HONOR)


#: what the plain-Python kernels do not yet do as the compiled ones (found by this module, issue 39): the
#: greedy and ukeire bots' discards, and 宝吊 scoring (碰碰糊宝吊 read as 碰碰糊).  The cause is not
#: established; the kind is seen: numba computes in int64 what numpy's fixed-width scalars compute in
#: their own width as Python (``kernels.hand_codes`` on the batched env's int8 counts overflows, with a
#: RuntimeWarning, in the batched-env test below).  The code still runs for coverage; the identity tests
#: prove the compiled core.
PY_DIFFERS = pytest.mark.xfail(
    reason="plain-Python kernels differ from compiled (bots' discards, 宝吊 scoring)", strict=False
)
PY_DIFFERS_SCENARIOS = {
    "touji_then_baodiao_bao",
    "baodiao_bao_only_after_touji",
    "touji_counted",
    "earthly_win_on_caught_bao",
}


@pytest.mark.parametrize(
    "bot", ["random", pytest.param("greedy", marks=PY_DIFFERS), pytest.param("ukeire", marks=PY_DIFFERS)]
)
def test_whole_hands_of_the_core_as_python_are_the_engines(bot):
    seen = identity._check_random_hands(HANDS, DEFAULT_RULES, f"py-{bot}", bot)
    assert seen["wins"] + seen["drawn"] == HANDS


@pytest.mark.parametrize("name", list(identity.HOUSE_RULES))
def test_each_house_rule_in_the_core_as_python_is_the_engines(name):
    identity._check_random_hands(1, DEFAULT_RULES.replace(**identity.HOUSE_RULES[name]), f"py-rule-{name}")


@pytest.mark.parametrize(
    ("clause", "module", "name", "args"),
    [pytest.param(*s, marks=PY_DIFFERS) if s[0] in PY_DIFFERS_SCENARIOS else s for s in identity.SCENARIOS],
    ids=[s[0] for s in identity.SCENARIOS],
)
def test_special_clauses_in_the_core_as_python_are_the_engines(monkeypatch, clause, module, name, args):
    identity.test_special_clause_on_a_scripted_wall_is_identical_in_the_core(monkeypatch, clause, module, name, args)


def test_the_largest_amounts_in_the_core_as_python_are_the_engines():
    identity._check_random_hands(HANDS, identity.MAX_AMOUNT_RULES, "amounts-random", "random", identity._big_scores)
    identity.test_scores_beyond_the_cores_range_are_refused_by_name()
    identity.test_an_amount_beyond_int64_in_a_log_is_refused_by_event()
    identity.test_an_illegal_scripted_decision_names_its_index()
    identity.test_a_core_hand_replays_in_the_engine_with_the_same_log()


@PY_DIFFERS
def test_scoring_in_the_core_as_python_is_the_engines():
    inner = kernel_tests.test_score_win_matches_score_on_random_situations.hypothesis.inner_test
    for seed in range(60 * HANDS):
        inner(seed, seed % 2 == 0, seed % 3 == 0, [1, 2, 0][seed % 3], [6, 3, 0][seed % 3])
    kernel_tests.test_score_win_of_no_win_is_empty()


def test_the_batched_env_in_the_core_as_python_is_the_engines():
    vector_tests._check_against_engine(VectorEnv(2, ("learner", "random", "greedy", "ukeire")), 20 * HANDS, seed=5)
    vector_tests.test_step_before_reset_and_a_bad_game_index_are_refused()
    vector_tests.test_a_refused_seed_leaves_every_game_as_it_was()


@PY_DIFFERS  # the shanten kernels on int8 counts (hand_codes), as the bots' discards above
def test_the_features_in_the_core_as_python_are_the_pythons():
    feature_tests.test_melds_are_read_back_from_their_tile_counts()
    feature_tests.test_the_batch_function_is_the_per_row_function()
    opponent_tests.test_features_come_with_each_batch()


def test_policy_seats_and_state_in_the_core_as_python_are_the_engines():
    def first_legal(planes, mask):
        return mask.argmax(axis=1).astype(np.int64)

    env = VectorEnv(2, ("learner", first_legal, "learner", "random"))
    b = env.reset(seed=3)
    for _ in range(4 * HANDS):
        b = env.step(b.legal_action_mask.argmax(axis=1))
    for i in range(2):
        g, _ = opponent_tests._replay(env, i)
        assert np.array_equal(opponent_tests.encode_state(g, 1), env.state()[i])


def test_dataset_rows_and_labels_in_the_core_as_python_are_the_engines(tmp_path):
    """shangrao.sim.record as plain Python: the rows of random hands and random labels, as the engine's."""
    from shangrao.data import Dataset, write_selfplay
    from shangrao.data.dagger import write_dagger

    for engine in ("python", "fast"):
        write_selfplay(tmp_path / engine, HANDS, 2, "random", engine=engine, label="random")
    a, b = Dataset(tmp_path / "python").load(), Dataset(tmp_path / "fast").load()
    for col in a:
        assert np.array_equal(a[col], b[col]), col

    def first_legal(planes, mask):
        return mask.argmax(axis=1).astype(np.int64)

    meta = write_dagger(tmp_path / "dagger", HANDS, 4, first_legal, "random", num_envs=2)
    assert meta["hands"] == HANDS and meta["decisions"] > 0
