"""The play and replay screens read well for a Chinese player: compact Chinese discards and melds, 宝 flags,
verbs that agree, calls marked when overridden, an unfinished hand replayed.

In-process and fast: the screen pieces are rendered with a recording console,
replay runs through the CliRunner on a small stored game.
"""

from __future__ import annotations

import inspect
from types import SimpleNamespace

from rich.console import Console

from shangrao.bots import get_bot
from shangrao.cli import app
from shangrao.cli.narrate import (
    action_text,
    event_line,
    event_lines,
    render_table,
    seat_label,
)
from shangrao.cli.play import only_action_named, typing_hint
from shangrao.cli.render import discards_text
from shangrao.game import Action, ActionType, Match, parse_action
from shangrao.records import Store
from shangrao.rules import DEFAULT_RULES
from shangrao.tiles import parse_tile, parse_tiles


def plain(*renderables) -> str:
    c = Console(record=True, width=200, color_system=None)
    for r in renderables:
        c.print(r)
    return c.export_text()


def you_label(s):
    return seat_label(s, 0, ["human", "greedy", "greedy", "greedy"])


def _played_game(seed: int = 3, steps: int = 40):
    """A hand advanced ``steps`` actions by greedy bots (all seats)."""
    game = Match(DEFAULT_RULES, seed=seed).new_hand()
    bots = [get_bot("greedy", seed=f"{seed}:{i}") for i in range(4)]
    for _ in range(steps):
        legal = game.legal_actions()
        s = game.current_seat
        game.apply(legal[0] if len(legal) == 1 else bots[s].choose(game.observation(s), legal))
    return game


# 1. the discards column 牌河 in Chinese
def test_pond_is_compact_chinese():
    assert discards_text(parse_tiles("7z5z3z8m"), bao=None).plain == "中 白 西 八万"
    assert discards_text([]).plain == "—"


def test_play_screen_discards_are_chinese():
    game = _played_game()
    obs = game.observation(0)
    text = plain(*render_table(obs, 0, 8, ["human", "greedy", "greedy", "greedy"]))
    pond = obs.discards[1]
    assert pond, "seat 1 has discarded something"
    assert "discards 牌河" in text
    assert discards_text(pond).plain in " ".join(text.split())
    assert "[" in text  # the own hand keeps its mpsz in brackets


# 2. a meld that lays down one's own 宝 is flagged 用宝
def _claim_obs(discarder: int, kind: str):
    return SimpleNamespace(last_discard=(discarder, parse_tile(kind)), phase="claim", seat=0)


def test_chow_using_own_bao_is_flagged():
    bao = parse_tile("4p")
    t = action_text(parse_action("chow 234p"), _claim_obs(3, "2p"), bao).plain
    assert "用宝 uses your 宝 四筒" in t


def test_chow_on_a_discarded_bao_is_not_flagged():
    bao = parse_tile("4p")
    t = action_text(parse_action("chow 234p"), _claim_obs(3, "4p"), bao).plain
    assert "用宝" not in t


def test_pung_and_kong_of_bao_say_how_many():
    bao = parse_tile("4p")
    assert "用宝 uses 2 of your 宝" in action_text(parse_action("pung 4p"), _claim_obs(3, "4p"), bao).plain
    assert "用宝 uses 3 of your 宝" in action_text(parse_action("kong 4p"), _claim_obs(3, "4p"), bao).plain
    assert "用宝" not in action_text(parse_action("pung 5p"), _claim_obs(3, "5p"), bao).plain


# 3. wording: the verb agrees with 你 you; the typing hint fits the choice
def test_verb_agrees_with_the_subject():
    draw = {"type": "draw", "seat": 0, "kind": "1s", "source": "wall"}
    assert "你 you draw 一条" in event_line(draw, None, you_label).plain
    other = {**draw, "seat": 1, "kind": None}
    assert "下家 seat 1 (greedy) draws" in event_line(other, None, you_label).plain
    disc = {"type": "discard", "seat": 0, "kind": "5m"}
    assert "你 you 打 discard 五万" in event_line(disc, None, you_label).plain
    assert "discards" in event_line({**disc, "seat": 2}, None, you_label).plain


def test_claim_prompt_hint_fits_and_bare_words_work():
    acts = [Action(ActionType.PUNG, parse_tile("2z")), Action(ActionType.PASS)]
    assert typing_hint(acts) == "'pung', 'pass'"
    assert only_action_named("pung", acts) == acts[0]
    assert only_action_named("chow", acts) is None
    discards = [Action(ActionType.DISCARD, k) for k in parse_tiles("15m7z")]
    assert typing_hint(discards) == "'discard 7z'"


# 5. a call beaten by a higher claim is marked; a call carried out is not repeated
def test_overridden_call_is_marked():
    events = [
        {"type": "discard", "seat": 1, "kind": "4m"},
        {"type": "call", "seat": 2, "action": "chow 234m"},
        {"type": "call", "seat": 3, "action": "pung 4m"},
        {"type": "pung", "seat": 3, "from": 1, "meld": "pung:444m", "tiles": []},
    ]
    label = lambda s: seat_label(s, None)  # noqa: E731
    lines = [t.plain for t in event_lines(events, 0, None, label)]
    assert any("seat 2 calls 吃 chow 234m" in x and "(overridden by seat 3's 碰 pung)" in x for x in lines), lines
    assert not any("seat 3 calls" in x for x in lines)
    assert any("seat 3 碰 pung 四万 (444m) from seat 1" in x for x in lines)
    # --passes shows every call
    assert any("seat 3 calls 碰 pung" in t.plain for t in event_lines(events, 0, None, label, show_passes=True))


def test_call_still_open_is_shown_plainly():
    events = [{"type": "call", "seat": 2, "action": "chow 234m"}]
    (line,) = event_lines(events, 0, None, lambda s: seat_label(s, None))
    assert "overridden" not in line.plain and "calls 吃 chow 234m" in line.plain


# 4. replay shows the live events of an unfinished hand
def test_replay_shows_an_unfinished_hand(cli, tmp_path):
    db = tmp_path / "unfinished.sqlite3"
    game = _played_game(steps=30)
    store = Store(str(db))
    try:
        gid = store.create_game("play", ["human", "greedy", "greedy", "greedy"], seed=3, rules=DEFAULT_RULES)
        for ev in game.events:
            store.append_event(gid, 0, ev)
    finally:
        store.close()
    for args in ([], ["--hand", "1"]):
        r = cli("replay", str(gid), "--db", str(db), *args)
        assert r.exit_code == 0, r.output
        out = r.stdout
        assert "未完 unfinished" in out and "dealer 庄" in out
        assert "draws" in out and "discards" in out
        assert "结算 settlement" not in out and "reproduces" not in out
    r = cli("replay", str(gid), "--db", str(db), "--hand", "2")
    assert r.exit_code == 2


# 6. help texts: a short first sentence, paragraphs left for rich to wrap
def test_help_paragraphs_are_single_lines():
    for cmd in app.registered_commands:
        doc = inspect.getdoc(cmd.callback) or ""
        paragraphs = doc.split("\n\n")
        assert len(paragraphs[0]) <= 70 and "\n" not in paragraphs[0], (cmd.name, paragraphs[0])
        for p in paragraphs[1:]:
            assert "\n" not in p, (cmd.name, p)
