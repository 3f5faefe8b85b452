"""The review, rooms, history and pace APIs of issues 37 and 38 tried as a hostile client: what broke,
each answered now with a 4xx naming it or mended — a stored review damaged by hand, and a client asking
for the review of every stored game (the background queue stays bounded)."""

from __future__ import annotations

import json
import sqlite3
import threading

import pytest

from .waiting import wait_until


def _stored_hands(db_url: str, games: int) -> list[int]:
    """``games`` stored games of one played hand each (the same hand: enough for a review)."""
    from shangrao.bots import get_bot
    from shangrao.game import Game
    from shangrao.game.match import play_hand
    from shangrao.records import Store
    from shangrao.records.summary import hand_summary
    from shangrao.rules import DEFAULT_RULES

    g = Game(DEFAULT_RULES, seed="breaking", dealer=0)
    play_hand(g, [get_bot("greedy") for _ in range(4)])
    store = Store(db_url)
    try:
        ids = []
        for _ in range(games):
            gid = store.create_game("play", ["human", "greedy", "greedy", "greedy"], rules=DEFAULT_RULES)
            store.append_hand(gid, 0, 0, g.events, hand_summary(g.result, g.events), list(g.scores))
            ids.append(gid)
        return ids
    finally:
        store.close()


def _ready(client, gid: int) -> dict:
    def done():
        r = client.get(f"/api/games/{gid}/review")
        assert r.status_code in (200, 202), r.text
        return r.json() if r.status_code == 200 else None

    return wait_until(done, 60, f"the review of game {gid}")


@pytest.mark.parametrize(
    "damage",
    ['"x"', '{"hand": 0, "seats": [0], "decisions": [], "summary": []}'],
    ids=["not-an-object", "summary-a-list"],
)
def test_a_stored_review_damaged_by_hand_is_reviewed_again_and_mended_never_a_503(make_client, db_url, damage):
    """Before: a review row that is not an object made every GET of the game's review a 503 "the
    records database cannot be read now; try again" (forever), and one of another shape an
    AttributeError (the CLI's internal error)."""
    from shangrao.records import Store
    from shangrao.records.reviews import load_reviews

    (gid,) = _stored_hands(db_url, 1)
    client = make_client()
    good = _ready(client, gid)
    with sqlite3.connect(db_url.removeprefix("sqlite:///")) as con:
        assert con.execute("UPDATE reviews SET review = ?", (damage,)).rowcount == 1
    first = client.get(f"/api/games/{gid}/review")
    assert first.status_code in (200, 202), first.text  # reviewed again in the background, not in the request
    again = _ready(client, gid)
    assert again["summary"] == good["summary"]
    assert [h["decisions"] for h in again["hands"]] == [h["decisions"] for h in good["hands"]]
    store = Store(db_url)
    try:
        kept = load_reviews(store, gid, good["evaluator"], good["version"])
        assert list(kept) == [0] and kept[0]["summary"] == good["hands"][0]["summary"]  # mended in place
    finally:
        store.close()


def test_reviews_asked_for_by_requests_are_bounded_the_one_past_the_limit_is_a_503_with_retry_after(
    make_client, db_url
):
    """Before: every GET of an unreviewed game's review queued its review (seconds of CPU a hand) with
    no bound, so a client walking the history queued hours of work."""
    gids = _stored_hands(db_url, 4)
    client = make_client()
    jobs = client.app.state.manager.reviews
    jobs.most = 3
    release = threading.Event()

    def held(game_id):  # the review thread is busy until the test lets it go
        release.wait(30)

    jobs._run_here = held
    try:
        for gid in gids[:3]:
            r = client.get(f"/api/games/{gid}/review")
            assert r.status_code == 202 and r.json()["status"] == "running", r.text
        again = client.get(f"/api/games/{gids[0]}/review")  # one already queued: its progress, not a refusal
        assert again.status_code == 202, again.text
        r = client.get(f"/api/games/{gids[3]}/review")
        assert r.status_code == 503 and r.headers["Retry-After"] == "60", r.text
        assert r.json() == {"detail": "the server is reviewing 3 games now; ask again in a minute"}
        assert len(jobs.running()) == 3
    finally:
        release.set()
    wait_until(lambda: not jobs.running(), 30, "the held reviews to end")
    del jobs._run_here  # the real review again: the refused game is reviewed when asked again
    assert _ready(client, gids[3])["status"] == "ready"


def test_the_review_page_waits_its_turn_when_the_server_answers_503():
    from pathlib import Path

    import shangrao.web

    static = Path(shangrao.web.__file__).parent / "static"
    js = (static / "replay.js").read_text(encoding="utf-8")
    assert "r.status === 503" in js and 't("review_busy")' in js
    common = (static / "common.js").read_text(encoding="utf-8")
    assert common.count("review_busy:") == 2  # Chinese and English


