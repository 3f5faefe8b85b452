"""Shared pieces of the command line: one-line errors, input reading, consoles.

Every bad input ends as ONE line on stderr, ``error: <what and where>``, and
exit code 2 (see :class:`ShangraoGroup` in :mod:`shangrao.cli`).  Commands
raise :class:`CliError` (or any ``ValueError`` whose message names the
problem); they never print tracebacks.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.console import Console

from ..errors import InputError

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_OK",
    "CliError",
    "dump_json",
    "err_console",
    "error_line",
    "iter_json_lines",
    "out_console",
    "parse_json",
    "read_text",
]

EXIT_OK = 0
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130


class CliError(InputError):
    """A bad input the user can fix; its message is the whole error line (without ``error: ``)."""


def open_store(db: str | None):  # -> records.Store (imported lazily: the analysis commands need no database)
    """The records store of ``--db``; a bad path or URL is a :class:`CliError` naming ``--db``."""
    from ..records import RecordError, Store

    try:
        return Store(db)
    except RecordError as err:
        raise CliError(f"--db: {err}") from None


def error_line(exc: BaseException) -> str:
    """The one-line message for an exception (no newline, no traceback)."""
    if isinstance(exc, json.JSONDecodeError):
        text = f"bad JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
    elif isinstance(exc, OSError):
        name = exc.filename if exc.filename is not None else ""
        reason = exc.strerror or str(exc)
        text = f"{name}: {reason}" if name else reason
    elif isinstance(exc, KeyError):
        text = f"missing {exc.args[0]!r}" if exc.args else "missing key"
    else:
        text = str(exc) or type(exc).__name__
    return " ".join(text.split())


def _width() -> int | None:
    # A wide console when the output is not a terminal, so piped text does not wrap.
    return None if sys.stdout.isatty() else 120


def out_console() -> Console:
    """Rich console on stdout (no colour when piped, 120 columns)."""
    return Console(width=_width(), highlight=False, soft_wrap=False)


def err_console() -> Console:
    """Rich console on stderr (progress bars, notes)."""
    return Console(stderr=True, highlight=False)


def read_text(source: str | None) -> tuple[str, str]:
    """Read a whole input: a path, or ``-``/None for stdin.  Returns ``(text, name)``.

    Raises ``OSError`` (reported as ``error: PATH: reason``) or :class:`CliError`.
    """
    if source in (None, "-"):
        if sys.stdin is None:
            raise CliError("no input: give a FILE or pipe data to stdin")
        return sys.stdin.read(), "<stdin>"
    path = Path(source)
    if path.is_dir():
        raise CliError(f"{source}: is a directory, expected a file")
    try:
        return path.read_text(encoding="utf-8-sig"), source  # a BOM (Windows editors) is not an error
    except UnicodeDecodeError as err:
        raise CliError(f"{source}: not UTF-8 text ({err.reason} at byte {err.start})") from None


_TOO_DEEP = "JSON nested too deeply"


def parse_json(text: str, name: str) -> Any:
    """``json.loads`` with an error naming the input, line and column."""
    try:
        return json.loads(text.removeprefix("\ufeff"))
    except json.JSONDecodeError as err:
        raise CliError(f"{name}: bad JSON at line {err.lineno}, column {err.colno}: {err.msg}") from None
    except RecursionError:  # json's C decoder recurses per nesting level
        raise CliError(f"{name}: {_TOO_DEEP}") from None


def iter_json_lines(source: str | None) -> Iterator[tuple[int, Any]]:
    """Yield ``(line_number, value_or_exception)`` for each non-blank line of a JSON-lines input.

    A line that is not JSON yields a :class:`CliError` (naming column) instead
    of a value, so that batches go on.  Lines are numbered from 1; blank lines
    are skipped.
    """
    if source in (None, "-"):
        stream = sys.stdin
        lines = iter(stream.readline, "")
    else:
        text, _ = read_text(source)
        lines = iter(text.splitlines(keepends=True))
    for n, line in enumerate(lines, start=1):
        if n == 1:
            line = line.removeprefix("\ufeff")
        if not line.strip():
            continue
        try:
            yield n, json.loads(line)
        except json.JSONDecodeError as err:
            yield n, CliError(f"bad JSON at column {err.colno}: {err.msg}")
        except RecursionError:
            yield n, CliError(_TOO_DEEP)


def dump_json(value: Any, *, indent: int | None = 2) -> str:
    """JSON text as the CLI prints it: UTF-8 characters kept (宝, 平糊自摸)."""
    if indent is None:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return json.dumps(value, ensure_ascii=False, indent=indent)


def debug_enabled() -> bool:
    """``SHANGRAO_DEBUG=1`` shows tracebacks of internal errors."""
    return os.environ.get("SHANGRAO_DEBUG", "") not in ("", "0")
