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
    code = (
        "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
        "c.execute('select count(*) from games').fetchall(); c.close()"
    )
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
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=_env()
    )
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
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(db), "25"], stdout=subprocess.PIPE, text=True, env=_env())
        for _ in range(4)
    ]
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


# --------------------------------------------------------------------------- a real `shangrao serve`
CLI = "import sys; from shangrao.cli import main; sys.argv[0] = 'shangrao'; main()"
#: people who think for ever, bots that answer at once, no pause: the test decides when things happen
SERVE_ENV = {
    "SHANGRAO_BOT_DELAY": "0",
    "SHANGRAO_CLAIM_PAUSE": "0",
    "SHANGRAO_CLAIM_TIMEOUT": "600",
    "SHANGRAO_TURN_TIMEOUT": "600",
    "SHANGRAO_ABSENT_TIMEOUT": "600",
    "SHANGRAO_NEXT_HAND_TIMEOUT": "600",
    "SHANGRAO_MESSAGES_PER_SECOND": "10000",
    "SHANGRAO_TABLES_PER_MINUTE": "10000",
}


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_server(db: Path, port: int, log: Path) -> subprocess.Popen:
    import time

    import httpx

    env = {**_env(), **SERVE_ENV}
    with open(log, "ab") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                CLI,
                "serve",
                "--db",
                str(db),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--no-browser",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )
    deadline = time.monotonic() + 30
    while True:
        assert proc.poll() is None, log.read_text()
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/server", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "the server did not start in 30 s: " + log.read_text()
        time.sleep(0.1)


class _Seat:
    """Seat 0's WebSocket: every message, and the last state."""

    def __init__(self, port: int, table_id: int, token: str) -> None:
        from websockets.sync import client

        self._cm = client.connect(f"ws://127.0.0.1:{port}/ws/{table_id}/{token}", compression=None, proxy=None)
        self.ws = self._cm.__enter__()
        self.state: dict | None = None

    def next_state(self) -> dict:
        import json

        while True:
            m = json.loads(self.ws.recv(timeout=10))
            if m["type"] == "state" and m["view"] is not None:
                self.state = m
                return m
            assert m["type"] in ("state", "notice", "pong", "phrase"), m

    def close(self) -> None:
        self._cm.__exit__(None, None, None)


def _shown(state: dict) -> tuple:
    """What a state showed the player, less the countdown."""
    return state["hand_no"], state["seq"], state["view"], state["legal"], state["log"]


HANDS = 16


def test_a_served_table_loses_nothing_to_outside_writers_and_kill_9(tmp_path):
    """The issue's must-show: `shangrao serve` on SQLite plays a table (bots in three seats, the test
    in seat 0) while another process opens and closes the database every second and `simulate` and
    `arena` write to the same file; then the server is killed (-9) and started again."""
    import json
    import random
    import threading
    import time

    httpx = pytest.importorskip("httpx")
    pytest.importorskip("websockets.sync.client")
    db, log = tmp_path / "served.sqlite3", tmp_path / "serve.log"
    port = _free_port()
    server = _start_server(db, port, log)
    stop = threading.Event()
    outside = {"opened": 0, "ids": [], "errors": []}

    def open_and_close() -> None:  # the sqlite3 module in another process, every second
        while not stop.wait(1.0):
            try:
                _outside_open_and_close(db)
                outside["opened"] += 1
            except Exception as err:  # reported by the test below
                outside["errors"].append(repr(err))

    def writers() -> None:  # the README's commands on the same default file, beside the server
        for args in (
            ["simulate", "--engine", "python", "--hands", "8"],
            ["arena", "--bots", "greedy,random", "-n", "1", "--engine", "python"],
            ["simulate", "--engine", "python", "--hands", "4", "--seed", "5"],
        ):
            if stop.is_set():
                return
            res = subprocess.run(
                [sys.executable, "-c", CLI, *args, "--db", str(db), "--json"],
                capture_output=True,
                text=True,
                env=_env(),
                timeout=60,
            )
            if res.returncode != 0:
                outside["errors"].append(res.stderr[-500:])
            else:
                outside["ids"] += json.loads(res.stdout)["storage"]["game_ids"]

    threads = [threading.Thread(target=open_and_close, daemon=True), threading.Thread(target=writers, daemon=True)]
    seat = None
    try:
        r = httpx.post(
            f"http://127.0.0.1:{port}/api/tables", json={"hands": HANDS, "seats": ["random"] * 3}, timeout=10
        )
        assert r.status_code == 200, r.text
        table_id, token = r.json()["id"], r.json()["token"]
        for t in threads:
            t.start()
        seat = _Seat(port, table_id, token)
        rng = random.Random(34)
        played, deadline = 0, time.monotonic() + 45
        state = seat.next_state()
        while True:
            assert time.monotonic() < deadline, "the table did not play on"
            done = played >= 20 and not threads[1].is_alive() and outside["opened"] >= 3
            if state["legal"] and done:
                break  # the server waits for seat 0 now: nothing moves until it is killed
            if state["view"]["phase"] == "over" and state["hand_no"] < HANDS - 1:
                seat.ws.send(json.dumps({"type": "ready"}))
            elif state["legal"]:
                time.sleep(0.2)  # a person's pace: the outside writers run meanwhile
                a = rng.choice(state["legal"])
                seat.ws.send(
                    json.dumps({"type": "action", "action": a["action"], "seq": state["seq"], "hand": state["hand_no"]})
                )
                played += 1
            elif state["view"]["phase"] == "over":  # the match is over before the test has seen enough
                pytest.fail(f"the match ended: play more hands ({state['hand_no']}, {state['table']})")
            state = seat.next_state()
        last = _shown(state)
        copy = tmp_path / "backup.sqlite3"  # `shangrao backup` of the live database, the server still up
        res = subprocess.run(
            [sys.executable, "-c", CLI, "backup", str(copy), "--db", str(db)],
            capture_output=True,
            text=True,
            env=_env(),
            timeout=60,
        )
        assert res.returncode == 0 and "integrity check: ok" in res.stdout, res.stderr
    finally:
        stop.set()
        if seat is not None:
            seat.close()
        server.kill()  # kill -9: nothing of the server's own is cleaned up
        server.wait(10)
        for t in threads:
            t.join(60)
    assert outside["errors"] == []  # no outside writer failed or waited in vain beside the server
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        kinds = dict(conn.execute("SELECT id, kind FROM games").fetchall())
    finally:
        conn.close()
    ids = [table_id, *outside["ids"]]
    assert len(ids) == len(set(ids)) == len(kinds)  # no two writers numbered two games alike, none lost
    assert kinds[table_id] == "web" and "web" not in {kinds[g] for g in outside["ids"]}
    with Store(str(db)) as st:
        rec = st.load_game(table_id)
        assert rec.hands_played == last[0]  # every hand shown finished is stored
        assert len(rec.pending.get(last[0], [])) >= last[1] > 0  # and the events of the one in progress
    with Store(str(copy), read_only=True) as st:  # the copy holds what the server had stored
        rec = st.load_game(table_id)
        assert rec.hands_played == last[0] and len(rec.pending.get(last[0], [])) >= last[1]
        assert {g.id for g in st.list_games()} == set(ids)
    server = _start_server(db, port, log)  # started again on the same file
    try:
        seat = _Seat(port, table_id, token)
        try:
            assert _shown(seat.next_state()) == last  # it resumes at the same hand and seq, the same view
        finally:
            seat.close()
    finally:
        server.kill()
        server.wait(10)


