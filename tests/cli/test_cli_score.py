"""``shangrao score``: the seed's 计分举例 through the command line, --json, --jsonl, errors."""

from __future__ import annotations

import json

import pytest

PINGHU = {"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p"}
SHISANLANG = {"hand": "147m258p369s1234z", "win_tile": "5z", "bao": "5m"}
LARGEST = {
    "hand": "9s",
    "win_tile": "9s",
    "bao": "5m",
    "melds": ["concealed_kong:1111m", "concealed_kong:9999m", "concealed_kong:1111z", "concealed_kong:2222z"],
    "kong_chain": 4,
    "winner_flown": 4,
    "four_bao": True,
}


def _json(proc):
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_score_pinghu_zimo_json(run):
    d = _json(run("score", "--json", input=json.dumps(PINGHU)))
    assert d["pattern"]["name"] == "平糊自摸" and d["payments"] == [2, 2, 2] and d["total"] == 6


def test_score_wubao_shisanlang(run):
    d = _json(run("score", "--json", input=json.dumps(SHISANLANG)))
    assert d["pattern"]["name"] == "无宝十三浪" and d["payments"] == [4, 4, 4] and d["total"] == 12


def test_score_wubao_jiuyao(run):
    d = _json(
        run("score", "--json", input=json.dumps({"hand": "119m19p19s11z2z3z5z6z", "win_tile": "9s", "bao": "5m"}))
    )
    assert d["pattern"]["name"] == "无宝九幺" and d["payments"] == [4, 4, 4] and d["total"] == 12


def test_score_feibao_shisanlang(run):
    d = _json(run("score", "--json", input=json.dumps({**SHISANLANG, "winner_flown": 1})))
    assert d["payments"] == [8, 8, 8] and d["total"] == 24


def test_score_largest_hand_from_file(run, tmp_path):
    f = tmp_path / "big.json"
    f.write_text(json.dumps(LARGEST), encoding="utf-8")
    d = _json(run("score", str(f), "--json"))
    assert d["payments"] == [10258] * 3 and d["total"] == 30774


def test_score_human_breakdown_in_chinese(run):
    p = run("score", "-", input=json.dumps(LARGEST))
    assert p.returncode == 0, p.stderr
    out = p.stdout
    for word in (
        "清碰碰糊",
        "×10",
        "杠开",
        "单吊",
        "飞宝",
        "九幺",
        "自摸杠",
        "四个宝",
        "手牌分 hand value",
        "10240",
        "下家",
        "对家",
        "上家",
        "10258",
        "+30774",
        "算式",
    ):
        assert word in out, word


def test_score_not_a_win(run):
    p = run("score", input=json.dumps({"hand": "123m456p789s123s5z", "win_tile": "1z", "bao": None}))
    assert p.returncode == 0 and "不糊" in p.stdout


def test_score_jsonl(run):
    text = "\n".join([json.dumps(PINGHU), "{oops", json.dumps({**PINGHU, "extra": 1}), json.dumps(SHISANLANG)])
    p = run("score", "--jsonl", input=text)
    out = [json.loads(x) for x in p.stdout.splitlines()]
    assert [o.get("total") for o in out] == [6, None, None, 12]
    assert out[1] == {"error": out[1]["error"], "line": 2} and "bad JSON" in out[1]["error"]
    assert "unknown field(s): extra" in out[2]["error"] and out[2]["line"] == 3
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "situation, needles",
    [
        ('{"hand": "123m456p789s123s5z", "win_tile": "5z",', ["bad JSON", "line 1", "column"]),  # bad JSON
        ('{"hand": "123m456p789s123s5z",\n "win_tile": 5z}', ["bad JSON", "line 2", "column 15"]),
        (json.dumps({**PINGHU, "winner": 1}), ["unknown field(s): winner"]),  # unknown field
        (json.dumps({**PINGHU, "hand": "1111m1m456p789s23s"}), ["copies of 1m"]),  # fifth copy
        (json.dumps({**PINGHU, "hand": "123m456p789s12s"}), ["hand", "13 tiles", "got 11"]),  # wrong count
        (json.dumps({**PINGHU, "melds": ["pong:111z"], "hand": "123m456p789s5z"}), ["melds[0]", "unknown meld kind"]),
        (json.dumps({**PINGHU, "hand": "123m456q"}), ["hand", "invalid tile notation"]),  # bad tile string
        (json.dumps({**PINGHU, "win_by": "discard"}), ["win_by"]),
        (json.dumps([1, 2]), ["JSON object"]),
        ("", ["empty input"]),
    ],
)
def test_score_bad_input_one_line_exit_2(run, situation, needles, one_line_error):
    one_line_error(run("score", input=situation), *needles)


def test_score_missing_file(run, one_line_error):
    one_line_error(run("score", "/no/such/file.json"), "/no/such/file.json")


def test_score_in_process(cli):
    r = cli("score", "--json", input=json.dumps(PINGHU))
    assert r.exit_code == 0 and json.loads(r.stdout)["total"] == 6
    r = cli("score", input='{"hand": 1')
    assert r.exit_code == 2 and r.stderr.startswith("error: <stdin>: bad JSON")


# ---------------------------------------------------------------- issue 22: impossible situations
ROBBER_HOLDS_THE_KIND = {
    "hand": "123m456p789s123s1m",
    "win_tile": "1m",
    "bao": "5z",
    "win_by": "robbing_kong",
    "robbed": 0,
}
HEAVENLY_CAUGHT = {"hand": "123m456p789s2s6z6z6z", "win_tile": "3s", "bao": "6z", "heavenly": True, "caught_bao": True}
FOUR_BAO_WITHOUT_BAO = {"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "6z", "four_bao": True}


@pytest.mark.parametrize(
    ("situation", "needles"),
    [
        (ROBBER_HOLDS_THE_KIND, ["hand:", "抢杠"]),
        (HEAVENLY_CAUGHT, ["caught_bao:", "天糊", "接宝"]),
        (FOUR_BAO_WITHOUT_BAO, ["four_bao:", "四个宝"]),
    ],
)
@pytest.mark.parametrize("as_json", [False, True])
def test_score_refuses_impossible_situations_in_one_line(run, one_line_error, situation, needles, as_json):
    p = run("score", *(["--json"] if as_json else []), input=json.dumps(situation))
    one_line_error(p, *needles)


def test_score_jsonl_reports_impossible_situations_and_goes_on(run):
    lines = [PINGHU, ROBBER_HOLDS_THE_KIND, HEAVENLY_CAUGHT, FOUR_BAO_WITHOUT_BAO, PINGHU]
    p = run("score", "--jsonl", input="\n".join(json.dumps(x) for x in lines))
    out = [json.loads(x) for x in p.stdout.splitlines()]
    assert [o.get("total") for o in out] == [6, None, None, None, 6]
    assert [o.get("line") for o in out[1:4]] == [2, 3, 4]
    assert "抢杠" in out[1]["error"] and "天糊" in out[2]["error"] and "四个宝" in out[3]["error"]
    assert p.returncode == 2
