"""Bad input to the library API: a ValueError subclass (TypeError for the wrong type entirely)
whose message names the problem — never IndexError/KeyError/AttributeError, never a silent answer."""

from __future__ import annotations

import copy

import pytest

import shangrao
from shangrao.game import Game, ReplayError, events_from_jsonl, events_to_jsonl, redact, replay
from shangrao.tiles import parse_tiles, to_34

WIN = to_34(parse_tiles("123m456p789s123s55z"))
READY = to_34(parse_tiles("123m456p789s12s55z"))
HAND13 = parse_tiles("123m456p789s123s5z")


@pytest.mark.parametrize("fn", [shangrao.is_winning, shangrao.shanten])
@pytest.mark.parametrize(
    "melds, needle", [("pung:111m", "Meld"), (["pung:111m"], "Meld"), (None, "declared_melds"), ([5], "Meld")]
)
def test_declared_melds_of_the_wrong_type(fn, melds, needle):
    with pytest.raises(TypeError, match=needle):
        fn(WIN, None, melds)


@pytest.mark.parametrize("fn", [shangrao.waits, shangrao.is_baodiao_state])
def test_waits_and_baodiao_melds_of_the_wrong_type(fn):
    with pytest.raises(TypeError, match="Meld"):
        fn(READY, 17, ["pung:111m"])


@pytest.mark.parametrize("fn", [shangrao.is_winning, shangrao.shanten, shangrao.waits])
@pytest.mark.parametrize("tiles", [WIN[:33], WIN + [0], [-1] + WIN[1:], [float(x) for x in WIN]])
def test_tiles_34_wrong_length_or_values(fn, tiles):
    with pytest.raises(ValueError):
        fn(tiles, None)


@pytest.mark.parametrize("bao", [34, -1, True, 17.0, "9p"])
def test_bao_out_of_range_or_wrong_type(bao):
    for fn in (shangrao.is_winning, shangrao.shanten):
        with pytest.raises(ValueError, match="bao"):
            fn(WIN, bao)


def test_is_baodiao_state_checks_its_hand_even_without_bao():
    with pytest.raises((TypeError, ValueError)):
        shangrao.is_baodiao_state(None, None)
    with pytest.raises(ValueError):
        shangrao.is_baodiao_state(WIN, None)  # 14 tiles: not a hand before the draw


def test_analyze_bad_hands():
    for hand in (None, 5):
        with pytest.raises(TypeError, match="hand"):
            shangrao.analyze(hand)
    for hand, bao in (("", None), ([-1] * 14, None), ([1.0] * 14, None), (WIN, 99), (WIN, True)):
        with pytest.raises(ValueError):
            shangrao.analyze(hand, bao)


def test_score_rules_of_the_wrong_type():
    sit = {"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p"}
    with pytest.raises(TypeError, match="rules"):
        shangrao.score(sit, None)
    with pytest.raises(TypeError, match="rules"):
        shangrao.score(sit, "x")
    # a rules dict is read like the JSON of a game record
    assert shangrao.score(sit, {"base_points": 2}).total == 2 * shangrao.score(sit).total


@pytest.mark.parametrize(
    "field, value",
    [
        ("heavenly", "no"),
        ("four_bao", 1),
        ("caught_bao", "yes"),
        ("winner_held_bao", "x"),
        ("bao", True),
        ("win_tile", True),
    ],
)
def test_win_situation_refuses_non_bools_and_bool_kinds(field, value):
    kw = {"hand": HAND13, "win_tile": 31, "bao": 17, field: value}
    with pytest.raises(ValueError, match=field):
        shangrao.WinSituation(**kw)


def test_format_tiles_refuses_bad_kinds():
    for bad in ([-1], [34], [1.0]):
        with pytest.raises(ValueError):
            shangrao.format_tiles(bad)


# ---------------------------------------------------------------- the game engine


def _played(seed: int = 3) -> Game:
    g = Game(seed=seed)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    return g


def test_game_apply_garbage_and_after_the_end():
    g = Game(seed=1)
    n = len(g.events)
    for bad in ("", "garbage", "discard", "discard 0m", "chow 123z", None, 5, b"win", "x" * 100_000):
        with pytest.raises(ValueError):
            g.apply(bad)
    with pytest.raises(ValueError):
        g.apply(g.legal_actions()[0], seat=(g.current_seat + 1) % 4)
    assert len(g.events) == n
    g = _played()
    with pytest.raises(ValueError, match="over"):
        g.apply("pass")


@pytest.mark.parametrize("seat", [4, -1, 9, "0", None, True, 1.0])
def test_game_seat_arguments_are_checked(seat):
    g = Game(seed=1)
    with pytest.raises((ValueError, TypeError), match="seat"):
        g.observation(seat)
    if seat is not None:
        with pytest.raises((ValueError, TypeError), match="seat"):
            g.legal_actions(seat)
    with pytest.raises((ValueError, TypeError), match="seat"):
        redact(g.events, seat)


def test_game_rules_as_a_dict_or_wrong_type():
    assert Game(rules={"base_points": 2}, seed=1).rules.base_points == 2
    with pytest.raises(TypeError, match="rules"):
        Game(rules="x")


def test_replay_takes_json_lines_text_and_refuses_garbage():
    g = _played()
    assert replay(events_to_jsonl(g.events)).result == g.result
    for bad in (None, "garbage", 5, [5], [None], [{"type": "deal"}]):
        with pytest.raises(ValueError):
            replay(bad)
    broken = copy.deepcopy(g.events)
    del broken[0]["dealer"]
    with pytest.raises(ReplayError, match="dealer"):
        replay(broken)
    broken = copy.deepcopy(g.events)
    del broken[3]["seat"]
    with pytest.raises(ReplayError):
        replay(broken)
    broken = copy.deepcopy(g.events)
    broken[3] = "discard 1m"
    with pytest.raises(ReplayError):
        replay(broken)


def test_events_from_jsonl_bad_text():
    with pytest.raises(ValueError, match="line 2"):
        events_from_jsonl('{"type": "deal"}\n{bad\n')
    with pytest.raises(ValueError, match="line 1"):
        events_from_jsonl("[1]\n")
    with pytest.raises(ValueError, match="nested"):
        events_from_jsonl("[" * 100_000 + "\n")
