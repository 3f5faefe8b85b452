"""Compile time of the compiled core: compiled lazily (only what a call reaches), cached with the
guarantee of :mod:`shangrao.sim._cache` (an edit of a kernel recompiles its callers in other files),
and the CLI's progress line while the game loop compiles (docs/performance.md, "Compile time")."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("numba")

from shangrao.sim import _cache

_SRC = str(Path(__file__).resolve().parents[2] / "src")


def _run(code: str, cache: Path, cwd: Path | None = None) -> str:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(cwd) if cwd else "", _SRC, env.get("PYTHONPATH", "")) if p)
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True, text=True, cwd=cwd, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def _toy_package(root: Path, value: int) -> None:
    """A package ``toy`` laid out as ``shangrao.sim``: the same ``_cache.py``, a kernel in ``a.py``
    and its caller in ``b.py``, both ``@njit(cache=True)``."""
    pkg = root / "toy"
    pkg.mkdir(exist_ok=True)
    shutil.copy(_cache.__file__, pkg / "_cache.py")
    (pkg / "__init__.py").write_text("from ._cache import install, unliteral_calls\n\ninstall()\nunliteral_calls()\n")
    (pkg / "a.py").write_text(
        f"from numba import njit\n\n\n@njit(cache=True)\ndef kernel(x):\n    return x + {value}\n"
    )
    (pkg / "b.py").write_text(
        "from numba import njit\n\nfrom .a import kernel\n\n\n"
        "@njit(cache=True)\ndef caller(x):\n    return kernel(x) * 10\n"
    )


def test_an_edit_of_a_kernel_recompiles_its_callers_in_another_file(tmp_path):
    """numba alone keys a cached function on its own file: ``b.caller`` would keep the machine code of
    the old ``a.kernel``.  With the package's locators the edit of ``a.py`` recompiles ``b.caller``."""
    cache = tmp_path / "numba-cache"
    probe = """
        import toy
        from toy.b import caller
        print(caller(1), bool(caller.stats.cache_hits))
    """
    _toy_package(tmp_path, 1)
    assert _run(probe, cache, tmp_path).split() == ["20", "False"]  # compiled
    assert _run(probe, cache, tmp_path).split() == ["20", "True"]  # loaded from the cache
    _toy_package(tmp_path, 2)  # an edit of the kernel only
    assert _run(probe, cache, tmp_path).split() == ["30", "False"]  # the caller recompiled, not stale 20


def test_a_cold_kernel_called_with_different_constants_is_compiled_once(tmp_path):
    """numba alone compiles a callee once per constant passed to it (``Literal[int](1)``,
    ``Literal[int](2)``): :func:`shangrao.sim._cache.unliteral_calls` types the calls of the kernels
    named in ``UNLITERAL`` with the plain types (one compile, the same answers); the others stay
    specialized on their constants (the hot path's speed)."""
    _toy_package(tmp_path, 1)
    assert "score_win" in _cache.UNLITERAL and "hot" not in _cache.UNLITERAL
    (tmp_path / "toy" / "c.py").write_text(
        "from numba import njit\n\n\n@njit(cache=True)\ndef score_win(x, k):\n    return x + k\n\n\n"
        "@njit(cache=True)\ndef hot(x, k):\n    return x - k\n\n\n"
        "@njit(cache=True)\ndef both(x):\n    return score_win(x, 1) * 100 + score_win(x, 2) + hot(x, 1) + hot(x, 2)\n"
    )
    out = _run(
        """
        import toy
        from toy.c import both, hot, score_win
        print(both(3), len(score_win.signatures), len(hot.signatures), str(score_win.signatures[0]))
    """,
        tmp_path / "numba-cache",
        tmp_path,
    )
    assert out.split(maxsplit=3)[:3] == ["408", "1", "2"]  # (3+1)*100 + 5 + 2 + 1
    assert "Literal" not in out.split(maxsplit=3)[3]


def test_an_inlined_function_is_built_once_for_all_its_call_sites(tmp_path):
    """numba alone runs an ``inline="always"`` function's untyped pipeline again at every call site;
    :func:`shangrao.sim._cache.memo_inlining` builds its IR once per process (the same answers)."""
    _toy_package(tmp_path, 1)
    (tmp_path / "toy" / "d.py").write_text(
        'from numba import njit\n\n\n@njit(cache=True, inline="always")\ndef helper(x):\n    return x * 2\n\n\n'
        "@njit(cache=True)\ndef one(x):\n    return helper(x) + helper(x + 1)\n\n\n"
        "@njit(cache=True)\ndef two(x):\n    return one(x) + helper(x + 2)\n"
    )
    out = _run(
        """
        from numba.core import inline_closurecall
        built = []
        orig = inline_closurecall.InlineWorker.run_untyped_passes
        def counting(self, func, enable_ssa=False):
            built.append(func.__name__)
            return orig(self, func, enable_ssa)
        inline_closurecall.InlineWorker.run_untyped_passes = counting
        import toy
        from toy._cache import memo_inlining
        memo_inlining()
        from toy.d import two
        print(two(3), built.count("helper"))
    """,
        tmp_path / "numba-cache",
        tmp_path,
    )
    assert out.split() == ["24", "1"]  # (3*2 + 4*2) + 5*2; helper built once for its three call sites


def test_the_win_check_loads_or_compiles_only_what_it_reaches(tmp_path):
    """Lazy: a process that only checks wins compiles (or loads) the win check, not the game loop,
    the scoring kernel or the batched environment."""
    out = _run(
        """
        import numpy as np
        from shangrao.sim.batch import is_winning_many
        from shangrao.sim import core, kernels
        h = np.zeros((1, 34), dtype=np.int64); h[0, :4] = 3; h[0, 27] = 2
        assert is_winning_many(h)[0]
        print(len(kernels.is_win_batch.signatures), len(core.play_matches.signatures),
              len(kernels.score_win.signatures))
    """,
        Path(os.environ.get("NUMBA_CACHE_DIR") or tmp_path / "numba-cache"),
    )
    assert out.split() == ["1", "0", "0"]


def test_the_cli_says_it_compiles_the_core_only_when_the_cache_is_cold(monkeypatch, capsys):
    from shangrao.cli import common
    from shangrao.sim import play

    monkeypatch.setattr(play, "core_compiled", lambda: False)
    assert common.check_engine("fast", ["random"] * 4, 10) == "fast"
    cold = capsys.readouterr().err
    assert "compiling the core (first run" in cold and "CPU-s" in cold
    monkeypatch.setattr(play, "core_compiled", lambda: True)
    assert common.check_engine("fast", ["random"] * 4, 10) == "fast"
    assert capsys.readouterr().err == ""
