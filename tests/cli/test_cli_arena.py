"""`shangrao arena`: JSON summary, stored hands that replay, bad input."""

from __future__ import annotations

import json

from shangrao.records import Store


def test_arena_json_and_replay(run_here, tmp_path):
    db = str(tmp_path / "a.sqlite3")
    p = run_here("arena", "--bots", "ukeire,greedy", "--deals", "2", "--seed", "5", "--db", db, "--json")
    assert p.returncode == 0, p.stderr
    res = json.loads(p.stdout)
    assert res["lineup"] == ["ukeire", "greedy", "greedy", "greedy"] and res["hands"] == 8
    assert [b["bot"] for b in res["bots"]] == ["ukeire", "greedy"]
    ids = res["storage"]["game_ids"]
    assert len(ids) == 4  # one game per rotation
    with Store(db) as store:
        g = store.load_game(ids[1])
        assert g.kind == "arena" and g.players == ["greedy", "ukeire", "greedy", "greedy"] and g.hands_played == 2
    r = run_here("replay", str(ids[1]), "--hand", "2", "--db", db)
    assert r.returncode == 0, r.stderr
    assert "replay of the events reproduces the stored result" in r.stdout


def test_arena_text_and_lineup(run_here):
    p = run_here("arena", "--lineup", "greedy,ukeire,random,greedy", "--deals", "1", "--seed", "1", "--no-store")
    assert p.returncode == 0, p.stderr
    assert "95% CI" in p.stdout and "random" in p.stdout and "lineup greedy,ukeire,random,greedy" in p.stdout


def test_arena_bad_input(run_here, one_line_error):
    one_line_error(run_here("arena", "--bots", "expert,nobot", "--deals", "1"), "unknown bot 'nobot'")
    one_line_error(run_here("arena", "--bots", "expert", "--deals", "1"), "--bots")
    one_line_error(run_here("arena", "--bots", "expert,greedy", "--lineup", "a,b,c,d"), "either --bots")
    one_line_error(run_here("arena", "--deals", "1"), "either --bots")
    one_line_error(run_here("arena", "--bots", "expert,greedy", "--deals", "0"))
