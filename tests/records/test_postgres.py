"""The records layer on a real PostgreSQL server (the "PostgreSQL by URL" claim of shangrao.records).

The server comes from ``SHANGRAO_TEST_PG_URL`` (``.ci/run`` starts one and sets it), e.g.
``postgresql+psycopg://shangrao:shangrao@127.0.0.1:5432/shangrao_test``.  Without it these tests
are skipped, except under CI (``CI`` set) where a missing server is a failure, not a silent skip.

Each test gets a fresh schema of its own (``search_path`` in the URL's ``options``), dropped
afterwards, so reruns and parallel runs never see each other's games.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from shangrao.records import RecordError, Store
from shangrao.records.live import append_events, set_players, update_meta
from shangrao.records.schema import SCHEMA_VERSION
from shangrao.rules import DEFAULT_RULES

ENV_VAR = "SHANGRAO_TEST_PG_URL"


def require_pg_url(environ=os.environ) -> str:
    """The server URL, or skip (fail under CI) with a message saying how to provide one."""
    url = environ.get(ENV_VAR, "").strip()
    if url:
        return url
    msg = (
        f"{ENV_VAR} is not set: the PostgreSQL records tests need a server URL such as "
        f"postgresql+psycopg://shangrao:shangrao@127.0.0.1:5432/shangrao_test "
        f"(.ci/run starts a server and sets it)"
    )
    if environ.get("CI"):
        pytest.fail(f"{msg}; CI is set, so this is a failure, not a skip", pytrace=False)
    pytest.skip(msg)


def test_missing_url_fails_under_ci_and_skips_otherwise():
    with pytest.raises(pytest.fail.Exception, match=f"{ENV_VAR} is not set.*CI is set"):
        require_pg_url({"CI": "true"})
    with pytest.raises(pytest.skip.Exception, match=f"{ENV_VAR} is not set"):
        require_pg_url({})
    assert require_pg_url({ENV_VAR: "postgresql+psycopg://h/db", "CI": "1"}) == "postgresql+psycopg://h/db"


@pytest.fixture(scope="session")
def pg_server() -> str:
    url = require_pg_url()
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.fail(f"{ENV_VAR} is set but the driver is missing: pip install 'shangrao[postgres]'", pytrace=False)
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as err:
        pytest.fail(f"{ENV_VAR}={url!r}: cannot connect: {' '.join(str(err).split())[:300]}", pytrace=False)
    finally:
        engine.dispose()
    return url


def _with_search_path(url: str, schema: str) -> str:
    from sqlalchemy.engine import make_url

    u = make_url(url)
    return u.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)


@pytest.fixture
def pg_url(pg_server):
    """A URL whose connections work in a fresh, empty schema (dropped after the test)."""
    from sqlalchemy import create_engine, text

    schema = f"shangrao_t_{uuid.uuid4().hex[:16]}"
    admin = create_engine(pg_server)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield _with_search_path(pg_server, schema)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture
def store(pg_url):
    s = Store(pg_url)
    yield s
    s.close()


def _result(deltas, **extra):
    return {"winners": [0], "patterns": ["平糊自摸"], "deltas": deltas, **extra}


#: events with what SQLite forgives and PostgreSQL may not: non-ASCII, big ints, floats, nesting, nulls
_EVENTS = [
    {"type": "deal", "bao": "5p", "dice": [3, 4], "hands": [[0, 1, 2], [135, 134], [], [64]], "note": "宝 飞宝 宝吊头"},
    {"type": "draw", "seat": 1, "kind": None, "big": 2**62 + 1, "neg": -(2**40), "f": 0.1, "flag": True},
    {"type": "win", "seat": 0, "nested": {"a": {"b": [1, {"c": "十三浪"}]}}, "empty": {}, "text": "x" * 20000},
]


def test_pg_store_round_trip(store, pg_url):
    """create, live events, hands in separate transactions (two Store objects), load, list, finish."""
    max_seed, min_seed = 2**63 - 1, -(2**63)
    gid = store.create_game(
        "simulate",
        ["greedy", "greedy", "random", "random"],
        seed=max_seed,
        rules=DEFAULT_RULES,
        meta={"run": "宝", "n": 1},
    )
    other = store.create_game("play", ["human", "greedy", "greedy", "greedy"], seed=min_seed)
    assert store.append_event(gid, 0, _EVENTS[0]) == 0
    assert store.append_event(gid, 0, _EVENTS[1]) == 1
    assert store.load_game(gid).pending == {0: _EVENTS[:2]}
    store.append_hand(gid, 0, dealer=0, events=None, result=_result([6, -2, -2, -2], breakdown="2×3 番"))
    second = Store(pg_url)  # its own connections: the first hand is committed, not just flushed
    try:
        assert second.load_game(gid).hands_played == 1
        second.append_hand(gid, 1, dealer=1, events=_EVENTS, result=_result([-1, 3, -1, -1]))
    finally:
        second.close()
    store.append_hand(gid, 2, dealer=1, events=[], result={"drawn": True, "deltas": [0, 0, 0, 0]})

    g = store.load_game(gid)
    assert g.seed == max_seed and store.load_game(other).seed == min_seed
    assert g.mode == "simulate" and g.status == "unfinished" and g.players == ["greedy", "greedy", "random", "random"]
    assert g.rules == DEFAULT_RULES.to_dict() and g.meta == {"run": "宝", "n": 1, "schema": SCHEMA_VERSION}
    assert [h.index for h in g.hands] == [0, 1, 2] and [h.dealer for h in g.hands] == [0, 1, 1]
    assert g.hands[0].events == _EVENTS[:2]
    assert g.hands[1].events == _EVENTS
    assert g.hands[2].events == []
    assert g.hands[0].result == _result([6, -2, -2, -2], breakdown="2×3 番")
    assert g.hands[2].result == {"drawn": True, "deltas": [0, 0, 0, 0]}
    assert [h.scores_after for h in g.hands] == [[6, -2, -2, -2], [5, 1, -3, -3], [5, 1, -3, -3]]
    assert g.scores == [5, 1, -3, -3] and g.pending == {}
    assert g.created.tzinfo is not None and g.updated >= g.created
    assert [h.index for h in store.load_game(gid, hand=1).hands] == [1]

    assert [s.id for s in store.list_games()] == [other, gid]
    assert [s.id for s in store.list_games(mode="simulate")] == [gid]
    assert store.list_games(status="finished") == []
    store.finish_game(gid, meta={"done": True})
    assert [s.id for s in store.list_games(status="finished")] == [gid]
    assert store.list_games(status="finished")[0].meta["done"] is True
    assert store.count_games() == 2
    assert store.load_game(gid).status == "finished"
    with pytest.raises(RecordError, match="finished"):
        store.append_hand(gid, 3, 0, [], _result([0, 0, 0, 0]))


def test_pg_gap_or_repeat_hand_is_refused(store):
    gid = store.create_game("simulate", ["greedy"] * 4, seed=1)
    with pytest.raises(RecordError, match="next hand is 0"):
        store.append_hand(gid, 1, 0, [], _result([0, 0, 0, 0]))
    store.append_hand(gid, 0, 0, [{"a": 1}], _result([6, -2, -2, -2]))
    with pytest.raises(RecordError, match="next hand is 1, not 0"):
        store.append_hand(gid, 0, 0, [], _result([0, 0, 0, 0]))
    with pytest.raises(RecordError, match="next hand is 1, not 2"):
        store.append_hand(gid, 2, 0, [], _result([0, 0, 0, 0]))
    with pytest.raises(RecordError):  # deltas do not fit the seats: nothing of the hand is written
        store.append_hand(gid, 1, 0, [{"a": 2}], {"deltas": [1, 2]})
    g = store.load_game(gid)
    assert g.hands_played == 1 and len(g.hands) == 1 and g.scores == [6, -2, -2, -2]
    store.append_hand(gid, 1, 1, [{"a": 2}], _result([0, 0, 0, 0]))  # the connection is still usable
    assert store.load_game(gid).hands_played == 2


def test_pg_unique_violation_is_a_record_error_and_rolls_back(store, pg_url):
    """A hand row already there (another writer won the race): PostgreSQL aborts the transaction;
    the Store reports it as a RecordError, keeps nothing of the hand, and carries on."""
    from sqlalchemy import create_engine, text

    gid = store.create_game("simulate", ["greedy"] * 4, seed=2)
    raw = create_engine(pg_url)
    with raw.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO hands (game_id, hand_index, dealer, events, result, scores_after, created) "
                "VALUES (:g, 0, 0, '', '{}', '[0,0,0,0]', now())"
            ),
            {"g": gid},
        )
    raw.dispose()
    with pytest.raises(RecordError, match="hand 0 is already stored"):
        store.append_hand(gid, 0, 0, [{"a": 1}], _result([6, -2, -2, -2]))
    g = store.load_game(gid)
    assert g.hands_played == 0 and g.scores == [0, 0, 0, 0]
    other = store.create_game("simulate", ["greedy"] * 4)
    store.append_hand(other, 0, 0, [], _result([1, -1, 0, 0]))
    assert store.load_game(other).scores == [1, -1, 0, 0]


def test_pg_json_refuses_what_postgresql_refuses(store):
    """NaN/Infinity are not JSON: PostgreSQL's json type rejects them, so the Store refuses them
    up front (a RecordError, as on SQLite) instead of a driver error half-way through."""
    gid = store.create_game("simulate", ["greedy"] * 4)
    for bad in (math.nan, math.inf):
        with pytest.raises(RecordError, match="JSON"):
            store.append_hand(gid, 0, 0, [{"x": bad}], _result([0, 0, 0, 0]))
        with pytest.raises(RecordError, match="JSON"):
            store.append_hand(gid, 0, 0, [], _result([0, 0, 0, 0], value=bad))
        with pytest.raises(RecordError, match="JSON"):
            store.append_event(gid, 0, {"x": bad})
        with pytest.raises(RecordError, match="JSON"):
            store.create_game("simulate", ["greedy"] * 4, meta={"x": bad})
        with pytest.raises(RecordError, match="JSON"):
            store.finish_game(gid, scores=[bad, 0, 0, 0])
    # PostgreSQL text columns cannot hold NUL: a kind with one is refused; inside JSON it is escaped
    with pytest.raises(RecordError, match="NUL"):
        store.create_game("simu\x00late", ["greedy"] * 4)
    odd = store.create_game("simulate", ["greedy", "gr\x00eedy", "greedy", "greedy"])
    assert store.load_game(odd).players[1] == "gr\x00eedy"
    assert store.count_games() == 2
    assert store.load_game(gid).hands_played == 0


def test_pg_live_table_helpers(store):
    """records.live (the web server's writes): one action's events in one transaction, meta, seats."""
    gid = store.create_game("play", ["human", "", "", ""], seed=9)
    assert append_events(store, gid, 0, _EVENTS[:2]) == 2
    assert append_events(store, gid, 0, [_EVENTS[2]]) == 3
    assert update_meta(store, gid, {"seats": {"0": "alice"}})["seats"] == {"0": "alice"}
    set_players(store, gid, ["human", "greedy", "greedy", "greedy"], meta_patch={"filled": [1, 2, 3]})
    with pytest.raises(RecordError, match="events go to hand 0"):
        append_events(store, gid, 1, [{"type": "deal"}])
    g = store.load_game(gid)
    assert g.pending == {0: _EVENTS} and g.players == ["human", "greedy", "greedy", "greedy"]
    assert g.meta["seats"] == {"0": "alice"} and g.meta["filled"] == [1, 2, 3]
    store.append_hand(gid, 0, 0, None, _result([3, -1, -1, -1]))
    g = store.load_game(gid)
    assert g.pending == {} and g.hands[0].events == _EVENTS


def test_pg_group_commit_of_several_tables_actions(store):
    from test_records_store import check_group_commit  # tests/records is on the path (no package)

    check_group_commit(store)


def test_pg_unreachable_server_is_a_record_error(pg_server):
    from sqlalchemy.engine import make_url

    url = make_url(pg_server).set(host="127.0.0.1", port=1).render_as_string(hide_password=False)
    with pytest.raises(RecordError, match="cannot open the records database") as info:
        Store(url)
    password = make_url(pg_server).password
    assert not password or f":{password}@" not in str(info.value)  # the message hides the password


# --------------------------------------------------------------------------- the CLI on PostgreSQL
def _shangrao() -> list[str]:
    exe = Path(sys.executable).with_name("shangrao")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("shangrao")
    return [found] if found else [sys.executable, "-c", "from shangrao.cli import main; main()"]


def _run(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "200"}
    env.pop("SHANGRAO_DB", None)
    return subprocess.run([*_shangrao(), *args], capture_output=True, text=True, timeout=600, env=env)


def _simulate(url: str) -> dict:
    proc = _run("simulate", "--hands", "16", "--seed", "3", "--db", url, "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _stored(url: str, ids: list[int]) -> list[tuple]:
    with Store(url) as s:
        out = []
        for gid in ids:
            g = s.load_game(gid)
            out.append(
                (
                    g.mode,
                    g.players,
                    g.seed,
                    g.rules,
                    g.status,
                    g.hands_played,
                    g.scores,
                    {k: v for k, v in g.meta.items()},
                    [(h.index, h.dealer, h.events, h.result, h.scores_after) for h in g.hands],
                )
            )
        return out


def test_pg_simulate_stores_hands_that_replay(pg_url):
    summary = _simulate(pg_url)
    ids = summary["storage"]["game_ids"]
    assert summary["hands"] == 16 and len(ids) == 16 // DEFAULT_RULES.hands_per_match
    assert "shangrao:shangrao@" not in summary["storage"]["db"]  # the password is not printed
    with Store(pg_url) as s:
        assert s.count_games() == len(ids)
        games = [s.load_game(gid) for gid in ids]
    assert sum(g.hands_played for g in games) == 16 and all(g.status == "finished" for g in games)
    from shangrao.selfplay import match_seed as _match_seed

    assert [g.seed for g in games] == [_match_seed(3, m) for m in range(len(ids))]  # 63-bit seeds, exact
    for gid in ids:
        proc = _run("replay", str(gid), "--db", pg_url)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.count("✓ replay of the events reproduces the stored result") == DEFAULT_RULES.hands_per_match
    listed = _run("games", "--db", pg_url, "--json")
    assert listed.returncode == 0, listed.stderr
    assert sorted(g["id"] for g in json.loads(listed.stdout)) == sorted(ids)


def test_pg_same_seed_stores_identical_results(pg_url):
    first, second = _simulate(pg_url), _simulate(pg_url)
    a, b = first["storage"]["game_ids"], second["storage"]["game_ids"]
    assert set(a).isdisjoint(b) and len(a) == len(b)
    strip = lambda s: {k: v for k, v in s.items() if k not in ("timing", "storage")}  # noqa: E731
    assert strip(first) == strip(second)
    assert _stored(pg_url, a) == _stored(pg_url, b)


def test_pg_a_compact_hand_loads_to_the_events_of_the_full_record(pg_url):
    """simulate's fast engine stores compact hands (bytea ``hands.decisions``, events NULL, revision
    0004) on PostgreSQL too; read back, they are the Python engine's records, event for event."""
    fast = _run("simulate", "--hands", "12", "--seed", "4", "--db", pg_url, "--json", "--engine", "fast")
    python = _run("simulate", "--hands", "12", "--seed", "4", "--db", pg_url, "--json", "--engine", "python")
    assert fast.returncode == 0 and python.returncode == 0, (fast.stderr, python.stderr)
    a, b = json.loads(fast.stdout)["storage"]["game_ids"], json.loads(python.stdout)["storage"]["game_ids"]
    with Store(pg_url) as s:
        assert all(h.compact for g in a for h in s.load_game(g).hands)
        assert not any(h.compact for g in b for h in s.load_game(g).hands)
    assert _stored(pg_url, a) == _stored(pg_url, b)


