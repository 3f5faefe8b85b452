"""Issue 22: every win the engine scores is a situation ``WinSituation`` accepts and ``score`` scores
the same, and the same situation with one field made impossible is refused.

The situations are the engine's own (``WinRecord.situation``, every flag as the engine set it): 200
hands of greedy bots, 200 of greedy against random bots (random bots fly 宝, so payers' 飞宝 come
up), and scripted walls for what self-play rarely reaches: 天糊 (with 四个宝), 地糊 (on a plain
tile, on the dealer's 宝, after 接宝 on it), a self-drawn win after 接宝, a win after the winner's
own 飞宝, 抢杠 of a kong of the 宝 made on the robber's own 飞宝.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from game_helpers import do, make_game

from shangrao.bots.greedy import GreedyBot
from shangrao.bots.random_bot import RandomBot
from shangrao.game import Game, play_hand
from shangrao.scoring import SituationError, WinBy, WinSituation, score
from shangrao.tiles import indicator_of, parse_tile

BAO = parse_tile("6z")  # the scripted walls' 宝 (indicator 7z)


def _self_play() -> Iterator[tuple[Game, WinSituation]]:
    for i in range(400):
        if i < 200:
            bots = [GreedyBot(seed=4 * i + s) for s in range(4)]
        else:  # random bots discard 宝 freely: payers' 飞宝
            bots = [GreedyBot(seed=4 * i + s) if (s + i) % 2 else RandomBot(seed=4 * i + s) for s in range(4)]
        g = Game(seed=i, dealer=i % 4)
        for w in play_hand(g, bots).wins:
            yield g, w.situation


def _to_turn_of(g: Game, seat: int) -> None:
    """Everyone passes windows and discards the tile just drawn until ``seat`` has drawn."""
    while not (g.phase == "act" and g.current_seat == seat):
        if g.phase in ("claim", "rob"):
            g.apply("pass")
        else:
            s = g.current_seat
            assert s is not None
            g.apply(_discard_drawn(g, s))


def _discard_drawn(g: Game, seat: int) -> str:
    from shangrao.tiles import format_tile

    tid = g.last_draw[seat]
    assert tid is not None
    return f"discard {format_tile(tid >> 2)}"


def _scripted() -> Iterator[tuple[str, Game]]:
    # 天糊 on the dealer's first draw (one 宝), and with the fourth 宝 drawn (四个宝)
    g = make_game({0: "1112223334445z"}, draws="6z")
    do(g, "0:win")
    yield "heavenly", g
    g = make_game({0: "111z222z333z4z666z"}, draws="6z")
    do(g, "0:win")
    yield "heavenly four_bao", g
    # 地糊 on a plain tile
    g = make_game({0: "1112223334445z", 1: "123m456m789m123p5z"}, draws="7s")
    do(g, "0:discard 5z", "1:win")
    yield "earthly", g
    # 地糊 on the dealer's 宝 (R4), with and without 接宝 on it first (R14: the seat is asked again)
    hands = {0: "1112223334445z", 1: "123m456m789m1p666z", 2: "123456789s1234p", 3: "5556667778889p"}
    for steps, label in (
        (("0:discard 6z", "1:win"), "earthly on a bao"),
        (("0:discard 6z", "1:catch_bao", "1:win"), "earthly after caught_bao"),
    ):
        g = make_game(hands, draws="6z")
        do(g, *steps)
        yield label, g
    # 接宝 on the dealer's 宝, then a self-drawn win
    g = make_game({0: "6z1m2m3m7m8m9m1s2s3s2z2z3p", 1: "123m456m789m1p666z"}, draws="4z5s")
    do(g, "0:discard 6z", "1:catch_bao", "1:pass")
    _to_turn_of(g, 1)
    do(g, "1:win")
    yield "caught_bao then self-draw", g
    # 抢杠 of a kong of the 宝 made on the robber's own 飞宝 (R13: the discarder may rob)
    g = make_game({0: "1112223334445z", 1: "123m456m789m123p5z", 2: "666z123s456s789s4p"}, draws="7s6z")
    do(g, "0:discard 7s")
    _to_turn_of(g, 1)
    do(g, "1:discard 6z", "2:kong 6z")
    while g.phase == "rob" and g.current_seat != 1:
        g.apply("pass")
    do(g, "1:win")
    yield "robbing a kong of the bao", g
    # the winner flies a 宝 (飞宝), then wins by self-draw
    g = make_game({0: "123m456m789m123p5z"}, draws="6z1s2s3s5z")
    do(g, "0:discard 6z")
    _to_turn_of(g, 0)
    do(g, "0:win")
    yield "winner_flown", g


def _engine_situations() -> list[tuple[str, Game, WinSituation]]:
    out = [(f"self-play {i}", g, s) for i, (g, s) in enumerate(_self_play())]
    for label, g in _scripted():
        assert g.result is not None and g.result.wins, label
        out += [(label, g, w.situation) for w in g.result.wins]
    return out


SITUATIONS = _engine_situations()


def test_the_engine_situations_cover_the_rare_flags():
    """The set holds every clause the validation judges (so the properties below test them all)."""

    def has(pred) -> bool:
        return any(pred(s) for _, _, s in SITUATIONS)

    assert has(lambda s: s.heavenly) and has(lambda s: s.heavenly and s.four_bao)
    assert has(lambda s: s.win_by is WinBy.DEALER_FIRST_DISCARD and s.caught_bao)
    assert has(lambda s: s.win_by is WinBy.DEALER_FIRST_DISCARD and s.win_tile != s.bao)
    assert has(lambda s: s.win_by is WinBy.ROBBING_KONG)
    assert has(lambda s: s.win_by is WinBy.ROBBING_KONG and s.win_tile == s.bao and s.winner_flown)
    assert has(lambda s: s.caught_bao and s.win_by is WinBy.SELF_DRAW)
    assert has(lambda s: s.four_bao and not s.heavenly)
    assert has(lambda s: s.winner_flown) and has(lambda s: any(s.payers_flown))
    assert has(lambda s: s.winner_held_bao is False) and has(lambda s: s.kong_chain) and has(lambda s: s.touji)


def test_every_engine_situation_is_accepted_and_scored_as_the_engine_scored_it():
    assert len(SITUATIONS) > 300
    for label, g, s in SITUATIONS:
        again = WinSituation.from_dict(s.to_dict())  # the JSON of `shangrao score` too
        engine = next(w.score for w in g.result.wins if w.situation is s)
        assert score(again, g.rules).to_dict() == engine.to_dict(), label


def _replace_hand(s: WinSituation, kind: int, n: int) -> tuple[int, ...] | None:
    """The hand with ``n`` tiles of other kinds turned into ``kind`` (None if it has too few)."""
    hand = list(s.hand)
    others = [i for i, k in enumerate(hand) if k != kind]
    if len(others) < n:
        return None
    for i in others[:n]:
        hand[i] = kind
    return tuple(hand)


def _impossible(s: WinSituation) -> Iterator[tuple[str, dict]]:
    """One field of ``s`` changed to a value no game can produce with the others (with the reason)."""
    bao = s.bao
    melds_tiles = [t for m in s.melds for t in m.tiles]
    counts = [0] * 34
    for k in (*s.hand, s.win_tile, *melds_tiles):
        counts[k] += 1
    n_hand = s.hand.count(bao) if bao is not None else 0
    n_melds = melds_tiles.count(bao) if bao is not None else 0
    n_win = int(s.win_tile == bao)
    drawn_most = n_hand + n_melds + s.winner_flown + (n_win if s.win_by is WinBy.SELF_DRAW else 0)
    first = s.heavenly or s.win_by is WinBy.DEALER_FIRST_DISCARD
    # the four-copy limit: a fifth copy of the win tile's kind in the hand
    hand = _replace_hand(s, s.win_tile, 5 - counts[s.win_tile])
    if hand is not None:
        yield "a fifth copy", {"hand": hand}
    if bao is not None:
        ind = indicator_of(bao)
        hand = _replace_hand(s, ind, 4 - counts[ind])
        if hand is not None:
            yield "four copies of the indicator (R1)", {"hand": hand}
    # 抢杠: the robber holds a copy of the robbed kind
    if s.win_by is WinBy.ROBBING_KONG:
        hand = _replace_hand(s, s.win_tile, 1)
        if hand is not None:
            yield "抢杠 with the robbed kind in hand", {"hand": hand}
    elif s.win_tile in s.hand and not s.heavenly and not s.kong_chain:
        yield "抢杠 with the robbed kind in hand", {"win_by": WinBy.ROBBING_KONG, "robbed": 0}
    if s.kong_chain < 4:
        yield "杠开 with more kongs in a row than kong melds", {"kong_chain": sum(m.is_kong for m in s.melds) + 1}
    if bao is None:
        return
    if (
        not s.melds
        and s.win_by is WinBy.SELF_DRAW
        and (s.winner_flown or any(s.payers_flown) or s.caught_bao or s.touji)
        and not s.heavenly
    ):
        yield "天糊 after a discard or 偷机", {"heavenly": True}
    if first:
        yield "天糊/地糊 with the winner's 飞宝", {"winner_flown": 1}
        yield (
            "天糊/地糊 with a second discarded 宝",
            {"payers_flown": (1, 1, 0) if not s.payers_flown[0] else (1, 0, 1)},
        )
        yield "天糊/地糊 with 偷机", {"touji": 1}
    if not s.caught_bao and (s.heavenly or n_hand + n_melds + s.winner_flown < 3):
        yield "接宝 with fewer than three 宝 drawn or with 天糊", {"caught_bao": True}
    if s.caught_bao:
        yield "接宝 with no payer's 飞宝", {"payers_flown": (0, 0, 0)}
    if s.four_bao:
        yield "四个宝 unflagged", {"four_bao": False}
    elif drawn_most != 4:
        yield "四个宝 without four 宝", {"four_bao": True}
    if n_hand or n_win:
        yield "winner_held_bao false with a 宝 in hand", {"winner_held_bao": False}
    if not drawn_most and not n_win:
        yield "winner_held_bao true with no 宝 anywhere", {"winner_held_bao": True}
        yield "偷机 with no 宝", {"touji": 1}


def test_every_engine_situation_with_one_impossible_field_is_refused():
    tried: dict[str, int] = {}
    for label, _g, s in SITUATIONS:
        for why, change in _impossible(s):
            tried[why] = tried.get(why, 0) + 1
            with pytest.raises(SituationError):
                dataclasses.replace(s, **change)
                pytest.fail(f"{label}: {why} {change} was accepted: {s.to_dict()}")
    assert sum(tried.values()) > 1000
    # every kind of change was made on some engine situation
    assert set(tried) == {
        "a fifth copy",
        "four copies of the indicator (R1)",
        "抢杠 with the robbed kind in hand",
        "杠开 with more kongs in a row than kong melds",
        "天糊 after a discard or 偷机",
        "天糊/地糊 with the winner's 飞宝",
        "天糊/地糊 with a second discarded 宝",
        "天糊/地糊 with 偷机",
        "接宝 with fewer than three 宝 drawn or with 天糊",
        "接宝 with no payer's 飞宝",
        "四个宝 unflagged",
        "四个宝 without four 宝",
        "winner_held_bao false with a 宝 in hand",
        "winner_held_bao true with no 宝 anywhere",
        "偷机 with no 宝",
    }, sorted(tried)


def test_earthly_win_on_the_dealers_bao_after_catching_it():
    """A seat dealt three 宝 declares 接宝 on the dealer's first discard, the fourth, and wins on it (地糊,
    R14, R19): the engine used to fail here (the discarded 宝 counted twice, as win tile and 飞宝)."""
    g = make_game({0: "1112223334445z", 1: "123m456m789m1p666z"}, draws="6z")
    do(g, "0:discard 6z", "1:catch_bao", "1:win")
    (w,) = g.result.wins
    assert w.situation.caught_bao and w.situation.win_by is WinBy.DEALER_FIRST_DISCARD
    assert w.situation.payers_flown == (0, 0, 1) and w.score.pattern.name == "地糊"
    assert g.scores == [-20, 60, -20, -20]  # 接宝 10 (settled when declared) and 地糊 10 from each
