"""HEAD, a damaged stored ``meta`` and a rematch asked for again (issue 22)."""

from __future__ import annotations

import json
import logging
import secrets
import sqlite3

import pytest

from shangrao.records import Store
from shangrao.rules import RuleSet
from shangrao.web.tables import KIND, hash_token

from .conftest import SeatClient
from .waiting import wait_until


def _finished_table(c, db_url, seats=("random", "random", "random")) -> dict:
    """A one-hand table its stand-ins played to the end (seat 0 never connected)."""
    d = c.post("/api/tables", json={"hands": 1, "seats": list(seats), "name": "again"}).json()
    d["others"] = [c.post(f"/api/tables/{d['id']}/join").json()["token"] for k in seats if k == "human"]

    def finished():
        with Store(db_url) as st:
            return st.load_game(d["id"]).status == "finished"

    wait_until(finished, 60, "the stand-ins to finish the match")
    return d


# ---------------------------------------------------------------- HEAD
def test_head_answers_like_get_without_a_body(make_client, db_url):
    c = make_client(absent_timeout=0.05)
    d = _finished_table(c, db_url)
    tid, token = d["id"], d["token"]
    paths = [
        "/",
        "/history",
        "/rules",
        f"/t/{tid}/{token}",
        f"/t/{tid}/wrong",
        f"/replay/{tid}",
        "/error/full",
        "/favicon.ico",
        "/static/app.css",
        "/static/table.js",
        "/api/rules",
        "/api/labels",
        "/api/patterns",
        "/api/tables",
        "/api/tables?status=finished",
        "/api/games",
        f"/api/games/{tid}",
        f"/api/games/{tid}/hands/0/frames",
        "/api/games/999999",
        "/no-such-page",
    ]
    for path in paths:
        got, head = c.get(path), c.head(path)
        assert head.status_code == got.status_code, path
        assert head.content == b"", path
        assert head.headers.get("content-type") == got.headers.get("content-type"), path
        if "content-length" in got.headers:
            assert head.headers["content-length"] == str(len(got.content)), path
    assert c.get("/api/tables").status_code == 200 and c.head("/api/tables").headers.get("etag")


def test_head_of_a_join_link_takes_no_seat(make_client, db_url):
    c = make_client()
    d = c.post("/api/tables", json={"hands": 1, "seats": ["human", "random", "random"]}).json()
    r = c.head(f"/join/{d['id']}", follow_redirects=False)
    assert r.status_code == 405 and r.content == b""  # a link preview or checker does not sit down
    table = next(t for t in c.get("/api/tables").json()["open"] if t["id"] == d["id"])
    assert table["free_seats"] == [1]


# ---------------------------------------------------------------- a damaged meta
def _web_game(db_url: str) -> tuple[int, str]:
    token = secrets.token_urlsafe(18)
    kinds = ["human", "random", "random", "random"]
    web = {
        "name": "stored",
        "seats": kinds,
        "claimed": [True, False, False, False],
        "token_hashes": [hash_token(token), None, None, None],
        "hints": True,
    }
    with Store(db_url) as st:
        gid = st.create_game(KIND, kinds, seed=7, rules=RuleSet(hands_per_match=1), meta={"web": web})
    return gid, token


def _set_meta(db_url: str, gid: int, meta) -> None:
    """Write ``meta`` into the game's row as a hand edit would: straight into the database."""
    with sqlite3.connect(db_url.removeprefix("sqlite:///")) as db:
        db.execute("UPDATE games SET meta = ? WHERE id = ?", (json.dumps(meta), gid))


def _good_web(token: str) -> dict:
    return {
        "name": "stored",
        "seats": ["human", "random", "random", "random"],
        "claimed": [True, False, False, False],
        "token_hashes": [hash_token(token), None, None, None],
        "hints": True,
    }


DAMAGES = {
    "meta not an object": lambda web: [1, 2, 3],
    "meta a string": lambda web: "web",
    "no web key": lambda web: {"schema": 1},
    "web not an object": lambda web: {"web": ["human"]},
    "seats missing": lambda web: {"web": {k: v for k, v in web.items() if k != "seats"}},
    "seats a string": lambda web: {"web": {**web, "seats": "human"}},
    "three seats": lambda web: {"web": {**web, "seats": web["seats"][:3]}},
    "an unknown bot": lambda web: {"web": {**web, "seats": ["human", "nobody", "random", "random"]}},
    "claimed missing": lambda web: {"web": {k: v for k, v in web.items() if k != "claimed"}},
    "claimed numbers": lambda web: {"web": {**web, "claimed": [1, 0, 0, 0]}},
    "token hashes numbers": lambda web: {"web": {**web, "token_hashes": [1, 2, 3, 4]}},
    "token hashes missing": lambda web: {"web": {k: v for k, v in web.items() if k != "token_hashes"}},
    "name a number": lambda web: {"web": {**web, "name": 5}},
    "rematch a string": lambda web: {"web": {**web, "rematch": "/evil"}},
    "hints a string": lambda web: {"web": {**web, "hints": "no"}},
}


