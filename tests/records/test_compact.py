"""Compact hands (revision 0004, issue 23): ``shangrao simulate`` with the fast engine stores a hand by
its decisions (:mod:`shangrao.records.compact`); every reader gets the events a full record of the
same hand holds, replayed when first read; a compact row that does not replay is refused, naming the
game and the hand, never shown as a wrong log."""

from __future__ import annotations

import json
import shutil
import sqlite3
import warnings
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from shangrao.cli import app as cli_app
from shangrao.cli.simulate import run_simulation
from shangrao.game import replay
from shangrao.records import CompactHand, NewGame, RecordError, Store
from shangrao.records.compact import CompactHandError, decode_action, pack_hand, rules_key, unpack_hand
from shangrao.records.migrations import HEAD, _config
from shangrao.rules import DEFAULT_RULES

FIXTURE = Path(__file__).parent / "fixtures" / "v1.sqlite3"
BOTS = ["greedy", "random", "ukeire", "random"]


def _simulate(path: Path, engine: str, hands: int = 12, seed: int = 5, rules=DEFAULT_RULES) -> dict:
    with Store(path) as store:
        return run_simulation(hands, seed, list(BOTS), store, rules=rules, engine=engine)


def _games(path: Path) -> list:
    with Store(path, read_only=True) as store:
        out = []
        for g in sorted(store.list_games(), key=lambda g: g.id):
            rec = store.load_game(g.id)
            out.append(
                (
                    (
                        rec.mode,
                        rec.players,
                        rec.seed,
                        rec.rules,
                        rec.status,
                        rec.hands_played,
                        rec.scores,
                        rec.meta,
                        rec.pending,
                    ),
                    [(h.index, h.dealer, h.events, h.result, h.scores_after) for h in rec.hands],
                )
            )
        return out


@pytest.fixture(scope="module")
def stored(tmp_path_factory) -> tuple[Path, Path]:
    """The same run stored by the fast engine (compact) and by the Python engine (full events)."""
    d = tmp_path_factory.mktemp("compact")
    _simulate(d / "fast.sqlite3", "fast")
    _simulate(d / "python.sqlite3", "python")
    return d / "fast.sqlite3", d / "python.sqlite3"


@pytest.fixture
def fast_db(stored, tmp_path) -> Path:
    path = tmp_path / "fast.sqlite3"
    shutil.copy(stored[0], path)
    return path


def _sql(path: Path, statement: str, *args) -> None:
    conn = sqlite3.connect(path)
    conn.execute(statement, args)
    conn.commit()
    conn.close()


def _decisions(path: Path, game_id: int, hand_index: int) -> bytes:
    conn = sqlite3.connect(path)
    (value,) = conn.execute(
        "SELECT decisions FROM hands WHERE game_id = ? AND hand_index = ?", (game_id, hand_index)
    ).fetchone()
    conn.close()
    return value


def test_the_fast_engine_stores_compact_hands_without_events(stored):
    conn = sqlite3.connect(stored[0])
    rows = conn.execute("SELECT events, length(decisions) FROM hands").fetchall()
    conn.close()
    assert len(rows) == 12 and all(events is None and 41 < size < 1000 for events, size in rows)
    conn = sqlite3.connect(stored[1])
    rows = conn.execute("SELECT events, decisions FROM hands").fetchall()
    conn.close()
    assert all(events and decisions is None for events, decisions in rows)  # the Python engine: full events


def test_a_compact_hand_loads_to_the_events_of_the_full_record(stored):
    fast, python = _games(stored[0]), _games(stored[1])
    assert len(fast) == 2 and [len(h) for _, h in fast] == [8, 4]
    assert fast == python  # games, meta, results, scores and every event, exactly


