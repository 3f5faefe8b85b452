"""The records storage layer: games, hands (one transaction each), live events, kill safety."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap

import pytest

from shangrao.records import GameNotFound, RecordError, Store, resolve_db
from shangrao.rules import DEFAULT_RULES


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "r.sqlite3")
    yield s
    s.close()


def _result(deltas):
    return {"winners": [0], "patterns": ["平糊自摸"], "deltas": deltas}


def test_create_append_finish_load(store):
    gid = store.create_game("simulate", ["greedy", "greedy", "random", "random"], seed=7, rules=DEFAULT_RULES)
    store.append_hand(
        gid, 0, dealer=0, events=[{"type": "deal", "n": 1}, {"type": "draw"}], result=_result([6, -2, -2, -2])
    )
    store.append_hand(gid, 1, dealer=0, events=[{"type": "deal"}], result=_result([-1, 3, -1, -1]))
    store.finish_game(gid)
    g = store.load_game(gid)
    assert g.mode == "simulate" and g.seed == 7 and g.status == "finished"
    assert g.rules == DEFAULT_RULES.to_dict()
    assert g.hands_played == 2 and [h.index for h in g.hands] == [0, 1]
    assert g.hands[0].events == [{"type": "deal", "n": 1}, {"type": "draw"}]
    assert g.hands[0].result["patterns"] == ["平糊自摸"]
    assert g.hands[1].scores_after == [5, 1, -3, -3] == g.scores
    assert g.created.tzinfo is not None


def test_load_one_hand(store):
    gid = store.create_game("play", ["human", "greedy", "greedy", "greedy"], seed=1)
    for i in range(3):
        store.append_hand(gid, i, dealer=i, events=[{"i": i}], result=_result([0, 0, 0, 0]))
    g = store.load_game(gid, hand=1)
    assert [h.index for h in g.hands] == [1] and g.hands[0].dealer == 1


def test_list_games_newest_first_and_filters(store):
    a = store.create_game("simulate", ["greedy"] * 4, seed=1)
    b = store.create_game("play", ["human"] + ["greedy"] * 3, seed=2)
    store.finish_game(a, scores=[1, 2, 3, -6])
    assert [g.id for g in store.list_games()] == [b, a]
    assert [g.id for g in store.list_games(kind="simulate")] == [a]
    assert [g.id for g in store.list_games(status="unfinished")] == [b]
    assert store.list_games(limit=1)[0].id == b
    assert store.list_games(kind="simulate")[0].scores == [1, 2, 3, -6]
    assert store.count_games() == 2


def test_unknown_game_id(store):
    with pytest.raises(GameNotFound, match="no game with id 99"):
        store.load_game(99)
    assert issubclass(GameNotFound, ValueError)


def test_hand_out_of_order_or_repeated_is_refused(store):
    gid = store.create_game("simulate", ["greedy"] * 4)
    with pytest.raises(RecordError, match="next hand is 0"):
        store.append_hand(gid, 1, 0, [], _result([0, 0, 0, 0]))
    store.append_hand(gid, 0, 0, [], _result([0, 0, 0, 0]))
    with pytest.raises(RecordError):
        store.append_hand(gid, 0, 0, [], _result([0, 0, 0, 0]))
    assert store.load_game(gid).hands_played == 1


def test_finished_game_takes_no_more_hands(store):
    gid = store.create_game("simulate", ["greedy"] * 4)
    store.finish_game(gid)
    with pytest.raises(RecordError, match="finished"):
        store.append_hand(gid, 0, 0, [], _result([0, 0, 0, 0]))


def test_a_failed_hand_leaves_nothing_half_written(store):
    gid = store.create_game("simulate", ["greedy"] * 4)
    store.append_hand(gid, 0, 0, [{"a": 1}], _result([6, -2, -2, -2]))
    # the deltas do not fit the seats: the transaction is refused as a whole
    with pytest.raises(RecordError):
        store.append_hand(gid, 1, 0, [{"a": 2}], {"deltas": [1, 2]})
    with pytest.raises(RecordError):  # not JSON
        store.append_hand(gid, 1, 0, [{"a": object()}], _result([0, 0, 0, 0]))
    g = store.load_game(gid)
    assert g.hands_played == 1 and len(g.hands) == 1 and g.scores == [6, -2, -2, -2]


def test_live_events_then_hand(store):
    """A server stores every action before broadcasting it, then closes the hand."""
    gid = store.create_game("play", ["human", "greedy", "greedy", "greedy"])
    assert [store.append_event(gid, 0, {"type": t}) for t in ("deal", "draw", "discard")] == [0, 1, 2]
    g = store.load_game(gid)
    assert g.pending == {0: [{"type": "deal"}, {"type": "draw"}, {"type": "discard"}]} and g.hands == []
    with pytest.raises(RecordError, match="events go to hand 0"):
        store.append_event(gid, 1, {"type": "deal"})
    store.append_hand(gid, 0, dealer=0, events=None, result=_result([0, 0, 0, 0]))
    g = store.load_game(gid)
    assert g.pending == {}
    assert [e["type"] for e in g.hands[0].events] == ["deal", "draw", "discard"]


def check_group_commit(store):
    """The web server's group commit (records.live.insert_event_batches): several tables' actions in
    one transaction; an action the database refuses (a position already taken) or that is not JSON
    fails alone, with its own error, and the others are stored."""
    from shangrao.records.live import insert_event_batches, insert_events

    a, b, c = (store.create_game("web", ["human"] * 4) for _ in range(3))
    insert_events(store, a, 0, 0, [{"type": "deal"}])
    assert insert_event_batches(
        store, [(b, 0, 0, [{"type": "deal"}, {"type": "draw"}]), (c, 0, 0, [{"type": "deal"}])]
    ) == [None, None]
    out = insert_event_batches(
        store,
        [
            (a, 0, 1, [{"type": "draw"}]),
            (b, 0, 1, [{"type": "draw", "again": True}]),  # position 1 is taken
            (c, 0, 1, [{"type": "draw", "x": float("nan")}]),  # not JSON
            (c, 0, 1, [{"type": "draw"}]),
        ],
    )
    assert out[0] is None and out[3] is None
    assert isinstance(out[1], RecordError) and "already stored" in str(out[1])
    assert isinstance(out[2], ValueError)
    assert store.load_game(a).pending == {0: [{"type": "deal"}, {"type": "draw"}]}
    assert store.load_game(b).pending == {0: [{"type": "deal"}, {"type": "draw"}]}
    assert store.load_game(c).pending == {0: [{"type": "deal"}, {"type": "draw"}]}
    assert insert_event_batches(store, []) == []


def test_group_commit_of_several_tables_actions(store):
    check_group_commit(store)


def test_two_store_objects_see_each_other(tmp_path):
    url = resolve_db(tmp_path / "x.sqlite3")
    a, b = Store(url), Store(url)
    gid = a.create_game("simulate", ["greedy"] * 4, seed=3)
    a.append_hand(gid, 0, 0, [{"e": 0}], _result([1, -1, 0, 0]))
    b.append_hand(gid, 1, 1, [{"e": 1}], _result([1, -1, 0, 0]))
    assert a.load_game(gid).scores == [2, -2, 0, 0]
    a.close()
    b.close()


def test_resolve_db_accepts_paths_and_urls(tmp_path, monkeypatch):
    assert resolve_db("postgresql+psycopg://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert resolve_db(tmp_path / "a.db") == "sqlite:///" + str(tmp_path / "a.db")
    monkeypatch.setenv("SHANGRAO_DB", str(tmp_path / "env.db"))
    assert resolve_db(None).endswith("env.db")
    Store(None).close()
    assert (tmp_path / "env.db").exists()


def test_default_db_is_under_user_data_dir(monkeypatch, tmp_path):
    monkeypatch.delenv("SHANGRAO_DB", raising=False)
    import platformdirs

    monkeypatch.setattr(platformdirs, "user_data_dir", lambda name: str(tmp_path / name))
    assert resolve_db(None) == "sqlite:///" + str(tmp_path / "shangrao" / "shangrao.sqlite3")


def test_bad_url_is_a_record_error():
    with pytest.raises(RecordError):
        Store("nosuchdialect://x/y")


_KILLED_WRITER = textwrap.dedent("""
    import os, signal, sys
    from shangrao.records import Store
    store = Store(sys.argv[1])
    gid = store.create_game("simulate", ["greedy"] * 4, seed=5)
    for i in range(3):
        store.append_hand(gid, i, dealer=i % 4, events=[{"type": "deal", "hand": i}, {"type": "win"}],
                          result={"winners": [i % 4], "deltas": [3, -1, -1, -1]})
    store.append_event(gid, 3, {"type": "deal", "hand": 3})
    print(gid, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)   # killed between hands, mid-way through hand 3