@pytest.mark.parametrize("damage", list(DAMAGES), ids=list(DAMAGES))
def test_a_damaged_meta_is_a_clear_error_page_and_a_log_line(make_client, db_url, caplog, damage):
    gid, token = _web_game(db_url)
    _set_meta(db_url, gid, DAMAGES[damage](_good_web(token)))
    caplog.set_level(logging.ERROR, logger="shangrao.web")
    c = make_client()  # resuming the unfinished tables at start-up: this one is logged and left
    assert any(
        f"cannot resume table {gid}" in r.getMessage() and "damaged" in r.getMessage() for r in caplog.records
    ), caplog.text
    for page in (f"/t/{gid}/{token}", f"/join/{gid}"):
        caplog.clear()
        r = c.get(page)
        assert r.status_code == 422 and 'data-error="damaged"' in r.text, (page, r.status_code)
        zh, en = r.text.index("这张桌的记录无效，不能打开"), r.text.index("The stored record of this table is damaged")
        assert zh < en  # Chinese first, as every error page
        assert any(f"the stored record of table {gid} is damaged" in rec.getMessage() for rec in caplog.records)
    for r in (c.post(f"/api/tables/{gid}/join"), c.post(f"/api/tables/{gid}/rematch", json={"token": token})):
        assert r.status_code == 422 and f"the stored record of table {gid} is damaged" in r.json()["detail"]
    s = SeatClient(c, gid, token, 0)
    m = s.recv()
    assert m["type"] == "error" and m["code"] == "damaged", m
    s.close()
    # the lobby's lists leave it out; the history and the replay read the game without its meta
    lists = c.get("/api/tables").json()
    assert gid not in [t["id"] for t in lists["open"] + lists["live"]]
    assert c.get(f"/api/tables?ids={gid}").status_code == 200
    assert c.get(f"/api/tables?status=open&ids={gid}").json()["tables"] == []
    assert gid in [g["id"] for g in c.get("/api/games").json()]
    assert c.get(f"/api/games/{gid}").status_code == 200
    assert c.get("/history").status_code == 200 and c.get(f"/replay/{gid}").status_code == 200


def test_a_damaged_finished_table_is_left_out_of_the_finished_list(make_client, db_url, caplog):
    gid, token = _web_game(db_url)
    with Store(db_url) as st:
        st.finish_game(gid)
    _set_meta(db_url, gid, {"web": {**_good_web(token), "claimed": "all"}})
    caplog.set_level(logging.ERROR, logger="shangrao.web")
    c = make_client()
    r = c.get("/api/tables?status=finished")
    assert r.status_code == 200 and gid not in [t["id"] for t in r.json()["tables"]]
    assert "damaged" in caplog.text and "meta.web.claimed" in caplog.text


def test_a_meta_of_an_older_version_is_not_damaged(make_client, db_url):
    """A record without ``name``, ``hints`` or ``rematch`` (written before they existed) still plays."""
    gid, token = _web_game(db_url)
    web = _good_web(token)
    for k in ("name", "hints"):
        del web[k]
    _set_meta(db_url, gid, {"web": web})
    c = make_client()
    assert c.get(f"/t/{gid}/{token}").status_code == 200
    s = SeatClient(c, gid, token, 0)
    assert s.until(lambda m: m["type"] == "state")["table"]["hints"] is True
    s.close()


# ---------------------------------------------------------------- a rematch asked for again
def test_the_rematch_link_can_be_asked_for_again(make_client, db_url):
    c = make_client(absent_timeout=0.05)
    d = _finished_table(c, db_url, seats=("human", "random", "random"))
    tid = d["id"]
    first = c.post(f"/api/tables/{tid}/rematch", json={"token": d["token"]})
    assert first.status_code == 200
    # the first answer is lost: the one who asked asks again and gets the same seat link
    again = c.post(f"/api/tables/{tid}/rematch", json={"token": d["token"]})
    assert again.status_code == 200 and again.json() == first.json()
    new = first.json()
    assert new["seat"] == 0 and new["url"] == f"/t/{new['id']}/{new['token']}"
    assert c.get(new["url"]).status_code == 200
    s = SeatClient(c, new["id"], new["token"], 0)
    assert s.until(lambda m: m["type"] == "state")["you"] == 0
    s.close()
    # another seat of the finished table gets the join link, not the asker's seat
    other = c.post(f"/api/tables/{tid}/rematch", json={"token": d["others"][0]}).json()
    assert other == {"id": new["id"], "url": f"/join/{new['id']}"}
    assert c.post(f"/api/tables/{tid}/rematch", json={"token": "wrong"}).status_code == 403
    # and so after a restart (the table loaded again from the database)
    c.__exit__(None, None, None)
    c2 = make_client(absent_timeout=0.05)
    assert c2.post(f"/api/tables/{tid}/rematch", json={"token": d["token"]}).json() == new
