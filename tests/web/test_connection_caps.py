"""The connection caps count address groups, and a group that keeps opening silent connections is
backed off (issue 34).

The guard's grouping is the server's (``address_group``: an IPv4 /24, an IPv6 /64, all of loopback
as one), tested on the guard itself with those addresses.  On real sockets every test client is on
loopback, which the server counts as one group; so the socket tests give the guard a grouping that
splits loopback into /24s (``loopback_by_24``): 127.0.0.x is one client using many addresses of its
network, 127.0.1.x another.  Linux routes all of 127/8 to ``lo``, so a client binds its source
address before connecting.  Loopback only; every loop is bounded in time and count.
"""

from __future__ import annotations

import contextlib
import json
import socket
import sys
import time

import pytest

pytest.importorskip("uvicorn")
ws_sync = pytest.importorskip("websockets.sync.client")
httpx = pytest.importorskip("httpx")

from shangrao.web import Settings  # noqa: E402 - after the importorskip above
from shangrao.web.app import create_app  # noqa: E402
from shangrao.web.guard import BACKOFF_MAX, SILENT_ALLOWED, ConnectionGuard, guarded_protocols  # noqa: E402

from .conftest import SLOW_PEOPLE  # noqa: E402
from .serving import served  # noqa: E402
from .test_floods import _answer, loopback_by_24  # noqa: E402
from .waiting import wait_until  # noqa: E402

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="127.0.x.y source addresses: Linux")


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# ---------------------------------------------------------------------------- the guard itself
def test_the_guard_counts_each_address_group_and_all_connections():
    g = ConnectionGuard(per_address=2, total=100, header_timeout=1.0)  # the server's own grouping
    for a, b, c in (
        ("203.0.113.5", "203.0.113.77", "203.0.113.200"),  # one IPv4 /24
        ("2001:db8:1:2::1", "2001:db8:1:2:ffff::9", "2001:db8:1:2::3"),  # one IPv6 /64
        ("127.0.0.1", "127.9.8.7", "::1"),  # loopback: one group
        ("::ffff:198.51.100.1", "198.51.100.200", "198.51.100.3"),
    ):  # IPv4-mapped: as IPv4
        assert g.admit(a) is None and g.admit(b) is None
        assert "from one address or network (at most 2)" in (g.admit(c) or ""), (a, b, c)
    # another /24, another /64: another client
    assert g.admit("203.0.114.5") is None and g.admit("2001:db8:1:3::1") is None
    assert set(g.open) == {
        "203.0.113.0/24",
        "2001:db8:1:2::/64",
        "loopback",
        "198.51.100.0/24",
        "203.0.114.0/24",
        "2001:db8:1:3::/64",
    }
    assert g.open["loopback"] == 2 and g.count == 10 and g.refused == 4
    g.release("127.0.0.5")  # released by its group: any address of it
    assert g.open["loopback"] == 1 and g.admit("127.1.1.1") is None


def test_a_group_that_keeps_opening_silent_connections_is_backed_off_from_1_s_up_to_60_s():
    clock = FakeClock()
    g = ConnectionGuard(per_address=100, total=1000, header_timeout=10.0, clock=clock)
    addr = "203.0.113.9"

    def silent_round() -> None:  # SILENT_ALLOWED connections that send nothing, closed at the deadline
        for i in range(SILENT_ALLOWED):
            assert g.admit(f"203.0.113.{i + 1}") is None
        clock.now += 10.0
        for i in range(SILENT_ALLOWED):
            g.release(f"203.0.113.{i + 1}")
            g.silent(f"203.0.113.{i + 1}")

    waits = []
    for _ in range(8):
        silent_round()
        left = g.backoff_left(addr)
        waits.append(left)
        why = g.admit(addr)
        assert why is not None and "sent no request" in why and f"{left:.0f} s" in why
        assert g.admit("203.0.114.1") is None  # another network: not touched
        g.release("203.0.114.1")
        clock.now += left  # the back-off ends by itself
        assert g.backoff_left(addr) == 0
    assert waits == [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, BACKOFF_MAX, BACKOFF_MAX]
    assert g.backed_off == 8

    # fewer silent connections than allowed: never backed off
    g2 = ConnectionGuard(per_address=100, total=1000, header_timeout=10.0, clock=clock)
    for _ in range(SILENT_ALLOWED - 1):
        assert g2.admit(addr) is None
        g2.release(addr)
        g2.silent(addr)
    assert g2.backoff_left(addr) == 0 and g2.admit(addr) is None
    g2.release(addr)

    # a request completed from the group forgets its silent connections and its back-off level
    silent_round()
    assert g.backoff_left(addr) == BACKOFF_MAX
    clock.now += BACKOFF_MAX
    g.served("203.0.113.200")
    assert not g.silences
    silent_round()
    assert g.backoff_left(addr) == 1.0  # from the first step again


