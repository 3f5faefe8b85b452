"""`shangrao advise --bot search --json`: every legal option's play-out value and standard error."""

from __future__ import annotations

import json


def test_advise_bot_search_json_values_every_option_with_a_standard_error(run):
    sit = {"hand": "123m456p789s222z1z5s", "bao": "5s", "drawn": "2z", "tiles_left": 60}
    p = run("advise", "--bot", "search", "--json", "--top", "20", input=json.dumps(sit))
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["bot"] == "search"
    cands = out["candidates"]
    actions = [c["action"] for c in cands]
    assert "win" in actions and "discard 1z" in actions and len(actions) == len(set(actions))
    values = [c["value"] for c in cands]
    assert all(isinstance(v, float) for v in values) and values == sorted(values, reverse=True)
    assert all(c["se"] is not None and c["se"] >= 0 for c in cands if c["action"] != "win")


def test_advise_bot_search_refuses_another_bot_name_in_one_line(run):
    p = run("advise", "--bot", "oracle", input=json.dumps({"hand": "123m456p789s222z1z5s", "bao": "5s"}))
    assert p.returncode == 2 and "--bot" in p.stderr
