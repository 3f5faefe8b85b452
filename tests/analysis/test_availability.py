"""Issue 10 (1)(2): shanten and waits count only tiles that exist (R1, the four-copy limit)."""

from __future__ import annotations

import pytest

import shangrao
from shangrao.analysis import Form, form_shanten, shanten, unseen_counts, waits
from shangrao.tiles import parse_tile, parse_tiles, to_34


def _t(s: str) -> list[int]:
    return to_34(parse_tiles(s))


def test_ready_with_no_tile_left_is_not_ready():
    """123456789m1111z without 宝: only a fifth 东 completes it, so it is 1 from ready, not 0."""
    a = shangrao.analyze("123456789m1111z", bao=None)
    assert a.waits == {} and a.shanten == 1
    assert a.form_shanten[Form.STANDARD] == 1
    # issue 22: without a view shanten() agrees with waits() (no wait can be drawn: not ready);
    # the per-form tables stay copy-blind
    assert shanten(_t("123456789m1111z"), None) == 1 and waits(_t("123456789m1111z"), None) == {}
    assert min(form_shanten(_t("123456789m1111z"), None).values()) == 0


def test_indicator_copy_is_not_a_wait():
    """12333m789s456p11z with indicator 3m: the fourth 3m is out of play (R1)."""
    a = shangrao.analyze("12333m789s456p11z", indicator="3m")
    assert parse_tile("3m") not in a.waits
    assert parse_tile("1z") in a.waits and a.shanten == 0


def test_indicator_implied_by_the_bao():
    """--bao 4m means the indicator 3m was flipped: the same hand, the same answer."""
    assert (
        shangrao.analyze("12333m789s456p11z", bao="4m").waits
        == shangrao.analyze("12333m789s456p11z", indicator="3m").waits
    )


def test_fifth_copy_with_the_indicator_is_an_input_error():
    with pytest.raises(ValueError, match=r"the hand \+ the indicator hold 5 3m"):
        shangrao.analyze("123333m789s456p1z", indicator="3m")
    with pytest.raises(ValueError, match="hold 5 1z"):
        shangrao.analyze("123m456p789s1112z", bao=None, seen="1z1z")


def test_seen_tiles_leave_the_waits():
    """Ponds given as seen: a wait whose copies are all in sight is dropped; the hand may fall back."""
    hand = "123m456p789s1122z"  # waits 1z and 2z
    assert set(shangrao.analyze(hand, bao=None).waits) == {parse_tile("1z"), parse_tile("2z")}
    a = shangrao.analyze(hand, bao=None, seen="1z1z")
    assert set(a.waits) == {parse_tile("2z")} and a.shanten == 0
    b = shangrao.analyze(hand, bao=None, seen="1z1z2z2z")
    assert b.waits == {} and b.shanten == 2  # both pairs dead: a whole new meld is needed


def test_bao_left_to_draw_keeps_a_fifth_copy_reachable():
    """R3: a 宝 may be a fifth copy; with 宝 still unseen the 1111z hand is ready (draw a 宝)."""
    a = shangrao.analyze("123456789m1111z", bao="5p")
    assert a.shanten == 0 and parse_tile("5p") in a.waits


def test_unseen_counts_and_api_arguments():
    h = _t("123m456p789s1122z")
    u = unseen_counts(h, indicator=parse_tile("1z"))
    assert u[parse_tile("1z")] == 1 and u[parse_tile("5z")] == 4
    assert set(waits(h, None, unseen=u)) == {parse_tile("1z"), parse_tile("2z")}
    assert shangrao.shanten(h, None, unseen=u) == 0
    with pytest.raises(ValueError, match="unseen"):
        shanten(h, None, unseen=[4] * 34)  # 4 unseen 1m with one in hand: five
    with pytest.raises(ValueError, match="unseen"):
        shanten(h, None, unseen=[0] * 33)


def test_bao_none_is_accepted_by_the_api_as_by_score():
    assert shangrao.analyze("123m456p789s1122z", bao="none").bao is None