def test_a_compact_hand_is_replayed_only_when_its_events_are_read(stored, monkeypatch):
    import shangrao.records.compact as compact

    calls = []
    real = compact.expand_hand
    monkeypatch.setattr(compact, "expand_hand", lambda *a: calls.append(a[:2]) or real(*a))
    with Store(stored[0], read_only=True) as store:
        rec = store.load_game(1)
        assert calls == [] and all(h.compact for h in rec.hands)
        assert [h.result["deltas"] for h in rec.hands]  # results and scores are read without a replay
        first = rec.hands[2].events
        assert calls == [(1, 2)] and rec.hands[2].events is first  # once, then kept
        assert list(replay(first).result.deltas) == rec.hands[2].result["deltas"]
        d = rec.to_dict()  # as when StoredHand was a dataclass: the hands as dicts, with their events
        assert d["hands"][2] == {
            "index": 2,
            "dealer": rec.hands[2].dealer,
            "events": first,
            "result": rec.hands[2].result,
            "scores_after": rec.hands[2].scores_after,
            "created": rec.hands[2].created,
        }
        assert len(calls) == 8 and d["hands"][0]["events"] == rec.hands[0].events


@pytest.mark.parametrize(
    "damage",
    [
        "truncated",
        "a decision flipped",
        "format byte",
        "scores before",
        "game seed",
        "game rules",
        "dealer",
        "result",
        "not bytes",
    ],
)
def test_a_corrupt_compact_hand_is_refused_naming_game_and_hand(fast_db, damage):
    value = _decisions(fast_db, 2, 1)
    if damage == "truncated":
        _sql(fast_db, "UPDATE hands SET decisions = ? WHERE game_id = 2 AND hand_index = 1", value[:-3])
    elif damage == "a decision flipped":
        b = bytearray(value)
        b[41 + 2 * 5] ^= 1
        _sql(fast_db, "UPDATE hands SET decisions = ? WHERE game_id = 2 AND hand_index = 1", bytes(b))
    elif damage == "format byte":
        _sql(fast_db, "UPDATE hands SET decisions = ? WHERE game_id = 2 AND hand_index = 1", b"\x07" + value[1:])
    elif damage == "scores before":
        b = bytearray(value)
        b[1] ^= 4
        _sql(fast_db, "UPDATE hands SET decisions = ? WHERE game_id = 2 AND hand_index = 1", bytes(b))
    elif damage == "game seed":
        _sql(fast_db, "UPDATE games SET seed = seed + 1 WHERE id = 2")
    elif damage == "game rules":
        _sql(fast_db, "UPDATE games SET rules = json_set(rules, '$.base_points', 3) WHERE id = 2")
    elif damage == "dealer":
        _sql(fast_db, "UPDATE hands SET dealer = (dealer + 1) % 4 WHERE game_id = 2 AND hand_index = 1")
    elif damage == "result":
        _sql(
            fast_db,
            "UPDATE hands SET result = json_set(result, '$.next_dealer', 7) WHERE game_id = 2 AND hand_index = 1",
        )
    else:
        _sql(fast_db, "UPDATE hands SET decisions = 'abc' WHERE game_id = 2 AND hand_index = 1")
    with Store(fast_db, read_only=True) as store:
        rec = store.load_game(2)
        # the hands of the game before the damaged one read as they were (a seed or rules edit spoils all)
        if damage not in ("game seed", "game rules"):
            assert rec.hands[0].events[0]["type"] == "deal"
        with pytest.raises(
            CompactHandError,
            match=r"^game 2, hand 1 \(0-based\): the compact record does not "
            r"replay: ",
        ) as err:
            _ = rec.hands[1].events
        assert isinstance(err.value, RecordError) and "\n" not in str(err.value)


def test_shangrao_replay_shows_a_compact_game_and_names_a_damaged_hand(fast_db):
    runner = CliRunner()
    ok = runner.invoke(cli_app, ["replay", "1", "--db", str(fast_db)])
    assert ok.exit_code == 0, ok.output
    assert ok.stdout.count("✓ replay of the events reproduces the stored result") == 8
    one = runner.invoke(cli_app, ["replay", "2", "--hand", "3", "--db", str(fast_db)])
    assert one.exit_code == 0 and "第 3 局" in one.stdout, one.output
    b = bytearray(_decisions(fast_db, 2, 1))
    b[-1] ^= 0x7F
    _sql(fast_db, "UPDATE hands SET decisions = ? WHERE game_id = 2 AND hand_index = 1", bytes(b))
    bad = runner.invoke(cli_app, ["replay", "2", "--db", str(fast_db)])
    assert bad.exit_code == 1
    assert bad.stdout.count("✓ replay of the events reproduces the stored result") == 3  # the other hands
    lines = bad.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in bad.output
    assert "error: game 2: replay does not reproduce the record (hand 2: game 2, hand 1 (0-based)" in lines[0]


