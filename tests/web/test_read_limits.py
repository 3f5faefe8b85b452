"""History reads are bounded per client and kept apart from the live tables (issue 25): eight
concurrent ``/api/games?limit=500`` once slowed a live table's replies from 3 ms to 766 ms."""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import threading
import time

import httpx
import pytest

from shangrao.game import Game
from shangrao.records import Store
from shangrao.records.summary import hand_summary
from shangrao.rules import DEFAULT_RULES

from .waiting import wait_until


def test_history_reads_past_the_budget_are_refused_with_429(make_client):
    c = make_client(reads_per_second=1)  # a budget of 2 (a burst of two seconds' worth)
    assert c.get("/api/games?limit=500").status_code == 200  # the largest read is possible once
    r = c.get("/api/games?limit=500")
    assert r.status_code == 429 and "too many history reads" in r.json()["detail"]
    assert r.headers["retry-after"] == "1"
    assert c.get("/api/games/1").status_code == 429  # a stored game and a replay's frames count too
    assert c.get("/api/tables").status_code == 200  # the lobby and the tables are not history reads


def _store_games(path: str, n: int) -> None:
    """``n`` finished one-hand games through the Store API (one hand played once, stored n times)."""
    g = Game(DEFAULT_RULES, seed=5)
    rng = random.Random(5)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()), seat=g.current_seat)
    assert g.result is not None
    summary = hand_summary(g.result, g.events)
    with Store(path) as st:
        for _ in range(n):
            gid = st.create_game("play", ["random"] * 4, seed=5, rules=DEFAULT_RULES, meta={"note": "x" * 200})
            st.append_hand(gid, 0, g.dealer, g.events, summary, scores_after=list(g.result.scores))
            st.finish_game(gid)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_eight_concurrent_large_history_reads_keep_a_live_tables_replies_fast(tmp_path):
    ws_sync = pytest.importorskip("websockets.sync.client")
    db = str(tmp_path / "reads.sqlite3")
    _store_games(db, 500)
    port = _free_port()
    # the server in its own process, with its default read budget (as deployed): the readers' and the
    # player's threads here do not share its interpreter
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from shangrao.cli import app; app()",
            "serve",
            "--db",
            db,
            "--port",
            str(port),
            "--no-browser",
            "--bot-delay",
            "0.02",
            "--claim-pause",
            "0",
            "--turn-timeout",
            "600",
            "--messages-per-second",
            "1000",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "DISPLAY": ""},
    )
    base = f"http://127.0.0.1:{port}"
    try:

        def up() -> bool:
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            try:
                return httpx.get(f"{base}/api/rules", timeout=1).status_code == 200
            except httpx.HTTPError:
                return False

        wait_until(up, 30, "the server to start")
        d = httpx.post(f"{base}/api/tables", json={"hands": 32, "seats": ["random"] * 3}).json()
        stop = threading.Event()
        served: list[int] = []

        def reader() -> None:
            with httpx.Client(base_url=base, timeout=30) as cl:
                while not stop.is_set():
                    r = cl.get("/api/games?limit=500")
                    served.append(r.status_code)
                    if r.status_code == 200:
                        assert len(r.content) > 100_000  # a large answer each time
                    elif r.status_code == 429:  # as a browser's fetch would: again after Retry-After
                        stop.wait(float(r.headers["retry-after"]))

        latencies: list[float] = []
        with ws_sync.connect(f"ws://127.0.0.1:{port}/ws/{d['id']}/{d['token']}", max_size=None) as ws:

            def play(seconds: float, record: bool) -> None:
                sent_at: float | None = None
                answered: tuple | None = None
                end = time.monotonic() + seconds
                while time.monotonic() < end:
                    m = json.loads(ws.recv(timeout=30))
                    if m["type"] != "state" or m["view"] is None:
                        continue
                    now = time.monotonic()
                    at = (m["hand_no"], m["seq"])
                    if sent_at is not None and at != answered:
                        if record:
                            latencies.append(now - sent_at)
                        sent_at = None
                    if m["view"]["phase"] == "over":
                        if not m["table"]["players"][0]["ready"]:
                            ws.send(json.dumps({"type": "ready"}))
                        continue
                    if m["legal"] and at != answered and sent_at is None:
                        answered = at
                        a = m["legal"][-1]["action"]
                        ws.send(json.dumps({"type": "action", "action": a, "seq": m["seq"], "hand": m["hand_no"]}))
                        sent_at = time.monotonic()

            play(1.0, record=False)  # warm up
            play(3.0, record=True)  # the table's replies with no reader: this machine's own pace now
            alone = sorted(latencies)
            latencies.clear()
            threads = [threading.Thread(target=reader, daemon=True) for _ in range(8)]
            for t in threads:
                t.start()
            try:
                play(8.0, record=True)
            finally:
                stop.set()
                for t in threads:
                    t.join(30)
        # one client's eight readers: some reads served all along, the rest refused at once (429) …
        assert served.count(200) >= 8 and served.count(429) >= 8, served
        assert len(latencies) >= 30, latencies
        latencies.sort()
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        # … and the table answered each action about as fast as with no reader.  The goal
        # (p99 < 100 ms on an idle machine; 766 ms before the fix) is a benchmark's, not a test's: on a
        # loaded machine the replies with no reader are slow too, so the bound is relative to them
        # (with a floor of 250 ms, a third of the 766 ms measured before the fix): eight large reads no
        # longer make the table's replies several times slower.
        alone_p99 = alone[min(len(alone) - 1, int(len(alone) * 0.99))] if alone else 0.0
        assert p99 < max(0.25, 4 * alone_p99), (
            p99,
            alone_p99,
            latencies[len(latencies) // 2],
            len(latencies),
            served.count(200),
        )
    finally:
        proc.terminate()
        proc.wait(20)
