"""Fuzzing the tile and meld parsers (python-chess fuzzes every parser): random text and mutated
valid notation either parse or raise the package's documented error quoting the input —
:class:`~shangrao.tiles.TileParseError` for tiles (mpsz, Chinese names, Unicode),
:class:`~shangrao.melds.MeldError` for melds; both are :class:`~shangrao.errors.InputError`
(a ``ValueError``).  Never another exception."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shangrao.errors import InputError
from shangrao.melds import MeldError, parse_meld
from shangrao.tiles import TileParseError, format_tiles, parse_tile, parse_tiles

FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: the characters the notations are made of, and their neighbours: digits, suit letters, Chinese
#: numerals, suit and honour words, Unicode tiles (with flowers and variation selectors), separators
ALPHABET = (
    "0123456789mpszMPSZx一二三四五六七八九十万萬筒饼餅条條索东東南西北中发發白板红紅风風"
    "\U0001f000\U0001f007\U0001f019\U0001f021\U0001f022\U0001f02b\U0001f02c\ufe0e\ufe0f"
    " ,，、+-_|/:\t\n\x00"
)

kinds = st.lists(st.integers(0, 33), max_size=14)
styles = st.sampled_from(["mpsz", "zh", "unicode"])


@st.composite
def mutated(draw, valid: st.SearchStrategy[str]) -> str:
    """A valid string with characters deleted, replaced, inserted or swapped."""
    text = list(draw(valid))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "replace", "insert", "swap"]))
        i = draw(st.integers(0, len(text)))
        ch = draw(st.one_of(st.sampled_from(ALPHABET), st.characters()))
        if op == "insert" or not text:
            text.insert(i, ch)
        elif op == "delete":
            del text[min(i, len(text) - 1)]
        elif op == "replace":
            text[min(i, len(text) - 1)] = ch
        else:
            j = draw(st.integers(0, len(text) - 1))
            k = min(i, len(text) - 1)
            text[k], text[j] = text[j], text[k]
    return "".join(text)


def _notation(ks: list[int], style: str) -> str:
    return format_tiles(ks, style=style, sort=False) if ks else ""


valid_tiles = st.builds(_notation, kinds, styles)
tile_text = st.one_of(st.text(alphabet=ALPHABET, max_size=30), st.text(max_size=30), mutated(valid_tiles))


def _tiles_or_quoted_error(text: str) -> list[int] | None:
    try:
        out = parse_tiles(text)
    except TileParseError as err:
        assert repr(text) in str(err) and err.text == text and 0 <= err.position <= max(len(text) - 1, 0)
        return None
    assert all(isinstance(k, int) and 0 <= k <= 33 for k in out)
    return out


@FUZZ
@given(tile_text)
def test_fuzz_tile_notation_parses_or_raises_tile_parse_error_quoting_it(text):
    _tiles_or_quoted_error(text)


@FUZZ
@given(tile_text)
def test_fuzz_one_tile_parses_or_raises_tile_parse_error_quoting_it(text):
    try:
        k = parse_tile(text)
    except TileParseError as err:
        assert repr(text) in str(err)
    else:
        assert 0 <= k <= 33


@FUZZ
@given(kinds, styles)
def test_fuzz_every_notation_the_package_writes_reads_back(ks, style):
    assert parse_tiles(_notation(ks, style)) == ks


meld_kinds = st.sampled_from(["chow", "pung", "kong", "concealed_kong", "Pung", " kong ", "peng", ""])
valid_melds = st.builds(lambda k, t: f"{k}:{t}", meld_kinds, valid_tiles)
meld_text = st.one_of(
    st.text(alphabet=ALPHABET + "chowpungkcaled", max_size=30), st.text(max_size=30), mutated(valid_melds)
)


@FUZZ
@given(meld_text)
def test_fuzz_meld_notation_parses_or_raises_meld_error_quoting_it(text):
    try:
        meld = parse_meld(text)
    except MeldError as err:
        assert isinstance(err, InputError) and repr(text) in str(err)
    else:
        assert all(0 <= k <= 33 for k in meld.tiles) and len(meld.tiles) in (3, 4)
