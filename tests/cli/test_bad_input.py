"""Bad input for the command line: each case ends in ONE ``error: …`` line and exit 2.

Run in-process (the typer command with ``standalone_mode=False``) so the file stays fast.
"""

from __future__ import annotations

import contextlib
import io
import json
import sqlite3
import sys

import pytest
import typer.main

from shangrao.cli import app
from shangrao.records import Store

CMD = typer.main.get_command(app)
SITUATION = {"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p"}
DEEP = "[" * 100_000 + "]" * 100_000


def run(*args: str, stdin: str = ""):
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = CMD.main(list(args), prog_name="shangrao", standalone_mode=False)
    finally:
        sys.stdin = old
    return code, out.getvalue(), err.getvalue()


def one_line_error(result, *needles: str) -> str:
    code, out, err = result
    lines = err.strip().splitlines()
    assert code == 2, (code, out, err)
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err and "internal error" not in err
    for n in needles:
        assert n in lines[0], (n, lines[0])
    return lines[0]


@pytest.fixture(autouse=True)
def _db(tmp_path, monkeypatch):
    monkeypatch.setenv("SHANGRAO_DB", str(tmp_path / "default.sqlite3"))
    monkeypatch.delenv("SHANGRAO_DEBUG", raising=False)


# ---------------------------------------------------------------- analyze / score: odd hands


@pytest.mark.parametrize(
    "args, needle",
    [
        (["", "--bao", "9p"], "13 or 14"),
        (["1m" * 30, "--bao", "9p"], "only 4"),
        (["111m456p789s12s55z", "--meld", "pung:111m", "--bao", "9p"], "copies of 1m"),
        (["123m456p789s1s", "--meld", "kong:111m", "--bao", "9p"], "kong"),
        (["123m456p789s1s", "--meld", "chow:891m", "--bao", "9p"], "chow"),
        (["123m456p789s1s", "--meld", "chow:123z", "--bao", "9p"], "chow"),
        (["123m456p789s12s🀢🀢", "--bao", "9p"], "flower"),
        (["１２３m456p789s12s55z", "--bao", "9p"], "position 0"),
        (["123m456p789s12s55z😀", "--bao", "9p"], "position 18"),
        (["123m" * 50_000, "--bao", "9p"], "hand"),
        (["123m456p789s12s55z", "--bao", "zzz"], "--bao"),
        (["123m456p789s12s", "--meld", "pung555p", "--bao", "9p"], "KIND:TILES"),
    ],
)
def test_analyze_odd_hands(args, needle):
    one_line_error(run("analyze", *args), needle)


def test_analyze_empty_bao_is_an_error_not_silently_no_bao():
    # `--bao "$BAO"` with BAO unset must not analyse the hand as if it had no 宝
    one_line_error(run("analyze", "123m456p789s12s55z", "--bao", ""), "--bao")
    one_line_error(run("analyze", "123m456p789s12s55z", "--indicator", " "), "--indicator")


def test_analyze_five_melds_says_at_most_four():
    melds = [a for z in "12345" for a in ("--meld", f"pung:{z * 3}z")]
    line = one_line_error(run("analyze", "12345678m", *melds, "--bao", "9p"))
    assert "at most 4" in line and "-2" not in line


def test_score_deeply_nested_json_is_a_bad_input_not_an_internal_error():
    one_line_error(run("score", "-", stdin=DEEP), "nested")


@pytest.mark.parametrize("cmd", ["score", "analyze"])
def test_jsonl_deeply_nested_line_is_an_error_object_and_the_batch_goes_on(cmd):
    good = SITUATION if cmd == "score" else {"hand": "123m456p789s12s55z", "bao": "9p"}
    code, out, err = run(cmd, "--jsonl", stdin=DEEP + "\n\n" + json.dumps(good) + "\ngarbage\n")
    assert code == 2 and "internal error" not in err, err
    recs = [json.loads(x) for x in out.splitlines()]
    assert len(recs) == 3
    assert recs[0]["line"] == 1 and "nested" in recs[0]["error"]
    assert "error" not in recs[1]
    assert recs[2]["line"] == 4


