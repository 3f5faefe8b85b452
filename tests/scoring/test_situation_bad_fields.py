"""Bad fields of a WinSituation: a SituationError naming the field, never an AttributeError,
a raw TypeError or a silently accepted bool/float."""

from __future__ import annotations

import numpy as np
import pytest

from shangrao.melds import parse_meld
from shangrao.scoring import SituationError, WinBy, WinSituation
from shangrao.tiles import parse_tiles

HAND10 = parse_tiles("123m456p789s2z")
HAND13 = parse_tiles("123m456p789s111z2z")


def test_melds_as_strings_are_parsed():
    s = WinSituation(hand=HAND10, win_tile=28, melds=["pung:111z"])
    assert s.melds == (parse_meld("pung:111z"),)
    with pytest.raises(SituationError, match="melds"):
        WinSituation(hand=HAND10, win_tile=28, melds=["pung:123z"])


@pytest.mark.parametrize("bad", [None, 5])
def test_melds_entries_that_are_not_melds_name_the_field(bad):
    with pytest.raises(SituationError, match="melds: each meld must be a Meld"):
        WinSituation(hand=HAND10, win_tile=28, melds=[bad])


@pytest.mark.parametrize("bad", [True, 1.0, 3, -1])
def test_robbed_must_be_a_payer_int_not_bool_or_float(bad):
    with pytest.raises(SituationError, match="robbed"):
        WinSituation(hand=HAND13, win_tile=28, win_by=WinBy.ROBBING_KONG, robbed=bad)


def test_robbed_accepts_numpy_ints():
    s = WinSituation(hand=HAND13, win_tile=29, win_by=WinBy.ROBBING_KONG, robbed=np.int64(1))
    assert s.robbed == 1 and s.robbed.__class__ is int


@pytest.mark.parametrize(
    ("field", "bad"),
    [("hand", None), ("hand", 5), ("payers_flown", None), ("payers_flown", 1), ("melds", None), ("win_by", "bogus")],
)
def test_a_non_list_field_names_the_field(field, bad):
    kw = {"hand": HAND13, "win_tile": 28, field: bad}
    with pytest.raises(SituationError, match=field):
        WinSituation(**kw)
