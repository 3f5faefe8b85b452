"""``shangrao play`` on a real terminal: an 80×24 screen at the settlement, Ctrl-C however it was
started, and the words for a discard into 宝吊头 (issue 24, items 7 and 8)."""

from __future__ import annotations

import os
import signal
from types import SimpleNamespace

import pytest

from shangrao.cli.narrate import discard_waits_words, render_choices
from shangrao.game import Action, ActionType
from shangrao.tiles import parse_tile, parse_tiles, to_34

pexpect = pytest.importorskip("pexpect")


def _spawn(shangrao_cmd, db, rows: int, cols: int, *, ignore_sigint: bool = False):
    def preexec() -> None:  # a background job of a non-interactive shell starts with SIGINT ignored
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    env = {**os.environ, "SHANGRAO_DB": str(db)}
    return pexpect.spawn(
        shangrao_cmd[0],
        [*shangrao_cmd[1:], "play", "--seed", "2", "--db", str(db)],
        env=env,
        encoding="utf-8",
        timeout=120,
        dimensions=(rows, cols),
        preexec_fn=preexec if ignore_sigint else None,
    )


def _to_first_settlement(child, screen=None) -> None:
    """Answer 1 at every decision (Enter at a claim's confirmation) until the first settlement."""
    for _ in range(500):
        i = child.expect([r"choose 1-\d+", r"press Enter for the next hand", r"Enter sends it", pexpect.EOF])
        if screen is not None:
            screen.feed(child.before + (child.after if isinstance(child.after, str) else ""))
        if i == 0:
            child.sendline("1")
        elif i == 1:
            return
        elif i == 2:
            child.sendline("")
        else:
            pytest.fail("play ended before the first settlement")
    pytest.fail("no settlement after 500 decisions")


def test_play_at_80x24_keeps_the_winner_and_the_winning_hand_on_screen_at_the_settlement(tmp_path, shangrao_cmd):
    pyte = pytest.importorskip("pyte")
    screen = pyte.Screen(80, 24)
    stream = pyte.Stream(screen)
    child = _spawn(shangrao_cmd, tmp_path / "g.sqlite3", 24, 80)
    _to_first_settlement(child, stream)
    shown = "\n".join(screen.display)
    child.sendintr()
    child.expect(pexpect.EOF)
    assert "press Enter for the next hand" in shown, shown
    assert "结果 result:" in shown and "糊" in shown, shown  # who won, with which pattern
    assert "手牌 hand" in shown and "this hand" in shown, shown  # the winning hand and every seat's points


def test_ctrl_c_leaves_play_when_it_was_started_with_sigint_ignored(tmp_path, shangrao_cmd):
    # e.g. the test suite started with `nohup python -m pytest &`: play used to ignore Ctrl-C then
    child = _spawn(shangrao_cmd, tmp_path / "g.sqlite3", 50, 160, ignore_sigint=True)
    child.expect(r"choose 1-\d+")
    child.sendintr()
    child.expect(r"saved as game \d+ \(unfinished")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


def _obs(hand: str, bao: str):
    tiles = parse_tiles(hand)
    h34 = to_34(tiles)
    return SimpleNamespace(
        hand_34=h34, hand=tiles, melds=[[], [], [], []], seat=0, unseen=lambda: [4 - c for c in h34]
    ), parse_tile(bao)


def test_a_discard_into_baodiao_waits_on_any_tile_not_a_list_of_kinds():
    # 123m456p789s 111z + 5p(宝) + 5z: discarding 白 leaves 宝吊头, from which every draw wins (D5)
    obs, bao = _obs("123m456p789s111z5p5z", "5p")
    assert discard_waits_words(obs, bao, parse_tile("5z")) == "any tile (宝吊)"
    lines = [t.plain for t in render_choices([Action(ActionType.DISCARD, parse_tile("5z"))], obs, bao)]
    assert any("→ 听 any tile (宝吊)" in line for line in lines), lines


def test_a_discard_into_an_ordinary_wait_lists_its_tiles():
    obs, bao = _obs("123m456p789s11z45s7z", "1p")
    assert discard_waits_words(obs, bao, parse_tile("7z")) != ""
    assert "宝吊" not in discard_waits_words(obs, bao, parse_tile("7z"))
    assert discard_waits_words(obs, bao, parse_tile("1m")) == ""
