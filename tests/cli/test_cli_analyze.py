"""``shangrao analyze``: human output, --json, --jsonl batches, and one-line errors."""

from __future__ import annotations

import json

import pytest

WIN = "123m456p789s123s55z"  # 平糊: chows and a pair of 白
BAO_WIN = "123m456p789s123s5z9p"  # the 宝 9p stands for 白


def test_analyze_winning_hand_human(run):
    p = run("analyze", BAO_WIN, "--bao", "9p")
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "九筒(宝)" in out  # 宝 marked with its Chinese name
    assert "yes 糊" in out
    assert "宝→白(5z)" in out  # what the 宝 stands for
    assert "5z5z*" in out  # the pair, its second tile a 宝
    assert "-1 (complete" in out


def test_analyze_waits_human(run):
    p = run("analyze", "123m456p789s12s55z", "--bao", "9p")
    assert p.returncode == 0, p.stderr
    assert "听牌 waits" in p.stdout and "三条" in p.stdout and "0 (ready" in p.stdout


def test_analyze_with_melds_and_indicator(run):
    p = run("analyze", "123m456p12s55z", "--meld", "pung:777s", "--indicator", "8p", "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert {w["tile"] for w in d["waits"]} == {"3s", "9p"}  # 宝 = 9p (next after the indicator 8p)


def test_analyze_json_is_the_api_dict(run):
    import shangrao

    p = run("analyze", BAO_WIN, "--bao", "9p", "--json")
    assert p.returncode == 0
    assert json.loads(p.stdout) == json.loads(json.dumps(shangrao.analyze(BAO_WIN, "9p").to_dict()))


def test_analyze_no_bao(cli):
    r = cli("analyze", WIN, "--bao", "none", "--json")
    assert r.exit_code == 0
    assert json.loads(r.stdout)["winning"] is True


def test_analyze_jsonl_batch_goes_on_after_errors(run, tmp_path):
    lines = [
        {"hand": WIN, "bao": None},
        {"hand": "123m456p789s12s55z", "melds": [], "bao": "9p"},
        {"hand": "11111m23456789p", "bao": "1z"},
        "not json",
        {"hand": WIN, "bao": "1z", "colour": "red"},
        {"hand": "123m456p12s55z", "melds": ["pong:777s"], "bao": "9p"},
    ]
    text = "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n"
    f = tmp_path / "in.jsonl"
    f.write_text(text, encoding="utf-8")
    for p in (run("analyze", "--jsonl", str(f)), run("analyze", "--jsonl", input=text)):
        out = [json.loads(x) for x in p.stdout.splitlines()]
        assert len(out) == 6
        assert out[0] == {"winning": True, "forms": ["standard"], "waits": [], "shanten": -1}
        assert [w["tile"] for w in out[1]["waits"]] == ["9p", "3s"] and out[1]["shanten"] == 0
        assert out[2]["line"] == 3 and "5 copies of 1m" in out[2]["error"]
        assert out[3]["line"] == 4 and "bad JSON" in out[3]["error"]
        assert out[4]["line"] == 5 and "unknown field" in out[4]["error"] and "colour" in out[4]["error"]
        assert out[5]["line"] == 6 and "unknown meld kind 'pong'" in out[5]["error"]
        assert p.returncode == 2
        assert p.stderr.strip() == "error: 4 of 6 line(s) had errors (see the error objects)"


def test_analyze_jsonl_all_good_exits_0(run):
    p = run("analyze", "--jsonl", input=json.dumps({"hand": WIN, "bao": "9p"}) + "\n\n")
    assert p.returncode == 0 and len(p.stdout.splitlines()) == 1


@pytest.mark.parametrize(
    "args, needles",
    [
        (["11111m23456789p", "--bao", "9p"], ["5 copies of 1m"]),  # fifth copy of a tile
        (["1111m1m", "--meld", "pung:111m", "--bao", "9p"], ["copies of 1m"]),  # fifth copy across melds
        (
            ["123m456p789s12s5z", "--bao", "9p", "--meld", "pung:555p"],
            ["1 declared meld", "10 or 11", "got 12"],
        ),  # wrong count
        (["123m456p789s12s55z5z", "--bao", "9p", "--meld", "pung:555p"], ["got 14"]),
        (["123m456p789s12s", "--bao", "9p", "--meld", "pong:555p"], ["unknown meld kind 'pong'"]),  # unknown meld kind
        (["123m456p789s12s", "--bao", "9p", "--meld", "chow:135m"], ["not a chow"]),
        (["123m456p78x9s12s55z", "--bao", "9p"], ["invalid tile notation", "position"]),  # bad tile string
        ([WIN, "--bao", "9x"], ["--bao", "invalid tile notation"]),
        ([WIN, "--bao", "12p"], ["--bao", "exactly one tile"]),
        ([WIN], ["missing --bao"]),
        (["--bao", "9p"], ["missing HAND"]),
        ([WIN, "--bao", "9p", "--frobnicate"], ["No such option"]),
        ([WIN, "--bao", "9p", "--indicator", "8p"], ["not both"]),
    ],
)
def test_analyze_bad_input_one_line_exit_2(run, args, needles, one_line_error):
    one_line_error(run("analyze", *args), *needles)


def test_analyze_bad_input_in_process(cli):
    r = cli("analyze", "11111m23456789p", "--bao", "9p")
    assert r.exit_code == 2
    assert r.stderr.strip() == "error: hand has 5 copies of 1m (一万); there are only 4"


def test_missing_file_one_line(run, one_line_error):
    one_line_error(run("analyze", "--jsonl", "/nonexistent/x.jsonl"), "/nonexistent/x.jsonl", "No such file")


def test_help_mentions_exit_codes(cli):
    r = cli("analyze", "--help")
    assert r.exit_code == 0
    assert "Exit 0 if every line" in " ".join(r.stdout.split())
