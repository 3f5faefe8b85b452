"""`shangrao advise`: the expert's top choices in clear situations; bad input is one line and exit 2."""

from __future__ import annotations

import json

import pytest

from shangrao.game import Game


def _advise(run, situation, *extra):
    return run("advise", *extra, input=json.dumps(situation, ensure_ascii=False))


def test_advise_keeps_five_pairs_for_qidui(run):
    p = _advise(run, {"hand": "1133m2255p88s167z5s", "bao": "5s", "tiles_left": 60}, "--json")
    assert p.returncode == 0, p.stderr
    cands = json.loads(p.stdout)["candidates"]
    assert cands[0]["action"] in ("discard 1z", "discard 6z", "discard 7z")
    assert cands[0]["aim"] == "qidui" and cands[0]["aim_name"] == "七对"
    assert len(cands) == 5 and all(0 <= c["p_win"] <= 1 for c in cands)


def test_advise_declines_basic_win_for_baodiao_chinese_and_english(run):
    sit = {"hand": "123m456p789s222z1z5s", "bao": "5s", "drawn": "2z", "tiles_left": 60}
    zh = _advise(run, sit)
    assert zh.returncode == 0, zh.stderr
    lines = zh.stdout.splitlines()
    assert "专家建议" in lines[0] and "期望得分" in lines[1]
    assert "打 东风 (1z)" in lines[2] and "宝吊头" in lines[2]
    assert any("糊" in ln and "有宝平糊" in ln for ln in lines[3:])
    en = _advise(run, sit, "--lang", "en", "--top", "2")
    assert en.returncode == 0, en.stderr
    assert "discard 1z" in en.stdout.splitlines()[2] and "expected" not in en.stderr
    assert len(en.stdout.strip().splitlines()) == 4  # title, header, two candidates


def test_advise_takes_the_win_on_an_empty_wall(run):
    p = _advise(run, {"hand": "123m456p789s111z5s7z", "bao": "5s", "drawn": "7z", "tiles_left": 0}, "--json")
    assert json.loads(p.stdout)["candidates"][0]["action"] == "win"


def test_advise_claim_and_exported_observation(run, tmp_path):
    p = _advise(
        run,
        {"hand": "123m456p789s11z23s", "bao": "5s", "tiles_left": 40, "claim": {"tile": "1z", "from": "across"}},
        "--json",
    )
    assert p.returncode == 0, p.stderr
    acts = [c["action"] for c in json.loads(p.stdout)["candidates"]]
    assert set(acts) == {"pung 1z", "pass"}
    g = Game(seed=5)
    obs = g.observation(g.current_seat).to_dict()
    f = tmp_path / "obs.json"
    f.write_text(json.dumps(obs))
    q = run("advise", str(f), "--json")
    assert q.returncode == 0, q.stderr
    assert json.loads(q.stdout)["candidates"][0]["action"].startswith(("discard", "win", "concealed_kong"))


def test_advise_bad_input(run, one_line_error):
    one_line_error(_advise(run, {"bao": "5s"}), "hand: missing")
    one_line_error(_advise(run, {"hand": "123m", "bao": "5s"}), "hand:", "14 tiles")
    one_line_error(_advise(run, {"hand": "123m456p789s111z5s7x", "bao": "5s"}), "hand")
    one_line_error(_advise(run, {"hand": "123m456p789s111z5s7z"}), "bao: missing")
    one_line_error(_advise(run, {"hand": "123m456p789s111z5s7z", "bao": "5s", "colour": 1}), "unknown field")
    one_line_error(_advise(run, {"hand": "1111m456p789s111z5s", "bao": "5s", "discards": "1m"}), "copies of 1m")
    one_line_error(run("advise", input='{"hand": '), "bad JSON")
    one_line_error(run("advise", "--lang", "fr", input="{}"), "--lang")
    one_line_error(
        _advise(run, {"hand": "123m456p789s11z23s", "bao": "5s", "claim": {"tile": "1z", "from": "behind"}}),
        "claim.from",
    )


def test_every_exported_observation_of_real_hands_is_accepted():
    # the exported-observation path refuses impossible states; every state a real table reaches still passes
    from shangrao.bots import get_bot
    from shangrao.cli.advise_cmd import situation_to_observation

    seen = 0
    for seed in range(4):
        g = Game(seed=f"export:{seed}")
        bots = [get_bot("greedy", i) for i in range(4)]
        while not g.is_over:
            seat = g.current_seat
            obs = g.observation(seat)
            legal = g.legal_actions()
            if obs.phase in ("act", "discard", "claim"):
                got, got_legal = situation_to_observation(json.loads(json.dumps(obs.to_dict())))
                assert got.hand == obs.hand
                assert {str(a) for a in got_legal} <= {str(a) for a in legal} | {"pass"}
                seen += 1
            g.push(bots[seat].choose(obs, legal))
    assert seen > 100


