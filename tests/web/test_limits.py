"""The server's limits (issue 13; docs/web.md "Limits"): each refuses what goes past it with a
clear error and keeps the connection usable.  Also: strict request typing, the paged and
filtered /api/tables with conditional requests, and ready / fill_bots that change nothing."""

from __future__ import annotations

import json

import pytest

from .conftest import SeatClient, connect_all, new_table
from .waiting import elapse


def test_tables_per_address_per_minute(make_client):
    c = make_client(tables_per_minute=3)
    for _ in range(3):
        assert c.post("/api/tables", json={"hands": 1}).status_code == 200
    r = c.post("/api/tables", json={"hands": 1})
    assert r.status_code == 429
    assert "at most 3 per minute" in r.json()["detail"]
    assert c.get("/api/tables").status_code == 200  # everything else still works


def test_live_tables_per_server(make_client):
    c = make_client(max_live_tables=2)
    for _ in range(2):
        assert c.post("/api/tables", json={"hands": 1}).status_code == 200
    r = c.post("/api/tables", json={"hands": 1})
    assert r.status_code == 503 and "server is full" in r.json()["detail"]


def test_messages_per_connection_per_second(make_client):
    c = make_client(messages_per_second=5)
    tid, tokens = new_table(c)
    s = SeatClient(c, tid, tokens[0], 0)
    s.until(lambda m: m["type"] == "state")
    for _ in range(100):  # a burst far past the budget and past the 64-message send queue
        s.send({"type": "ping"})
    elapse(1.1)  # the budget refills: the same connection still answers
    s.send({"type": "ping"})
    got = []
    while not (got and got[-1]["type"] == "pong" and any(g["type"] == "error" for g in got)):
        got.append(s.until(lambda m: m["type"] in ("pong", "error")))
    limited = [m for m in got if m["type"] == "error"]
    assert limited and all(m["code"] == "rate_limited" and "at most 5 per second" in m["message"] for m in limited)
    assert sum(1 for m in got if m["type"] == "pong") >= 5
    assert len(limited) <= 2  # one notice a second, not one per refused message (that filled the queue)
    elapse(0.5)  # the budget refills: the same connection works again
    s.send({"type": "ping"})
    assert s.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"


def test_request_body_size(make_client):
    c = make_client(max_body=1024)
    big = {"name": "x", "hands": 1, "rules": {f"r{i}": 1 for i in range(200)}}
    r = c.post("/api/tables", json=big)
    assert r.status_code == 413 and "at most 1024 bytes" in r.json()["detail"]

    def chunks():  # no Content-Length: counted while it is read
        for _ in range(10):
            yield b" " * 500

    r = c.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert c.post("/api/tables", json={"hands": 1}).status_code == 200


def test_table_name_length(make_client):
    c = make_client(max_name=10)
    r = c.post("/api/tables", json={"hands": 1, "name": "桌" * 11})
    assert r.status_code == 422 and "at most 10 characters" in r.text
    assert c.post("/api/tables", json={"hands": 1, "name": "桌" * 10}).status_code == 200


@pytest.mark.parametrize(
    "body", [{"hands": True}, {"hands": "8"}, {"hands": 8.0}, {"name": 5}, {"seats": "random"}, {"hands": 33}]
)
def test_request_fields_are_strictly_typed(make_client, body):
    r = make_client().post("/api/tables", json=body)
    assert r.status_code == 422, r.text
    assert "input" not in r.json()["detail"][0]  # the refusal does not echo what was sent


def test_a_refusal_does_not_echo_a_large_body(make_client):
    c = make_client(max_body=10**6)
    r = c.post("/api/tables", json={"name": "x" * 500_000})
    assert r.status_code == 422 and len(r.content) < 2000


def test_api_tables_is_paged_and_filtered(make_client):
    c = make_client()
    ids = [
        c.post("/api/tables", json={"hands": 1, "seats": ["human", "random", "random"]}).json()["id"] for _ in range(5)
    ]
    full = c.post("/api/tables", json={"hands": 1, "seats": ["random"] * 3}).json()["id"]
    p1 = c.get("/api/tables?status=open&limit=2").json()
    p2 = c.get("/api/tables?status=open&limit=2&offset=2").json()
    p3 = c.get("/api/tables?status=open&limit=2&offset=4").json()
    got = [t["id"] for p in (p1, p2, p3) for t in p["tables"]]
    assert got == sorted(ids, reverse=True)  # newest first, each once
    assert p1["more"] and p2["more"] and not p3["more"]
    live = [t["id"] for t in c.get("/api/tables?status=live&limit=100").json()["tables"]]
    assert full in live and full not in got
    assert c.get("/api/tables?status=nope").status_code == 422
    assert c.get("/api/tables?limit=1000").status_code == 422
    old = c.get("/api/tables").json()  # the old shape, first page of each
    assert {"open", "live"} <= set(old)


