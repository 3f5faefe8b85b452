"""Issue 10 (9): at 80 columns nothing is cut and nothing dropped — analyze, score, play, --help."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console

import shangrao
from shangrao.cli.narrate import render_choices, render_table
from shangrao.cli.render import render_analysis, render_score
from shangrao.scoring import WinSituation

BOX = re.compile(r"[│╭╮╰╯─]")


def _text(*renderables) -> str:
    c = Console(record=True, width=80, color_system=None)
    for r in renderables:
        c.print(r)
    return c.export_text()


def _fits(text: str) -> None:
    lines = text.splitlines()
    assert max(cell_len(x.rstrip()) for x in lines) <= 80, max(lines, key=cell_len)
    assert "…" not in text, [x for x in lines if "…" in x]


def _flat(text: str) -> str:
    return " ".join(BOX.sub(" ", text).split())


@pytest.mark.parametrize(
    "hand, bao, melds",
    [
        ("123m456p789s12s55z", "9p", []),
        ("1112345678999m", "5z", []),  # nine waits
        ("13579m1357p159s1z", "2z", []),  # 十三浪-ish, long per-form line
        ("123m456p789s123s5z", "5z", []),  # the 宝吊 state: any tile
        ("123m456p789s5z5z", "5z", ["pung:111z"]),
        ("11223344556677z", None, []),
    ],
)
def test_analyze_fits(hand, bao, melds):
    a = shangrao.analyze(hand, bao, melds)
    text = _text(render_analysis(a))
    _fits(text)
    flat = _flat(text)
    for k in a.waits if not a.baodiao else []:
        assert shangrao.format_tiles([k]) in flat
    if a.baodiao:
        assert "any tile (宝吊)" in flat
    for r in a.readings:
        assert all(shangrao.format_tiles([t]) in flat for g in r.groups for t in g.tiles)


@pytest.mark.parametrize(
    "sit",
    [
        {"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p", "payers_flown": [1, 0, 2]},
        json.loads((Path(__file__).parents[2] / "examples" / "seed_largest.json").read_text(encoding="utf-8")),
        {"hand": "5z5z123m456m789m12p", "win_tile": "3p", "bao": "5z"},
    ],
)
def test_score_fits(sit):
    s = WinSituation.from_dict(sit)
    r = shangrao.score(s)
    text = _text(render_score(r, s))
    _fits(text)
    flat = _flat(text)
    assert r.breakdown().split(" = ")[0].replace(" ", "") in flat.replace(" ", "")
    assert str(r.total) in flat


def test_play_screen_fits():
    from shangrao.bots import get_bot
    from shangrao.game import Match
    from shangrao.rules import DEFAULT_RULES

    game = Match(DEFAULT_RULES, seed=3).new_hand()
    bots = [get_bot("greedy", seed=f"3:{i}") for i in range(4)]
    shown = 0
    while not game.is_over and shown < 30:
        legal = game.legal_actions()
        s = game.current_seat
        if s == 0 and len(legal) > 1:
            obs = game.observation(0)
            text = _text(
                *render_table(obs, 0, 8, ["human", "greedy", "greedy", "greedy"]), *render_choices(legal, obs, game.bao)
            )
            _fits(text)
            flat = _flat(text)
            for k in obs.discards[1]:
                assert shangrao.cli.render.short_name(k) in flat
            for a in legal:
                if a.type.value == "discard":
                    assert f"{legal.index(a) + 1}." in flat
            shown += 1
        game.apply(legal[0] if len(legal) == 1 else bots[s].choose(game.observation(s), legal))
    assert shown > 5


def _commands() -> list[str]:
    """Every command of the program (read from the app, so a new command is checked too), and the top."""
    import typer.main

    from shangrao.cli import app

    return ["", *sorted(typer.main.get_command(app).commands)]  # type: ignore[attr-defined]


COMMANDS = _commands()


@pytest.mark.parametrize("command", COMMANDS)
def test_help_fits_80_columns(command, shangrao_cmd, tmp_path):
    env = {**os.environ, "COLUMNS": "80", "SHANGRAO_DB": str(tmp_path / "d.sqlite3")}
    args = [*shangrao_cmd, *([command] if command else []), "--help"]
    p = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120, check=False)
    assert p.returncode == 0, p.stderr
    _fits(p.stdout)
    assert "<bool>" not in p.stdout  # flags take no value
    flat = _flat(p.stdout)
    dense = flat.replace(" ", "")  # a long word (a URL) may fold inside its column: kept, not cut
    from typer.main import get_command

    from shangrao.cli import app

    cmd = get_command(app)
    if command:
        cmd = cmd.commands[command]
    for param in cmd.params:
        for word in (getattr(param, "help", None) or "").replace("\\[", "[").split():
            assert word in dense, (param.name, word)
    if command == "simulate":
        assert "'.[ray]'" in flat
    if command == "":
        assert "3 serve could not start" in flat


def test_score_json_notes_are_listed(run):
    p = run(
        "score",
        "--json",
        input=json.dumps({"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p", "payers_flown": [1, 0, 0]}),
    )
    assert json.loads(p.stdout)["notes"]


def test_games_list_wraps_between_names_at_80_columns(tmp_path, monkeypatch):
    """`games` at 80 columns: the players column wraps between names, never inside one."""
    from typer.testing import CliRunner

    import shangrao.cli.common as common
    from shangrao.cli import app

    db = str(tmp_path / "g.sqlite3")
    runner = CliRunner()
    r = runner.invoke(app, ["simulate", "--hands", "1", "--bots", "expert,ukeire,greedy,random", "--db", db])
    assert r.exit_code == 0, r.output
    monkeypatch.setattr(common, "_width", lambda: 80)
    r = runner.invoke(app, ["games", "--db", db])
    assert r.exit_code == 0, r.output
    _fits(r.output)
    words = set(re.findall(r"[a-z]+", r.output))
    assert {"expert", "ukeire", "greedy", "random"} <= words, r.output
