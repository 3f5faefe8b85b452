"""Declared melds (吃, 碰, 杠): notation, validation, errors."""

from __future__ import annotations

import pytest

from shangrao.melds import Meld, MeldError, MeldType, parse_meld
from shangrao.tiles import parse_tiles


@pytest.mark.parametrize(
    "text,kind,tiles",
    [
        ("chow:123m", MeldType.CHOW, "123m"),
        ("chow:798p", MeldType.CHOW, "789p"),
        ("pung:555p", MeldType.PUNG, "555p"),
        ("kong:7777s", MeldType.KONG, "7777s"),
        ("concealed_kong:1111z", MeldType.CONCEALED_KONG, "1111z"),
        ("pung:中中中", MeldType.PUNG, "777z"),
        ("PUNG: 2 2 2 m", MeldType.PUNG, "222m"),
    ],
)
def test_parse_meld(text, kind, tiles):
    m = parse_meld(text)
    assert m.type is kind and m.tiles == tuple(parse_tiles(tiles))
    assert parse_meld(str(m)) == m
    assert Meld.parse(text) == m


def test_meld_properties():
    assert parse_meld("kong:5555p").is_kong and parse_meld("concealed_kong:5555p").is_kong
    assert not parse_meld("pung:555p").is_kong
    assert parse_meld("pung:555p").is_pung_like and not parse_meld("chow:345p").is_pung_like
    assert MeldType.KONG.chinese == "碰杠" and MeldType.CONCEALED_KONG.chinese == "自摸杠"
    assert parse_meld("chow:345p").to_json() == "chow:345p"


def test_unknown_meld_kind():
    with pytest.raises(MeldError, match="unknown meld kind 'triple'") as exc:
        parse_meld("triple:111m")
    assert isinstance(exc.value, ValueError)
    assert "chow, pung, kong, concealed_kong" in str(exc.value)
    with pytest.raises(ValueError, match="triple"):
        Meld("triple", (0, 0, 0))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text,what",
    [
        ("pung:55p", "a pung has 3 identical tiles"),
        ("pung:5555p", "a pung has 3 identical tiles"),
        ("kong:555p", "a kong has 4 identical tiles"),
        ("concealed_kong:11112z", "has 5"),
        ("chow:1234m", "a chow has 3 tiles"),
        ("chow:124m", "not a chow"),
        ("chow:891m", "not a chow"),
        ("chow:123z", "not a chow"),
        ("chow:89m1p", "not a chow"),
        ("pung:556p", "must be identical"),
    ],
)
def test_wrong_tiles_for_meld_kind(text, what):
    with pytest.raises(MeldError, match=what) as exc:
        parse_meld(text)
    assert repr(text) in str(exc.value)


@pytest.mark.parametrize("text", ["pung555p", "", "pung:"])
def test_meld_needs_kind_and_tiles(text):
    with pytest.raises(MeldError):
        parse_meld(text)


def test_meld_bad_tile_string_is_meld_error_with_position():
    with pytest.raises(MeldError, match="position 1") as exc:
        parse_meld("pung:5x5p")
    assert "pung:5x5p" in str(exc.value)


def test_meld_rejects_kinds_out_of_range():
    with pytest.raises(MeldError):
        Meld(MeldType.PUNG, (40, 40, 40))


def test_meld_repr_round_trips_with_claimed_and_from_seat():
    from shangrao.melds import Meld, MeldType

    for m in (
        Meld.parse("pung:555p"),
        Meld(MeldType.PUNG, (13, 13, 13), claimed=13, from_seat=2),
        Meld(MeldType.CHOW, (3, 4, 5), claimed=4, from_seat=0),
        Meld(MeldType.KONG, (30,) * 4, claimed=30),
    ):
        assert eval(repr(m), {"Meld": Meld}) == m
    a = Meld(MeldType.PUNG, (13, 13, 13), claimed=13, from_seat=2)
    b = Meld(MeldType.PUNG, (13, 13, 13), claimed=13, from_seat=1)
    assert a != b and repr(a) != repr(b)