def test_api_tables_by_id_finds_a_browsers_seats_on_any_page(make_client):
    """The lobby's 回到我的座位 (issue 12) asks for the tables of the seats a browser holds by id:
    found though newer tables push them off the first page (issue 13's paging)."""
    c = make_client()
    mine = c.post("/api/tables", json={"hands": 1, "seats": ["human", "random", "random"]}).json()["id"]
    for _ in range(3):
        c.post("/api/tables", json={"hands": 1, "seats": ["human", "random", "random"]})
    assert mine not in [t["id"] for t in c.get("/api/tables?status=open&limit=2").json()["tables"]]
    got = c.get(f"/api/tables?status=open&ids={mine},999999").json()  # waiting for players: open, not live
    assert [t["id"] for t in got["tables"]] == [mine] and not got["more"]
    assert c.get(f"/api/tables?status=finished&ids={mine}").json()["tables"] == []
    assert c.get(f"/api/tables?status=live&ids={mine}").json()["tables"] == []
    etag = c.get(f"/api/tables?status=open&ids={mine}").headers["etag"]
    assert c.get(f"/api/tables?status=open&ids={mine}", headers={"If-None-Match": etag}).status_code == 304
    for bad in ("x", "1,,2", ",".join(["1"] * 21)):
        assert c.get(f"/api/tables?status=live&ids={bad}").status_code == 422, bad
    both = c.get(f"/api/tables?ids={mine}").json()  # no status: the open and the live ones (the lobby's ask)
    assert [t["id"] for t in both["open"]] == [mine] and both["live"] == []


def test_api_tables_answers_conditional_requests(make_client):
    c = make_client()
    c.post("/api/tables", json={"hands": 1, "seats": ["human", "random", "random"]})
    r = c.get("/api/tables?status=open")
    etag = r.headers["etag"]
    again = c.get("/api/tables?status=open", headers={"If-None-Match": etag})
    assert again.status_code == 304 and not again.content
    c.post("/api/tables", json={"hands": 1, "seats": ["human", "random", "random"]})  # the list changed
    changed = c.get("/api/tables?status=open", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and len(changed.json()["tables"]) == 2


def test_repeated_fill_bots_writes_and_sends_nothing(make_client):
    c = make_client()
    d = c.post("/api/tables", json={"hands": 1, "seats": ["human", "human", "human"]}).json()
    manager = c.app.state.manager
    writes = []
    real = manager.write

    async def counting(fn, *a, **k):
        writes.append(getattr(fn, "__name__", str(fn)))
        return await real(fn, *a, **k)

    manager.write = counting
    s = SeatClient(c, d["id"], d["token"], 0)
    s.until(lambda m: m["type"] == "state")
    s.send({"type": "fill_bots"})
    s.until(lambda m: m["type"] == "state" and m["table"]["status"] != "waiting")
    assert writes.count("set_players") == 1
    n = len(writes)
    for _ in range(200):
        s.send({"type": "fill_bots"})
    s.send({"type": "ping"})
    before = len(s.messages)
    s.until(lambda m: m["type"] == "pong")
    assert writes.count("set_players") == 1  # nothing more written
    # and no state was sent for them: whatever arrived came from the game going on (bots play)
    assert all(m["type"] == "state" and m["table"]["status"] != "waiting" for m in s.messages[before:-1])
    assert len(writes) >= n


def test_repeated_ready_sends_nothing(make_client):
    c = make_client()
    tid, tokens = new_table(c, hands=2)
    seats = connect_all(c, tid, tokens)
    import random

    from .conftest import step

    rng = random.Random(4)
    while step(seats, rng):
        pass
    a, b = seats[0], seats[1]
    a.send({"type": "ready"})
    a.until(lambda m: m["type"] == "state" and m["table"]["players"][0]["ready"])
    b.until(lambda m: m["type"] == "state" and m["table"]["players"][0]["ready"])
    for _ in range(100):
        a.send({"type": "ready"})
    a.send({"type": "ping"})
    a.until(lambda m: m["type"] == "pong")
    b.send({"type": "ping"})
    n0 = len(b.messages)
    b.until(lambda m: m["type"] == "pong")
    assert len(b.messages) - n0 == 1  # only the pong: the 100 repeats sent seat 1 nothing


def test_an_action_without_hand_and_seq_is_malformed(make_client):
    c = make_client()
    tid, tokens = new_table(c)
    s = SeatClient(c, tid, tokens[0], 0)
    s.until(lambda m: m["type"] == "state" and m["view"] is not None)
    s.send(json.dumps({"type": "action", "action": "discard 1m", "seq": 3}))
    m = s.until(lambda m: m["type"] == "error")
    assert m["code"] == "malformed" and "hand" in m["message"]
    s.send(json.dumps({"type": "action", "action": "discard 1m", "seq": True, "hand": 0}))
    assert s.until(lambda m: m["type"] == "error")["code"] == "malformed"