def test_score_accepts_a_utf8_bom(tmp_path):
    p = tmp_path / "s.json"
    p.write_text(json.dumps(SITUATION), encoding="utf-8-sig")
    code, out, err = run("score", str(p), "--json")
    assert code == 0, err
    assert json.loads(out)["total"] == 6
    code, out, err = run("score", "-", "--json", stdin="\ufeff" + json.dumps(SITUATION))
    assert code == 0, err
    code, out, err = run(
        "analyze", "--jsonl", stdin="\ufeff" + json.dumps({"hand": "123m456p789s12s55z", "bao": "9p"}) + "\n"
    )
    assert code == 0, (out, err)


@pytest.mark.parametrize(
    "text, needle",
    [
        ("null", "JSON object"),
        ("[1]", "JSON object"),
        ('"x"', "JSON object"),
        ("", "empty"),
        ("{", "line 1"),
        (json.dumps({**SITUATION, "hand": None}), "hand"),
        (json.dumps({**SITUATION, "kong_chain": "1"}), "kong_chain"),
        (json.dumps({**SITUATION, "kong_chain": -1}), "kong_chain"),
        (json.dumps({**SITUATION, "kong_chain": 10**100}), "kong_chain"),
        (json.dumps({**SITUATION, "robbed": 1}), "robbed"),
        (json.dumps({**SITUATION, "payers_flown": {"a": 1}}), "payers_flown"),
        (json.dumps({**SITUATION, "melds": [{"kind": {"x": 1}}]}), "melds[0]"),
        ('{"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p", "kong_chain": NaN}', "kong_chain"),
        (json.dumps({**SITUATION, "heavenly": None}), "heavenly"),
    ],
)
def test_score_wrong_types(text, needle):
    one_line_error(run("score", "-", stdin=text), needle)


def test_score_files(tmp_path):
    (tmp_path / "bin.json").write_bytes(bytes(range(256)))
    one_line_error(run("score", str(tmp_path / "bin.json")), "not UTF-8")
    (tmp_path / "empty.json").write_text("")
    one_line_error(run("score", str(tmp_path / "empty.json")), "empty")
    one_line_error(run("score", str(tmp_path)), "directory")
    one_line_error(run("score", str(tmp_path / "missing.json")), "missing.json")


# ---------------------------------------------------------------- game commands


def test_simulate_huge_hands_is_refused_at_once():
    # it used to build a list of 10**22 matches before playing (hang, then MemoryError)
    one_line_error(run("simulate", "--hands", "99999999999999999999999"), "--hands")


@pytest.mark.parametrize(
    "args",
    [
        ["--hands", "0"],
        ["--hands", "-1"],
        ["--hands", "abc"],
        ["--seed", "abc"],
        ["--bots", "foo,bar,baz,qux"],
        ["--bots", ""],
        ["--bots", "greedy,greedy"],
    ],
)
def test_simulate_bad_options(args):
    one_line_error(run("simulate", *args))


def test_simulate_db_not_a_database(tmp_path):
    (tmp_path / "junk.sqlite3").write_text("not sqlite at all")
    one_line_error(run("simulate", "--hands", "1", "--db", str(tmp_path / "junk.sqlite3")), "not a database")
    one_line_error(run("simulate", "--hands", "1", "--db", str(tmp_path)), "database")
    one_line_error(run("simulate", "--hands", "1", "--db", "foo://bar"), "--db")
    one_line_error(run("simulate", "--hands", "1", "--db", "postgresql+nodriver://x/y"), "--db")


def test_simulate_read_only_database_is_a_clear_error(tmp_path):
    path = tmp_path / "ro.sqlite3"
    sqlite3.connect(path).close()
    assert run("games", "--db", str(path))[0] == 0  # read-only: an empty file reads as no games
    Store(str(path)).close()  # creates the tables
    url = f"sqlite:///file:{path}?mode=ro&uri=true"
    one_line_error(run("simulate", "--hands", "1", "--db", url), "read")


def test_replay_and_games_with_huge_numbers(tmp_path):
    db = str(tmp_path / "g.sqlite3")
    one_line_error(run("replay", "99999999999999999999999", "--db", db), "no game")
    code, out, err = run("games", "--db", db, "--limit", "99999999999999999999999")
    assert code == 0 and "no stored games" in out, err


def test_games_on_a_new_database(tmp_path):
    code, out, err = run("games", "--db", str(tmp_path / "new.sqlite3"), "--json")
    assert (code, out.strip(), err) == (0, "[]", "")


# ---------------------------------------------------------------- found by trying to break it (issue 10's kind)
HUGE = "1" + "0" * 5000  # Python refuses to read an integer of more than 4300 digits


