"""``shangrao simulate``, ``games``, ``replay`` and ``play`` (through a pseudo-terminal)."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from pathlib import Path

import pytest

from shangrao.records import Store


def _deterministic(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in ("timing", "storage")}


@pytest.fixture(scope="module")
def sim_db(tmp_path_factory, shangrao_cmd):
    """One small simulation stored in a database, shared by the games/replay tests."""
    import subprocess

    d = tmp_path_factory.mktemp("sim")
    db = d / "sim.sqlite3"
    p = subprocess.run(
        [
            *shangrao_cmd,
            "simulate",
            "--hands",
            "10",
            "--seed",
            "3",
            "--bots",
            "greedy,greedy,random,random",
            "--db",
            str(db),
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert p.returncode == 0, p.stderr
    return db, json.loads(p.stdout)


def test_simulate_same_seed_same_summary_and_every_hand_stored(run, sim_db, tmp_path):
    db, first = sim_db
    p = run(
        "simulate",
        "--hands",
        "10",
        "--seed",
        "3",
        "--bots",
        "greedy,greedy,random,random",
        "--db",
        str(tmp_path / "again.sqlite3"),
        "--json",
    )
    assert p.returncode == 0, p.stderr
    second = json.loads(p.stdout)
    assert _deterministic(first) == _deterministic(second)
    assert first["hands"] == 10 and first["matches"] == 2
    assert sum(s["points"] for s in first["seats"]) == 0
    assert first["wins"] + first["drawn"] - first["multi_winner_hands"] <= 10
    store = Store(db)
    games = store.list_games(newest_first=False)
    assert [g.hands_played for g in games] == [8, 2]
    assert all(g.status == "finished" for g in games) and games[1].meta.get("stopped_after") == 2
    assert [g.id for g in games] == first["storage"]["game_ids"]
    g = store.load_game(games[0].id)
    assert [h.index for h in g.hands] == list(range(8))
    assert all(h.events[0]["type"] == "deal" and h.events[-1]["type"] == "end" for h in g.hands)
    assert g.hands[-1].scores_after == g.scores
    store.close()


def test_simulate_human_summary(run, tmp_path):
    p = run("simulate", "--hands", "3", "--seed", "5", "--db", str(tmp_path / "h.sqlite3"))
    assert p.returncode == 0, p.stderr
    for word in ("seats", "greedy", "patterns 牌型", "doublings", "bonuses 奖励分", "荒牌", "hands/s"):
        assert word in p.stdout, word


def test_simulate_bad_bots(run, one_line_error):
    one_line_error(run("simulate", "--hands", "1", "--bots", "greedy,smart,greedy,greedy"), "--bots", "smart")
    one_line_error(run("simulate", "--hands", "1", "--bots", "greedy,greedy"), "--bots", "4 bot names")
    one_line_error(run("simulate", "--hands", "0"), "--hands")


def test_games_lists_the_stored_games(run, sim_db):
    db, first = sim_db
    p = run("games", "--db", str(db), "--json")
    assert p.returncode == 0, p.stderr
    rows = json.loads(p.stdout)
    assert [r["id"] for r in rows] == sorted(first["storage"]["game_ids"], reverse=True)
    assert rows[-1]["kind"] == "simulate" and rows[-1]["hands_played"] == 8
    assert rows[-1]["players"] == ["greedy", "greedy", "random", "random"]
    p = run("games", "--db", str(db))
    assert p.returncode == 0 and "simulate" in p.stdout and "finished" in p.stdout


def test_replay_verifies_every_hand(run, sim_db):
    db, first = sim_db
    gid = first["storage"]["game_ids"][0]
    p = run("replay", str(gid), "--db", str(db))
    assert p.returncode == 0, p.stderr
    assert p.stdout.count("✓ replay of the events reproduces the stored result") == 8
    assert "第 8 局" in p.stdout and "settlement" in p.stdout


def test_replay_one_hand(run, sim_db):
    db, first = sim_db
    gid = first["storage"]["game_ids"][1]
    p = run("replay", str(gid), "--hand", "2", "--db", str(db))
    assert p.returncode == 0, p.stderr
    assert "第 2 局" in p.stdout and "第 1 局" not in p.stdout
    assert p.stdout.count("✓ replay") == 1


def test_replay_unknown_game_or_hand(run, sim_db, one_line_error):
    db, first = sim_db
    one_line_error(run("replay", "999", "--db", str(db)), "no game with id 999")
    one_line_error(run("replay", "abc", "--db", str(db)), "GAME_ID")
    gid = first["storage"]["game_ids"][1]
    one_line_error(run("replay", str(gid), "--hand", "5", "--db", str(db)), "no hand 5")


def _edit_first_hand(sim_db, tmp_path, column: str, edit) -> tuple[Path, int]:
    """A copy of the simulated database whose first game's first hand has ``column`` (``result`` or
    ``events``, as stored text) replaced by ``edit(text)``; returns (the copy, the game id)."""
    import shutil

    db, first = sim_db
    copy = tmp_path / "edited.sqlite3"
    shutil.copy(db, copy)
    gid = first["storage"]["game_ids"][0]
    if column == "events":  # simulate stores compact hands (issue 23): the hand's full log, to edit
        with Store(copy) as store:
            events = store.load_game(gid, hand=0).hands[0].events
        con = sqlite3.connect(copy)
        con.execute(
            "UPDATE hands SET events=?, decisions=NULL WHERE game_id=? AND hand_index=0",
            ("\n".join(json.dumps(e, ensure_ascii=False) for e in events), gid),
        )
        con.commit()
        con.close()
    con = sqlite3.connect(copy)
    (text,) = con.execute(f"SELECT {column} FROM hands WHERE game_id=? AND hand_index=0", (gid,)).fetchone()
    con.execute(f"UPDATE hands SET {column}=? WHERE game_id=? AND hand_index=0", (edit(text), gid))
    con.commit()
    con.close()
    return copy, gid


def test_replay_detects_a_tampered_record(run, sim_db, tmp_path):
    def more_for_seat_0(text):
        r = json.loads(text)
        r["deltas"] = [d + (1 if i == 0 else -1 if i == 1 else 0) for i, d in enumerate(r["deltas"])]
        return json.dumps(r)

    copy, gid = _edit_first_hand(sim_db, tmp_path, "result", more_for_seat_0)
    p = run("replay", str(gid), "--hand", "1", "--db", str(copy))
    assert p.returncode == 1
    assert p.stderr.startswith("error: ") and "does not reproduce" in p.stderr and "Traceback" not in p.stderr


@pytest.mark.parametrize("edit", ["draw_kind_object", "seat_too_large", "transfer_name_object"])
def test_replay_of_events_edited_into_another_shape_is_reported_not_a_traceback(run, sim_db, tmp_path, edit):
    """Stored events edited by hand (a field of another type or out of range): `replay` reports the hand
    (exit 1, one error line) — it replays before it narrates, so the narration never reads such a field."""

    def damage(text):
        evs = [json.loads(x) for x in text.splitlines()]
        if edit == "draw_kind_object":
            next(e for e in evs if e["type"] == "draw")["kind"] = {}
        elif edit == "seat_too_large":
            next(e for e in evs if e["type"] == "discard")["seat"] = 10**30
        else:
            next(e for e in evs if e["type"] == "transfer")["name"] = {"not": "a name"}
        return "\n".join(json.dumps(e, ensure_ascii=False) for e in evs)

    copy, gid = _edit_first_hand(sim_db, tmp_path, "events", damage)
    p = run("replay", str(gid), "--hand", "1", "--db", str(copy))
    assert "internal error" not in p.stderr and "Traceback" not in p.stderr, p.stderr
    if edit == "transfer_name_object":  # a display label: the replay's own label is shown instead
        assert p.returncode == 0, p.stderr
    else:
        assert p.returncode == 1 and p.stderr.startswith("error: ") and len(p.stderr.strip().splitlines()) == 1


def test_play_eof_leaves_cleanly_and_saves(run, tmp_path):
    db = tmp_path / "eof.sqlite3"
    p = run("play", "--seed", "2", "--db", str(db), input="1\n1\n")
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr + p.stdout
    assert "saved as game 1 (unfinished" in p.stdout
    g = Store(db).load_game(1)
    assert g.mode == "play" and g.status == "unfinished" and g.players[0] == "human"
    assert g.pending and g.pending[0][0]["type"] == "deal"  # the hand in progress is kept as live events


def test_play_bad_input_reprompts(run, tmp_path):
    p = run("play", "--seed", "2", "--db", str(tmp_path / "bad.sqlite3"), input="banana\n99\nq\n")
    assert p.returncode == 0, p.stderr
    assert "not understood: 'banana'" in p.stdout and "no choice 99: choose 1–14" in p.stdout
    assert p.stdout.count("choose 1-") >= 3


@pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a POSIX pty")
def test_play_transcript_through_a_pty(tmp_path, shangrao_cmd):
    """Drive ``shangrao play --seed 1`` choosing action 1 until the first settlement, then Ctrl-C."""
    pexpect = pytest.importorskip("pexpect")
    db = tmp_path / "pty.sqlite3"
    env = {**os.environ, "SHANGRAO_DB": str(db)}
    child = pexpect.spawn(
        shangrao_cmd[0],
        [*shangrao_cmd[1:], "play", "--seed", "1", "--db", str(db)],
        env=env,
        encoding="utf-8",
        timeout=120,
        dimensions=(50, 160),
    )
    transcript = []
    child.logfile_read = type("L", (), {"write": lambda self, s: transcript.append(s), "flush": lambda self: None})()
    decisions = 0
    while True:
        i = child.expect([r"choose 1-\d+", r"press Enter for the next hand", r"Enter sends it", pexpect.EOF])
        if i == 0:
            child.sendline("1")
            decisions += 1
            assert decisions < 500
        elif i == 1:
            break
        elif i == 2:  # a claim is confirmed before it is sent
            child.sendline("")
        else:
            pytest.fail("play ended before the first settlement:\n" + "".join(transcript)[-2000:])
    text = "".join(transcript)
    for word in (
        "宝",
        "指示牌 indicator",
        "余 left",
        "你的手牌 hand",
        "可选 choices",
        "settlement 结算",
        "transfers of the hand",
    ):
        assert word in text, word
    child.sendintr()
    child.expect(r"saved as game (\d+) \(unfinished, 1 hand\(s\) stored\)")
    gid = int(child.match.group(1))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in "".join(transcript)
    g = Store(db).load_game(gid)
    assert g.status == "unfinished" and g.hands_played == 1 and len(g.hands) == 1
    assert g.hands[0].events[-1]["type"] == "end"


@pytest.mark.parametrize("column, value, code", [("result", "{}", 1), ("result", "[]", 2), ("dealer", 9, 2)])
def test_replay_never_reports_an_emptied_or_damaged_result_as_reproduced(run, sim_db, tmp_path, column, value, code):
    # an emptied result was "✓ reproduced" (nothing was compared); a dealer of 9 was an internal error
    copy, gid = _edit_first_hand(sim_db, tmp_path, column, lambda _text: value)
    p = run("replay", str(gid), "--hand", "1", "--db", str(copy))
    assert p.returncode == code, (p.stdout[-500:], p.stderr)
    assert "✓" not in p.stdout and "internal error" not in p.stderr
    assert p.stderr.startswith("error: ") and len(p.stderr.strip().splitlines()) == 1