def test_pg_a_corrupt_compact_hand_is_refused_naming_game_and_hand(pg_url):
    from sqlalchemy import create_engine, text

    from shangrao.records.compact import CompactHandError

    gid = _simulate(pg_url)["storage"]["game_ids"][1]
    engine = create_engine(pg_url)
    with engine.begin() as conn:  # one decision's byte changed, as an edit by hand would
        conn.execute(
            text(
                "UPDATE hands SET decisions = overlay(decisions placing '\\x7f'::bytea from 50) "
                "WHERE game_id = :g AND hand_index = 3"
            ),
            {"g": gid},
        )
    engine.dispose()
    with Store(pg_url) as s:
        rec = s.load_game(gid)
        assert rec.hands[2].events[-1]["type"] == "end"
        with pytest.raises(CompactHandError, match=rf"^game {gid}, hand 3 \(0-based\): the compact record does not"):
            _ = rec.hands[3].events
    proc = _run("replay", str(gid), "--db", pg_url)
    assert proc.returncode == 1 and f"game {gid}, hand 3 (0-based)" in proc.stderr and "Traceback" not in proc.stderr


def test_pg_a_database_of_the_previous_release_is_upgraded_and_every_game_replays(pg_url):
    """The old schema (today's tables with ``events.event`` a JSON column, no ``alembic_version``) made by
    ``create_all`` in a fresh schema, filled with the rows of tests/records/fixtures/v1.sqlite3; a Store
    upgrades it and every game replays."""
    from sqlalchemy import JSON, MetaData, create_engine, insert, select, text
    from test_migrations import FIXTURE, check_every_game_replays, check_rooms_work  # tests/records is on sys.path

    from shangrao.records.migrations import HEAD
    from shangrao.records.schema import Base

    old = MetaData()
    for t in Base.metadata.sorted_tables:
        if t.name in ("games", "hands", "events"):  # the tables of schema 1 (the rooms came with 0003)
            t.to_metadata(old)
    old.tables["events"].c.event.type = JSON()  # schema 1
    src = create_engine(f"sqlite:///{FIXTURE}")  # only read
    dst = create_engine(pg_url)
    old.create_all(dst)
    with dst.begin() as b:  # schema 1 had no compact hands (revision 0004): hands.events NOT NULL, no decisions
        b.execute(text("ALTER TABLE hands DROP COLUMN decisions"))
        b.execute(text("ALTER TABLE hands ALTER COLUMN events SET NOT NULL"))
    with src.connect() as a, dst.begin() as b:
        for t in old.sorted_tables:  # games, hands, events: the old rows as they were
            rows = [dict(r._mapping) for r in a.execute(select(*(c for c in t.c if c.name != "decisions")))]
            if rows:
                b.execute(insert(t), rows)
        for name in ("games", "hands", "events"):  # the ids went in as they were: the sequences go on after them
            b.execute(text(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), (SELECT max(id) FROM {name}))"))
    with dst.connect() as conn:
        assert (
            conn.execute(
                text(
                    "SELECT data_type FROM information_schema.columns WHERE table_name = 'events' "
                    "AND column_name = 'event' AND table_schema = current_schema()"
                )
            ).scalar()
            == "json"
        )
    with Store(pg_url, read_only=True) as store:  # read as it is, before the upgrade
        assert check_every_game_replays(store) == 9
    with Store(pg_url) as store:
        assert check_every_game_replays(store) == 9
        gid = store.create_game("play", ["human"] + ["greedy"] * 3, seed=1)
        store.append_event(gid, 0, {"type": "deal", "note": "宝"})
        assert store.load_game(gid).pending == {0: [{"type": "deal", "note": "宝"}]}
        check_rooms_work(store, gid)  # revision 0003: the rooms' tables
    with dst.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == HEAD
        assert (
            conn.execute(
                text(
                    "SELECT data_type FROM information_schema.columns WHERE table_name = 'events' "
                    "AND column_name = 'event' AND table_schema = current_schema()"
                )
            ).scalar()
            == "text"
        )
    src.dispose()
    dst.dispose()


