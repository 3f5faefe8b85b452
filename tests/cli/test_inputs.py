"""Issue 10 (1)-(6) through the command line: the answers and errors a user sees."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest


def test_analyze_ready_needs_a_tile_that_exists(run, one_line_error, shangrao_cmd):
    p = run("analyze", "123456789m1111z", "--bao", "none", "--json")
    d = json.loads(p.stdout)
    assert p.returncode == 0 and d["waits"] == [] and d["shanten"] == 1


def test_analyze_indicator_copy_is_no_wait_and_a_fifth_is_an_error(run, one_line_error, shangrao_cmd):
    d = json.loads(run("analyze", "12333m789s456p11z", "--indicator", "3m", "--json").stdout)
    assert "3m" not in [w["tile"] for w in d["waits"]] and d["shanten"] == 0
    one_line_error(run("analyze", "123333m789s456p1z", "--indicator", "3m"), "hold 5 3m")
    one_line_error(run("analyze", "123456789m1122z", "--bao", "none", "--seen", "1z1z1z"), "hold 5 1z")


def test_analyze_seen_tiles(run, one_line_error, shangrao_cmd):
    d = json.loads(run("analyze", "123m456p789s1122z", "--bao", "none", "--seen", "1z1z", "--json").stdout)
    assert [w["tile"] for w in d["waits"]] == ["2z"]


def test_analyze_baodiao_state_prints_any_tile(run, one_line_error, shangrao_cmd):
    p = run("analyze", "123m456p123789s5z", "--bao", "5z")
    assert p.returncode == 0 and "any tile (宝吊)" in p.stdout
    assert "wait 听" not in p.stdout  # no 34-row table


def test_jsonl_list_hand_is_kinds_and_counts_need_tiles_34(run, one_line_error, shangrao_cmd):
    vector = [1] * 14 + [0] * 20
    lines = [
        json.dumps({"hand": vector, "bao": None}),
        json.dumps({"tiles_34": [1] * 13 + [0] * 21, "bao": "none"}),
        json.dumps({"hand": [0, 1], "tiles_34": vector}),
    ]
    p = run("analyze", "--jsonl", input="\n".join(lines) + "\n")
    out = [json.loads(x) for x in p.stdout.splitlines()]
    assert p.returncode == 2
    assert "error" in out[0] and "20 copies of 1m" in out[0]["error"]
    assert out[1]["shanten"] == 0 and "error" not in out[1]
    assert "not both" in out[2]["error"]


def test_jsonl_file_and_stdin_split_the_same(run, tmp_path, one_line_error, shangrao_cmd):
    """Only \\n ends a line (not U+2028, \\x85, \\x0b, \\x0c); bad UTF-8 fails that line alone."""
    good = b'{"hand": "123m456p789s1122z", "bao": "none"}'
    data = (
        good
        + b"\n"
        + b'{"hand": "123m456p789s11\xe2\x80\xa822z"}\n'
        + b'{"hand": "1\xff"}\n'
        + good.replace(b"1122z", b"11\x0c22z")
        + b"\n"
        + good
        + b"\n"
    )
    f = tmp_path / "in.jsonl"
    f.write_bytes(data)
    from_file = run("analyze", "--jsonl", str(f))
    env = {**os.environ, "SHANGRAO_DB": str(tmp_path / "d.sqlite3")}
    from_stdin = subprocess.run(
        [*shangrao_cmd, "analyze", "--jsonl"], input=data, capture_output=True, env=env, timeout=120, check=False
    )
    assert from_file.stdout == from_stdin.stdout.decode("utf-8")
    out = [json.loads(x) for x in from_file.stdout.splitlines()]
    # 5 lines: U+2028 inside line 2 is not a break (whitespace in a tile string); \x0c in a
    # JSON string is a JSON error of line 4 alone
    assert len(out) == 5 and [o.get("line") for o in out if "error" in o] == [3, 4]
    assert "not UTF-8" in out[2]["error"]
    assert out[0]["shanten"] == out[1]["shanten"] == out[4]["shanten"] == 0


def test_unbounded_input_is_a_clear_error(run, one_line_error, shangrao_cmd):
    one_line_error(run("score", "/dev/zero"), "/dev/zero", "MiB")
    p = run("analyze", "--jsonl", "/dev/zero")
    assert p.returncode == 2 and "longer than" in json.loads(p.stdout.splitlines()[0])["error"]
    assert "MemoryError" not in p.stderr


def test_error_messages_are_one_line(run, one_line_error, shangrao_cmd):
    p = run("score", input=json.dumps({"hand": "1m", "win_tile": "1m", "a\nb": 1}))
    one_line_error(p, "unknown field(s): 'a\\nb'")
    p = run("analyze", "--jsonl", input=json.dumps({"hand": "1m", "x\ny": 1}) + "\n")
    assert "'x\\ny'" in json.loads(p.stdout)["error"]


def test_score_impossible_bao_counts(run, one_line_error, shangrao_cmd):
    sit = {"hand": "5z5z5z5z123m456m789m", "win_tile": "1z", "bao": "5z", "winner_flown": 1}
    one_line_error(run("score", input=json.dumps(sit)), "more than the four 宝")


def test_score_bao_none_and_the_note(run, one_line_error, shangrao_cmd):
    p = run("score", input=json.dumps({"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "none"}))
    assert p.returncode == 0 and "平糊自摸" in p.stdout
    p = run(
        "score",
        input=json.dumps({"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p", "payers_flown": [1, 0, 0]}),
    )
    assert p.returncode == 0 and "注 1" in p.stdout and "never held a 宝" in p.stdout


def test_simulate_rule_options(run, tmp_path, one_line_error, shangrao_cmd):
    """Issue 10 (12): house rules from the command line, stored with the game."""
    db = tmp_path / "r.sqlite3"
    p = run(
        "simulate",
        "--hands",
        "8",
        "--seed",
        "3",
        "--db",
        str(db),
        "--json",
        "--rule",
        "kong_after_pung=true",
        "--rule",
        "jiuyao_melds=false",
        "--rule",
        "base_points=2",
    )
    assert p.returncode == 0, p.stderr
    from shangrao.records import Store

    rules = Store(str(db)).load_game(1).rules
    assert rules["kong_after_pung"] is True and rules["jiuyao_melds"] is False and rules["base_points"] == 2
    one_line_error(
        run("simulate", "--hands", "1", "--rule", "nonsense=1", "--db", str(db)), "--rule", "kong_after_pung"
    )
    one_line_error(run("simulate", "--hands", "1", "--rule", "jiuyao_melds=maybe", "--db", str(db)), "true or false")
    one_line_error(run("simulate", "--hands", "1", "--rule", "base_points=x", "--db", str(db)), "integer")


def test_serve_on_a_busy_port_exits_3_as_documented(run, tmp_path):
    """docs/cli.md and `shangrao --help` list exit 3: serve could not start (the port is in use)."""
    import socket

    pytest.importorskip("uvicorn")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        p = run("serve", "--port", str(port), "--db", str(tmp_path / "s.sqlite3"))
    assert p.returncode == 3 and "in use" in p.stderr
    assert "open http" not in p.stdout  # a server that cannot start does not announce its address
    assert len(p.stderr.strip().splitlines()) == 1
    doc = (Path(__file__).parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    assert "| 3 | `serve` could not start" in doc
