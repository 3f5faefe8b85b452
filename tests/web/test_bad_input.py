"""Bad input for the web server: a clear error, never a 500, never a corrupted stored game."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import pytest

from shangrao.game import replay
from shangrao.records import Store

from .conftest import connect_all, new_table, step

HUGE = "99999999999999999999999"


@pytest.mark.parametrize(
    "path",
    [
        f"/t/{HUGE}/x",
        f"/join/{HUGE}",
        f"/api/games/{HUGE}",
        f"/api/games/{HUGE}/hands/0/frames",
        "/api/games/1/hands/" + HUGE + "/frames",
        "/api/games?limit=" + HUGE,
    ],
)
def test_huge_ids_are_not_found_not_500(make_client, path):
    c = make_client()
    new_table(c, seats=("greedy", "greedy", "greedy"))
    r = c.get(path)
    assert r.status_code in ((422,) if "limit=" in path else (404,)), (r.status_code, r.text)  # limit: 1..500
    r = c.post(f"/api/tables/{HUGE}/join")
    assert r.status_code == 404, r.text


def test_socket_with_a_huge_table_id_is_refused_cleanly(make_client):
    c = make_client()
    with c.websocket_connect(f"/ws/{HUGE}/x") as ws:
        m = ws.receive_json()
    assert m["type"] == "error" and m["code"] == "forbidden"


@pytest.mark.parametrize(
    "rules, needle",
    [
        ({"base_points": "1"}, "base_points"),  # was coerced to True and reported as "got True"
        ({"earthly_win": "true"}, "earthly_win"),
        ({"earthly_win": 1}, "earthly_win"),
        ({"base_points": 10**30}, "base_points"),  # was accepted: scores no browser can show
        ({"base_points": -5}, "base_points"),
        ({"zzz": 1}, "zzz"),
    ],
)
def test_create_table_with_bad_rule_options(make_client, rules, needle):
    c = make_client()
    r = c.post("/api/tables", json={"hands": 1, "seats": ["greedy"] * 3, "rules": rules})
    assert r.status_code == 422, r.text
    assert needle in r.text
    assert "got True" not in r.text  # the value sent is reported, not a coerced one


@pytest.mark.parametrize(
    "body",
    [
        {"hands": 10**30},
        {"hands": -1},
        {"hands": 0},
        {"seats": ["x", "y", "z"]},
        {"name": "x" * 1000},
        {"extra": 1},
        [],
        None,
    ],
)
def test_create_table_with_bad_fields(make_client, body):
    r = make_client().post("/api/tables", json=body)
    assert r.status_code == 422, r.text


def test_binary_frames_and_garbage_keep_the_socket_and_the_stored_game(make_client, db_url):
    c = make_client()
    tid, tokens = new_table(c)
    seats = connect_all(c, tid, tokens)
    ws = seats[0]
    for raw in (b"\xff\xfe", b'{"type": "ping"}'):
        ws.ws.send_bytes(raw)
        m = ws.until(lambda m: m["type"] in ("error", "pong"))
        assert m["type"] == "error" and m["code"] == "malformed", m
    for bad in (
        "",
        "[" * 3000,
        "null",
        '{"type":"action","action":"discard 9z"}',
        '{"type":"action","action":5}',
        '{"type":"action","action":"win","seq":' + HUGE + "}",
        "x" * 5000,
    ):
        ws.send(bad)
        m = ws.until(lambda m: m["type"] == "error")
        assert m["code"] in ("malformed", "illegal"), m
    ws.send({"type": "ping"})
    assert ws.until(lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
    rng = random.Random(3)
    while step(seats, rng):
        pass
    with Store(db_url) as st:
        rec = st.load_game(tid)
    assert rec.hands_played == 1 and not rec.pending
    assert list(replay(rec.hands[0].events).result.deltas) == rec.hands[0].result["deltas"]


def test_concurrent_joins_give_each_seat_once(make_client, db_url):
    c = make_client()
    tid = c.post("/api/tables", json={"hands": 1, "seats": ["human"] * 3}).json()["id"]
    with ThreadPoolExecutor(8) as ex:
        rs = list(ex.map(lambda _: c.post(f"/api/tables/{tid}/join"), range(8)))
    assert sorted(r.status_code for r in rs) == [200] * 3 + [409] * 5
    assert sorted(r.json()["seat"] for r in rs if r.status_code == 200) == [1, 2, 3]
    with Store(db_url) as st:
        web = st.load_game(tid).meta["web"]
    assert web["claimed"] == [True] * 4 and len(set(web["token_hashes"])) == 4