def test_advise_refuses_an_impossible_exported_observation(run, one_line_error, tmp_path):
    g = Game(seed=5)
    good = g.observation(g.current_seat).to_dict()
    cases = [
        ({"hand": good["hand"] + [good["hand"][0]]}, "hand:"),  # 15 tiles on the turn
        ({"hand": [0, 0, 0, 0, 0] + good["hand"][5:]}, "copies of 1m"),  # five 1m
        ({"bao": (good["bao"] + 1) % 34 if good["bao"] % 9 != 8 else good["bao"] - 1}, "indicator"),
        ({"drawn": next(k for k in range(34) if k not in good["hand"])}, "drawn:"),
        ({"hand_sizes": [14, 13, 13]}, "hand_sizes"),
        ({"flown": [0, 0, 9, 0]}, "flown"),
        ({"last_discard": [good["seat"], 3]}, "last_discard"),
        # issue 22: 飞宝 and the 宝 drawn against the 宝 in sight
        ({"flown": [0, 0, 1, 0]}, r"flown\[2\]: 1 宝"),  # nothing in seat 2's pond
        ({"bao_drawn": good["hand"].count(good["bao"]) + 1}, "bao_drawn"),  # a drawn 宝 gone nowhere
    ]
    from shangrao.cli.advise_cmd import situation_to_observation
    from shangrao.cli.common import CliError

    for change, needle in cases:
        with pytest.raises(CliError, match=needle):
            situation_to_observation({**good, **change})
    f = tmp_path / "obs.json"  # and through the command: one line, exit 2
    f.write_text(json.dumps({**good, **cases[1][0]}))
    one_line_error(run("advise", str(f)), "copies of 1m")


def test_seen_tiles_count_as_out_of_reach_and_the_indicator_follows_the_bao():
    from shangrao.bots.expert import advise
    from shangrao.cli.advise_cmd import situation_to_observation
    from shangrao.tiles import parse_tile

    base = {"hand": "123m456p789s12s55z7z", "bao": "9p"}
    p = {}
    for name, extra in (("none", {}), ("seen", {"seen": "8p3s3s3s3s"}), ("discards", {"discards": "3s3s3s3s"})):
        obs, legal = situation_to_observation({**base, **extra})
        p[name] = advise(obs, legal, top=1)[0].p_win
        assert obs.indicator == parse_tile("8p")  # 8p shows 9p; 'seen' naming it too counts it once
    assert p["seen"] == p["discards"] < p["none"]  # every 3s (the wait) in sight: the odds fall
    obs, _ = situation_to_observation({**base, "bao": "1z"})
    assert obs.indicator == parse_tile("4z")  # 北 shows 东 (winds 东→南→西→北→东)


def test_exported_observation_fields_are_strictly_typed():
    from shangrao.cli.advise_cmd import situation_to_observation
    from shangrao.cli.common import CliError

    g = Game(seed=5)
    good = g.observation(g.current_seat).to_dict()
    for change, needle in [
        ({"kong_chain": 1e400}, "kong_chain"),
        ({"bao_drawn": 1e400}, "bao_drawn"),
        ({"last_discard": [3, 1e400]}, "last_discard"),
        ({"last_discard": ["3", "2"]}, "last_discard"),
        ({"first_discard": "false"}, "first_discard"),
        ({"colour": 1}, "unknown field"),
        ({"indicator": None}, "indicator"),
        ({"discards": [["x"], [], [], []]}, "discards\\[0\\]"),
        ({"melds": None}, "melds"),
    ]:
        with pytest.raises(CliError, match=needle):
            situation_to_observation({**good, **change})


def test_advise_refuses_a_flown_bao_not_in_sight(run, one_line_error):
    """Issue 22: the 宝 you flew are in a pond or someone's meld; the simple form checks it too."""
    base = {"hand": "123m456p789s12s55z7z", "bao": "9p"}
    one_line_error(run("advise", "-", input=json.dumps({**base, "flown": 1})), "flown:", "飞宝")
    from shangrao.cli.advise_cmd import situation_to_observation

    obs, _ = situation_to_observation({**base, "flown": 1, "discards": "9p"})
    assert obs.bao_drawn == 1  # the flown 宝 was drawn


def test_advise_says_it_needs_the_bao_when_given_none(run, one_line_error):
    # 'none' means no 宝 in score and analyze; advise needs the hand's 宝 and says so (was a tile-notation error)
    one_line_error(
        run("advise", "-", input=json.dumps({"hand": "123m456p789s123s5z", "bao": "none"})), "bao:", "needs the 宝"
    )
