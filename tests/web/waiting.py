"""Waiting in the web tests (issue 21): on a condition, polled — never a fixed pause that hopes the
server got there.  :func:`elapse` is the one way a test lets real time pass on purpose, where the
server's own clock must move (a countdown, a rate budget refilling, a flood lasting its seconds).
The table's rules themselves are tested on a fake clock (``tests/game/test_table.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import TypeVar

T = TypeVar("T")

POLL = 0.01  # seconds between two looks


def wait_until(cond: Callable[[], T], timeout: float = 10.0, what: str = "the condition") -> T:
    """``cond()`` once it is true (its value); AssertionError naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        got = cond()
        if got:
            return got
        assert time.monotonic() < deadline, f"timed out after {timeout:g} s waiting for {what}"
        time.sleep(POLL)


async def wait_until_async(
    cond: Callable[[], T | Awaitable[T]], timeout: float = 10.0, what: str = "the condition"
) -> T:
    """:func:`wait_until` inside an event loop (the loop runs meanwhile); ``cond`` may be a coroutine function."""
    deadline = time.monotonic() + timeout
    while True:
        got = cond()
        if asyncio.iscoroutine(got):
            got = await got
        if got:
            return got  # type: ignore[return-value]
        assert time.monotonic() < deadline, f"timed out after {timeout:g} s waiting for {what}"
        await asyncio.sleep(POLL)


def elapse(seconds: float) -> None:
    """Let ``seconds`` of real time pass on purpose: the server's own clock must move (a countdown
    runs, a rate budget refills, a flood goes on for its time).  Never to wait for the server to
    have done something: that is :func:`wait_until`."""
    time.sleep(seconds)


@contextlib.contextmanager
def round_trips(client, path: str = "/api/rules", every: float = 0.05) -> Iterator[list[float]]:
    """While the block runs, ``GET path`` every ``every`` seconds in a thread (each must answer 200);
    yields the list of round trips (seconds), filled as they come (issue 34: the loop never waits)."""
    stop = threading.Event()
    times: list[float] = []

    def ask() -> None:
        while not stop.is_set():
            t0 = time.monotonic()
            assert client.get(path).status_code == 200
            times.append(time.monotonic() - t0)
            time.sleep(every)

    asker = threading.Thread(target=ask, daemon=True)
    asker.start()
    try:
        yield times
    finally:
        stop.set()
        asker.join(5)
