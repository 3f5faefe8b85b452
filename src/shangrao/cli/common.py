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
from typing import TYPE_CHECKING, Any, BinaryIO

from rich.console import Console

from .. import strictjson
from ..errors import InputError
from ..strictjson import DuplicateKeyError, no_duplicate_keys

if TYPE_CHECKING:
    from ..records import Store

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_OK",
    "CliError",
    "check_engine",
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


def open_store(db: str | None, *, read_only: bool = False) -> Store:  # records imported lazily
    """The records store of ``--db``; a bad path or URL is a :class:`CliError` naming ``--db``."""
    import os

    from ..records import RecordError, Store

    try:
        return Store(db, read_only=read_only)
    except RecordError as err:
        where = "--db" if db is not None or not os.environ.get("SHANGRAO_DB") else "$SHANGRAO_DB"
        raise CliError(f"{where}: {err}") from None


def check_run_options(seed: int | None, workers: int, ray: str | None) -> None:
    """The options ``simulate`` and ``arena`` share: ``--seed`` fits the records' 64-bit column, and
    ``--workers`` and ``--ray`` are not both given (Ray chooses its own workers).  Raises CliError."""
    if seed is not None and not -(2**63) <= seed < 2**63:
        raise CliError(f"--seed: a 64-bit integer (-2**63 .. 2**63-1), got one of {len(str(abs(seed)))} digits")
    if ray is not None and workers != 1:
        raise CliError("--workers and --ray: give one (on Ray the cluster runs the workers)")


def check_engine(engine: str | None, names: list[str], hands: int | None = None) -> str:
    """``--engine``: python or fast, and fast only for core bots; returns the engine the run uses
    (:func:`shangrao.selfplay.resolve_engine`, ``hands`` the hands it plays).  Where that is the fast
    core and it is not compiled on this machine yet, says so on stderr (once: the game loop's first compile,
    :data:`shangrao.sim.play.FIRST_COMPILE_CPU_S`).
    Raises :class:`CliError`."""
    from ..errors import InputError
    from ..selfplay import resolve_engine

    try:
        chosen = resolve_engine(engine, names, hands)
    except InputError as err:
        raise CliError(f"--engine: {err}") from None
    if chosen == "fast":
        from ..sim import play

        if not play.core_compiled():
            err_console().print(
                f"compiling the core (first run, about {play.FIRST_COMPILE_CPU_S} CPU-s; numba caches it)…",
                highlight=False,
            )
    return chosen


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


#: the largest whole input ``read_text`` accepts (a JSON situation is a few hundred bytes)
MAX_INPUT_BYTES = 16 * 1024 * 1024
#: the longest line of a ``--jsonl`` batch
MAX_LINE_BYTES = 1024 * 1024


def _open_binary(source: str | None) -> tuple[BinaryIO, str, bool]:
    """(binary stream, name, close?) for a path or ``-``/None (stdin)."""
    if source in (None, "-"):
        if sys.stdin is None:
            raise CliError("no input: give a FILE or pipe data to stdin")
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text stream without bytes (tests, embedding): its text as UTF-8
            import io

            stream = io.BytesIO(sys.stdin.read(MAX_INPUT_BYTES + 1).encode("utf-8", "surrogateescape"))
        return stream, "<stdin>", False
    assert source is not None
    path = Path(source)
    if path.is_dir():
        raise CliError(f"{source}: is a directory, expected a file")
    return open(path, "rb"), source, True


def _decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8").removeprefix("\ufeff")  # a BOM (Windows editors) is not an error
    except UnicodeDecodeError as err:
        raise CliError(f"{name}: not UTF-8 text ({err.reason} at byte {err.start})") from None


def read_text(source: str | None) -> tuple[str, str]:
    """Read a whole input: a path, or ``-``/None for stdin.  Returns ``(text, name)``.

    At most :data:`MAX_INPUT_BYTES` are read (``/dev/zero`` is an error, not an
    out-of-memory).  Raises ``OSError`` (reported as ``error: PATH: reason``) or :class:`CliError`.
    """
    stream, name, close = _open_binary(source)
    try:
        data = stream.read(MAX_INPUT_BYTES + 1)
    finally:
        if close:
            stream.close()
    if len(data) > MAX_INPUT_BYTES:
        raise CliError(
            f"{name}: more than {MAX_INPUT_BYTES // (1024 * 1024)} MiB of input; expected one JSON situation"
        )
    return _decode(data, name), name


_TOO_DEEP = "JSON nested too deeply"
_TOO_LONG = "a number in the JSON has more than 4300 digits"


# a key given twice in one object is an error (one home: shangrao.strictjson, shared with the web server)
_DuplicateKey = DuplicateKeyError
_no_duplicates = no_duplicate_keys


def _loads(text: str) -> Any:
    return json.loads(text, object_pairs_hook=_no_duplicates)


def parse_json(text: str, name: str) -> Any:
    """``json.loads`` with an error naming the input, line and column; a key repeated in one object is an
    error too."""
    try:
        return _loads(text.removeprefix("\ufeff"))
    except json.JSONDecodeError as err:
        raise CliError(
            f"{name}: bad JSON at line {err.lineno}, column {err.colno}: {strictjson.error_words(err)}"
        ) from None
    except _DuplicateKey as err:
        raise CliError(f"{name}: {err}") from None
    except RecursionError:  # json's C decoder recurses per nesting level
        raise CliError(f"{name}: {_TOO_DEEP}") from None
    except ValueError:  # Python refuses to read an integer of more than 4300 digits
        raise CliError(f"{name}: {_TOO_LONG}") from None


def iter_json_lines(source: str | None) -> Iterator[tuple[int, Any]]:
    """Yield ``(line_number, value_or_exception)`` for each non-blank line of a JSON-lines input.

    A file and stdin are read the same way: as bytes, split on ``\\n`` only (a
    U+2028 or form feed inside a line is not a line break), each line decoded as
    UTF-8 on its own, so a line that is not JSON or not UTF-8 yields a
    :class:`CliError` instead of a value and the batch goes on.  A line longer
    than :data:`MAX_LINE_BYTES` yields an error and ends the batch (there may be
    no next line: ``/dev/zero``).  Lines are numbered from 1; blank lines are skipped.
    """
    stream, _name, close = _open_binary(source)
    try:
        n = 0
        while True:
            raw = stream.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            n += 1
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                yield n, CliError(f"line longer than {MAX_LINE_BYTES // 1024} KiB; stopped reading")
                return
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                yield n, CliError(f"not UTF-8 text ({err.reason} at byte {err.start})")
                continue
            if n == 1:
                line = line.removeprefix("\ufeff")
            if not line.strip():
                continue
            try:
                yield n, _loads(line)
            except json.JSONDecodeError as err:
                yield n, CliError(f"bad JSON at column {err.colno}: {strictjson.error_words(err)}")
            except _DuplicateKey as err:
                yield n, CliError(str(err))
            except RecursionError:
                yield n, CliError(_TOO_DEEP)
            except ValueError:  # an integer of more than 4300 digits
                yield n, CliError(_TOO_LONG)
    finally:
        if close:
            stream.close()


def dump_json(value: Any, *, indent: int | None = 2) -> str:
    """JSON text as the CLI prints it: UTF-8 characters kept (宝, 平糊自摸)."""
    if indent is None:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return json.dumps(value, ensure_ascii=False, indent=indent)


def debug_enabled() -> bool:
    """``SHANGRAO_DEBUG=1`` shows tracebacks of internal errors."""
    return os.environ.get("SHANGRAO_DEBUG", "") not in ("", "0")
