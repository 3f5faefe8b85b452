from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from shangrao.cli import app


def _exe() -> list[str]:
    found = shutil.which("shangrao", path=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    return [found] if found else [sys.executable, "-c", "from shangrao.cli import main; main()"]


SHANGRAO = _exe()


@pytest.fixture
def run(tmp_path):
    """Run ``shangrao ARGS`` as a subprocess; returns CompletedProcess (text)."""

    def _run(*args: str, input: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
        e = {**os.environ, "SHANGRAO_DB": str(tmp_path / "default.sqlite3"), "COLUMNS": "120"}
        e.pop("SHANGRAO_DEBUG", None)
        if env:
            e.update(env)
        return subprocess.run([*SHANGRAO, *args], input=input, capture_output=True, text=True, env=e, timeout=300)

    return _run


@pytest.fixture
def run_here(tmp_path, monkeypatch):
    """Run ``shangrao ARGS`` in this process (CliRunner), with ``run``'s environment and result shape
    (``returncode``, ``stdout``, ``stderr``): what the suite's coverage can see, as a subprocess's cannot."""
    monkeypatch.setenv("SHANGRAO_DB", str(tmp_path / "default.sqlite3"))
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.delenv("SHANGRAO_DEBUG", raising=False)
    runner = CliRunner()

    def _run(*args: str, input: str | None = None) -> subprocess.CompletedProcess:
        res = runner.invoke(app, list(args), input=input)
        if res.exception is not None and not isinstance(res.exception, SystemExit):
            raise res.exception
        return subprocess.CompletedProcess(list(args), res.exit_code, res.stdout, res.stderr)

    return _run


@pytest.fixture
def cli(tmp_path, monkeypatch):
    """Invoke the typer app in-process (CliRunner); stderr separate."""
    monkeypatch.setenv("SHANGRAO_DB", str(tmp_path / "default.sqlite3"))
    runner = CliRunner()

    def _invoke(*args: str, input: str | None = None):
        return runner.invoke(app, list(args), input=input)

    return _invoke


def assert_one_line_error(proc, *needles: str) -> None:
    """Exit 2, one ``error: …`` line on stderr naming the problem, no traceback, nothing on stdout."""
    stderr = proc.stderr
    assert proc.returncode == 2, (proc.returncode, proc.stdout, stderr)
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("error: "), stderr
    assert "Traceback" not in stderr
    for n in needles:
        assert n in lines[0], (n, lines[0])


@pytest.fixture
def one_line_error():
    return assert_one_line_error


@pytest.fixture(scope="session")
def shangrao_cmd() -> list[str]:
    """The argv prefix that runs the ``shangrao`` console script."""
    return list(SHANGRAO)
