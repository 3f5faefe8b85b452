"""Each name has one home: labels, the bot list and the bonus names are written once in src/."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from shangrao.bots import BOT_NAMES, BOTS
from shangrao.game import ActionType
from shangrao.labels import labels_table
from shangrao.melds import MeldType
from shangrao.scoring.items import BONUS_NAMES, BONUSES

SRC = Path(__file__).resolve().parents[1] / "src" / "shangrao"
#: where labels are defined (their enums and definitions); labels.py only collects them
HOMES = {
    "melds.py",
    "game/actions.py",
    "scoring/items.py",
    "scoring/situation.py",
    "analysis/readings.py",
    "labels.py",
    "bots/__init__.py",
}


def _string_constants(path: Path) -> list[tuple[int, str]]:
    """The string literals of a module, docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
    return [
        (n.lineno, n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
    ]


def test_labels_are_defined_once():
    table = labels_table()
    zh = {
        v["zh"]
        for sec in ("actions", "melds", "win_by", "patterns", "doublings", "bonuses")
        for v in table[sec].values()
    }
    copies = []
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC).as_posix()
        if rel in HOMES:
            continue
        copies += [f"{rel}:{line}: {s!r}" for line, s in _string_constants(path) if s in zh]
    assert not copies, "labels written outside their home:\n" + "\n".join(copies)


def test_bot_list_is_written_once():
    copies = []
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC).as_posix()
        if rel == "bots/__init__.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
                names = [e.value for e in node.elts if isinstance(e, ast.Constant)]
                if len(set(names) & set(BOTS)) >= 2:
                    copies.append(f"{rel}:{node.lineno}: {names}")
    assert not copies, "bot lists written outside shangrao.bots.BOTS:\n" + "\n".join(copies)
    assert tuple(BOTS) == BOT_NAMES


def test_the_seed_names_of_kongs():
    assert MeldType.KONG.chinese == ActionType.KONG.chinese == ActionType.ADDED_KONG.chinese == "碰杠"
    assert MeldType.CONCEALED_KONG.chinese == ActionType.CONCEALED_KONG.chinese == "自摸杠"
    assert {k: b.name for k, b in BONUSES.items()} == BONUS_NAMES
    assert BONUS_NAMES["pung_kong"] == "碰杠" and BONUS_NAMES["concealed_kong"] == "自摸杠"


def test_labels_table_is_json_and_complete():
    table = json.loads(json.dumps(labels_table(), ensure_ascii=False))
    assert set(table["actions"]) == {t.value for t in ActionType}
    assert set(table["melds"]) == {k.value for k in MeldType}
    assert set(table["bots"]) == set(BOTS)
    assert table["bonuses"]["four_bao"] == {"zh": "四个宝", "en": "four 宝"}


def test_the_web_serves_the_labels_table():
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from shangrao.web.app import create_app

    with TestClient(create_app("sqlite://", resume=False)) as c:
        assert c.get("/api/labels").json() == json.loads(json.dumps(labels_table()))