@pytest.mark.parametrize(
    "body",
    [
        {"player": "a", "rules": "x"},
        {"player": "a", "rules": {"zzz": 1}},
        {"player": "a", "rules": {"base_points": -1}},
        {"player": "a", "rules": {"base_points": 10**30}},
        {"player": "a", "rules": {"base_points": {"a": 1}}},
        {"player": "a", "rules": {"rob_concealed_kong": 1}},
        {"player": "a", "rules": {"hands_per_match": 3}},
        {"player": "a", "hints": "yes"},
        {"player": "a", "hints": None},
        {"player": "a", "bot": "human"},
        {"player": "a", "bot": "cmd:/bin/sh -c id"},
        {"player": "a", "bot": 3},
        {"player": "a", "bot": ""},
    ],
)
def test_a_room_with_bad_settings_is_refused_with_a_422_naming_them(make_client, body):
    client = make_client(rooms_per_minute=1000)
    r = client.post("/api/rooms", json=body)
    assert r.status_code == 422, r.text
    assert json.dumps(r.json()["detail"])
    assert client.get("/api/games").json() == []


def test_history_filters_and_review_ids_that_are_not_there_are_4xx(make_client):
    client = make_client()
    for q, status in (
        ("kinds=zzz", 422),
        ("kinds=" + "web," * 60, 422),
        ("mine=abc", 422),
        ("mine=-1", 422),
        ("mine=99999999999999999999", 422),
        ("offset=-1", 422),
        ("mine_only=maybe", 422),
        ("kinds=web,web&offset=999999999", 200),
        ("kinds=", 200),
    ):
        assert client.get(f"/api/games?{q}").status_code == status, q
    for gid in ("0", "-1", "9223372036854775808", "99999999999999999999999"):
        assert client.get(f"/api/games/{gid}/review").status_code == 404, gid
    for seat in ("-1", "4", "x"):
        assert client.get(f"/api/games/1/review?seat={seat}").status_code == 422, seat
    for pace in ("zzz", 1, None, "FAST"):
        assert client.post("/api/tables", json={"hands": 1, "seats": ["greedy"] * 3, "pace": pace}).status_code == 422


def _pg_schema_url():
    """A PostgreSQL URL (``SHANGRAO_TEST_PG_URL``) in a new schema of its own, and a function dropping it."""
    import os
    import uuid

    url = os.environ.get("SHANGRAO_TEST_PG_URL")
    if not url:
        pytest.skip("SHANGRAO_TEST_PG_URL is not set")
    pytest.importorskip("psycopg")
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    schema = f"shangrao_ids_{uuid.uuid4().hex[:12]}"
    admin = create_engine(url)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))

    def drop() -> None:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()

    return make_url(url).update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(
        hide_password=False
    ), drop


def test_ids_beyond_postgresqls_32_bit_id_column_are_no_game_404_not_a_503():
    """Before: on PostgreSQL (``Integer`` ids are 32-bit) a game id, hand or ``mine`` id from 2**31
    to 2**63-1 reached the database: "integer out of range", answered 503 "the records database
    cannot be read now" on the web and "cannot read the records database (… damaged)" by the CLI."""
    from shangrao.records import GameNotFound, Store
    from shangrao.records.history import list_history
    from shangrao.records.owner import StoreBusy
    from shangrao.web import Settings
    from shangrao.web.app import create_app

    from .conftest import SLOW_PEOPLE, TestClient

    db, drop = _pg_schema_url()
    try:
        (gid,) = _stored_hands(db, 1)
        store = Store(db)
        try:
            for big in (2**31, 2**63 - 1, -(2**31) - 1):
                with pytest.raises(GameNotFound, match=f"no game with id {big}"):
                    store.load_game(big)
            assert store.load_game(gid, hand=2**31).hands == []
            assert [r.game.id for r in list_history(store, kinds=["play"], mine=[2**31, gid])] == [gid]
            assert list_history(store, kinds=["play"], mine=[2**31], mine_only=True) == []
        finally:
            store.close()
        try:
            client = TestClient(create_app(db, Settings(**SLOW_PEOPLE))).__enter__()
        except StoreBusy:
            pytest.skip("another test run's server holds this PostgreSQL database now")
        try:
            for path in (
                "/api/games/2147483648",
                "/api/games/2147483648/review",
                f"/api/games/{gid}/hands/2147483648/frames",
            ):
                r = client.get(path)
                assert r.status_code == 404, (path, r.text)
            r = client.get(f"/api/games?mine=2147483648,{gid}&kinds=play")
            assert r.status_code == 200 and [g["id"] for g in r.json()] == [gid], r.text
        finally:
            client.__exit__(None, None, None)
    finally:
        drop()
