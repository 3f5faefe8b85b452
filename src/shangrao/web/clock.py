"""The times a server stores and reads back (issue 25): a monotonic record that survives wall-clock steps."""

from __future__ import annotations

import asyncio
import contextlib
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec

__all__ = ["ClockRecord", "ServerClock", "Wakeup"]


def _wall_now() -> datetime:
    """The wall clock (UTC); tests step it."""
    return datetime.now(UTC)


def _boot_id() -> str | None:
    """This boot's id (Linux), under which ``time.monotonic()`` values of every process agree."""
    try:
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as f:
            return f.read().strip() or None
    except OSError:
        return None


class ClockRecord(msgspec.Struct, kw_only=True):
    """A server's clock as a table's ``meta.web.clock`` stores it (:class:`ServerClock`): its boot id
    (None where the system gives none), its start as an ISO 8601 wall time and as a
    ``time.monotonic()`` value in seconds."""

    boot: str | None
    wall: str
    mono: float


class ServerClock:
    """The times a server stores, from a monotonic record that survives wall-clock steps (issue 25).

    The ``created`` time of every live event row a server writes is its start's wall time plus the
    monotonic seconds since (:meth:`stamp`): a wall-clock step while it runs changes nothing, and the
    last event is found by its position, not by the largest time.  Each table's ``meta.web.clock``
    (:meth:`record`) names the server that writes it: its boot id and its start in both clocks.  A
    server restarted in the same boot maps a stored time back onto ``time.monotonic()`` through that
    record (:meth:`to_mono`) — the system's monotonic clock is shared by its processes — so a
    countdown goes on from the time its decision really began, whatever the wall clock did; after a
    reboot (or without a boot id) the wall clock is all there is, and a time in the future counts as
    now."""

    def __init__(self) -> None:
        self.wall0 = _wall_now()
        self.mono0 = time.monotonic()
        self.boot = _boot_id()

    def stamp(self) -> datetime:
        """The ``created`` time of a row written now."""
        return self.wall0 + timedelta(seconds=time.monotonic() - self.mono0)

    def record(self) -> ClockRecord:
        """What ``meta.web.clock`` holds for this server."""
        return ClockRecord(boot=self.boot, wall=self.wall0.isoformat(), mono=self.mono0)

    def to_mono(self, when: datetime | None, record: ClockRecord | dict[str, Any] | None = None) -> float | None:
        """A stored time as a ``time.monotonic()`` value of this process, never later than now (None
        stays None).  record: the ``meta.web.clock`` of the server that stored it (a dict is read as a
        ClockRecord; one that is not is no record)."""
        if when is None:
            return None
        now = time.monotonic()
        if isinstance(record, dict):
            try:
                record = msgspec.convert(record, ClockRecord)
            except msgspec.ValidationError:
                record = None
        if record is not None and self.boot is not None and record.boot == self.boot:
            with contextlib.suppress(ValueError, TypeError, OverflowError):
                started = datetime.fromisoformat(record.wall)
                return min(now, record.mono + (when - started).total_seconds())
        ago = (_wall_now() - when).total_seconds()
        return now - max(0.0, ago)


def _mono_from_wall(when: datetime | None) -> float | None:
    """A stored UTC time as a time.monotonic() value of this process (None stays None)."""
    if when is None:
        return None
    ago = (datetime.now(UTC) - when).total_seconds()
    return time.monotonic() - max(0.0, ago)


class Wakeup:
    """A table runner's one timer (:class:`~shangrao.web.tables.Table`'s ``wakeup``): :meth:`set` when
    something changed, :meth:`wait` until then or a timeout."""

    def __init__(self) -> None:
        self.changed = asyncio.Event()

    def set(self) -> None:
        """Something changed: the runner looks at the table anew."""
        self.changed.set()

    def clear(self) -> None:
        """The runner is about to look: a change from now on wakes its next wait."""
        self.changed.clear()

    async def wait(self, timeout: float | None) -> None:
        """Until a change, or ``timeout`` seconds (a timer that sets the event: cheaper than
        ``wait_for``'s task per wait, and the runner looks at everything anew either way)."""
        if timeout is None:
            await self.changed.wait()
            return
        timer = asyncio.get_running_loop().call_later(max(0.0, timeout), self.changed.set)
        try:
            await self.changed.wait()
        finally:
            timer.cancel()
