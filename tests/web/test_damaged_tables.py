"""An unfinished table whose stored rows cannot be loaded is *damaged*, never live (issue 34): listed
as damaged with the error (``/api/tables?status=damaged``), its page says what is wrong and what the
operator can do, its socket says so once and closes with 4422 — and ``shangrao abandon`` ends it.

Before, such a table was listed as live, its page answered 200 and its socket "try again later",
forever."""

from __future__ import annotations

import json
import secrets
import sqlite3

import pytest
from starlette.websockets import WebSocketDisconnect

from shangrao.records import Store
from shangrao.rules import RuleSet
from shangrao.web.tables import KIND, hash_token

from .conftest import new_table

#: stored live events that no server can load again, by what is wrong with them
DAMAGES = {  # (the event stored, words of the error)
    "an event that is not JSON": ("not json {", "the stored record is damaged"),  # the store's DamagedRecordError
    "an event log the engine refuses": (
        json.dumps({"type": "discard", "seat": 0, "tile": 99}),
        "its stored events do not replay",
    ),  # ReplayError
}


def _live_table(db_url: str, event: str) -> tuple[int, str]:
    """A web table being played (its one person seated, three bots), whose stored live events are
    ``event`` — written straight into the database, as a damaged disk or a hand edit would."""
    token = secrets.token_urlsafe(18)
    kinds = ["human", "random", "random", "random"]
    web = {
        "name": "坏桌 <b>",
        "seats": kinds,
        "claimed": [True, False, False, False],
        "token_hashes": [hash_token(token), None, None, None],
        "hints": True,
    }
    with Store(db_url) as st:
        gid = st.create_game(KIND, kinds, seed=7, rules=RuleSet(hands_per_match=2), meta={"web": web})
    with sqlite3.connect(db_url.removeprefix("sqlite:///")) as db:
        db.execute(
            "INSERT INTO events (game_id, hand_index, seq, event, created) VALUES (?, 0, 0, ?, '2024-01-01 00:00:00')",
            (gid, event),
        )
    return gid, token


@pytest.mark.parametrize("damage", list(DAMAGES), ids=list(DAMAGES))
def test_a_damaged_unfinished_table_is_listed_damaged_its_page_and_socket_say_so(make_client, db_url, damage):
    event, words = DAMAGES[damage]
    gid, token = _live_table(db_url, event)
    c = make_client()  # the restart resumes the tables being played: this one cannot be loaded

    # the listing: never live, listed damaged with the error
    assert gid not in [t["id"] for t in c.get("/api/tables").json()["live"]]
    assert c.get("/api/tables?status=live").json()["tables"] == []
    assert c.get(f"/api/tables?status=live&ids={gid}").json()["tables"] == []
    damaged = c.get("/api/tables?status=damaged").json()
    assert [t["id"] for t in damaged["tables"]] == [gid] and damaged["more"] is False
    entry = damaged["tables"][0]
    assert entry["status"] == "damaged" and words in entry["error"], entry
    assert c.get(f"/api/tables?status=damaged&ids={gid}").json()["tables"] == [entry]

    # the page: what is wrong and what the operator can do, in Chinese first
    page = c.get(f"/t/{gid}/{token}")
    assert page.status_code == 422 and 'data-error="damaged"' in page.text
    zh, en = page.text.index("不能继续打"), page.text.index("cannot be played on")
    assert zh < en
    for said in (f"shangrao replay {gid}", f"shangrao abandon {gid}", f"第 {gid} 桌", words):
        assert said in page.text, said
    assert "<b>" not in page.text.split("<main", 1)[1]  # nothing stored is written into the page unescaped
    assert c.get(f"/t/{gid}/wrong-token").status_code == 403  # a wrong link is still a wrong link

    # the socket: said once, closed with 4422 (table.js goes to the damaged page, not "try again")
    with c.websocket_connect(f"/ws/{gid}/{token}") as ws:
        m = ws.receive_json()
        assert m["type"] == "error" and m["code"] == "damaged" and f"table {gid} is damaged" in m["message"], m
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 4422
    where = c.get(f"/error/damaged?table={gid}")  # where table.js sends the player
    assert where.status_code == 422 and f"shangrao abandon {gid}" in where.text
    assert c.post(f"/api/tables/{gid}/join").status_code in (409, 422)  # no free seat / damaged: never 503


def test_a_damaged_table_found_by_a_socket_leaves_the_live_list(make_client, db_url):
    # damaged while the server runs (not at start-up): the first socket finds it, the lists follow
    c = make_client()
    gid, token = _live_table(db_url, DAMAGES["an event that is not JSON"][0])
    assert gid in [t["id"] for t in c.get("/api/tables?status=live").json()["tables"]]  # not known yet
    assert c.get(f"/t/{gid}/{token}").status_code == 200
    with c.websocket_connect(f"/ws/{gid}/{token}") as ws:
        assert ws.receive_json()["code"] == "damaged"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 4422
    assert gid not in [t["id"] for t in c.get("/api/tables?status=live").json()["tables"]]
    assert [t["id"] for t in c.get("/api/tables?status=damaged").json()["tables"]] == [gid]
    assert c.get(f"/t/{gid}/{token}").status_code == 422


def test_shangrao_abandon_ends_a_damaged_table(make_client, db_url, tmp_path):
    from typer.testing import CliRunner

    from shangrao.cli import app

    gid, _token = _live_table(db_url, DAMAGES["an event that is not JSON"][0])
    c = make_client()
    assert [t["id"] for t in c.get("/api/tables?status=damaged").json()["tables"]] == [gid]
    db = db_url.removeprefix("sqlite:///")
    runner = CliRunner()
    res = runner.invoke(app, ["abandon", str(gid), "--db", db])
    assert res.exit_code == 0 and f"game {gid} ended (abandoned)" in res.output, res.output
    assert c.get("/api/tables?status=damaged").json()["tables"] == []  # the server's next look
    assert gid in [t["id"] for t in c.get("/api/tables?status=finished").json()["tables"]]
    with Store(db_url) as st:
        head = st.game_head(gid)
    assert head.status == "finished" and head.meta["end_reason"] == "abandoned"
    again = runner.invoke(app, ["abandon", str(gid), "--db", db])
    assert again.exit_code == 2 and "has finished already" in again.output
    none = runner.invoke(app, ["abandon", "999999", "--db", db])
    assert none.exit_code == 2 and "no game 999999" in none.output


def test_shangrao_abandon_refuses_a_table_the_running_server_can_play_and_its_game_goes_on(make_client, db_url):
    """The server owns its live tables: abandon ends only a damaged one while a server holds the
    database; a healthy live table is refused (exit 2) and stays live, its rows untouched."""
    from typer.testing import CliRunner

    from shangrao.cli import app

    c = make_client()
    gid, _tokens = new_table(c, seats=("random", "random", "random"), hands=2)
    db = db_url.removeprefix("sqlite:///")
    res = CliRunner().invoke(app, ["abandon", str(gid), "--db", db])
    assert res.exit_code == 2, res.output
    assert f"game {gid} is a live table of the server" in res.output and "解散" in res.output
    with Store(db_url) as st:
        head = st.game_head(gid)
    assert head.status != "finished" and "end_reason" not in head.meta
    listed = c.get(f"/api/tables?ids={gid}").json()
    assert gid in [t["id"] for t in listed["open"] + listed["live"]]
