"""One client cannot lock the players out of ``shangrao serve`` (issues 22, 34).

The connection caps count address *groups* (an IPv4 /24, an IPv6 /64, all of loopback as one).  To
play two clients on one machine, the socket tests give the guard a grouping that splits loopback
into /24s (:func:`loopback_by_24`): 127.0.0.x is one client, 127.0.1.x another — the guard's own
grouping is tested on its own (``test_the_guard_counts_each_address_group_and_all_connections``).

The first test runs the real ``shangrao serve`` as a subprocess with a file limit of 256 and holds
400 idle, half-sent and over-long connections from 127.0.0.1 while a table (three bots and one
person, who plays from 127.0.1.2) plays: the person gets every state within a second, reloads
the table and gets back in, every connection of the flood is refused at once or closed at the
header deadline, and the server answers again as soon as the flood lets go.  The others check each
limit of :mod:`shangrao.web.guard` on a server in a thread.  Loopback only; each stops by itself.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import random
import selectors
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

uvicorn = pytest.importorskip("uvicorn")
ws_sync = pytest.importorskip("websockets.sync.client")
httpx = pytest.importorskip("httpx")

from shangrao.web import Settings  # noqa: E402 - after the importorskip above
from shangrao.web.app import create_app  # noqa: E402 - after the importorskip above
from shangrao.web.guard import MAX_LINE, ConnectionGuard, capacity, guarded_protocols  # noqa: E402

from .conftest import SLOW_PEOPLE  # noqa: E402 - after the importorskip above
from .serving import free_port, served  # noqa: E402
from .waiting import elapse, wait_until  # noqa: E402

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="file limits of a child process and 127.0.0.x source addresses: Linux"
)

HEADER_TIMEOUT = 1.0
FILE_LIMIT = 256
FLOOD = 400  # connections the flood holds at once: more than the server's file limit
FLOOD_SECONDS = 6.0


def loopback_by_24(host: str) -> str:
    """The guard's grouping in these tests: every address's /24 — loopback too, so that 127.0.0.x and
    127.0.1.x are two clients (the server's own grouping makes all of loopback one)."""
    import ipaddress

    try:
        return str(ipaddress.ip_network(f"{host}/24", strict=False))
    except ValueError:
        return host


#: ``shangrao serve`` in a child process with the guard's grouping of :func:`loopback_by_24`
SERVE_SPLIT_LOOPBACK = (
    "import functools, ipaddress\n"
    "import shangrao.web.guard as g\n"
    "def by_24(host):\n"
    "    try:\n"
    "        return str(ipaddress.ip_network(host + '/24', strict=False))\n"
    "    except ValueError:\n"
    "        return host\n"
    "g.ConnectionGuard = functools.partial(g.ConnectionGuard, group=by_24)\n"
    "from shangrao.cli import main; main()\n"
)
PERSON = "127.0.1.2"  # the person's address: another group than the flood's 127.0.0.1


def _from(addr: str, port: int) -> socket.socket:
    """A TCP connection to the server from the loopback address ``addr`` (another 'client')."""
    return socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(addr, 0))


def _low_file_limit() -> None:  # in the server's process, before it runs
    import resource

    resource.setrlimit(resource.RLIMIT_NOFILE, (FILE_LIMIT, FILE_LIMIT))


