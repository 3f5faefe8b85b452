"""Tiles, notation and the 宝 indicator (seed 二、宝; issue 2 items 2-3)."""

from __future__ import annotations

import pytest

from shangrao.tiles import (
    TERMINALS_AND_HONORS,
    TileParseError,
    bao_from_indicator,
    format_tile,
    format_tiles,
    from_34,
    parse_tile,
    parse_tiles,
    tile_name,
    to_34,
    unicode_tile,
    validate_tiles_34,
)

# ------------------------------------------------------------------ 宝 from each of the 34 indicators

# 例如翻开的牌为一万，二万即为宝，如为九万则一万为宝；东→南→西→北→东；中→发→白→中
EXPECTED_BAO = {
    **{f"{r}{s}": f"{r % 9 + 1}{s}" for s in "mps" for r in range(1, 10)},
    "1z": "2z",
    "2z": "3z",
    "3z": "4z",
    "4z": "1z",  # 东→南→西→北→东
    "7z": "6z",
    "6z": "5z",
    "5z": "7z",  # 中→发→白→中 (5z 白, 6z 发, 7z 中)
}


@pytest.mark.parametrize("indicator,bao", sorted(EXPECTED_BAO.items()))
def test_bao_from_each_indicator(indicator, bao):
    assert bao_from_indicator(parse_tile(indicator)) == parse_tile(bao)


def test_bao_seed_examples():
    # 翻开的牌为东风，则南风为宝；北风→东风；中→发；白→中
    assert bao_from_indicator(parse_tile("东")) == parse_tile("南")
    assert bao_from_indicator(parse_tile("北")) == parse_tile("东")
    assert bao_from_indicator(parse_tile("中")) == parse_tile("发")
    assert bao_from_indicator(parse_tile("白")) == parse_tile("中")
    assert bao_from_indicator(parse_tile("九万")) == parse_tile("一万")


def test_bao_indicator_covers_34_kinds_once():
    assert sorted(bao_from_indicator(k) for k in range(34)) == list(range(34))


@pytest.mark.parametrize("bad", [-1, 34, "1m", None, True])
def test_bao_from_indicator_rejects_non_kind(bad):
    with pytest.raises(ValueError):
        bao_from_indicator(bad)


# ------------------------------------------------------------------ notation


def test_mpsz_kinds():
    assert parse_tiles("123m") == [0, 1, 2]
    assert parse_tiles("9p") == [17]
    assert parse_tiles("1s9s") == [18, 26]
    assert parse_tiles("1234567z") == list(range(27, 34))


def test_mpsz_separators_and_empty():
    assert parse_tiles("12m 3m,4p+5p") == [0, 1, 2, 12, 13]
    assert parse_tiles("") == []


@pytest.mark.parametrize(
    "text,kinds",
    [
        ("一万", [0]),
        ("九条", [26]),
        ("五筒", [13]),
        ("3万", [2]),
        ("东", [27]),
        ("东风", [27]),
        ("南风", [28]),
        ("西", [29]),
        ("北风", [30]),
        ("白", [31]),
        ("白板", [31]),
        ("发", [32]),
        ("发财", [32]),
        ("中", [33]),
        ("红中", [33]),
        ("一万二万三万", [0, 1, 2]),
        ("五饼七索", [13, 24]),
    ],
)
def test_chinese_names(text, kinds):
    assert parse_tiles(text) == kinds


def test_tile_names_roundtrip():
    for k in range(34):
        assert parse_tiles(tile_name(k)) == [k]
    assert tile_name(0) == "一万" and tile_name(13) == "五筒" and tile_name(26) == "九条"
    assert tile_name(27) == "东风" and tile_name(31) == "白" and tile_name(32) == "发" and tile_name(33) == "中"


def test_unicode_block():
    # U+1F000 东 … U+1F004 中 U+1F005 发 U+1F006 白, U+1F007 一万 …, U+1F010 一条 …, U+1F019 一筒 …
    assert parse_tiles("\U0001f000\U0001f004\U0001f005\U0001f006") == [27, 33, 32, 31]
    assert parse_tiles("\U0001f007\U0001f00f") == [0, 8]
    assert parse_tiles("\U0001f010\U0001f019") == [18, 9]
    for k in range(34):
        assert parse_tiles(unicode_tile(k)) == [k]
    assert format_tiles([0, 1, 2], style="unicode") == "\U0001f007\U0001f008\U0001f009"


def test_unicode_variation_selector_ignored():
    assert parse_tiles("\U0001f004\ufe0f") == [33]


def test_format_roundtrip_all_styles():
    kinds = [0, 4, 8, 9, 13, 17, 18, 22, 26, *range(27, 34)]
    for style in ("mpsz", "zh", "unicode"):
        assert parse_tiles(format_tiles(kinds, style=style)) == kinds
    assert format_tiles([27, 0, 1, 9]) == "12m1p1z"
    assert format_tile(33) == "7z"


def test_format_unknown_style():
    with pytest.raises(ValueError, match="unknown tile style"):
        format_tiles([0], style="klingon")


def test_to_34_from_34():
    t = to_34(parse_tiles("1122m5z"))
    assert t[0] == 2 and t[1] == 2 and t[31] == 1 and sum(t) == 5
    assert from_34(t) == [0, 0, 1, 1, 31]


def test_terminals_and_honors():
    assert frozenset(parse_tiles("19m19p19s1234567z")) == TERMINALS_AND_HONORS


# ------------------------------------------------------------------ bad strings


@pytest.mark.parametrize(
    "text,position,what",
    [
        ("12x", 2, "unexpected character 'x'"),
        ("m", 0, "no digits"),
        ("8z", 0, "honor tiles are 1z-7z"),
        ("123m0p", 4, "ranks are 1-9"),
        ("12", 0, "not followed by a suit"),
        ("1m2", 2, "not followed by a suit"),
        ("1东", 0, "not followed by a suit"),
        ("12m\U0001f022", 3, "flower"),
        ("万", 0, "no number"),
    ],
)
def test_bad_tile_string_names_position(text, position, what):
    with pytest.raises(TileParseError) as exc:
        parse_tiles(text)
    err = exc.value
    assert isinstance(err, ValueError)
    assert err.position == position
    assert what in str(err)
    assert f"position {position}" in str(err) and repr(text) in str(err)


def test_parse_tile_exactly_one():
    assert parse_tile("5p") == 13
    with pytest.raises(TileParseError, match="exactly one tile"):
        parse_tile("55p")
    with pytest.raises(TileParseError, match="exactly one tile"):
        parse_tile("")


def test_parse_tiles_not_a_string():
    with pytest.raises(TypeError):
        parse_tiles(123)  # type: ignore[arg-type]


def test_validate_fifth_copy_names_tile():
    t = to_34(parse_tiles("11111m"))
    with pytest.raises(ValueError, match="5 copies of 1m"):
        validate_tiles_34(t)
    with pytest.raises(ValueError, match="34 entries"):
        validate_tiles_34([0] * 33)