def test_the_web_history_shows_a_compact_game_and_refuses_a_damaged_hand_by_name(fast_db, stored):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from shangrao.web import Settings
    from shangrao.web.app import create_app

    full = _games(stored[1])[0][1]  # game 1's hands, stored with their events
    with TestClient(create_app(f"sqlite:///{fast_db}", Settings())) as c:
        game = c.get("/api/games/1").json()
        assert [h["events"] for h in game["hands"]] == [full[i][2] for i in range(8)]
        frames = c.get("/api/games/1/hands/3/frames")
        assert frames.status_code == 200 and frames.json()["frames"]
        _sql(fast_db, "UPDATE games SET seed = seed + 1 WHERE id = 1")
        for url in ("/api/games/1", "/api/games/1/hands/3/frames"):
            r = c.get(url)
            assert r.status_code == 422, (url, r.text)
            assert r.json()["detail"].startswith("game 1, hand ") and "does not replay" in r.json()["detail"]


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE hands SET decisions = NULL, events = NULL WHERE game_id = 1 AND hand_index = 2",
        "UPDATE hands SET dealer = 'x' WHERE game_id = 1 AND hand_index = 2",
        "UPDATE hands SET result = '{oops' WHERE game_id = 1 AND hand_index = 2",
        "UPDATE games SET rules = '[1, 2]' WHERE id = 1",
    ],
)
def test_a_damaged_row_is_answered_422_naming_the_game_not_try_again(fast_db, damage):
    # lasting damage is not "the records database cannot be read now; try again" (a 503)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from shangrao.web import Settings
    from shangrao.web.app import create_app

    _sql(fast_db, damage)
    with TestClient(create_app(f"sqlite:///{fast_db}", Settings())) as c:
        for url in ("/api/games/1", "/api/games/1/hands/2/frames"):
            r = c.get(url)
            assert r.status_code == 422, (url, r.status_code, r.text)
            assert r.json()["detail"].startswith("game 1") and "damaged" in r.json()["detail"], r.text
        assert c.get("/api/games/2").status_code == 200  # the other game reads as before


def test_a_dataset_from_compact_games_equals_the_one_from_full_games(stored, tmp_path):
    import numpy as np

    from shangrao.data import Dataset
    from shangrao.data.write import write_from_games

    for name, path in (("fast", stored[0]), ("python", stored[1])):
        with Store(path, read_only=True) as store:
            write_from_games(tmp_path / name, store, [1, 2])
    a, b = Dataset(tmp_path / "fast").load(), Dataset(tmp_path / "python").load()
    assert set(a) == set(b) and len(a["action"]) > 100
    for col in a:
        assert np.array_equal(a[col], b[col]), col


def test_a_dataset_from_a_damaged_compact_game_names_the_hand(fast_db, tmp_path):
    from shangrao.data import DatasetError
    from shangrao.data.write import write_from_games

    _sql(fast_db, "UPDATE hands SET dealer = (dealer + 1) % 4 WHERE game_id = 1 AND hand_index = 4")
    with Store(fast_db, read_only=True) as store, pytest.raises(DatasetError, match=r"game 1, hand 4 \(0-based\)"):
        write_from_games(tmp_path / "out", store, [1])


def test_the_decision_codes_are_the_compiled_cores(stored):
    from shangrao.sim.events import action_code, code_action

    for code in range(9 * 34):
        t, k = divmod(code, 34)
        if t in (6, 7, 8) and k:  # win, pass, catch_bao carry kind 0
            continue
        assert decode_action(code) == code_action(code) and action_code(decode_action(code)) == code
    with pytest.raises(ValueError, match="outside"):
        decode_action(9 * 34)
    scores, _, raw = unpack_hand(_decisions(stored[0], 1, 0))
    assert scores == (0, 0, 0, 0) and len(raw) % 2 == 0


