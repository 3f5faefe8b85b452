"""One server plays a database's live tables (issue 25): a second ``serve`` on the same store is
refused and the records stay whole; a killed server leaves nothing locked; a server on read-only
storage serves history and replays and says why no table can be played."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import warnings

import pytest
from typer.testing import CliRunner

from shangrao.cli import app as cli_app
from shangrao.cli import serve_cmd
from shangrao.game import Game, replay
from shangrao.records import Store
from shangrao.records.owner import StoreBusy, check_free, lock_path, own_live_tables
from shangrao.records.summary import hand_summary
from shangrao.rules import DEFAULT_RULES
from shangrao.web import Settings
from shangrao.web.app import create_app

from .conftest import SLOW_PEOPLE, connect_all, new_table, step
from .waiting import wait_until

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def _every_stored_game_replays(url: str) -> int:
    """Replay every stored hand and every hand in progress of every game; returns the games seen."""
    with Store(url) as st:
        games = st.list_games()
        for g in games:
            rec = st.load_game(g.id)
            for h in rec.hands:
                assert replay(h.events).result is not None, (g.id, h.index)
            for hand, events in rec.pending.items():
                assert hand == len(rec.hands), (g.id, hand, len(rec.hands))  # no orphan rows of another hand
                replay(events)
    return len(games)


def stored_finished_game(store: Store, seed: int, kind: str = "play") -> int:
    """A finished one-hand game played by random choices, stored through the Store API."""
    g = Game(DEFAULT_RULES, seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()), seat=g.current_seat)
    gid = store.create_game(kind, ["random"] * 4, seed=seed, rules=DEFAULT_RULES)
    assert g.result is not None
    store.append_hand(gid, 0, g.dealer, g.events, hand_summary(g.result, g.events), scores_after=list(g.result.scores))
    store.finish_game(gid)
    return gid


def test_a_second_server_on_the_same_sqlite_file_is_refused_and_every_game_replays(make_client, db_url):
    c1 = make_client()
    rng = random.Random(25)
    tables = []
    for _ in range(3):
        tid, tokens = new_table(c1)
        seats = connect_all(c1, tid, tokens)
        for _ in range(6):
            assert step(seats, rng)
        tables.append(seats)
    second = TestClient(create_app(db_url, Settings(**SLOW_PEOPLE)))
    with pytest.raises(StoreBusy, match="another shangrao serve is playing the tables of"):
        second.__enter__()  # its startup (which would resume the three tables) is refused
    for seats in tables:  # the first server plays on, alone
        while step(seats, rng):
            pass
    assert _every_stored_game_replays(db_url) == 3
    for g in Store(db_url).list_games():  # and `shangrao replay` agrees with every stored result
        res = CliRunner().invoke(cli_app, ["replay", str(g.id), "--db", db_url])
        assert res.exit_code == 0, res.output
    for seats in tables:
        for s in seats:
            s.close()
    c1.__exit__(None, None, None)
    # the first one stopped: its ownership was given back and the database can be served again
    check_free(Store(db_url))


def test_a_second_serve_command_exits_3_with_one_line(tmp_path, monkeypatch):
    db = tmp_path / "r.sqlite3"
    holder = own_live_tables(Store(str(db)))
    bound = []
    monkeypatch.setattr(serve_cmd, "_bind", lambda host, port: bound.append(port))
    monkeypatch.setattr(serve_cmd, "_serve", lambda app, sock, **kw: None)
    try:
        res = CliRunner().invoke(cli_app, ["serve", "--db", str(db), "--no-browser"])
    finally:
        holder.release()
    assert res.exit_code == 3, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: another shangrao serve is playing the tables of")
    assert bound == []  # refused before it listens
    assert CliRunner().invoke(cli_app, ["serve", "--db", str(db), "--no-browser"]).exit_code == 0


def test_a_killed_server_leaves_the_database_free(tmp_path):
    db = tmp_path / "k.sqlite3"
    Store(str(db)).close()
    code = (
        "import sys, time; from shangrao.records import Store; from shangrao.records.owner import own_live_tables;"
        f"held = own_live_tables(Store({str(db)!r})); print('owned', flush=True); sys.stdin.read()"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "owned"
        with pytest.raises(StoreBusy):
            check_free(Store(str(db)))
    finally:
        proc.kill()  # SIGKILL: no clean-up of its own
        proc.wait(10)
    check_free(Store(str(db)))  # the operating system dropped the lock with the process
    assert lock_path(Store(str(db))) == db.with_name("k.sqlite3.lock")


def test_a_second_server_on_the_same_postgresql_database_is_refused():
    url = os.environ.get("SHANGRAO_TEST_PG_URL")
    if not url:
        pytest.skip("SHANGRAO_TEST_PG_URL is not set")
    pytest.importorskip("psycopg")
    first, second = Store(url), Store(url)
    try:
        try:
            held = own_live_tables(first)
        except StoreBusy:
            pytest.skip("another test run's server holds this PostgreSQL database now")
        try:
            with pytest.raises(StoreBusy):
                own_live_tables(second)
        finally:
            held.release()
        own_live_tables(second).release()  # given back: the next server may take it
    finally:
        first.close()
        second.close()


def test_serve_on_read_only_storage_serves_history_and_says_why_tables_cannot_be_played(tmp_path):
    path = tmp_path / "ro.sqlite3"
    with Store(str(path)) as st:
        gid = stored_finished_game(st, 7, kind="web")
    url = f"sqlite:///file:{path}?mode=ro&uri=true"  # what a read-only file or medium refuses: every write
    with TestClient(create_app(url, Settings(**SLOW_PEOPLE))) as c:
        why = c.get("/api/server").json()["read_only"]
        assert why and "cannot be written" in why and "readonly" in why and str(path) not in why
        assert [g["id"] for g in c.get("/api/games").json()] == [gid]
        assert c.get(f"/api/games/{gid}").status_code == 200
        assert c.get(f"/api/games/{gid}/hands/0/frames").json()["frames"]
        assert c.get("/history").status_code == 200 and c.get("/").status_code == 200
        r = c.post("/api/tables", json={"hands": 1})
        assert r.status_code == 503 and r.json()["detail"] == why
    with TestClient(create_app(str(path), Settings(**SLOW_PEOPLE))) as c:  # the same file, writable
        assert c.get("/api/server").json()["read_only"] is None


def test_a_server_whose_postgresql_lock_was_taken_over_stops_playing():
    url = os.environ.get("SHANGRAO_TEST_PG_URL")
    if not url:
        pytest.skip("SHANGRAO_TEST_PG_URL is not set")
    pytest.importorskip("psycopg")
    from sqlalchemy import text

    from shangrao.records.owner import ADVISORY_KEY
    from shangrao.web.app import TOOK_OVER

    app = create_app(url, Settings(**SLOW_PEOPLE), resume=False)
    try:
        c = TestClient(app)
        c.__enter__()
    except StoreBusy:
        pytest.skip("another test run's server holds this PostgreSQL database now")
    other = Store(url)
    taken = None
    try:
        assert c.post("/api/tables", json={"hands": 1}).status_code == 200
        with other.engine.connect() as conn:  # the lock's connection is cut, as by a database restart
            pid = conn.execute(
                text(
                    "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = :hi AND objid = :lo"
                ),
                {"hi": ADVISORY_KEY >> 32, "lo": ADVISORY_KEY & 0xFFFFFFFF},
            ).scalar()
            assert pid is not None
            conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            conn.commit()

        def take():  # the database drops the lock with that session: a second server takes it
            try:
                return own_live_tables(other)
            except StoreBusy:
                return None

        taken = wait_until(take, 5, "the lock to be free")
        c.portal.call(app.state.check_owner)  # the first one's check finds out
        assert c.get("/api/server").json()["read_only"] == TOOK_OVER
        r = c.post("/api/tables", json={"hands": 1})
        assert r.status_code == 503 and r.json()["detail"] == TOOK_OVER
        assert app.state.manager.tables == {}
    finally:
        if taken is not None:
            taken.release()
        other.close()
        c.__exit__(None, None, None)


def test_a_hard_link_to_the_database_is_the_same_database(tmp_path):
    """The sidecar lock is named by the path; a second name of the same file (a hard link) must not
    get a lock of its own (two writers, two WAL files on one database)."""
    path = tmp_path / "g.sqlite3"
    store = Store(f"sqlite:///{path}")
    owner = own_live_tables(store)
    store.close()  # (its WAL is named by the path too: closed, the other name opens cleanly)
    os.link(path, tmp_path / "other-name.sqlite3")
    with pytest.raises(StoreBusy):
        check_free(Store(f"sqlite:///{tmp_path / 'other-name.sqlite3'}"))
    owner.release()
    check_free(Store(f"sqlite:///{tmp_path / 'other-name.sqlite3'}"))  # free once the first lets go


def test_a_read_only_server_serves_history_beside_the_server_that_plays(make_client, db_url, tmp_path):
    c1 = make_client()
    new_table(c1)  # a table in play on the writing server
    path = db_url.removeprefix("sqlite:///")
    with TestClient(create_app(f"sqlite:///file:{path}?mode=ro&uri=true", Settings(**SLOW_PEOPLE))) as ro:
        assert ro.get("/api/server").json()["read_only"]
        assert ro.get("/api/games").status_code == 200
        assert ro.post("/api/tables", json={"hands": 1, "seats": ["greedy"] * 3}).status_code == 503
    c1.__exit__(None, None, None)
