"""Issue 22: the fast entry points check the four-copy limit across hand and declared melds as
``analyze()`` does, and ``shanten()`` and ``waits()`` agree on every hand they both answer."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import shangrao
from shangrao.analysis import CopyLimitError, HandError, is_baodiao_state, is_winning, shanten, waits
from shangrao.analysis.hand import waits_after_discards
from shangrao.melds import Meld, MeldType, parse_meld
from shangrao.tiles import parse_tiles, to_34


def _t(s: str) -> list[int]:
    return to_34(parse_tiles(s))


PUNG_1M = [parse_meld("pung:111m")]


@pytest.mark.parametrize(
    ("name", "call"),
    [
        ("is_winning", lambda: is_winning(_t("11m123m456p789s"), None, PUNG_1M)),  # the example: six 1m
        ("shanten", lambda: shanten(_t("11m123m456p789s"), None, PUNG_1M)),
        ("shanten", lambda: shanten(_t("1m123m456p789s"), None, PUNG_1M)),
        ("waits", lambda: waits(_t("1m123m456p789s"), None, PUNG_1M)),
        ("is_baodiao_state", lambda: is_baodiao_state(_t("1m123m456p789s"), 5, PUNG_1M)),
        ("waits_after_discards", lambda: waits_after_discards(_t("11m123m456p789s"), None, PUNG_1M)),
        ("is_winning", lambda: shangrao.is_winning(_t("11m123m456p789s"), None, PUNG_1M)),
        ("shanten", lambda: shangrao.shanten(_t("11m123m456p789s"), None, PUNG_1M)),
    ],
)
def test_a_fifth_copy_across_hand_and_melds_is_refused(name, call):
    with pytest.raises(CopyLimitError, match=rf"^{name}: the hand and the declared melds hold \d copies of 1m"):
        call()


def test_the_copy_limit_error_is_a_value_error_and_analyze_raises_it_too():
    assert issubclass(CopyLimitError, HandError) and issubclass(CopyLimitError, ValueError)
    with pytest.raises(CopyLimitError):
        shangrao.analyze("11m123m456p789s", bao=None, melds=["pung:111m"])
    # four copies across hand and melds are fine
    assert is_winning(_t("123m456p789s99s"), None, PUNG_1M) is True
    assert shanten(_t("456p789s1z"), None, PUNG_1M + [parse_meld("chow:123m")]) == 0


def test_shanten_agrees_with_waits_on_the_fifth_copy_hand():
    """The issue's example: 123456789m1111z without 宝 waits only on a fifth 东 — no wait, so not ready."""
    hand = _t("123456789m1111z")
    assert waits(hand, None) == {} and shanten(hand, None) == 1 == shangrao.shanten(hand, None)
    # with a 宝 the hand is ready (R3: draw a 宝 for the fifth 东)
    assert waits(hand, 4) and shanten(hand, 4) == 0
    # a meld holding the fourth copy: the same
    assert waits(_t("123456789m1z"), None, [parse_meld("pung:111z")]) == {}
    assert shanten(_t("123456789m1z"), None, [parse_meld("pung:111z")]) == 1
    assert shanten(_t("456m789m1z"), None, [parse_meld("pung:111z"), parse_meld("chow:123m")]) == 1


@st.composite
def crowded_hands(draw, extra: int):
    """A concealed hand of ``3*m + extra`` tiles with 0-2 declared melds, 0-1 宝 kind, often holding all
    four copies of a kind across hand and melds (where the fast tables would see a fifth copy)."""
    pool = [k for k in range(34) for _ in range(4)]
    melds: list[Meld] = []
    hand: list[int] = []
    quad = draw(st.integers(0, 33))
    for _ in range(draw(st.integers(0, 2))):
        if draw(st.booleans()):  # a pung, often of the crowded kind
            k = quad if not melds and draw(st.booleans()) else draw(st.integers(0, 33))
            if pool.count(k) >= 3:
                for _ in range(3):
                    pool.remove(k)
                melds.append(Meld(MeldType.PUNG, (k, k, k)))
        else:
            low = draw(st.sampled_from([s * 9 + r for s in range(3) for r in range(7)]))
            if all(pool.count(x) for x in (low, low + 1, low + 2)):
                for x in (low, low + 1, low + 2):
                    pool.remove(x)
                melds.append(Meld(MeldType.CHOW, (low, low + 1, low + 2)))
    size = 3 * (4 - len(melds)) + extra
    while pool.count(quad) and len(hand) < size and draw(st.integers(0, 4)):
        pool.remove(quad)
        hand.append(quad)
    rest = draw(st.permutations(pool))
    hand += list(rest[: size - len(hand)])
    bao = draw(st.one_of(st.none(), st.integers(0, 33)))
    return to_34(hand), bao, melds


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(crowded_hands(extra=1))
def test_shanten_is_zero_exactly_when_waits_finds_a_wait(case):
    t34, bao, melds = case
    assert (shanten(t34, bao, melds) == 0) == bool(waits(t34, bao, melds))
    # with the melds given as a count the held copies are the hand's alone, for both
    assert (shanten(t34, bao, len(melds)) == 0) == bool(waits(t34, bao, len(melds)))


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(crowded_hands(extra=2))
def test_a_full_hand_is_ready_exactly_when_a_discard_leaves_a_wait(case):
    t34, bao, melds = case
    s = shanten(t34, bao, melds)
    assert (s == -1) == is_winning(t34, bao, melds)
    if s >= 0:
        assert (s == 0) == bool(waits_after_discards(t34, bao, melds))


@pytest.mark.parametrize("name", ["is_winning", "shanten", "waits", "is_baodiao_state"])
def test_a_bool_is_no_count_for_any_entry_point(name):
    # True == 1 in Python: is_winning and shanten took booleans while waits refused them
    from shangrao.tiles import parse_tiles, to_34

    hand = to_34(parse_tiles("123m456p789s123s55z" if name in ("is_winning", "shanten") else "123m456p789s123s5z"))
    hand = [True if c == 1 else c for c in hand]
    with pytest.raises(ValueError, match="True"):
        getattr(shangrao, name)(hand, None)
