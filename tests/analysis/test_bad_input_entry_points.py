"""Bad input at the analysis entry points: one clear HandError (a ValueError), never a silent
truncation, an IndexError or a wrong answer; numpy integers accepted wherever ints are."""

from __future__ import annotations

import numpy as np
import pytest

import shangrao
from shangrao.analysis import (
    HandError,
    enumerate_readings,
    is_winning,
    shanten,
    unseen_counts,
    waits,
    waits_after_discards,
)
from shangrao.errors import InputError
from shangrao.tiles import bao_from_indicator, format_tiles, parse_tiles, to_34

WIN = to_34(parse_tiles("123m456p789s111z22z"))


def test_fractional_numpy_counts_are_refused_not_truncated():
    hand = np.array(WIN, dtype=float)
    hand[0] = 1.7
    for f in (is_winning, shanten):
        with pytest.raises(HandError, match=r"1\.7"):
            f(hand, None)
    with pytest.raises(HandError, match="count of 1m"):
        is_winning(np.array(WIN, dtype=float), None)


def test_enumerate_readings_validates_tiles_34():
    for bad in (WIN[:33], [-1] + WIN[1:], [5] + WIN[1:], [1.0] + WIN[1:]):
        with pytest.raises(InputError):
            enumerate_readings(bad, None)
    with pytest.raises(InputError, match="bao"):
        enumerate_readings(WIN, 34)


def test_unseen_counts_validates_its_arguments():
    for bad in (WIN[:33], [-1] + WIN[1:], [1.0] + WIN[1:]):
        with pytest.raises(HandError):
            unseen_counts(bad)
    with pytest.raises(HandError, match="indicator"):
        unseen_counts(WIN, indicator=34)
    with pytest.raises(HandError, match="seen"):
        unseen_counts(WIN, seen=[99])
    assert unseen_counts(np.array(WIN), indicator=np.int64(5))[5] == 3


def test_waits_after_discards_validates_hand_and_discards():
    with pytest.raises(HandError, match="34 entries"):
        waits_after_discards(WIN[:33], None)
    for bad in ([99], [-1], [1.0]):
        with pytest.raises(InputError, match="discards"):
            waits_after_discards(WIN, None, discards=bad)
    assert waits_after_discards(WIN, None, discards=[np.int64(27)]) == waits_after_discards(WIN, None, discards=[27])


@pytest.mark.parametrize("bad", ["0" * 34, None, dict.fromkeys(range(34), 0), 5])
def test_a_non_sequence_tiles_34_says_what_it_must_be(bad):
    for f in (is_winning, shanten, waits):
        with pytest.raises(HandError, match="tiles_34 must be a sequence of 34 ints"):
            f(bad, None)


def test_numpy_integers_are_accepted_wherever_ints_are():
    arr = np.array(WIN, dtype=np.int64)
    assert is_winning(arr, np.int64(17)) is True
    assert is_winning(WIN, np.int64(17)) is True
    assert shanten(arr, np.int64(17)) == -1
    assert shangrao.analyze(tiles_34=arr, bao=np.int64(17)).winning
    assert to_34(np.array([0, 0, 1])) == to_34([0, 0, 1])
    assert format_tiles(np.array([0, 1, 2])) == "123m"
    assert bao_from_indicator(np.int64(0)) == 1
    for bad in (True, 1.0, 17.5):
        with pytest.raises(HandError, match=r"bao must be a kind 0\.\.33 or None"):
            is_winning(WIN, bad)
