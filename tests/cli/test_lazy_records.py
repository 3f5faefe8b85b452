"""Issue 38: the commands that neither store nor read games start without the records layer.

``shangrao --help`` and ``shangrao analyze`` must not import :mod:`shangrao.records` nor SQLAlchemy
(their import took about half of the start-up); the commands that store or read games still do.
Each case runs in a fresh interpreter, so what the test process imported does not count.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

_PROBE = """
import json, sys
from shangrao.cli import main
try:
    main(json.loads(sys.argv[1]))
except SystemExit as exc:
    code = exc.code
heavy = sorted(m for m in sys.modules if m == "sqlalchemy" or m.startswith(("shangrao.records", "sqlalchemy.")))
sys.stderr.write("\\nMODULES " + json.dumps({"code": code, "heavy": heavy[:5]}) + "\\n")
"""


def _imported(args: list[str], env_db: str) -> dict:
    env = {**os.environ, "SHANGRAO_DB": env_db, "COLUMNS": "120"}
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(args)], capture_output=True, text=True, env=env, timeout=120
    )
    line = [ln for ln in proc.stderr.splitlines() if ln.startswith("MODULES ")][-1]
    return json.loads(line.removeprefix("MODULES "))


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["analyze", "123m456p789s12s55z", "--bao", "9p"],
        ["analyze", "--help"],
        ["simulate", "--help"],
        ["games", "--help"],
    ],
    ids=["help", "analyze", "analyze-help", "simulate-help", "games-help"],
)
def test_help_and_analyze_do_not_import_the_records_layer(args, tmp_path):
    got = _imported(args, str(tmp_path / "db.sqlite3"))
    assert got["code"] == 0
    assert got["heavy"] == [], f"shangrao {' '.join(args)} imported {got['heavy']}"


def test_games_still_reads_the_records(tmp_path):
    got = _imported(["games"], str(tmp_path / "db.sqlite3"))
    assert got["code"] == 0
    assert any(m.startswith("shangrao.records") for m in got["heavy"]), got
