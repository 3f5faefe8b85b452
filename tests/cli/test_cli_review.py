"""``shangrao review``: a stored game and an event-log file reviewed; a log that is not a legal game
refused in one line (exit 2)."""

from __future__ import annotations

import json

import pytest

from shangrao.bots import get_bot
from shangrao.game import Game
from shangrao.game.events import events_to_jsonl
from shangrao.game.match import play_hand
from shangrao.rules import DEFAULT_RULES


@pytest.fixture(scope="module")
def stored(tmp_path_factory, shangrao_cmd):
    import subprocess

    db = tmp_path_factory.mktemp("review") / "r.sqlite3"
    p = subprocess.run(
        [
            *shangrao_cmd,
            "simulate",
            "--hands",
            "2",
            "--seed",
            "5",
            "--engine",
            "python",
            "--bots",
            "random,greedy,expert,expert",
            "--db",
            str(db),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert p.returncode == 0, p.stderr
    return db


def _log(tmp_path, seed="cli-review"):
    g = Game(DEFAULT_RULES, seed=seed, dealer=0)
    play_hand(g, [get_bot("greedy") for _ in range(4)])
    return g.events


def test_review_of_a_stored_game_gives_each_seats_summary_and_the_expert_loses_nothing(run_here, stored):
    p = run_here("review", "1", "--db", str(stored), "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["evaluator"] == "expert" and r["version"] and r["players"][0] == "random"
    assert len(r["hands"]) == 2
    assert r["summary"]["2"]["loss"] == 0 and r["summary"]["3"]["match_rate"] == 1.0
    assert r["summary"]["0"]["loss_per_hand"] > 0
    one = run_here("review", "1", "--db", str(stored), "--hand", "2", "--seat", "0")
    assert one.returncode == 0, one.stderr
    assert "seat 0 (random): match" in one.stdout and "hand 2" in one.stdout and "seat 1" not in one.stdout


def test_review_file_reads_the_event_log_format(run_here, tmp_path):
    events = _log(tmp_path)
    path = tmp_path / "hand.jsonl"
    path.write_text(events_to_jsonl(events + _log(tmp_path, "second")), encoding="utf-8")
    p = run_here("review", "--file", str(path), "--seat", "1", "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert [h["hand"] for h in r["hands"]] == [0, 1] and r["seats"] == [1]
    arr = tmp_path / "hand.json"
    arr.write_text(json.dumps(events), encoding="utf-8")
    assert run_here("review", "--file", str(arr), "--seat", "1").returncode == 0


def test_review_file_refuses_a_log_that_is_not_a_legal_game(run_here, tmp_path, one_line_error):
    events = [dict(e) for e in _log(tmp_path)]
    i = next(i for i, e in enumerate(events) if e.get("type") == "discard" and i > 3)
    events[i]["action"] = "discard 6z" if events[i]["action"] != "discard 6z" else "discard 7z"
    bad = tmp_path / "bad.jsonl"
    bad.write_text(events_to_jsonl(events), encoding="utf-8")
    p = run_here("review", "--file", str(bad))
    one_line_error(p, "not a legal Shangrao game: hand 1")
    nodeal = tmp_path / "nodeal.jsonl"
    nodeal.write_text(events_to_jsonl(events[1:]), encoding="utf-8")
    one_line_error(run_here("review", "--file", str(nodeal)), "must start with a deal")
    one_line_error(run_here("review"), "give a GAME id or --file PATH")