def test_a_number_of_5000_digits_is_bad_json_in_score_advise_and_every_jsonl():
    sit = '{"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p", "robbed": ' + HUGE + "}"
    one_line_error(run("score", "-", stdin=sit), "more than 4300 digits")
    one_line_error(
        run("advise", "-", stdin='{"hand": "123m456p789s12s5z9p", "bao": "9p", "tiles_left": ' + HUGE + "}"),
        "more than 4300 digits",
    )
    _code, out, _err = run(
        "analyze",
        "--jsonl",
        "-",
        stdin='{"hand": "123m456p789s12s5z", "bao": ' + HUGE + '}\n{"hand": "123m456p789s12s5z9p", "bao": "9p"}\n',
    )
    rows = [json.loads(x) for x in out.splitlines()]
    assert "more than 4300 digits" in rows[0]["error"] and "error" not in rows[1]  # the batch goes on


def test_ray_address_that_ray_cannot_read_is_bad_input():
    pytest.importorskip("ray")
    one_line_error(run("simulate", "-n", "1", "--ray", "bogus"), "Invalid address format")
    one_line_error(
        run("arena", "--bots", "greedy,greedy", "-n", "1", "--no-store", "--ray", "bogus"), "Invalid address format"
    )


def test_arena_json_of_one_deal_has_no_interval_and_is_strict_json():
    code, out, err = run("arena", "--bots", "greedy,greedy", "-n", "1", "-s", "5", "--no-store", "--json")
    assert code in (0, None), err

    def refuse(constant: str):
        raise AssertionError(f"not JSON: {constant}")

    data = json.loads(out, parse_constant=refuse)
    assert data["bots"][0]["ci95"] == [None, None]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--host", ""], "--host"),
        (["--turn-timeout", "inf"], "--turn-timeout"),
        (["--idle-timeout", "1e9"], "--idle-timeout"),
    ],
)
def test_serve_refuses_an_empty_host_and_endless_timeouts(args, needle):
    one_line_error(run("serve", "--no-browser", *args), needle)


def test_a_key_given_twice_is_bad_input_in_score_advise_and_every_jsonl():
    # json keeps the last value silently: {"hand": A, "hand": B} would score B without a word
    twice = '{"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p", "bao": "1m"}'
    one_line_error(run("score", "-", stdin=twice), "'bao' is given twice")
    one_line_error(
        run("advise", "-", stdin='{"hand": "123m456p789s12s5z9p", "bao": "9p", "hand": "1m"}'), "'hand' is given twice"
    )
    _code, out, _err = run(
        "analyze",
        "--jsonl",
        "-",
        stdin='{"hand": "123m456p789s12s5z", "hand": "1m"}\n{"hand": "123m456p789s12s5z9p", "bao": "9p"}\n',
    )
    rows = [json.loads(x) for x in out.splitlines()]
    assert "given twice" in rows[0]["error"] and "error" not in rows[1]  # the batch goes on


@pytest.mark.parametrize(
    "args, needle",
    [
        (["simulate", "--hands", "1", "--workers", "2", "--ray", "local"], "--workers and --ray"),
        (
            ["arena", "--bots", "greedy,random", "--deals", "1", "--workers", "2", "--ray", "local"],
            "--workers and --ray",
        ),
        (
            ["arena", "--bots", "greedy,random", "--deals", "1", "--no-store", "--db", "x.sqlite3"],
            "--db and --no-store",
        ),
        (["arena", "--bots", "greedy,random", "--deals", "1", "--seed", "9" * 30], "--seed: a 64-bit integer"),
        (["simulate", "--hands", "1", "--seed", "-" + "9" * 30], "--seed: a 64-bit integer"),
        (
            ["simulate", "--hands", "1", "--rule", "base_points=2", "--rule", "base_points=3"],
            "--rule base_points: given twice",
        ),
    ],
)
def test_run_options_that_contradict_or_overflow_are_refused(args, needle):
    one_line_error(run(*args), needle)


def test_a_directory_as_database_names_the_option_or_the_variable(tmp_path, monkeypatch):
    # it was "disk I/O error"; and a bad $SHANGRAO_DB was reported as --db
    one_line_error(run("games", "--db", str(tmp_path)), "--db:", "is a directory")
    monkeypatch.setenv("SHANGRAO_DB", str(tmp_path))
    one_line_error(run("games"), "$SHANGRAO_DB:", "is a directory")