def test_silent_connections_are_remembered_for_a_bounded_number_of_groups(monkeypatch):
    from shangrao.web import guard as guard_mod

    monkeypatch.setattr(guard_mod, "MAX_REMEMBERED", 50)
    g = ConnectionGuard(per_address=10, total=10_000, header_timeout=1.0)
    for i in range(200):  # 200 IPv6 /64s
        g.silent(f"2001:db8:0:{i:x}::1")
    assert len(g.silences) == 50 and "2001:db8:0:c7::/64" in g.silences  # the newest kept


# ---------------------------------------------------------------------------- on real sockets
@pytest.fixture
def split_server(tmp_path):
    """The app on uvicorn in a thread with ``serve``'s protocols, its guard grouping loopback by /24:
    a group cap of 32, 100 connections in all, a header deadline of 1 s, a back-off after 3 silent
    connections, first 2 s long."""
    guard = ConnectionGuard(
        per_address=32, total=100, header_timeout=1.0, group=loopback_by_24, silent_allowed=3, backoff_first=2.0
    )
    app = create_app(f"sqlite:///{tmp_path / 'caps.sqlite3'}", Settings(**SLOW_PEOPLE))
    with served(app, ws_ping_interval=None, proxy_headers=False, **guarded_protocols(guard)) as (port, _srv):
        yield port, guard


def _connect_from(addr: str, port: int) -> socket.socket | None:
    s = socket.socket()
    s.settimeout(5)
    try:
        s.bind((addr, 0))
        s.connect(("127.0.0.1", port))
    except OSError:
        s.close()
        return None
    return s


def _get(addr: str, port: int, path: str) -> bytes:
    with contextlib.closing(_connect_from(addr, port)) as s:
        assert s is not None
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        data, _ = _answer(s)
    return data


@linux_only
def test_one_group_on_many_addresses_cannot_take_every_connection(split_server):
    # 20 addresses of 127.0.0.0/24, 10 silent connections each (200): the group holds its cap (32),
    # every other is refused at once; pages and a table's socket from 127.0.1.x still answer
    port, guard = split_server
    held: list[socket.socket] = []
    t0 = time.monotonic()
    try:
        for n in range(1, 21):
            for _ in range(10):
                s = _connect_from(f"127.0.0.{n}", port)
                if s is not None:
                    held.append(s)
        wait_until(
            lambda: guard.open.get("127.0.0.0/24", 0) == 32 and guard.refused >= 200 - 32,
            5,
            "the group's connections to be counted and the rest refused",
        )
        assert guard.count == 32  # one group holds its cap, not the server's 100
        assert time.monotonic() - t0 < 1.0  # all this within the header deadline: nothing timed out yet
        assert _get("127.0.0.77", port, "/api/labels").startswith(b"HTTP/1.1 503 ")  # its group is full
        # another group: a page, the API, a new table and its socket are served meanwhile
        assert _get("127.0.1.5", port, "/").startswith(b"HTTP/1.1 200 ")
        other = httpx.Client(
            base_url=f"http://127.0.0.1:{port}", timeout=5, transport=httpx.HTTPTransport(local_address="127.0.1.6")
        )
        with other:
            made = other.post("/api/tables", json={"hands": 1, "seats": ["greedy"] * 3})
            assert made.status_code == 200, made.text
            d = made.json()
        sock = _connect_from("127.0.1.7", port)
        assert sock is not None
        ws = ws_sync.connect(
            f"ws://127.0.0.1:{port}/ws/{d['id']}/{d['token']}",
            sock=sock,
            compression=None,
            proxy=None,
            open_timeout=5,
            legacy=True,
        )
        try:
            assert json.loads(ws.recv(timeout=5))["type"] == "state"
        finally:
            ws.close()
    finally:
        for s in held:
            s.close()
    wait_until(lambda: not guard.count, 5, "every connection to be released once closed")


