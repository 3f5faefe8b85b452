"""Commands driven in this process (``run_here``), where the suite's coverage sees them: ``play`` typed
at from a script through a whole match, or left at once, ``dataset --games`` from stored arena games, ``review --all``.

The subprocess tests beside these prove the console script; these prove the same paths line by line."""

from __future__ import annotations

import json

from shangrao.records import Store


def test_play_typed_from_a_script_plays_the_whole_match_and_stores_it(run_here, tmp_path):
    db = tmp_path / "play.sqlite3"
    # help, a hint, a word that is not a choice, then "1" and Enter (which confirms a claim) until input ends
    script = "?\n提示\nxyz\n" + "1\n\n" * 400
    p = run_here("play", "--seed", "2", "--bot", "greedy", "--db", str(db), input=script)
    assert p.returncode == 0, p.stderr
    assert "结算" in p.stdout and "match over 终局" in p.stdout and "saved as game 1 (finished)" in p.stdout
    assert "提示 hint" in p.stdout
    with Store(str(db)) as store:
        g = store.load_game(1)
        assert g.kind == "play" and g.players[0] == "human" and g.hands_played == 8


def test_play_q_at_the_first_decision_saves_an_empty_match(run_here, tmp_path):
    db = tmp_path / "q.sqlite3"
    p = run_here("play", "--seed", "3", "--bot", "random", "--db", str(db), input="q\n")
    assert p.returncode == 0, p.stderr
    assert "left the match: saved as game 1 (unfinished, 0 hand(s) stored)" in p.stdout


def test_dataset_from_stored_arena_games_and_their_review(run_here, tmp_path):
    db = str(tmp_path / "a.sqlite3")
    a = run_here("arena", "--bots", "greedy,random", "--deals", "1", "--seed", "9", "--db", db, "--json")
    assert a.returncode == 0, a.stderr
    ids = json.loads(a.stdout)["storage"]["game_ids"]
    out = tmp_path / "ds"
    d = run_here("dataset", "--games", f"{ids[0]}..{ids[-1]}", "--db", db, "--out", str(out), "--json")
    assert d.returncode == 0, d.stderr
    meta = json.loads(d.stdout)
    assert meta["hands"] == 4 and meta["decisions"] > 20 and (out / "meta.json").is_file()
    text = run_here("dataset", "--games", str(ids[0]), "--db", db, "--out", str(tmp_path / "one"))
    assert text.returncode == 0, text.stderr
    assert run_here("dataset", "--games", "5..2", "--db", db, "--out", str(tmp_path / "x")).returncode == 2
    r = run_here("review", str(ids[0]), "--db", db, "--all", "--seat", "1")
    assert r.returncode == 0, r.stderr
    assert "seat 1" in r.stdout and "hand 1" in r.stdout