def test_insert_games_refuses_a_bad_game_and_writes_nothing(tmp_path):
    rk = rules_key(DEFAULT_RULES)
    value = pack_hand(rk, 7, 0, 0, (0, 0, 0, 0), [])
    hand = CompactHand(0, 0, value, {"deltas": [0, 0, 0, 0]}, [0, 0, 0, 0])
    good = NewGame("simulate", ["greedy"] * 4, 7, DEFAULT_RULES.to_dict(), {}, [hand])
    with Store(tmp_path / "x.sqlite3") as store:
        for bad, why in (
            (NewGame("simulate", ["greedy"] * 4, 7, {}, {}, [hand, hand]), "hand 1 is numbered 0"),
            (NewGame("simulate", ["greedy"] * 4, None, {}, {}, [hand]), "needs its 64-bit integer seed"),  # type: ignore[arg-type]
            (
                NewGame("simulate", ["greedy"] * 4, 7, {}, {}, [CompactHand(0, 4, value, {}, [0] * 4)]),
                "dealer is a seat",
            ),
        ):
            with pytest.raises(RecordError, match=why):
                store.insert_games([good, bad])
        assert store.count_games() == 0
        assert store.insert_games([good, good]) == [1, 2]
        assert store.load_game(2).hands_played == 1 and store.load_game(2).status == "finished"
    with pytest.raises(RecordError, match=r"outside 0\.\.305"):
        pack_hand(rk, 7, 0, 0, (0, 0, 0, 0), [306])


def test_an_old_database_upgraded_to_0004_stores_and_reads_compact_hands(tmp_path):
    path = tmp_path / "old.sqlite3"
    shutil.copy(FIXTURE, path)
    _simulate(path, "fast", hands=8, seed=2)  # opening it to write upgrades it
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT version_num FROM alembic_version").fetchone() == (HEAD,)
    assert conn.execute("SELECT count(*) FROM hands WHERE decisions IS NOT NULL").fetchone() == (8,)
    assert conn.execute("SELECT count(*) FROM hands WHERE events IS NULL").fetchone() == (8,)
    conn.close()
    with Store(path, read_only=True) as store:
        for g in store.list_games():
            for h in store.load_game(g.id).hands:  # the old full hands and the new compact ones
                assert list(replay(h.events).result.deltas) == h.result["deltas"]


def test_the_downgrade_from_0004_writes_the_compact_hands_events(fast_db, stored):
    expected = _games(stored[1])
    engine = create_engine(f"sqlite:///{fast_db}")
    with engine.begin() as conn:
        command.downgrade(_config(conn), "0003")
        cols = [r[1] for r in conn.execute(text("PRAGMA table_info(hands)"))]
        assert "decisions" not in cols
    engine.dispose()
    with Store(fast_db, read_only=True) as store:  # read as a database of revision 0003 (full events)
        got = [
            [(h.index, h.dealer, h.events, h.result, h.scores_after) for h in store.load_game(g).hands] for g in (1, 2)
        ]
        assert not any(h.compact for h in store.load_game(1).hands)
    assert got == [hands for _, hands in expected]
    _simulate(fast_db, "fast", hands=8, seed=9)  # and opened to write, it goes up to 0004 again
    conn = sqlite3.connect(fast_db)
    assert conn.execute("SELECT version_num FROM alembic_version").fetchone() == (HEAD,)
    conn.close()


def test_simulate_json_summary_is_the_same_with_either_engine_when_storing(tmp_path, stored):
    a = _simulate(tmp_path / "a.sqlite3", "fast", hands=20, seed=3)
    b = _simulate(tmp_path / "b.sqlite3", "python", hands=20, seed=3)
    for s in (a, b):
        s.pop("timing")
        s["storage"].pop("db")
    assert a == b and json.dumps(a)