@linux_only
def test_a_group_reopening_silent_connections_is_refused_at_accept_until_its_back_off_ends(split_server):
    port, guard = split_server
    silent = [_connect_from(f"127.0.2.{n}", port) for n in (1, 2, 3)]  # 3 connections that send nothing
    try:
        assert all(s is not None for s in silent)
        wait_until(lambda: guard.backoff_left("127.0.2.1") > 0, 5, "the silent connections' deadline")
    finally:
        for s in silent:
            if s is not None:
                s.close()
    assert guard.timed_out >= 3
    # a new connection of the group (another address of it) is refused at once, saying for how long
    with contextlib.closing(_connect_from("127.0.2.9", port)) as s:
        assert s is not None
        data, seconds = _answer(s)
    head = data.split(b"\r\n\r\n", 1)[0].lower()
    assert data.startswith(b"HTTP/1.1 503 ") and b"sent no request" in data and seconds < 0.5, data
    assert b"retry-after: 2" in head or b"retry-after: 1" in head, head
    # another group meanwhile: served
    assert _get("127.0.3.1", port, "/api/labels").startswith(b"HTTP/1.1 200 ")
    # once the back-off is over, a request completed from the group is served and forgets it all
    wait_until(lambda: guard.backoff_left("127.0.2.1") == 0, 5, "the back-off to end")
    assert _get("127.0.2.9", port, "/api/labels").startswith(b"HTTP/1.1 200 ")
    assert "127.0.2.0/24" not in guard.silences


@linux_only
def test_a_phone_on_a_bad_network_reconnecting_often_is_never_backed_off(split_server):
    """A legitimate player whose network drops (issue 34, tried as a hostile client would not): 100
    short completed connections, connections it drops before sending anything, a kept-alive one that
    idles past the header deadline after its request, and now and then a few silent ones (fewer than
    the back-off's allowance between two completed requests) — every request is answered, and the
    group is never backed off."""
    port, guard = split_server
    answers = []
    for rnd in range(3):
        silent = [_connect_from(f"127.0.4.{n}", port) for n in (1, 2)]  # 2 < silent_allowed (3)
        for n in range(5):  # opened and dropped at once by the phone: not silent (closed by the client)
            s = _connect_from(f"127.0.4.{10 + n}", port)
            assert s is not None
            s.close()
        idle = _connect_from("127.0.4.20", port)  # keep-alive: one request, then quiet past the deadline
        assert idle is not None
        idle.sendall(b"GET /api/labels HTTP/1.1\r\nHost: x\r\n\r\n")
        assert idle.recv(12).startswith(b"HTTP/1.1 200")
        wait_until(lambda r=rnd: guard.timed_out >= 3 * (r + 1), 5, "the silent connections' deadline")
        for s in [*silent, idle]:
            if s is not None:
                s.close()
        for n in range(34):
            answers.append(_get(f"127.0.4.{30 + n}", port, "/api/labels")[:12])
        assert guard.backoff_left("127.0.4.1") == 0
    assert len(answers) == 102 and all(a == b"HTTP/1.1 200" for a in answers), set(answers)
    assert guard.backed_off == 0 and "127.0.4.0/24" not in guard.silences


@linux_only
def test_requests_over_a_kept_alive_connection_keep_a_group_with_silent_preconnects_served(split_server):
    """A browser polls over one kept-alive connection while its speculative preconnects close silent
    at the header deadline: every completed request, not only a connection's first, clears the group's
    silent count, so the group is never backed off (it was, and a room's page then answered 503 for
    seconds at a time in the browser tests)."""
    import threading

    port, guard = split_server
    stop = threading.Event()
    answers: list[int] = []

    def poll() -> None:  # one kept-alive connection (httpx keeps it), a request every 0.2 s
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.5.1"), timeout=5) as c:
            while not stop.is_set():
                answers.append(c.get(f"http://127.0.0.1:{port}/api/labels").status_code)
                time.sleep(0.2)

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    try:
        wait_until(lambda: answers, 5, "the first poll")
        for rnd in range(3):  # 2 silent preconnects a round (< 3 allowed), 6 in all
            silent = [_connect_from(f"127.0.5.{10 + 2 * rnd + n}", port) for n in (0, 1)]
            assert all(s is not None for s in silent)
            wait_until(lambda r=rnd: guard.timed_out >= 2 * (r + 1), 5, "the preconnects' deadline")
            for s in silent:
                if s is not None:
                    s.close()
            n = len(answers)
            wait_until(lambda n=n: len(answers) > n, 5, "a poll after the silent ones")
    finally:
        stop.set()
        poller.join(10)
    assert guard.backoff_left("127.0.5.99") == 0
    assert set(answers) == {200}, answers
    assert _get("127.0.5.99", port, "/api/labels").startswith(b"HTTP/1.1 200 ")
