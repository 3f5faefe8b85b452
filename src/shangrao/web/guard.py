"""Connection limits below the app: what uvicorn does not bound by itself (issue 22).

One client could hold every file descriptor of ``shangrao serve`` with TCP connections that send
nothing, or half a request line, or one endless header line: uvicorn times out only *idle
keep-alive* connections (``timeout_keep_alive``), never a request whose headers do not complete,
and ``httptools`` (the parser uvicorn picks) buffers a header of any length.  The other settings
uvicorn has do not fit: ``limit_concurrency`` answers 503 only *after* a request's headers are
complete (a silent connection is never refused) and counts every address together;
``h11_max_incomplete_event_size`` applies only to the slower ``h11`` parser.

So this module subclasses uvicorn's own protocols — the least code that closes the gap, with the
app and the WebSocket code unchanged:

* :class:`GuardedHttp` (``uvicorn.protocols.http.httptools_impl.HttpToolsProtocol``): a deadline
  (``Settings.header_timeout``) armed when a connection is made and after each response, cancelled
  when a request is complete (its head, and its body if it has one) or when a WebSocket handshake's
  head is complete (it is handed on to the WebSocket protocol then, and accepted by the app at
  once); a connection still sending its request at the deadline is closed.  A request line over
  :data:`MAX_LINE` bytes is answered ``414``, a header line over :data:`MAX_LINE`, more than
  :data:`MAX_HEADERS` headers or a head over :data:`MAX_HEAD` bytes ``431``, and closed — the
  limits of the ``websockets`` handshake parser, which otherwise left an over-long handshake
  unanswered and open.
* a cap on open connections per client address *group* (``Settings.max_connections_per_address``;
  the group is :func:`~shangrao.web.errors.address_group`'s, as for every other limit of the
  server: an IPv4 /24, an IPv6 /64, all of loopback as one) and on all of them
  (``Settings.max_connections``, by default the file limit less :func:`reserve`): a connection
  beyond either is answered ``503`` and closed at once, before anything is read.  The reserve keeps
  file descriptors for the database, the log and the players already seated; the group cap keeps
  one client — however many addresses of its network it uses — from taking all of the rest, so a
  player reconnecting from another network gets in while a flood is held.
* a back-off for a group that keeps opening *silent* connections (closed at the header deadline
  without a request): after :data:`SILENT_ALLOWED` of them with no request completed from the
  group in between, every new connection of the group is refused at accept (``503`` with
  ``Retry-After``) for :data:`BACKOFF_FIRST` seconds, then twice as long each time it starts
  again, up to :data:`BACKOFF_MAX`; one request completed from the group forgets it all (so does
  :data:`FORGET` seconds without a silent connection).  A flood then holds its group's cap for one
  header deadline at a time, not for as long as it likes.
* :class:`GuardedWebSocket` (the ``websockets`` sans-I/O protocol uvicorn picks by default) keeps a
  connection counted once it is upgraded, until it closes.

Behind a reverse proxy every client has the proxy's address: see docs/web.md (nginx).
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import logging
import time
from collections.abc import Callable
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .errors import address_group

__all__ = [
    "BACKOFF_FIRST",
    "BACKOFF_MAX",
    "FORGET",
    "MAX_HEAD",
    "MAX_HEADERS",
    "MAX_LINE",
    "SILENT_ALLOWED",
    "ConnectionGuard",
    "GuardedHttp",
    "GuardedWebSocket",
    "capacity",
    "guarded_protocols",
    "raise_file_limit",
    "reserve",
]

log = logging.getLogger("shangrao.web")

#: bytes of a request line or of one header line (``websockets``' own limit for a handshake)
MAX_LINE = 8192
#: headers of one request (``websockets``' own limit for a handshake)
MAX_HEADERS = 128
#: bytes of a request's head (request line and headers) in all
MAX_HEAD = 64 * 1024
#: silent connections (closed at the header deadline without a request) a group may have with no
#: request completed in between before it is backed off: a browser's unused preconnects are a few
SILENT_ALLOWED = 8
#: seconds of a group's first back-off; each next one (with no request completed in between) is
#: twice as long, up to :data:`BACKOFF_MAX`
BACKOFF_FIRST = 1.0
BACKOFF_MAX = 60.0
#: seconds without a silent connection after which a group's silent count and back-off are forgotten
FORGET = 600.0
#: groups whose silent connections are remembered at once (the oldest forgotten first): bounded memory
#: whatever the number of networks a flood comes from
MAX_REMEMBERED = 65_536


def raise_file_limit() -> int | None:
    """Raise this process's soft limit on open files (``RLIMIT_NOFILE``) to its hard limit (2**20, or
    10240 where that is refused, when the hard limit is unlimited).  Returns the soft limit now in
    force, or None where there is none (Windows; an unlimited soft limit)."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return None
    # an unlimited hard limit: 2**20, else 10240 (macOS refuses more than kern.maxfilesperproc)
    for want in (hard,) if hard != resource.RLIM_INFINITY else (1 << 20, 10240):
        if want <= soft:
            break
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            return want
        except (ValueError, OSError):
            continue
    return soft


