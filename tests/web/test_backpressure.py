"""A client that stops reading never stalls its table (issue 13).

Each connection has its own bounded queue and sender task (``shangrao.web.connections``); a
broadcast only queues.  The first test drives a real ``uvicorn`` server on 127.0.0.1 with three
scripted seats (``websockets`` clients) and a fourth seat whose raw TCP socket completes the
WebSocket handshake and then never reads a byte: the three others are answered in well under a
second all hand long, and the silent seat is dropped (its seat shows as disconnected; the
absent-player rule plays it).  The second test checks the queue itself with a socket whose
writes never finish.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import socket
import threading
import time

import pytest

uvicorn = pytest.importorskip("uvicorn")
ws_sync = pytest.importorskip("websockets.sync.client")

from shangrao.web import Settings  # noqa: E402 - after the importorskip above
from shangrao.web.app import create_app  # noqa: E402 - after the importorskip above
from shangrao.web.connections import Connection  # noqa: E402 - after the importorskip above

from .conftest import SLOW_PEOPLE  # noqa: E402 - after the importorskip above
from .serving import served  # noqa: E402
from .waiting import wait_until, wait_until_async  # noqa: E402


@pytest.fixture
def live_server(tmp_path):
    settings = Settings(
        **{
            **SLOW_PEOPLE,
            "send_queue": 4,
            "send_timeout": 0.5,
            "absent_timeout": 0.0,
            "turn_timeout": 0.3,
            "claim_timeout": 0.3,
        }
    )
    app = create_app(f"sqlite:///{tmp_path / 'bp.sqlite3'}", settings)
    with served(app, ws_ping_interval=None) as (port, srv):
        yield app, port, srv


def _silent_socket(port: int, path: str) -> socket.socket:
    """A WebSocket handshake on a raw socket with a tiny receive buffer; the caller never reads."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)  # only the handshake answer, byte by byte: nothing of the messages after it
    assert b" 101 " in head.split(b"\r\n", 1)[0], head
    return s


def _small_server_buffers(srv, client_port: int) -> None:
    """Shrink the server's buffers for one client, as on a stalled phone network (else the
    loopback's megabytes of kernel buffer absorb a whole hand before anything blocks)."""

    def found():
        for proto in list(srv.server_state.connections):
            client = getattr(proto, "client", None)
            if client and client[1] == client_port and getattr(proto, "transport", None) is not None:
                return proto
        return None

    proto = wait_until(found, 5, "the server connection of the silent client")
    sock = proto.transport.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    proto.transport.set_write_buffer_limits(high=4096)


def test_a_seat_that_never_reads_does_not_delay_the_others_and_is_disconnected(live_server):
    import httpx

    _app, port, srv = live_server
    base = f"http://127.0.0.1:{port}"
    d = httpx.post(base + "/api/tables", json={"hands": 1, "seats": ["human"] * 3, "name": "bp"}).json()
    tid, tokens = d["id"], [d["token"]]
    for _ in range(3):
        tokens.append(httpx.post(f"{base}/api/tables/{tid}/join").json()["token"])
    silent_seat = 2
    silent = _silent_socket(port, f"/ws/{tid}/{tokens[silent_seat]}")
    _small_server_buffers(srv, silent.getsockname()[1])
    readers = {
        i: ws_sync.connect(f"ws://127.0.0.1:{port}/ws/{tid}/{tokens[i]}", compression=None, legacy=True)
        for i in range(4)
        if i != silent_seat
    }
    latest: dict[int, dict] = {}
    lock = threading.Lock()
    sent: dict[int, tuple[tuple[int, int], float]] = {}
    latencies: list[float] = []
    saw_silent_gone = threading.Event()
    over = threading.Event()

    def reader(seat: int, ws) -> None:
        rng = random.Random(seat)
        try:
            for raw in ws:
                m = json.loads(raw)
                if m["type"] != "state" or m["view"] is None:
                    continue
                k = (m["hand_no"], m["seq"])
                with lock:
                    latest[seat] = m
                    if seat in sent and k > sent[seat][0]:
                        latencies.append(time.monotonic() - sent.pop(seat)[1])
                if not m["table"]["players"][silent_seat]["connected"]:
                    saw_silent_gone.set()
                if m["view"]["phase"] == "over":
                    over.set()
                    return
                if m["view"]["current_seat"] == seat and len(m["legal"]) > 1:
                    a = rng.choice([x["action"] for x in m["legal"]])
                    with lock:
                        sent[seat] = (k, time.monotonic())
                    ws.send(json.dumps({"type": "action", "action": a, "hand": k[0], "seq": k[1]}))
        except Exception:
            return

    threads = [threading.Thread(target=reader, args=(i, ws), daemon=True) for i, ws in readers.items()]
    for t in threads:
        t.start()
    assert over.wait(90), "the hand did not end"
    for ws in readers.values():
        ws.close()
    for t in threads:
        t.join(5)
    silent.close()
    assert len(latencies) > 10
    assert max(latencies) < 1.0, f"slowest answer to a reading seat: {max(latencies):.2f} s"
    assert saw_silent_gone.is_set(), "the seat that never reads was not disconnected"


class _StuckSocket:
    """A socket whose writes never complete (a full TCP buffer)."""

    def __init__(self) -> None:
        self.sent = 0
        self.closed = False

    async def send_text(self, text: str) -> None:
        self.sent += 1
        await asyncio.Event().wait()

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = True


def test_the_queue_never_blocks_and_drops_a_client_that_does_not_keep_up():
    async def main():
        dropped = []
        ws = _StuckSocket()
        c = Connection(ws, queue_size=5, send_timeout=60, on_drop=lambda conn, why: dropped.append(why))
        t0 = time.monotonic()
        results = [c.send(f"m{i}") for i in range(20)]  # never awaits
        assert time.monotonic() - t0 < 0.5
        await wait_until_async(lambda: dropped, 5, "the overflow drop")
        assert dropped == ["overflow"] and c.closed and c.dropped == "overflow"
        assert results[:5] == [True] * 5 and results[-1] is False
        await wait_until_async(lambda: ws.closed, 5, "the socket closed in the background")
        # a write blocked longer than send_timeout drops the client too
        ws2 = _StuckSocket()
        dropped2 = []
        c2 = Connection(ws2, queue_size=100, send_timeout=0.05, on_drop=lambda conn, why: dropped2.append(why))
        c2.send("x")
        await wait_until_async(lambda: dropped2, 5, "the send timeout drop")
        assert dropped2 == ["send timeout"] and c2.closed

    asyncio.run(main())