def test_pg_rooms_codes_members_and_standings(store):
    """Rooms on PostgreSQL (revision 0003): a live code is unique (the partial index), seats are
    taken in order and a fifth member is refused, the 战绩 is the sum of the stored hands."""
    from shangrao.records.rooms import CodeTaken, RoomFull, add_member, add_room_game, create_room, load_room, standings

    room = create_room(store, "000123", "周三局", 2, {}, "老王", "a" * 64)
    with pytest.raises(CodeTaken):
        create_room(store, "000123", "别的", 2, {}, "小李", "b" * 64)
    assert [add_member(store, "000123", n, c * 64).seat for n, c in (("小李", "b"), ("阿三", "c"), ("丁", "d"))] == [
        1,
        2,
        3,
    ]
    with pytest.raises(RoomFull):
        add_member(store, "000123", "多余", "e" * 64)
    gid = store.create_game("web", ["human"] * 4, seed=1, rules=DEFAULT_RULES)
    for i, d in enumerate(([6, -2, -2, -2], [-10, 30, -10, -10])):
        store.append_hand(gid, i, dealer=0, events=[{"type": "deal"}], result=_result(d))
    assert add_room_game(store, room.id, gid) == 1
    table = standings(store, load_room(store, "000123"))
    assert table["totals"] == [-4, 28, -12, -12] and table["hands"] == 2
    assert [p["name"] for p in table["players"]] == ["老王", "小李", "阿三", "丁"]