def test_backup_refuses_an_existing_file_postgresql_and_a_missing_database(tmp_path):
    from shangrao.records import RecordError
    from shangrao.records.backup import backup_sqlite

    db = tmp_path / "b.sqlite3"
    with Store(str(db)) as st:
        st.create_game("play", ["human"] * 4, seed=3, rules={})
    assert backup_sqlite(str(db), tmp_path / "copy.sqlite3") == 1
    with pytest.raises(RecordError, match="exists"):
        backup_sqlite(str(db), tmp_path / "copy.sqlite3")
    with pytest.raises(RecordError, match="pg_dump"):
        backup_sqlite("postgresql+psycopg://u@127.0.0.1/x", tmp_path / "pg.sqlite3")
    with pytest.raises(RecordError, match="no database"):
        backup_sqlite(str(tmp_path / "none.sqlite3"), tmp_path / "n.sqlite3")
    assert sorted(p.name for p in tmp_path.iterdir() if "copy" in p.name or "partial" in p.name) == ["copy.sqlite3"]


def test_backup_of_a_path_with_odd_characters_and_its_bad_destinations_are_one_line_each(tmp_path):
    """``shangrao backup`` as an operator may call it: a database and a copy whose paths hold a space,
    ``#``, ``?``, ``%20`` and CJK (once read as a URL: ``?`` cut the path and ``%20`` became a space,
    so another file was used); a directory, the database itself (by another spelling too), an empty
    name, a missing directory and an unwritable one are refused in one line, exit 2, nothing left."""
    import os
    import stat

    from typer.testing import CliRunner

    from shangrao.cli import app

    odd = tmp_path / "odd dir #?%20&"
    odd.mkdir()
    db = odd / "db 中 #1?.sqlite3"
    with Store(str(db)) as st:
        st.create_game("play", ["human"] * 4, seed=3, rules={})
    assert sorted(p.name for p in tmp_path.iterdir()) == [odd.name]  # no file named by a cut path
    runner = CliRunner()
    copy = tmp_path / "copy ?%41 中.sqlite3"
    res = runner.invoke(app, ["backup", str(copy), "--db", str(db)])
    assert res.exit_code == 0 and "backed up 1 game(s)" in res.output, res.output
    with Store(str(copy)) as st:
        assert len(st.list_games()) == 1
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(stat.S_IRUSR | stat.S_IXUSR)
    bad = {
        str(tmp_path): "is a directory",
        str(db): "is the database itself",
        str(odd / ".." / odd.name / db.name): "is the database itself",
        "": "give the backup's file name",
        str(tmp_path / "nodir" / "x.sqlite3"): "is not a directory",
    }
    if os.geteuid() != 0:  # root writes anywhere
        bad[str(locked / "x.sqlite3")] = "cannot write in"
    for dest, words in bad.items():
        res = runner.invoke(app, ["backup", dest, "--db", str(db)])
        assert res.exit_code == 2 and words in res.output and len(res.output.strip().splitlines()) == 1, (
            dest,
            res.output,
        )
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([odd.name, copy.name, "locked"])
    assert list(locked.iterdir()) == []