""")


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_killed_between_hands_loses_nothing(tmp_path):
    db = tmp_path / "killed.sqlite3"
    proc = subprocess.run([sys.executable, "-c", _KILLED_WRITER, str(db)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    gid = int(proc.stdout.split()[0])
    store = Store(db)
    g = store.load_game(gid)
    assert g.status == "unfinished"
    assert g.hands_played == 3 and [h.index for h in g.hands] == [0, 1, 2]
    assert all(len(h.events) == 2 for h in g.hands)
    assert g.scores == [9, -3, -3, -3]
    assert g.pending == {3: [{"type": "deal", "hand": 3}]}
    # another process carries on where the killed one stopped
    store.append_hand(gid, 3, 3, None, {"deltas": [0, 0, 0, 0]})
    store.finish_game(gid)
    assert store.load_game(gid).status == "finished"
    store.close()


def test_read_only_store_reads_without_writing(tmp_path):
    """Issue 10 (6): games/replay open the database read-only (no new file, no tables created,
    writes refused), so a database on a read-only directory or medium can be read (checked by
    hand on a read-only tmpfs: WAL then falls back to immutable)."""
    from shangrao.records import RecordError

    path = tmp_path / "r.sqlite3"
    with Store(str(path)) as st:
        gid = st.create_game("play", ["you", "a", "b", "c"], seed=1)
    for extra in tmp_path.glob("r.sqlite3-*"):
        extra.unlink()
    ro = Store(str(path), read_only=True)
    try:
        assert [g.id for g in ro.list_games()] == [gid]
        with pytest.raises(RecordError):
            ro.create_game("play", ["x", "a", "b", "c"])
    finally:
        ro.close()
    missing = tmp_path / "sub" / "none.sqlite3"
    empty = Store(str(missing), read_only=True)
    assert empty.list_games() == [] and not missing.parent.exists()
    empty.close()


def test_a_foreign_or_damaged_database_is_a_record_error_not_a_traceback(tmp_path):
    """Found by a tester: a SQLite file with someone else's ``games`` table, or a row edited by hand,
    gave driver or Python errors; they are RecordErrors that say what cannot be read."""
    import sqlite3

    other = tmp_path / "other.db"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE games(x)")
    con.commit()
    con.close()
    with pytest.raises(RecordError, match="not a shangrao records database"):
        Store(f"sqlite:///{other}", read_only=True).list_games()
    url = f"sqlite:///{tmp_path / 's.db'}"
    store = Store(url)
    gid = store.create_game("simulate", ["greedy"] * 4, seed=1, rules={})
    store.close()
    store = Store(url)
    good = store.create_game("simulate", ["greedy"] * 4, seed=2, rules={})
    store.close()
    for column, value in (
        ("players", "'5'"),
        ("players", "'[1,2,3,4]'"),
        ("players", "'[\"a\"]'"),
        ("scores", "'\"x\"'"),
        ("scores", "'[1.5,2,3,4]'"),
        ("scores", "'[null,2,3,4]'"),
    ):
        con = sqlite3.connect(tmp_path / "s.db")
        con.execute(f"UPDATE games SET {column} = {value} WHERE id = ?", (gid,))
        con.commit()
        con.close()
        store = Store(url, read_only=True)
        # one damaged row does not hide the others: it is listed as damaged, and loading it says so
        listed = {g.id: g for g in store.list_games()}
        assert listed[good].status != "damaged" and listed[gid].status == "damaged"
        with pytest.raises(RecordError, match=f"game {gid}: the stored record is damaged"):
            store.load_game(gid)
        store.close()
        con = sqlite3.connect(tmp_path / "s.db")
        con.execute(
            'UPDATE games SET players = \'["greedy","greedy","greedy","greedy"]\', scores = \'[0,0,0,0]\' WHERE id = ?',
            (gid,),
        )
        con.commit()
        con.close()
