"""No record is lost, whatever runs beside the server (issue 34): a process that holds SQLite
connections never opens and closes the database file outside SQLite (on POSIX that drops all of the
process's ``fcntl`` locks on it, SQLite's included, and the next outside connection to close deletes
the WAL the server still writes into); writers beside a server wait for each other and never number
two games alike; a server notices a WAL that has gone; a live database can be backed up."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from shangrao.records import Store

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX locks (fcntl) and kill -9")

#: a process like ``shangrao serve`` on the records: it opens the store, checks and takes the ownership
#: as ``serve`` does, then writes a game per line it is sent ("game") and says its id; "hold" stops
HOLDER = textwrap.dedent("""
    import sys
    from shangrao.records import Store
    from shangrao.records.owner import check_free, own_live_tables
    store = Store(sys.argv[1])
    check_free(store)             # what `serve` does before it listens
    owner = own_live_tables(store)  # and in its lifespan
    print("ready", flush=True)
    for line in sys.stdin:
        if line.strip() == "game":
            gid = store.create_game("web", ["human"] * 4, seed=1, rules={})
            store.append_event(gid, 0, {"type": "deal", "n": gid})
            print(gid, flush=True)
""")


def _env() -> dict:
    env = dict(os.environ)
    src = str(Path(__file__).resolve().parents[2] / "src")
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _ask(proc: subprocess.Popen, line: str) -> str:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(line + "\n")
    proc.stdin.flush()
    return proc.stdout.readline().strip()


def _outside_open_and_close(path: Path) -> None:
    """What `sqlite3 DB 'select …'`, a monitoring script or `shangrao games` in another process does."""
    code = ("import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
            "c.execute('select count(*) from games').fetchall(); c.close()")
    subprocess.run([sys.executable, "-c", code, str(path)], check=True, timeout=30)


def _game_ids(path: Path) -> list[int]:
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return [r[0] for r in conn.execute("SELECT id FROM games ORDER BY id")]
    finally:
        conn.close()


def test_an_outside_connection_that_closes_never_takes_the_wal_of_a_serving_process(tmp_path):
    db = tmp_path / "live.sqlite3"
    Store(str(db)).close()
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, env=_env())
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        first = int(_ask(proc, "game"))
        _outside_open_and_close(db)  # before the fix: this checkpointed and deleted the holder's WAL
        later = [int(_ask(proc, "game")) for _ in range(3)]
        assert Path(f"{db}-wal").exists()  # the holder's WAL is still the file of that name
        assert _game_ids(db) == [first, *later]  # a fresh connection sees the later commits
    finally:
        proc.kill()  # kill -9: nothing of its own is cleaned up
        proc.wait(10)
    assert _game_ids(db) == [first, *later]  # and they survive it
    with Store(str(db)) as st:
        assert [st.load_game(g).pending for g in later] == [{0: [{"type": "deal", "n": g}]} for g in later]


def test_a_store_notices_its_wal_deleted_under_it_and_writes_where_others_see_again(tmp_path):
    db = tmp_path / "w.sqlite3"
    store = Store(str(db))
    try:
        first = store.create_game("web", ["human"] * 4, seed=1, rules={})
        assert store.check_wal() is None  # its connections write into the WAL of that name
        os.unlink(f"{db}-wal")  # what `rm`, a restore, or another process's SQLite that believed it was last does
        problem = store.check_wal()
        assert problem is not None and "deleted" in problem and str(db) not in problem
        assert store.wal_losses == 1 and store.wal_problem == problem
        later = store.create_game("web", ["human"] * 4, seed=2, rules={})
        assert store.check_wal() is None  # reopened: the new WAL is the file of that name
        assert later in _game_ids(db)  # another process's connection sees what it writes now
    finally:
        store.close()
    assert first > 0


def test_a_server_says_in_its_api_and_metrics_that_its_wal_was_deleted(tmp_path):
    import warnings

    from shangrao.web import Settings
    from shangrao.web.app import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    db = tmp_path / "s.sqlite3"
    app = create_app(str(db), Settings(), resume=False)
    with TestClient(app) as c:
        assert c.get("/api/server").json()["records_problem"] is None
        assert c.post("/api/tables", json={"hands": 1}).status_code == 200
        os.unlink(f"{db}-wal")
        c.portal.call(app.state.check_wal)  # what its timer does every WAL_CHECK_SECONDS
        assert "WAL file (<database>-wal) was deleted" in c.get("/api/server").json()["records_problem"]
        assert "shangrao_wal_losses_total 1.0" in c.get("/metrics").text
        assert c.post("/api/tables", json={"hands": 1}).status_code == 200
    assert len(_game_ids(db)) == 2


WRITER = textwrap.dedent("""
    import sys
    from shangrao.records import Store
    store = Store(sys.argv[1])
    ids = []
    for i in range(int(sys.argv[2])):
        gid = store.create_game("simulate", ["random"] * 4, seed=i, rules={})
        store.append_hand(gid, 0, 0, [{"type": "deal"}], {"deltas": [1, -1, 0, 0]})
        store.finish_game(gid)
        ids.append(gid)
    print(" ".join(map(str, ids)))
""")


def test_concurrent_writer_processes_never_number_two_games_alike(tmp_path):
    db = tmp_path / "ids.sqlite3"
    Store(str(db)).close()
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(db), "25"], stdout=subprocess.PIPE, text=True,
                              env=_env()) for _ in range(4)]
    try:
        outs = [p.communicate(timeout=120)[0] for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait(10)
    assert [p.returncode for p in procs] == [0] * 4  # none failed waiting for another's lock
    ids = [int(x) for out in outs for x in out.split()]
    assert len(ids) == 100 and len(set(ids)) == 100  # ids come from the database: no two alike
    assert sorted(ids) == _game_ids(db)
    with Store(str(db)) as st:
        assert all(st.load_game(g).hands_played == 1 for g in ids)