def reserve(file_limit: int) -> int:
    """File descriptors kept out of the connections' reach out of ``file_limit``: 64, or an eighth of
    the limit where that is more (database connections, the log, the listening socket, threads)."""
    return max(64, file_limit // 8)


def capacity(file_limit: int | None, max_connections: int = 0) -> int:
    """Connections the server holds at once: ``max_connections`` where given (> 0), else the file
    limit less :func:`reserve` (at least 16); 100,000 where the file limit is unknown."""
    derived = 100_000 if file_limit is None else max(16, file_limit - reserve(file_limit))
    return min(max_connections, derived) if max_connections > 0 else derived


@dataclasses.dataclass
class _Silence:
    """A group's silent connections since its last completed request, and its back-off."""

    silent: int = 0  # silent connections since the last back-off began (or the last request)
    level: int = 0  # back-offs begun so far: the next one lasts BACKOFF_FIRST * 2**level
    until: float = 0.0  # refused at accept until then (the guard's clock)
    last: float = 0.0  # the last silent connection


@dataclasses.dataclass
class ConnectionGuard:
    """Counts of the server's open connections, by client address group and in all, and the
    back-off of groups that keep opening silent connections (see the module's docstring).

    per_address: connections one address *group* may hold (``Settings.max_connections_per_address``);
    total: all of them; header_timeout: seconds a connection may take to send a request's head.
    group: the group of a client address (default :func:`~shangrao.web.errors.address_group`; a
    test may split loopback into /24s); silent_allowed, backoff_first, backoff_max (seconds): the
    back-off; clock: seconds, monotonic (a test's own)."""

    per_address: int
    total: int
    header_timeout: float
    group: Callable[[str], str] = address_group
    silent_allowed: int = SILENT_ALLOWED
    backoff_first: float = BACKOFF_FIRST
    backoff_max: float = BACKOFF_MAX
    clock: Callable[[], float] = time.monotonic
    open: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    count: int = 0
    refused: int = 0
    timed_out: int = 0
    backed_off: int = 0  # connections refused at accept for a back-off
    silences: collections.OrderedDict[str, _Silence] = dataclasses.field(default_factory=collections.OrderedDict)

    def admit(self, addr: str) -> str | None:
        """Count a new connection from ``addr``; or the reason it is refused (nothing counted)."""
        key = self.group(addr)
        wait = self.backoff_left(addr, key)
        if wait > 0:
            self.backed_off += 1
            why = f"too many connections from this address (network) sent no request; refused for {wait:.0f} s more"
        elif self.open[key] >= self.per_address:
            why = f"too many connections from one address or network (at most {self.per_address})"
        elif self.count >= self.total:
            why = f"the server holds as many connections as it can ({self.total}); try again"
        else:
            self.open[key] += 1
            self.count += 1
            return None
        self.refused += 1
        if self.refused in (1, 10, 100) or self.refused % 1000 == 0:  # a flood is logged, not every connection
            log.warning("refused %d connections so far (%s)", self.refused, why)
        return why

    def release(self, addr: str) -> None:
        """A counted connection from ``addr`` closed."""
        key = self.group(addr)
        self.count -= 1
        left = self.open[key] - 1
        if left > 0:
            self.open[key] = left
        else:
            del self.open[key]

    def backoff_left(self, addr: str, key: str | None = None) -> float:
        """Seconds ``addr``'s group is still refused at accept (0: not backed off)."""
        rec = self.silences.get(self.group(addr) if key is None else key)
        return 0.0 if rec is None else max(0.0, rec.until - self.clock())

    def silent(self, addr: str) -> None:
        """A connection from ``addr`` was closed at the header deadline without completing a request.
        The group's :data:`SILENT_ALLOWED`-th since its last request (or back-off) starts a back-off."""
        key, now = self.group(addr), self.clock()
        rec = self.silences.pop(key, None)
        if rec is None or now - rec.last > FORGET:
            rec = _Silence()
        self.silences[key] = rec  # the newest last: the oldest is forgotten first
        while len(self.silences) > MAX_REMEMBERED:
            self.silences.popitem(last=False)
        rec.last = now
        if rec.until > now:  # opened before its back-off began: counted in it already
            return
        rec.silent += 1
        if rec.silent >= self.silent_allowed:
            seconds = min(self.backoff_max, self.backoff_first * 2 ** min(rec.level, 30))
            rec.until, rec.silent, rec.level = now + seconds, 0, rec.level + 1
            log.warning(
                "connections from %s: %d sent no request; refused at accept for %g s", key, self.silent_allowed, seconds
            )

    def served(self, addr: str) -> None:
        """A connection from ``addr`` completed a request: its group's silent count and back-off are
        forgotten."""
        if self.silences:
            self.silences.pop(self.group(addr), None)


def _answer(transport: asyncio.BaseTransport, status: int, text: str, retry_after: float = 0.0) -> None:
    """Write a plain-text answer with ``Connection: close`` (and ``Retry-After``, whole seconds, where
    ``retry_after`` > 0) and close the connection."""
    body = text.encode()
    retry = b"retry-after: %d\r\n" % max(1, round(retry_after)) if retry_after > 0 else b""
    head = (
        STATUS_LINE[status]
        + b"content-type: text/plain; charset=utf-8\r\ncontent-length: "
        + str(len(body)).encode()
        + b"\r\n"
        + retry
        + b"connection: close\r\n\r\n"
    )
    transport.write(head + body)  # type: ignore[attr-defined]
    transport.close()


class _TooLong(Exception):
    """A request's head is over a limit (raised in a parser callback; answered 414/431)."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's ``httptools`` protocol with the header deadline, the connection caps and the line
    limits of this module.  Made per server by :func:`guarded_protocols` (``guard`` is set there)."""

    guard: ClassVar[ConnectionGuard]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._addr: str | None = None  # set while counted
        self._deadline: asyncio.TimerHandle | None = None
        self._head = 0  # bytes received of the request head in progress
        self._in_head = True  # the head of a request is being received
        self._waiting = True  # a request is being received (head or body): the deadline runs
        self._too_long: _TooLong | None = None
        self._n_headers = 0
        self._completed = False  # a request of this connection was complete: it is not silent

    # -- counting and the deadline ------------------------------------------------------------
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        addr = self.client[0] if self.client else "?"
        why = self.guard.admit(addr)
        if why is not None:
            _answer(transport, 503, why, self.guard.backoff_left(addr))
            return
        self._addr = addr
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._addr is not None:
            self.guard.release(self._addr)
            self._addr = None
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.guard.header_timeout, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if self.transport.is_closing() or not self._waiting:
            return
        self.guard.timed_out += 1
        if not self._completed and self._addr is not None:
            self.guard.silent(self._addr)
        self.transport.close()

    def on_headers_complete(self) -> None:
        self._in_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._waiting = False  # the whole request is in (a body too): the app's, however long it takes
        self._disarm()
        self._request_done()
        super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and not self.pipeline:  # the next request has the same deadline
            self._in_head, self._waiting, self._head = True, True, 0
            self._arm()

    def _request_done(self) -> None:
        """Every completed request clears its group's silent count, not only a connection's first: a
        browser polls over kept-alive connections while its speculative preconnects close silent, and
        a group of players doing that was backed off (refused 503 for seconds at a time)."""
        self._completed = True
        if self._addr is not None:
            self.guard.served(self._addr)

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        self._request_done()
        addr, self._addr = self._addr, None
        super().handle_websocket_upgrade()
        ws = self.transport.get_protocol()
        if isinstance(ws, GuardedWebSocket) and addr is not None:
            ws.counted(self.guard, addr)  # counted until the socket closes
        elif addr is not None:
            self.guard.release(addr)

    # -- the head's limits ---------------------------------------------------------------------
    def data_received(self, data: bytes) -> None:
        if self._addr is None:  # refused (or lost): nothing is read
            return
        super().data_received(data)
        # counted once fed, while the head is still incomplete: the httptools parser keeps a header
        # of any length, and a body after a complete head is the app's (413) to limit
        if self._in_head and not self.transport.is_closing():
            self._head += len(data)
            if self._head > MAX_HEAD:
                self._refuse(_TooLong(431, f"request head over {MAX_HEAD} bytes"))

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._n_headers = 0
        self._head_parsed = 0  # bytes of the head parsed so far (however the head arrived: one read or many)

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        if len(self.url) > MAX_LINE - 16:  # "GET " + url + " HTTP/1.1"
            self._too_long = _TooLong(414, f"request line over {MAX_LINE} bytes")
            raise self._too_long

    def on_header(self, name: bytes, value: bytes) -> None:
        self._n_headers += 1
        self._head_parsed = getattr(self, "_head_parsed", 0) + len(name) + len(value) + 4
        if len(name) + len(value) + 2 > MAX_LINE:
            self._too_long = _TooLong(431, f"header line over {MAX_LINE} bytes")
        elif self._n_headers > MAX_HEADERS:
            self._too_long = _TooLong(431, f"more than {MAX_HEADERS} headers")
        elif self._head_parsed > MAX_HEAD:
            self._too_long = _TooLong(431, f"request head over {MAX_HEAD} bytes")
        if self._too_long is not None:
            raise self._too_long
        super().on_header(name, value)

    def send_400_response(self, msg: str) -> None:
        if self._too_long is not None:  # the parser stopped on a limit of ours
            self._refuse(self._too_long)
        else:
            super().send_400_response(msg)

    def _refuse(self, err: _TooLong) -> None:
        self._disarm()
        if not self.transport.is_closing():
            _answer(self.transport, err.status, str(err))


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's ``websockets`` protocol, keeping an upgraded connection counted by the
    :class:`ConnectionGuard` of the HTTP connection it came from until it closes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._guard: ConnectionGuard | None = None
        self._addr = ""

    def counted(self, guard: ConnectionGuard, addr: str) -> None:
        self._guard, self._addr = guard, addr

    def connection_lost(self, exc: Exception | None) -> None:
        if self._guard is not None:
            self._guard.release(self._addr)
            self._guard = None
        super().connection_lost(exc)


def guarded_protocols(guard: ConnectionGuard) -> dict[str, type]:
    """``uvicorn.Config`` keywords (``http``, ``ws``) for protocols that enforce ``guard``: classes of
    their own, so two servers in one process count apart."""
    http = type("GuardedHttp", (GuardedHttp,), {"guard": guard})
    return {"http": http, "ws": GuardedWebSocket}
