"""One WebSocket connection's way out: a bounded queue and its own sender task.

A table never awaits a socket: :meth:`Connection.send` puts the (already encoded) message on
the connection's queue and returns at once; the connection's sender task writes the queue to
the socket in order.  A client that does not keep up — its queue holds ``queue_size``
messages, or one write has been blocked for ``send_timeout`` seconds (checked by a timer every
``send_timeout/2`` seconds and on each new message, not by a timeout around every write) — is
dropped:
:meth:`Connection.drop` marks it closed, calls ``on_drop`` (the table forgets the connection,
so the seat counts as disconnected and the bot takeover rule applies) and closes the socket in
the background.  Unanswered pings are uvicorn's business (``--ping-interval`` /
``--ping-timeout`` of ``shangrao serve``): the socket is closed and the read loop ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from fastapi import WebSocket

from ..bots import BOTS, web_bot_labels, web_bot_specs
from .outgoing import OutgoingMessage, encode_text

__all__ = ["BOT_PLAYERS", "Connection", "Seat"]

log = logging.getLogger("shangrao.web")

#: WebSocket close code for a client that does not read its messages (1008: policy violation)
CLOSE_SLOW = 1008


class Connection:
    """The outgoing side of one accepted WebSocket.

    ws: a Starlette WebSocket (anything with ``send_text`` and ``close``).  queue_size: most
    messages waiting (>= 1).  send_timeout: seconds one write may block.  on_drop(conn, why):
    called once when the connection is dropped for being slow (not on a normal close).
    """

    def __init__(
        self,
        ws: WebSocket,
        *,
        queue_size: int = 64,
        send_timeout: float = 10.0,
        on_drop: Callable[[Connection, str], None] | None = None,
    ) -> None:
        self.ws = ws
        self.queue_size = max(1, int(queue_size))
        self.send_timeout = send_timeout
        self.on_drop = on_drop
        self.closed = False
        self.dropped: str | None = None  # why it was dropped, if it was
        self._queue: deque[str] = deque()
        self._since: float | None = None  # when the write in progress began
        self._ready = asyncio.Event()
        loop = asyncio.get_running_loop()
        self._task = loop.create_task(self._sender(), name="ws-sender")
        self._watch_handle = loop.call_later(max(0.05, send_timeout / 2), self._watch)

    def __repr__(self) -> str:
        return f"<Connection queued={len(self._queue)} closed={self.closed} dropped={self.dropped!r}>"

    @property
    def queued(self) -> int:
        return len(self._queue)

    def send(self, text: str) -> bool:
        """Queue ``text``; never blocks.  False (and the connection dropped) on overflow."""
        if self.closed:
            return False
        if len(self._queue) >= self.queue_size:
            self.drop("overflow")
            return False
        if self._since is not None and time.monotonic() - self._since > self.send_timeout:
            self.drop("send timeout")
            return False
        self._queue.append(text)
        self._ready.set()
        return True

    def send_message(self, msg: OutgoingMessage) -> bool:
        """Queue one message (:func:`~shangrao.web.outgoing.encode_text`, the one writer); as :meth:`send`."""
        return self.send(encode_text(msg))

    async def _sender(self) -> None:
        try:
            while True:
                while not self._queue:
                    self._ready.clear()
                    await self._ready.wait()
                text = self._queue.popleft()
                self._since = time.monotonic()  # a write blocked past send_timeout: see send() and _watch()
                try:
                    await self.ws.send_text(text)
                except Exception:
                    self.closed = True
                    return
                self._since = None
        except asyncio.CancelledError:
            pass

    def _watch(self) -> None:
        """Every send_timeout/2 seconds: drop the client if one write has been blocked too long
        (cheaper than a timeout around every write)."""
        if self.closed:
            return
        if self._since is not None and time.monotonic() - self._since > self.send_timeout:
            self.drop("send timeout")
            return
        self._watch_handle = asyncio.get_running_loop().call_later(max(0.05, self.send_timeout / 2), self._watch)

    def drop(self, why: str) -> None:
        """Drop a client that does not keep up: forget it now, close its socket in the background."""
        if self.closed:
            return
        self.closed = True
        self.dropped = why
        self._queue.clear()
        self._watch_handle.cancel()
        log.info("dropping a WebSocket client (%s)", why)
        if self.on_drop is not None:
            self.on_drop(self, why)
        loop = asyncio.get_running_loop()
        if self._task is not asyncio.current_task():
            self._task.cancel()
        self._closing = loop.create_task(self._close(), name="ws-close")  # kept: a task needs a reference

    async def _close(self) -> None:
        with contextlib.suppress(Exception, asyncio.TimeoutError):
            await asyncio.wait_for(
                self.ws.close(code=CLOSE_SLOW, reason="too slow: messages not read"), max(1.0, self.send_timeout)
            )

    async def aclose(self) -> None:
        """Stop the sender (a normal end: the socket is closed or closing)."""
        self.closed = True
        self._watch_handle.cancel()
        self._queue.clear()
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task


BOT_PLAYERS = tuple(BOTS)  # the seat players that are bots: every registered bot


@dataclass
class Seat:
    """One seat of a web table: who plays it, its claim and token hash, its open connections."""

    player: str  # "human" or a bot name of bots.BOTS (written "kind" in the JSON sent and stored)
    claimed: bool = False
    token_hash: str | None = None
    conns: set[Connection] = field(default_factory=set)
    gone_since: float = 0.0  # loop time since when the seat has had no connection
    bot: object | None = None  # a shangrao.bots bot (choose(observation, legal))
    standin: object | None = None
    ready: bool = False
    was_here: bool = False  # a connection was open at some time (a table whose people all left pauses: issue 38)

    @property
    def is_bot(self) -> bool:
        return self.player in BOT_PLAYERS or (
            self.player != "human" and (self.player in web_bot_labels() or self.player in web_bot_specs())
        )

    @property
    def present(self) -> bool:
        """A connection is open (:class:`shangrao.game.table.SeatLike`)."""
        return bool(self.conns)
