"""Outside bots: a program in any language plays a seat over stdin/stdout (docs/bot-protocol.md).

The bot spec ``ext:COMMAND`` starts ``COMMAND`` (split as a shell would, ``shlex``; run without a
shell) when the bot is first asked, and keeps it for the bot's life (one match in ``simulate``,
one deal rotation in ``arena``, one table at the web).  The program reads one JSON object per
line on stdin and answers each ``request`` with one line on stdout:

* ``{"type": "hello", "protocol": "shangrao-bot", "version": 1, "name": SPEC}`` — first line;
* the seat's view of the event log, event by event, in the vocabulary of :mod:`shangrao.game.protocol`
  as :func:`shangrao.game.redact` gives it (no wall, no other seat's tiles or window decisions);
* ``{"type": "request", "id": N, "seat": S, "legal": ["discard 5m", "pass", ...],
  "observation": Observation.to_dict()}`` — answer with the action string (``discard 5m``) or
  ``{"id": N, "action": "discard 5m"}`` (the id lets late answers be told apart);
* ``{"type": "bye"}`` — then stdin closes; the program should exit.

Faults and what happens (never an exception out of a table; each fault is recorded):

* no answer within ``timeout`` seconds (default 10, ``$SHANGRAO_EXT_TIMEOUT``), a line that is not
  a legal action, an answer to another request id: the stand-in bot (``greedy``) plays that
  decision; the program is asked again next time;
* the program exits, or cannot be started: the stand-in plays the rest of the bot's decisions.

Each fault appends a line to ``bot.faults`` and issues an :class:`ExternalBotWarning`
(``warnings.warn``, also logged on the ``shangrao.bots.external`` logger).  ``strict=True``
raises :class:`ExternalBotError` instead.  The JSON Schema of the messages is
``docs/bot-protocol.schema.json``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import select
import shlex
import shutil
import signal
import subprocess
import threading
import time
import warnings
import weakref
from collections.abc import Sequence
from typing import Any

from ..game import Action, Observation, parse_action, redact
from .errors import UnknownBotError
from .greedy import GreedyBot
from .random_bot import RandomBot

__all__ = [
    "DEFAULT_TIMEOUT",
    "MAX_LINE",
    "MAX_QUEUED",
    "ExternalBot",
    "ExternalBotError",
    "ExternalBotWarning",
    "check_command",
    "group_members",
    "kill_group",
]

log = logging.getLogger(__name__)

#: seconds a request waits for its answer (``$SHANGRAO_EXT_TIMEOUT`` overrides); a write to the
#: bot's stdin waits at most as long
DEFAULT_TIMEOUT = 10.0
#: bytes of one line from a bot (its newline excluded): a longer line is one fault, never pieces
MAX_LINE = 1 << 20
#: lines from a bot waiting to be read; more are dropped (a flood) and the fault is reported
MAX_QUEUED = 64
#: seconds a bot's process group has after ``bye`` (then SIGTERM) and after SIGTERM (then SIGKILL)
GRACE = 0.5
_CHUNK = 1 << 16


class _TooLong:
    """Marks, in the queue of lines, a line longer than :data:`MAX_LINE` (its bytes were dropped)."""

    def __init__(self, size: int) -> None:
        self.size = size


class ExternalBotError(UnknownBotError):
    """A bad ``ext:`` command, or (``strict=True``) an outside bot that failed a request."""


class ExternalBotWarning(UserWarning):
    """An outside bot failed a request and the stand-in bot played instead."""


def check_command(command: str) -> list[str]:
    """The argv of an ``ext:`` command; raises :class:`ExternalBotError` if it is empty, unparsable
    or its program is not found."""
    try:
        argv = shlex.split(command)
    except ValueError as err:
        raise ExternalBotError(f"ext:{command}: cannot split the command ({err})") from None
    if not argv:
        raise ExternalBotError("ext: give a command after ext: (e.g. ext:node bot.js)")
    prog = argv[0]
    if shutil.which(prog) is None and not (os.path.isfile(prog) and os.access(prog, os.X_OK)):
        raise ExternalBotError(f"ext:{command}: program {prog!r} not found (or not executable)")
    return argv


def _timeout() -> float:
    raw = os.environ.get("SHANGRAO_EXT_TIMEOUT")
    if raw:
        try:
            value = float(raw)
            if value > 0:
                return value
        except ValueError:
            pass
        log.warning("SHANGRAO_EXT_TIMEOUT=%r is not a positive number of seconds; using %s", raw, DEFAULT_TIMEOUT)
    return DEFAULT_TIMEOUT


class _Lines:
    """The bot's stdout, read by a daemon thread into a bounded queue of complete lines (``bytes``
    without the newline; a :class:`_TooLong` for a line over ``max_line`` bytes; ``None`` at the end).
    A line arriving while ``max_queued`` wait is dropped and counted in ``dropped``."""

    def __init__(self, fd: int, max_line: int = MAX_LINE, max_queued: int = MAX_QUEUED) -> None:
        self.q: queue.Queue[object] = queue.Queue(maxsize=max_queued + 1)  # +1: room for the end marker
        self.max_line = max_line
        self.max_queued = max_queued
        self.dropped = 0
        self._fd = fd
        threading.Thread(target=self._run, daemon=True, name="ext-bot-reader").start()

    def _put(self, item: object) -> None:
        if self.q.qsize() >= self.max_queued:
            self.dropped += 1
            return
        self.q.put_nowait(item)

    def _run(self) -> None:
        buf = bytearray()
        skipping = 0  # bytes of a too-long line dropped so far (0: not in one)
        try:
            while True:
                chunk = os.read(self._fd, _CHUNK)
                if not chunk:
                    break
                while chunk:
                    nl = chunk.find(b"\n")
                    part, chunk = (chunk, b"") if nl < 0 else (chunk[:nl], chunk[nl + 1 :])
                    if skipping:
                        skipping += len(part)
                    elif len(buf) + len(part) > self.max_line:
                        skipping = len(buf) + len(part)
                        buf.clear()
                    else:
                        buf += part
                    if nl >= 0:
                        if skipping:
                            self._put(_TooLong(skipping))
                            skipping = 0
                        else:
                            self._put(bytes(buf))
                        buf.clear()
        except (OSError, ValueError):
            pass
        with contextlib.suppress(OSError):
            os.close(self._fd)
        self.q.put(None)  # never full: _put keeps one place free


def _write_all(fd: int, data: bytes, timeout: float) -> bool:
    """Write ``data`` to the non-blocking ``fd`` within ``timeout`` seconds; False if the reader did
    not take it all in time.  Raises OSError (e.g. BrokenPipeError) if the reader is gone."""
    deadline = time.monotonic() + timeout
    view = memoryview(data)
    while view:
        try:
            n = os.write(fd, view)
            view = view[n:]
            continue
        except BlockingIOError:
            pass
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        select.select([], [fd], [], left)
    return True


def kill_group(proc: subprocess.Popen[bytes], grace: float = GRACE) -> None:
    """End ``proc`` and every process of its process group (it was started with
    ``start_new_session=True``): its stdin is closed, then after ``grace`` seconds the group gets
    SIGTERM, after ``grace`` more SIGKILL; the leader is reaped.  Never raises."""
    with contextlib.suppress(OSError, ValueError):
        if proc.stdin is not None:
            proc.stdin.close()
    pgid = proc.pid  # the leader of its own session: its group's id is its pid
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=grace)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        if not _group_alive(pgid):
            break
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, sig)
        end = time.monotonic() + grace
        while time.monotonic() < end and _group_alive(pgid):
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=0.02)
    with contextlib.suppress(subprocess.TimeoutExpired, OSError):
        proc.wait(timeout=grace)


def group_members(pgid: int) -> list[int] | None:
    """The live (not zombie) processes of process group ``pgid``, by pid (Linux /proc; None where
    /proc cannot be read)."""
    try:
        pids = [d for d in os.listdir("/proc") if d.isdigit()]
    except OSError:
        return None
    out = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 2 and fields[0] != b"Z" and int(fields[2]) == pgid:
            out.append(int(pid))
    return out


def _group_alive(pgid: int) -> bool:
    """Some process of group ``pgid`` is alive and not a zombie (elsewhere than Linux: it exists)."""
    members = group_members(pgid)
    return members is None or bool(members)


class ExternalBot:
    """A seat played by an outside program (module docstring).

    ExternalBot(command, name=None, seed=None, timeout=None, strict=False, standin="greedy")

    standin: the bot that plays a decision the program fails, ``"greedy"`` or ``"random"``.

    timeout: seconds a request waits for its answer and a write to the program's stdin may block
    (default ``$SHANGRAO_EXT_TIMEOUT`` or 10).  Not thread-safe: one decision at a time.
    """

    needs_observation = True

    def __init__(
        self,
        command: str,
        name: str | None = None,
        seed: int | str | None = None,
        timeout: float | None = None,
        strict: bool = False,
        standin: str = "greedy",
    ) -> None:
        self.argv = check_command(command)
        self.command = command
        self.name = name or f"ext:{command}"
        self.timeout = float(timeout) if timeout is not None else _timeout()
        self.strict = strict
        # the stand-in is made here, not by the registry (which loads this module: no import cycle)
        standins = {"greedy": GreedyBot, "random": RandomBot}
        if standin not in standins:
            raise UnknownBotError(f"standin: one of {', '.join(standins)}, got {standin!r}")
        self.standin = standins[standin](seed=f"{seed}:standin")
        self.faults: list[str] = []
        self.proc: subprocess.Popen[bytes] | None = None
        self.dead = False
        self._lines: _Lines | None = None
        self._stdin = -1
        self._log: Sequence[dict[str, Any]] | None = None
        self._cursor = 0
        self._seat: int | None = None
        self._next_id = 0
        self._finalizer: Any = None
        self._reported_drops = 0
        self._closing = threading.Lock()

    # ------------------------------------------------------------------ process
    def _start(self) -> None:
        try:
            # its own session and process group: kill_group() ends whatever it started too
            self.proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0, start_new_session=True
            )
        except OSError as err:
            self._fault(f"could not start {self.command!r}: {err.strerror or err}", dead=True)
            return
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._stdin = self.proc.stdin.fileno()
        os.set_blocking(self._stdin, False)  # a bot that stops reading never blocks a write past the timeout
        self._finalizer = weakref.finalize(self, kill_group, self.proc)  # also at interpreter exit
        self._lines = _Lines(os.dup(self.proc.stdout.fileno()))
        self.proc.stdout.close()
        self._send({"type": "hello", "protocol": "shangrao-bot", "version": 1, "name": self.name})

    def _send(self, msg: dict[str, Any]) -> bool:
        if self.dead:
            return False
        if self.proc is None:
            self._start()
            if self.dead:
                return False
        assert self.proc is not None
        data = (json.dumps(msg, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
        try:
            if _write_all(self._stdin, data, self.timeout):
                return True
            self._fault(f"{self.command!r} does not read its stdin (a write waited {self.timeout:g} s)", dead=True)
        except (OSError, ValueError):
            self._fault(f"{self.command!r} exited (code {self.proc.poll()}): its stdin is closed", dead=True)
        self._end()
        return False

    def _fault(self, what: str, dead: bool = False) -> None:
        if dead:
            self.dead = True
            what += "; the stand-in bot plays its remaining decisions"
        msg = f"outside bot {self.name}: {what}"
        self.faults.append(msg)
        if self.strict:
            raise ExternalBotError(msg)
        log.warning("%s", msg)
        warnings.warn(msg, ExternalBotWarning, stacklevel=3)

    def _end(self) -> None:
        """End the program's whole process group (:func:`kill_group`)."""
        if self.proc is not None:
            if self._finalizer is not None:
                self._finalizer.detach()
            kill_group(self.proc)
            self.proc = None

    def close(self) -> None:
        """Say ``bye`` (the write waits at most ``timeout``), close stdin and end the program's whole
        process group: SIGTERM after :data:`GRACE` seconds, SIGKILL after as many more.  Blocks up to
        about ``timeout + 3 * GRACE`` seconds (call it off an event loop)."""
        with self._closing:  # the web may end a bot from two threads (match over, table evicted)
            if self.proc is not None and not self.dead:
                with contextlib.suppress(OSError, ValueError):  # gone already: nothing to say bye to
                    _write_all(self._stdin, b'{"type":"bye"}\n', self.timeout)
            self.dead = True
            self._end()

    @property
    def pgid(self) -> int | None:
        """The process group of the running program (its pid), None when none runs."""
        return self.proc.pid if self.proc is not None else None

    # ------------------------------------------------------------------ events
    def see_log(self, events: Sequence[dict[str, Any]], seat: int, upto: int | None = None) -> None:
        """Send the events of ``events`` (a hand's full log; its first ``upto`` only) not sent yet,
        as ``seat`` sees them."""
        if self.dead:
            return
        if events is not self._log or seat != self._seat:
            self._log = events
            self._cursor = 0
            self._seat = seat
        end = len(events) if upto is None else upto
        new = events[self._cursor : end]
        self._cursor = max(self._cursor, end)
        for ev in redact(new, seat):
            if not self._send(ev):
                return

    # ------------------------------------------------------------------ decisions
    def choose(self, obs: Observation, legal: list[Action]) -> Action:
        answer = None if self.dead else self._ask(obs, legal)
        if answer is not None:
            return answer
        chosen: Action = self.standin.choose(obs, legal)
        return chosen

    def _get(self, timeout: float) -> object:
        assert self._lines is not None
        return self._lines.q.get(timeout=max(0.0, timeout))

    def _ask(self, obs: Observation, legal: list[Action]) -> Action | None:
        if self.proc is None:
            self._start()
            if self.dead:
                return None
        lines = self._lines
        assert lines is not None
        while True:  # answers left over from a timed-out request
            try:
                if lines.q.get_nowait() is None:
                    self._fault(f"{self.command!r} exited (code {self.proc.poll() if self.proc else None})", dead=True)
                    self._end()
                    return None
            except queue.Empty:
                break
        if lines.dropped > self._reported_drops:
            n, self._reported_drops = lines.dropped - self._reported_drops, lines.dropped
            self._fault(f"{n} line(s) dropped: more than {lines.max_queued} unread lines (flooding)")
        self._next_id += 1
        rid = self._next_id
        if not self._send(
            {
                "type": "request",
                "id": rid,
                "seat": obs.seat,
                "legal": [str(a) for a in legal],
                "observation": obs.to_dict(),
            }
        ):
            return None
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                item = self._get(deadline - time.monotonic())
            except queue.Empty:
                self._fault(f"no answer to request {rid} within {self.timeout:g} s")
                return None
            if item is None:
                code = self.proc.poll() if self.proc is not None else None
                self._fault(f"{self.command!r} exited (code {code}) before answering request {rid}", dead=True)
                self._end()
                return None
            if isinstance(item, _TooLong):
                self._fault(
                    f"answer to request {rid} is a line of {item.size} bytes, over the limit of {lines.max_line} bytes"
                )
                return None
            assert isinstance(item, bytes)
            text = item.decode("utf-8", errors="replace").strip()
            if not text:
                continue
            action_text: Any = text
            if text.startswith("{"):
                try:
                    msg = json.loads(text)
                except ValueError:
                    self._fault(f"answer to request {rid} is not JSON nor an action: {text[:80]!r}")
                    return None
                if not isinstance(msg, dict) or "action" not in msg:
                    self._fault(f'answer to request {rid} has no "action": {text[:80]!r}')
                    return None
                if "id" in msg and msg["id"] != rid:
                    continue  # a late answer to an earlier request: ignored
                action_text = msg["action"]
            if not isinstance(action_text, str):
                self._fault(f"answer to request {rid}: the action must be a string, got {action_text!r}")
                return None
            try:
                action = parse_action(action_text)
            except ValueError:
                self._fault(f"answer to request {rid} is not an action: {action_text[:80]!r}")
                return None
            if action not in legal:
                self._fault(f"answer to request {rid}: {action} is not legal; legal: {', '.join(map(str, legal))}")
                return None
            return action
