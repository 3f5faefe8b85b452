"""Migrations of the records database (shangrao.records.migrations): a database written by the release
before them (``fixtures/v1.sqlite3``, made by ``fixtures/make_v1.py``) is upgraded and every game in
it replays; a newer one is refused; one that cannot be upgraded says why; read-only storage is read
as it is."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from shangrao.cli import app as cli_app
from shangrao.game import replay
from shangrao.records import Store
from shangrao.records.migrations import BASELINE, HEAD, SchemaError, upgrade
from shangrao.records.schema import Base

FIXTURE = Path(__file__).parent / "fixtures" / "v1.sqlite3"


@pytest.fixture
def old_db(tmp_path) -> Path:
    path = tmp_path / "old.sqlite3"
    shutil.copy(FIXTURE, path)
    return path


def _revision(path: Path) -> str | None:
    conn = sqlite3.connect(path)
    try:
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        return None if row is None else row[0]
    except sqlite3.OperationalError:
        return None
    finally:
        conn.close()


def check_every_game_replays(store: Store) -> int:
    """Every stored hand replays to its stored result; every live hand replays as far as it went."""
    hands = 0
    games = store.list_games()
    assert [g.mode for g in sorted(games, key=lambda g: g.id)] == ["simulate"] * 3 + ["play", "web"]
    for summary in games:
        rec = store.load_game(summary.id)
        for h in rec.hands:
            g = replay(h.events)
            assert list(g.result.deltas) == h.result["deltas"], (summary.id, h.index)
            hands += 1
        for events in rec.pending.values():
            assert replay(events).events == events
            hands += 1
    return hands


def check_rooms_work(store: Store, game_id: int) -> None:
    """The rooms' tables (revision 0003) on an upgraded database: a room, a member, a match, its 战绩."""
    from shangrao.records.rooms import add_member, add_room_game, create_room, load_room, standings

    room = create_room(store, "004242", "升级后", 1, {}, "老王", "a" * 64)
    add_member(store, room.code, "小李", "b" * 64)
    add_room_game(store, room.id, game_id)
    again = load_room(store, room.code)
    assert [m.name for m in again.members] == ["老王", "小李"] and again.games == [game_id]
    rec = store.load_game(game_id)
    assert standings(store, again)["totals"] == [sum(h.result["deltas"][i] for h in rec.hands) for i in range(4)]


def test_the_fixture_is_a_database_of_the_release_before_migrations():
    assert _revision(FIXTURE) is None
    conn = sqlite3.connect(FIXTURE)
    kinds = conn.execute("SELECT kind, status FROM games ORDER BY id").fetchall()
    live = conn.execute("SELECT game_id, count(*) FROM events GROUP BY game_id").fetchall()
    conn.close()
    assert kinds == [("simulate", "finished")] * 3 + [("play", "unfinished"), ("web", "unfinished")]
    assert {g for g, n in live if n > 0} == {4, 5}  # the play hand and the web table's hand in progress


def test_a_database_of_the_previous_release_is_upgraded_and_every_game_replays(old_db):
    with Store(old_db) as store:
        assert check_every_game_replays(store) == 6 + 1 + 2
        # the live hands go on: events append after the upgrade, and a hand completes from them
        rec = store.load_game(4)
        n = len(rec.pending[0])
        assert store.append_event(4, 0, rec.pending[0][-1]) == n
    assert _revision(old_db) == HEAD
    with Store(old_db) as store:  # opened again: nothing to do
        assert len(store.load_game(4).pending[0]) == n + 1
        check_rooms_work(store, 1)  # revision 0003: rooms, over a game of the old release
    assert _revision(old_db) == HEAD


def test_shangrao_replay_shows_every_game_of_an_upgraded_database(old_db):
    runner = CliRunner()
    Store(old_db).close()
    for gid in range(1, 6):
        res = runner.invoke(cli_app, ["replay", str(gid), "--db", str(old_db)])
        assert res.exit_code == 0, (gid, res.output)


