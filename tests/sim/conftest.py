"""Fixtures of the CLI tests (``run``, ``cli``, ``one_line_error``) for the sim tests that run ``shangrao``."""

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "cli_conftest", Path(__file__).resolve().parent.parent / "cli" / "conftest.py"
)
assert _spec is not None and _spec.loader is not None
_cli = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_cli)

run = _cli.run
cli = _cli.cli
one_line_error = _cli.one_line_error
run_here = _cli.run_here