@pytest.fixture
def serve_process(tmp_path):
    """``shangrao serve`` in a subprocess with RLIMIT_NOFILE soft = hard = 256; yields (port, log path)."""
    port = free_port()
    out = tmp_path / "serve.log"
    cmd = [
        sys.executable,
        "-c",
        SERVE_SPLIT_LOOPBACK,
        "serve",
        "--no-browser",
        "--port",
        str(port),
        "--db",
        str(tmp_path / "flood.sqlite3"),
        "--header-timeout",
        str(HEADER_TIMEOUT),
        "--bot-delay",
        "0.05",
        "--claim-pause",
        "0",
        "--claim-timeout",
        "5",
        "--turn-timeout",
        "5",
        "--tables-per-minute",
        "100",
    ]
    with out.open("w") as f:
        p = subprocess.Popen(
            cmd,
            preexec_fn=_low_file_limit,
            stdout=f,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    try:

        def started() -> bool:
            assert p.poll() is None, out.read_text()
            return "connections: up to" in out.read_text()

        def answers() -> bool:  # the port is bound before the banner; wait until it answers
            try:
                _from(PERSON, port).close()
                return True
            except OSError:
                return False

        wait_until(started, 30, "the server to start")
        wait_until(answers, 30, "the server to accept connections")
        yield p, port, out
    finally:
        p.terminate()
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(5)


class Flood:
    """Connections from 127.0.0.1 that never complete a request: a third send nothing, a third half
    a request line, a third an endless header line.  Every one the server closes is opened again
    (at most every 50 ms), so the flood holds ``n`` for as long as it runs.  Records how long each
    connection lived and whether it was answered 503 (refused at once)."""

    PAYLOADS = (b"", b"GET /history HT", b"GET / HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 4000)

    def __init__(self, port: int, n: int) -> None:
        self.port, self.n = port, n
        self.sel = selectors.DefaultSelector()
        self.open: dict[socket.socket, float] = {}
        self.lives: list[tuple[float, bool]] = []  # (seconds open, refused with 503)
        self.stop = threading.Event()
        self.errors: list[str] = []
        self.opened = 0

    def _open_one(self) -> None:
        s = socket.socket()
        s.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            s.connect(("127.0.0.1", self.port))
        payload = self.PAYLOADS[self.opened % 3]
        self.opened += 1
        if payload:
            with contextlib.suppress(OSError):
                s.send(payload)  # the connect completes at once on loopback; if not, it stays silent
        self.sel.register(s, selectors.EVENT_READ)
        self.open[s] = time.monotonic()

    def run(self) -> None:
        try:
            last_fill = 0.0
            while not self.stop.is_set():
                now = time.monotonic()
                if now - last_fill >= 0.05:
                    last_fill = now
                    while len(self.open) < self.n:
                        self._open_one()
                for key, _ in self.sel.select(0.02):
                    s = key.fileobj
                    assert isinstance(s, socket.socket)
                    try:
                        data = s.recv(65536)
                    except BlockingIOError:
                        continue
                    except OSError:
                        data = b""
                    self._closed(s, data.startswith(b"HTTP/1.1 503"))
        except Exception as err:  # pragma: no cover - reported by the test
            self.errors.append(repr(err))
        finally:
            for s in list(self.open):
                self.sel.unregister(s)
                s.close()
            self.open.clear()

    def _closed(self, s: socket.socket, refused: bool) -> None:
        self.lives.append((time.monotonic() - self.open.pop(s), refused))
        self.sel.unregister(s)
        s.close()


class Player:
    """The person at the table: a WebSocket from 127.0.1.2 that answers every decision at once
    (a random legal action, 继续 after a hand) and notes when each state arrived."""

    def __init__(self, port: int, table_id: int, token: str) -> None:
        self.port, self.table_id, self.token = port, table_id, token
        self.arrivals: list[float] = []
        self.answer_times: list[float] = []  # seconds from an action sent to the next state
        self.over = threading.Event()
        self.errors: list[str] = []
        self.rng = random.Random(22)
        self.ws = self._connect()

    def _connect(self):
        sock = _from(PERSON, self.port)
        return ws_sync.connect(
            f"ws://127.0.0.1:{self.port}/ws/{self.table_id}/{self.token}",
            sock=sock,
            compression=None,
            proxy=None,
            open_timeout=5,
            legacy=True,
        )

    def run(self) -> None:
        sent: tuple[tuple[int, int], float] | None = None
        try:
            for raw in self.ws:
                m = json.loads(raw)
                if m["type"] != "state":
                    continue
                now = time.monotonic()
                self.arrivals.append(now)
                if m["view"] is None:
                    continue
                k = (m["hand_no"], m["seq"])
                if sent is not None and k > sent[0]:
                    self.answer_times.append(now - sent[1])
                    sent = None
                if m["table"]["status"] == "finished":
                    self.over.set()
                    return
                if m["view"]["phase"] == "over":
                    self.ws.send(json.dumps({"type": "ready"}))
                elif m["legal"]:
                    a = self.rng.choice([x["action"] for x in m["legal"]])
                    sent = (k, time.monotonic())
                    self.ws.send(json.dumps({"type": "action", "action": a, "hand": k[0], "seq": k[1]}))
        except Exception as err:
            if not self.over.is_set():
                self.errors.append(repr(err))

    def reconnect(self) -> float:
        """Close the socket and open it again (a reload); returns the seconds until the first state."""
        self.ws.close()
        t0 = time.monotonic()
        self.ws = self._connect()
        first = json.loads(self.ws.recv(timeout=5))
        assert first["type"] == "state", first
        return time.monotonic() - t0


@linux_only
def test_a_flood_of_connections_from_one_address_does_not_lock_the_players_out(serve_process):
    p, port, out = serve_process
    banner = out.read_text()
    assert f"(file limit {FILE_LIMIT})" in banner and f"up to {capacity(FILE_LIMIT)} at once" in banner, banner
    player_http = httpx.Client(
        base_url=f"http://127.0.0.1:{port}", timeout=5, transport=httpx.HTTPTransport(local_address=PERSON)
    )
    r = player_http.post("/api/tables", json={"hands": 4, "seats": ["greedy"] * 3, "name": "flood"})
    assert r.status_code == 200, r.text
    tid, token = r.json()["id"], r.json()["token"]

    player = Player(port, tid, token)
    flood = Flood(port, FLOOD)
    threads = [threading.Thread(target=player.run, daemon=True), threading.Thread(target=flood.run, daemon=True)]
    for t in threads:
        t.start()
    started = time.monotonic()
    try:
        elapse(FLOOD_SECONDS / 2)  # the flood goes on
        # while the flood is held: a page load and a reconnection of the player are served at once
        t0 = time.monotonic()
        page = player_http.get(f"/t/{tid}/{token}")
        page_seconds = time.monotonic() - t0
        assert page.status_code == 200
        threads[0].join(5)  # the reader of the old socket ends when it closes
        reconnect_seconds = player.reconnect()
        threads[0] = threading.Thread(target=player.run, daemon=True)
        threads[0].start()
        elapse(max(0.0, FLOOD_SECONDS - (time.monotonic() - started)))
    finally:
        flood.stop.set()
        threads[1].join(10)
    flood_over = time.monotonic()
    in_flood = [t for t in player.arrivals if started <= t <= flood_over]
    gaps = [b - a for a, b in itertools.pairwise(in_flood)]

    # the server recovers with no restart: the flood's address is served again (once its back-off
    # for the silent connections is over: 1 + 2 + 4 s at most in these 6 s)
    def served_again() -> httpx.Response | None:
        r = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
        return r if r.status_code == 200 else None

    again = wait_until(served_again, 15, "the flood's address to be served again")
    player.ws.close()
    threads[0].join(5)
    player_http.close()

    assert not flood.errors and not player.errors, (flood.errors, player.errors)
    assert again.status_code == 200 and p.poll() is None
    assert flood.opened > FILE_LIMIT  # more than the file limit was held against the server
    refused = [life for life, was_refused in flood.lives if was_refused]
    closed = [life for life, was_refused in flood.lives if not was_refused]
    assert len(refused) > FLOOD - 128 and closed, (len(refused), len(closed))  # the group cap: 128
    # refused at once, not after the header timeout (1 s): 0.53 s was seen on a loaded machine (a fresh
    # venv compiling the core in the other worker), so the bound sits between the two
    assert max(refused) < 0.8 * HEADER_TIMEOUT, f"a connection over the cap was refused after {max(refused):.2f} s"
    assert max(closed) < HEADER_TIMEOUT + 1.0, f"a flood connection lived {max(closed):.2f} s"
    assert page_seconds < 1.0 and reconnect_seconds < 1.0, (page_seconds, reconnect_seconds)
    assert len(in_flood) > 20 and len(player.answer_times) > 5, (len(in_flood), len(player.answer_times))
    assert max(player.answer_times) < 1.0, f"slowest answer to the player: {max(player.answer_times):.2f} s"
    assert max(gaps) < 1.0, f"the player waited {max(gaps):.2f} s for a state during the flood"


# ---------------------------------------------------------------------------- one limit each
@pytest.fixture
def guarded_server(tmp_path):
    """The app on uvicorn in a thread, with the protocols ``shangrao serve`` uses; yields (port, guard)."""
    guard = ConnectionGuard(per_address=4, total=50, header_timeout=HEADER_TIMEOUT, group=loopback_by_24)
    app = create_app(f"sqlite:///{tmp_path / 'guard.sqlite3'}", Settings(**SLOW_PEOPLE))
    with served(app, ws_ping_interval=None, proxy_headers=False, **guarded_protocols(guard)) as (port, _srv):
        yield port, guard


def _answer(s: socket.socket, timeout: float = 5.0) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and the seconds that took."""
    s.settimeout(timeout)
    t0 = time.monotonic()
    data = b""
    while True:
        try:
            chunk = s.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        data += chunk
    return data, time.monotonic() - t0


def _handshake(path: str, extra: str = "") -> bytes:
    return (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n"
    ).encode()


def test_an_over_long_websocket_handshake_is_answered_and_closed(guarded_server):
    port, _ = guarded_server
    with socket.create_connection(("127.0.0.1", port)) as s:  # a request line over 8 KB
        s.sendall(_handshake("/ws/1/" + "a" * MAX_LINE))
        data, seconds = _answer(s)
    assert data.startswith(b"HTTP/1.1 414 ") and b"request line over 8192 bytes" in data, data[:200]
    assert seconds < HEADER_TIMEOUT  # answered at once, not at the deadline
    with socket.create_connection(("127.0.0.1", port)) as s:  # one header line over 8 KB
        s.sendall(_handshake("/ws/1/x", f"X-Pad: {'a' * MAX_LINE}\r\n"))
        data, _ = _answer(s)
    assert data.startswith(b"HTTP/1.1 431 ") and b"header line over 8192 bytes" in data, data[:200]
    with socket.create_connection(("127.0.0.1", port)) as s:  # too many headers
        s.sendall(_handshake("/ws/1/x", "".join(f"X-{i}: {i}\r\n" for i in range(200))))
        data, _ = _answer(s)
    assert data.startswith(b"HTTP/1.1 431 ") and b"more than 128 headers" in data, data[:200]


def test_a_request_head_of_any_length_is_not_buffered(guarded_server):
    port, _ = guarded_server
    with socket.create_connection(("127.0.0.1", port)) as s:  # short lines, but 100 KB of them
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 100_000)
        data, seconds = _answer(s)
    assert data.startswith(b"HTTP/1.1 431 ") and seconds < HEADER_TIMEOUT, data[:200]


def test_a_request_head_over_64_kib_is_refused_however_it_arrives(guarded_server):
    # 100 headers of 1 KB each (every line short, under 128 headers) sent in one write: was a 200
    # (the size was counted only while the head was incomplete after a read)
    port, _ = guarded_server
    head = (
        b"GET /api/labels HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        + b"".join(b"X%d: " % i + b"b" * 1000 + b"\r\n" for i in range(100))
        + b"\r\n"
    )
    for chunk in (len(head), 4096):
        with socket.create_connection(("127.0.0.1", port)) as s:
            try:
                for i in range(0, len(head), chunk):
                    s.sendall(head[i : i + chunk])
                data, _ = _answer(s)
            except (ConnectionResetError, BrokenPipeError):
                # the server answered 431 and closed while the rest of the head was still being sent:
                # the kernel then resets the connection and may drop the 431 — refused all the same
                continue
        assert data.startswith(b"HTTP/1.1 431 "), (chunk, data[:200])


@pytest.mark.parametrize(
    "sent",
    [
        b"",
        b"GET / HT",
        b"GET / HTTP/1.1\r\nHost: x\r\nX-Pad: aaaa",
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b'Content-Length: 1000\r\n\r\n{"hands": 1',
    ],
    ids=["nothing", "half a request line", "half a header line", "half a body"],
)
def test_a_connection_that_does_not_complete_its_headers_is_closed_at_the_header_deadline(guarded_server, sent):
    port, guard = guarded_server
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(sent)
        data, seconds = _answer(s, timeout=HEADER_TIMEOUT + 5)
    assert data == b"" and HEADER_TIMEOUT - 0.2 < seconds < HEADER_TIMEOUT + 1.0, (data, seconds)
    assert guard.timed_out >= 1


def test_a_keep_alive_connection_has_the_same_deadline_for_its_next_request(guarded_server):
    port, _ = guarded_server
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(b"GET /api/labels HTTP/1.1\r\nHost: x\r\n\r\n")
        s.settimeout(5)
        first = s.recv(65536)
        assert first.startswith(b"HTTP/1.1 200 ")
        elapse(0.1)  # the connection idles between its requests
        s.sendall(b"GET /api/lab")  # the next request never completes
        _rest, seconds = _answer(s, timeout=HEADER_TIMEOUT + 5)
    assert seconds < HEADER_TIMEOUT + 1.0


def test_connections_over_the_cap_of_one_address_are_refused_at_once(guarded_server):
    port, guard = guarded_server
    held = [socket.create_connection(("127.0.0.1", port)) for _ in range(guard.per_address)]
    try:
        wait_until(
            lambda: guard.open.get("127.0.0.0/24", 0) >= guard.per_address, 5, "the held connections to be counted"
        )
        with socket.create_connection(("127.0.0.1", port)) as s:
            data, seconds = _answer(s)
        assert data.startswith(b"HTTP/1.1 503 ") and b"too many connections from one address" in data
        assert seconds < 0.5
        if sys.platform.startswith("linux"):  # another group is served meanwhile
            with _from("127.0.1.2", port) as s:
                s.sendall(b"GET /api/labels HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                data, _ = _answer(s)
            assert data.startswith(b"HTTP/1.1 200 ")
    finally:
        for s in held:
            s.close()
    wait_until(lambda: not guard.count, 5, "every connection to be released once closed")
    r = httpx.get(f"http://127.0.0.1:{port}/api/labels", timeout=5)
    assert r.status_code == 200


def test_a_websocket_stays_counted_until_it_closes(guarded_server):
    port, guard = guarded_server
    d = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={"hands": 1, "seats": ["greedy"] * 3}).json()
    wait_until(lambda: not guard.count, 5, "the request's own connection to be released")
    ws = ws_sync.connect(f"ws://127.0.0.1:{port}/ws/{d['id']}/{d['token']}", compression=None, proxy=None, legacy=True)
    try:
        assert json.loads(ws.recv(timeout=5))["type"] == "state"
        assert guard.count == 1 and guard.open["127.0.0.0/24"] == 1  # upgraded, still counted
        elapse(HEADER_TIMEOUT + 0.3)  # the header deadline does not close an upgraded socket
        ws.send(json.dumps({"type": "ping"}))
        assert any(json.loads(ws.recv(timeout=5))["type"] == "pong" for _ in range(20))
    finally:
        ws.close()
    wait_until(lambda: not guard.count, 5, "the socket's connection to be released")


def test_the_guard_counts_each_address_and_all_connections():
    g = ConnectionGuard(per_address=2, total=3, header_timeout=1.0)
    assert g.admit("a") is None and g.admit("a") is None
    assert "from one address or network (at most 2)" in g.admit("a")
    assert g.admit("b") is None
    assert "as many connections as it can (3)" in g.admit("c")  # the total, whoever asks
    g.release("a")
    assert g.admit("c") is None and (g.count, dict(g.open), g.refused) == (3, {"a": 1, "b": 1, "c": 1}, 2)
    for addr in ("a", "b", "c"):
        g.release(addr)
    assert g.count == 0 and not g.open


def test_serve_raises_its_file_limit_and_says_how_many_connections_it_holds():
    from shangrao.web.guard import raise_file_limit, reserve

    limit = raise_file_limit()
    if sys.platform.startswith("linux"):
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        assert limit == soft and (soft == hard or hard == resource.RLIM_INFINITY)
    if sys.platform.startswith("linux"):  # a process started with soft 300 < hard 1000 gets 1000

        def low_soft():
            import resource

            resource.setrlimit(resource.RLIMIT_NOFILE, (300, 1000))

        code = (
            "import resource; from shangrao.web.guard import raise_file_limit as r; "
            "print(r(), resource.getrlimit(resource.RLIMIT_NOFILE))"
        )
        out = subprocess.run(
            [sys.executable, "-c", code], preexec_fn=low_soft, capture_output=True, text=True, timeout=60
        ).stdout
        assert out.split() == ["1000", "(1000,", "1000)"], out
    assert capacity(1024) == 1024 - reserve(1024) and capacity(1024, 100) == 100 and capacity(None) > 0
    assert reserve(256) == 64 and reserve(100_000) == 12_500
    doc = (Path(__file__).parents[2] / "docs" / "web.md").read_text(encoding="utf-8")
    for option in ("--header-timeout", "--address-connections", "--max-connections"):
        assert f"| `{option}` |" in doc  # each documented in the limits table
    assert "limit_conn per_addr" in doc and "proxy_set_header Upgrade" in doc  # the nginx section
