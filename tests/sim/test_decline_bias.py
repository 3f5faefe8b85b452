"""``benchmarks/bench_decline_bias.py`` (issue 35: the decline-a-win bias of the search's worlds against
the truth): its core measures a decision with finite numbers, deterministically for a seed."""

from __future__ import annotations

import importlib.util
import itertools
import math
import sys
from pathlib import Path

import numpy as np
import pytest

from shangrao.sim import core as C

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_decline_bias.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_decline_bias", _PATH)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def _two(bench):
    return list(itertools.islice(bench.decisions(6, "test", 4, 2, C.BOT_GREEDY, ("ukeire",) * 4), 2))


def test_the_benchmark_measures_two_wins_offered_with_finite_numbers(bench):
    ds = _two(bench)
    assert len(ds) == 2
    for d in ds:
        assert C.A_WIN in d.options and d.ukeire in d.options and len(d.options) >= 2
        assert set(d.mean) == set(bench.DEALINGS) and set(d.pick) == set(bench.SAMPLERS)
        for name in bench.DEALINGS:
            assert len(d.mean[name]) == len(d.options)
            assert all(math.isfinite(x) for x in d.mean[name] + d.se[name])
        assert math.isfinite(d.win_points) and d.win_points > 0
        j = d.options.index(C.A_WIN)
        assert {d.mean[name][j] for name in bench.DEALINGS} == {d.win_points}  # a win ends the hand at once
    table = bench.table(ds)
    assert "| all | ukeire's | tilted | 2 |" in table and "nan" not in table
    again = _two(bench)
    assert [(d.hand, d.mean, d.pick) for d in again] == [(d.hand, d.mean, d.pick) for d in ds]
    assert np.isfinite([d.mean["truth"] for d in ds]).all()
