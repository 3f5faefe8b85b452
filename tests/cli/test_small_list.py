"""Issue 38's small list for the terminal: each doubling with its own multiplier in `simulate`'s
summary (抢杠 ×6, not under "×2 each"), "+N from each payer", "1 kind", and the play help's columns."""

from __future__ import annotations

import re

from rich.cells import cell_len
from rich.console import Console

import shangrao
from shangrao.cli.play_input import HELP_LINES
from shangrao.cli.render import render_analysis, render_score
from shangrao.cli.simulate import doubling_factors, render_summary
from shangrao.rules import DEFAULT_RULES
from shangrao.scoring.items import DOUBLINGS


def _text(render, *args) -> str:
    c = Console(record=True, width=100, color_system=None)
    render(*args, c) if render is render_summary else c.print(render(*args))
    return c.export_text()


def test_simulates_doublings_table_gives_each_doubling_its_own_multiplier():
    rob, kong = DOUBLINGS["qianggang"].name, DOUBLINGS["gangkai"].name
    s = {
        "hands": 10,
        "matches": 1,
        "hands_per_match": 8,
        "seed": 1,
        "bots": ["greedy"] * 4,
        "seats": [],
        "by_bot": [],
        "wins": 3,
        "drawn": 0,
        "drawn_rate": 0.0,
        "multi_winner_hands": 0,
        "win_by": {},
        "patterns": {},
        "doublings": {kong: 2, rob: 1},
        "bonuses": {},
        "timing": {"seconds": 1.0, "hands_per_second": 10},
        "storage": {"db": None},
        "doubling_factors": doubling_factors(DEFAULT_RULES),
    }
    lines = _text(render_summary, s).splitlines()
    assert not any("×2 each" in x for x in lines)
    assert any(x.split()[:2] == [rob, f"×{DEFAULT_RULES.robbing_kong_factor}"] for x in lines), lines
    assert any(x.split()[:2] == [kong, "×2"] for x in lines), lines


def test_a_bonus_is_paid_by_each_payer_and_one_wait_is_one_kind():
    res = shangrao.score({"hand": "123m456p789s5z", "win_tile": "5z", "bao": "9p", "melds": ["concealed_kong:1111z"]})
    assert res.bonuses
    text = _text(render_score, res)
    assert f"+{res.bonuses[0].points} from each payer" in text
    one = shangrao.analyze("123m456p789s13s55z", None, [])
    assert len(one.waits) == 1
    assert "(1 kind)" in _text(render_analysis, one)


def test_the_play_help_keeps_its_description_column():
    for x in HELP_LINES[1:]:
        if x.startswith(" " * 16):
            continue
        m = re.match(r"^(  \S.*?\s{2,})\S", x)
        assert m and cell_len(m.group(1)) == 16, x  # no 🀇 (one column or two, by terminal) before it
