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

import json
import logging
import os
import queue
import shlex
import shutil
import subprocess
import threading
import warnings
import weakref
from collections.abc import Sequence
from typing import Any

from ..game import Action, Observation, parse_action, redact
from . import UnknownBotError

__all__ = ["DEFAULT_TIMEOUT", "ExternalBot", "ExternalBotError", "ExternalBotWarning", "check_command"]

log = logging.getLogger(__name__)

#: seconds a request waits for its answer (``$SHANGRAO_EXT_TIMEOUT`` overrides)
DEFAULT_TIMEOUT = 10.0
_MAX_LINE = 1 << 16


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


def _reader(stream: Any, q: queue.Queue) -> None:
    try:
        while True:
            line = stream.readline(_MAX_LINE)
            if not line:
                break
            q.put(line)
    except (OSError, ValueError):
        pass
    q.put(None)


def _kill(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        try:
            if proc.stdin is not None:
                proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class ExternalBot:
    """A seat played by an outside program (module docstring).

    ExternalBot(command, name=None, seed=None, timeout=None, strict=False, standin="greedy")
    """

    needs_observation = True

    def __init__(self, command: str, name: str | None = None, seed: int | str | None = None,
                 timeout: float | None = None, strict: bool = False, standin: str = "greedy") -> None:
        self.argv = check_command(command)
        self.command = command
        self.name = name or f"ext:{command}"
        self.timeout = float(timeout) if timeout is not None else _timeout()
        self.strict = strict
        from . import get_bot

        self.standin = get_bot(standin, seed=f"{seed}:standin")
        self.faults: list[str] = []
        self.proc: subprocess.Popen | None = None
        self.dead = False
        self._lines: queue.Queue = queue.Queue()
        self._log: list | None = None
        self._cursor = 0
        self._seat: int | None = None
        self._next_id = 0
        self._finalizer: Any = None

    # ------------------------------------------------------------------ process
    def _start(self) -> None:
        try:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                         encoding="utf-8", errors="replace", bufsize=1)
        except OSError as err:
            self._fault(f"could not start {self.command!r}: {err.strerror or err}", dead=True)
            return
        self._finalizer = weakref.finalize(self, _kill, self.proc)
        threading.Thread(target=_reader, args=(self.proc.stdout, self._lines), daemon=True).start()
        self._send({"type": "hello", "protocol": "shangrao-bot", "version": 1, "name": self.name})

    def _send(self, msg: dict) -> bool:
        if self.dead:
            return False
        if self.proc is None:
            self._start()
            if self.dead:
                return False
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(msg, ensure_ascii=False, separators=(",", ":")) + "\n")
            self.proc.stdin.flush()
            return True
        except (OSError, ValueError):
            self._fault(f"{self.command!r} exited (code {self.proc.poll()}): its stdin is closed", dead=True)
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

    def close(self) -> None:
        """Say ``bye``, close stdin and wait a moment for the program to exit (then kill it)."""
        if self.proc is not None:
            if not self.dead:
                self._send({"type": "bye"})
            _kill(self.proc)
            if self._finalizer is not None:
                self._finalizer.detach()
            self.proc = None
        self.dead = True

    # ------------------------------------------------------------------ events
    def see_log(self, events: Sequence[dict], seat: int) -> None:
        """Send the events of ``events`` (a hand's full log) not sent yet, as ``seat`` sees them."""
        if self.dead:
            return
        if events is not self._log or seat != self._seat:
            self._log = events  # type: ignore[assignment]
            self._cursor = 0
            self._seat = seat
        new = events[self._cursor:]
        self._cursor = len(events)
        for ev in redact(new, seat):
            if not self._send(ev):
                return

    # ------------------------------------------------------------------ decisions
    def choose(self, obs: Observation, legal: list[Action]) -> Action:
        answer = None if self.dead else self._ask(obs, legal)
        if answer is not None:
            return answer
        return self.standin.choose(obs, legal)

    def _ask(self, obs: Observation, legal: list[Action]) -> Action | None:
        while True:  # answers left over from a timed-out request
            try:
                if self._lines.get_nowait() is None:
                    self._fault(f"{self.command!r} exited (code {self.proc.poll() if self.proc else None})", dead=True)
                    return None
            except queue.Empty:
                break
        self._next_id += 1
        rid = self._next_id
        if not self._send({"type": "request", "id": rid, "seat": obs.seat, "legal": [str(a) for a in legal],
                           "observation": obs.to_dict()}):
            return None
        import time

        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=max(0.0, left))
            except queue.Empty:
                self._fault(f"no answer to request {rid} within {self.timeout:g} s")
                return None
            if line is None:
                code = self.proc.poll() if self.proc is not None else None
                self._fault(f"{self.command!r} exited (code {code}) before answering request {rid}", dead=True)
                return None
            text = line.strip()
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
                    self._fault(f"answer to request {rid} has no \"action\": {text[:80]!r}")
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