def test_serve_opens_an_old_database_and_upgrades_it(old_db, monkeypatch):
    from shangrao.cli import serve_cmd

    ran = []
    monkeypatch.setattr(serve_cmd, "_bind", lambda host, port: None)
    monkeypatch.setattr(serve_cmd, "_serve", lambda app, sock, **kw: ran.append(app))
    res = CliRunner().invoke(cli_app, ["serve", "--no-browser", "--db", str(old_db)])
    assert res.exit_code == 0, res.output
    assert _revision(old_db) == HEAD
    (app,) = ran
    assert app.state.manager.read_only is None
    assert check_every_game_replays(app.state.store) == 9
    app.state.store.close()


def test_a_database_newer_than_this_code_is_refused_in_one_line(old_db, monkeypatch):
    from shangrao.cli import serve_cmd

    monkeypatch.setattr(serve_cmd, "_bind", lambda host, port: None)  # never a real server, whatever happens
    monkeypatch.setattr(serve_cmd, "_serve", lambda app, sock, **kw: None)
    Store(old_db).close()
    conn = sqlite3.connect(old_db)
    conn.execute("UPDATE alembic_version SET version_num = '9999'")
    conn.commit()
    conn.close()
    for read_only in (False, True):
        with pytest.raises(
            SchemaError,
            match=r"written by a newer shangrao \(schema revision 9999; "
            rf"this one knows up to {HEAD}\)",
        ):
            Store(old_db, read_only=read_only)
    for args in (["games"], ["serve", "--no-browser"], ["simulate", "--hands", "1"]):
        res = CliRunner().invoke(cli_app, [*args, "--db", str(old_db)])
        assert res.exit_code == 2, (args, res.output)
        lines = res.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and "newer shangrao" in lines[0], (args, lines)


def test_a_database_that_cannot_be_upgraded_says_why(old_db):
    conn = sqlite3.connect(old_db)
    conn.execute("DROP TABLE events")
    conn.commit()
    conn.close()
    with pytest.raises(
        SchemaError,
        match=rf"cannot upgrade the records database .* from schema revision "
        rf"{BASELINE} to {HEAD}: .*events",
    ):
        Store(old_db)
    assert _revision(old_db) is None  # nothing half done: the stamp went back with the failed step
    with pytest.raises(SchemaError, match="cannot upgrade"):  # and it says so again
        Store(old_db)


def test_an_old_database_opened_read_only_is_read_as_it_is(old_db):
    before = old_db.read_bytes()
    with Store(old_db, read_only=True) as store:
        assert check_every_game_replays(store) == 9
        from shangrao.records.rooms import RoomNotFound, load_room, room_of_game

        with pytest.raises(RoomNotFound):  # no rooms' tables before the upgrade: no room, not an error
            load_room(store, "123456")
        assert room_of_game(store, 1) is None
    assert _revision(old_db) is None and old_db.read_bytes() == before


def test_the_migrations_from_nothing_give_the_tables_of_the_code(tmp_path):
    """The baseline and every later revision, run on an empty database, end where ``create_all`` does."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    engine = create_engine(f"sqlite:///{tmp_path / 'm.sqlite3'}")
    with engine.begin() as conn:
        upgrade(conn, HEAD)
        diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), Base.metadata)
        assert diff == []
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == HEAD
    engine.dispose()
    Store(tmp_path / "m.sqlite3").close()  # and a Store opens it as current


def test_a_new_database_is_made_at_the_head_revision(tmp_path):
    Store(tmp_path / "new.sqlite3").close()
    assert _revision(tmp_path / "new.sqlite3") == HEAD


def test_serve_on_read_only_storage_opens_an_old_database_read_only_without_migrating(old_db):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # starlette's note on httpx, as in tests/web/conftest.py
        from fastapi.testclient import TestClient

    from shangrao.web import Settings
    from shangrao.web.app import create_app

    before = old_db.read_bytes()
    url = f"sqlite:///file:{old_db}?mode=ro&uri=true"  # every write refused, as on a read-only medium
    with TestClient(create_app(url, Settings())) as c:
        why = c.get("/api/server").json()["read_only"]
        assert why and "cannot be written" in why and "readonly" in why
        assert sorted(g["id"] for g in c.get("/api/games").json()) == [1, 2, 3, 4, 5]
        assert c.get("/api/games/1/hands/0/frames").json()["frames"]
    assert _revision(old_db) is None and old_db.read_bytes() == before
