"""docs/bot-protocol.md's example exchange is a real run, and its tables name every field sent."""

from __future__ import annotations

import itertools
import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shangrao.cli import app
from shangrao.tiles import format_tile

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "bot-protocol.md"
EXAMPLE = ROOT / "docs" / "bot-protocol-example.txt"
COMMAND = re.compile(r"\$ (shangrao simulate [^\n]*?)\\\n\s+(--bots \"[^\"]+\")")


def _messages() -> list[tuple[str, dict]]:
    out = []
    for line in EXAMPLE.read_text(encoding="utf-8").splitlines():
        direction, body = line[:2], line[2:]
        assert direction in ("> ", "< "), line
        msg = json.loads(body)
        out.append((direction, msg if isinstance(msg, dict) else {"action": msg}))
    return out


def _table_keys(section: str) -> dict[str, set[str]]:
    """Rows of a markdown table after ``section``: first cell's `names` -> the `keys` of the row."""
    lines = DOC.read_text(encoding="utf-8").split(section, 1)[1].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    table = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        table.append(line)
    rows = {}
    for row in table:
        cells = row.split("|")
        for name in re.findall(r"`([a-z_]+)`", cells[1]):
            rows[name] = set(re.findall(r"`([a-z_]+)`", cells[2]))
    return rows


def test_the_example_exchange_replays_line_for_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The doc's command, run again, writes the same exchange (same deal, same requests, same answers)."""
    m = COMMAND.search(DOC.read_text(encoding="utf-8"))
    assert m, "the recording command is in docs/bot-protocol.md"
    argv = (m.group(1) + " " + m.group(2)).split(" ", 1)[1]
    (tmp_path / "examples" / "bots").mkdir(parents=True)
    (tmp_path / "docs").mkdir()
    for name in ("record_exchange.py", "tsumogiri_bot.py"):
        shutil.copy(ROOT / "examples" / "bots" / name, tmp_path / "examples" / "bots" / name)
    monkeypatch.chdir(tmp_path)
    args = argv.replace("/tmp/example.sqlite3", str(tmp_path / "example.sqlite3"))
    bots = args.split("--bots ", 1)[1].strip().strip('"')
    head = args.split("--bots ", 1)[0].split()
    result = CliRunner().invoke(app, [*head, "--bots", bots])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "docs" / "bot-protocol-example.txt").read_text(encoding="utf-8") == EXAMPLE.read_text(
        encoding="utf-8"
    )


def test_the_example_is_one_whole_hand_with_an_answer_per_request() -> None:
    msgs = _messages()
    kinds = [m.get("type") for d, m in msgs if d == "> "]
    assert kinds[0] == "hello" and kinds[1] == "deal" and kinds[-1] == "bye" and "end" in kinds
    requests = [m["id"] for d, m in msgs if d == "> " and m.get("type") == "request"]
    answers = [m for d, m in msgs if d == "< "]
    assert [a["id"] for a in answers] == requests
    for (d, m), (_, nxt) in itertools.pairwise(msgs):
        if d == "> " and m.get("type") == "request":
            assert nxt["action"] in m["legal"]


def test_every_key_sent_in_the_example_is_in_the_docs_field_tables() -> None:
    observation = _table_keys("## Field types")
    events = _table_keys("Events (seat's view")
    obs_keys = set(observation)
    for d, m in _messages():
        if d != "> " or m["type"] in ("hello", "bye"):
            continue
        if m["type"] == "request":
            assert set(m["observation"]) == obs_keys, set(m["observation"]) ^ obs_keys
            continue
        documented = events[m["type"]] | {"type"}
        assert set(m) <= documented, (m["type"], set(m) - documented)


@pytest.mark.parametrize("kind", range(34))
def test_the_tile_kind_table_names_each_kind_as_format_tile_does(kind: int) -> None:
    text = DOC.read_text(encoding="utf-8").split("## Tiles: ids, kinds and their text", 1)[1]
    rows = [r for r in text.splitlines() if re.match(r"\| \d+–\d+ \|", r)]
    first = kind // 9 * 9 if kind < 27 else 27
    row = next(r for r in rows if r.startswith(f"| {first}–"))
    names = re.findall(r"`(\d[mpsz])`", row)
    assert names[kind - first] == format_tile(kind)
