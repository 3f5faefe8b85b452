"""Tiles, notation and the 宝 (wildcard).

Shangrao Mahjong is played with 136 tiles: 34 kinds, four copies each, no
flowers.  Throughout the package a tile *kind* is an ``int`` in ``0..33``:

======  ==========  ==========================
kinds   mpsz        Chinese
======  ==========  ==========================
0-8     ``1m-9m``   一万 … 九万 (characters)
9-17    ``1p-9p``   一筒 … 九筒 (circles)
18-26   ``1s-9s``   一条 … 九条 (bamboo)
27-33   ``1z-7z``   东 南 西 北 白 发 中
======  ==========  ==========================

``tiles_34`` always means a length-34 sequence of counts (ints ``0..4``);
``tiles_136`` means physical tile ids ``0..135`` where ``id // 4`` is the kind.
A plain list of kinds (``list[int]``) is what :func:`parse_tiles` returns.

Notation accepted by :func:`parse_tiles` (freely mixed, separators ignored):

* mpsz: ``123m456p789s1234567z``;
* Chinese: ``一万``, ``九条``, ``五筒`` (also 饼/索/萬/條), ``3万``, ``东``/``东风``,
  ``中``/``红中``, ``发``/``发财``, ``白``/``白板``;
* Unicode mahjong tiles U+1F000..U+1F021 (🀇 … 🀡; flowers and seasons are refused).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping, Sequence
from typing import SupportsIndex, TypeAlias, cast

from .errors import InputError

__all__ = [
    "NUM_KINDS",
    "NUM_TILES",
    "MAN",
    "PIN",
    "SOU",
    "HONOR",
    "EAST",
    "SOUTH",
    "WEST",
    "NORTH",
    "WHITE",
    "GREEN",
    "RED",
    "TERMINALS_AND_HONORS",
    "TileKind",
    "TileId",
    "TileParseError",
    "parse_tiles",
    "parse_tile",
    "to_34",
    "check_kind",
    "check_int",
    "check_bao",
    "from_34",
    "format_tiles",
    "format_tile",
    "tile_name",
    "unicode_tile",
    "suit_of",
    "rank_of",
    "is_honor",
    "is_terminal_or_honor",
    "bao_from_indicator",
    "indicator_of",
    "validate_tiles_34",
]

#: a tile kind: an index 0..33 (0-8 1m-9m, 9-17 1p-9p, 18-26 1s-9s, 27-33 东南西北白发中).  In code,
#: "kind" alone always means this; the other things once called kind have their own names (a meld's
#: :class:`~shangrao.melds.MeldType`, a reading group's ``shape``, a seat's ``player``, a stored game's ``mode``).
TileKind: TypeAlias = int
#: a physical tile: an id 0..135 (its kind is ``id // 4``)
TileId: TypeAlias = int

NUM_KINDS = 34
NUM_TILES = 136

MAN, PIN, SOU, HONOR = 0, 1, 2, 3
SUIT_LETTERS = "mpsz"
EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)

#: kinds that are a 1, a 9 or an honor (the tiles of 九幺)
TERMINALS_AND_HONORS = frozenset([0, 8, 9, 17, 18, 26, *range(27, 34)])

_ZH_NUMERALS = "一二三四五六七八九"
_ZH_SUIT_NAMES = ("万", "筒", "条")
_ZH_HONOR_NAMES = ("东", "南", "西", "北", "白", "发", "中")
_ZH_HONOR_LONG = ("东风", "南风", "西风", "北风", "白板", "发财", "红中")
_EN_HONOR_NAMES = ("East", "South", "West", "North", "White", "Green", "Red")

# Unicode U+1F000.. order: 东南西北 中发白, 1-9万, 1-9条, 1-9筒.
_UNICODE_ORDER = [27, 28, 29, 30, 33, 32, 31, *range(0, 9), *range(18, 27), *range(9, 18)]
_UNICODE_OF_KIND = {kind: chr(0x1F000 + i) for i, kind in enumerate(_UNICODE_ORDER)}
_KIND_OF_UNICODE = {v: k for k, v in _UNICODE_OF_KIND.items()}

_SUIT_CHARS = {"万": MAN, "萬": MAN, "筒": PIN, "饼": PIN, "餅": PIN, "条": SOU, "條": SOU, "索": SOU}
_HONOR_WORDS = {
    "东风": EAST,
    "東風": EAST,
    "南风": SOUTH,
    "南風": SOUTH,
    "西风": WEST,
    "西風": WEST,
    "北风": NORTH,
    "北風": NORTH,
    "红中": RED,
    "紅中": RED,
    "发财": GREEN,
    "發財": GREEN,
    "白板": WHITE,
    "东": EAST,
    "東": EAST,
    "南": SOUTH,
    "西": WEST,
    "北": NORTH,
    "中": RED,
    "发": GREEN,
    "發": GREEN,
    "白": WHITE,
}


class TileParseError(InputError):
    """A tile string could not be read.

    Attributes: ``text`` (the whole input), ``position`` (0-based character
    index of the problem) and ``reason``.  ``str(err)`` quotes the input and
    points at the position, e.g. ``invalid tile notation '12x' at position 2: unexpected character 'x'``.
    """

    def __init__(self, text: str, position: int, reason: str) -> None:
        self.text = text
        self.position = position
        self.reason = reason
        super().__init__(f"invalid tile notation {text!r} at position {position}: {reason}")


def suit_of(kind: int) -> int:
    """Suit of a kind: 0 万, 1 筒, 2 条, 3 honors."""
    return kind // 9


def rank_of(kind: int) -> int:
    """Rank 1-9 of a suited kind, 1-7 of an honor (东南西北白发中)."""
    return kind % 9 + 1 if kind < 27 else kind - 26


def is_honor(kind: int) -> bool:
    return kind >= 27


def is_terminal_or_honor(kind: int) -> bool:
    """True for 1, 9 and honors: the tiles a 九幺 hand is made of."""
    return kind in TERMINALS_AND_HONORS


def check_int(
    value: object, what: str, lo: int | None = None, hi: int | None = None, error: type[InputError] = InputError
) -> int:
    """``value`` as a plain int in ``lo..hi`` (either bound optional): numpy integers are
    accepted (``operator.index``); bools, floats, strings and None are refused with ``error``
    (an ``InputError``) naming ``what``."""
    try:
        if isinstance(value, bool):
            raise TypeError
        n = value if isinstance(value, int) else operator.index(cast(SupportsIndex, value))
    except TypeError:
        raise error(f"{what} must be an int{_range(lo, hi)}, got {value!r}") from None
    if (lo is not None and n < lo) or (hi is not None and n > hi):
        raise error(f"{what} must be an int{_range(lo, hi)}, got {value!r}")
    return int(n)


def _range(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return f" {lo}..{hi}"
    if lo is not None:
        return f" >= {lo}"
    return "" if hi is None else f" <= {hi}"


def check_kind(kind: object, what: str = "tile kind") -> int:
    """``kind`` as a plain int 0..33.  Accepts numpy integers (``operator.index``); refuses
    bools, floats and anything else with ``InputError`` naming ``what``."""
    if kind.__class__ is int and 0 <= kind < NUM_KINDS:
        return kind
    return check_int(kind, what, 0, NUM_KINDS - 1)


def check_bao(bao: int | None, what: str = "bao") -> int | None:
    """The 宝 kind as a plain int 0..33, or None; as :func:`check_kind` otherwise."""
    if bao is None:
        return None
    try:
        return check_kind(bao, what)
    except InputError:
        raise InputError(f"{what} must be a kind 0..33 or None, got {bao!r}") from None


def _check_kind(kind: int) -> int:
    return check_kind(kind)


def bao_from_indicator(indicator: int) -> int:
    """The 宝 kind shown by an indicator kind (seed clause 宝).

    The 宝 is the tile *after* the flipped one: 1→2 … 8→9→1 inside a suit,
    东→南→西→北→东 for winds, 中→发→白→中 for dragons.  All four copies of
    the returned kind are wildcards.

    Raises ``ValueError`` if ``indicator`` is not a kind 0..33.
    """
    indicator = _check_kind(indicator)
    if indicator < 27:
        base = indicator - indicator % 9
        return base + (indicator % 9 + 1) % 9
    if indicator <= NORTH:
        return EAST + (indicator - EAST + 1) % 4
    return {RED: GREEN, GREEN: WHITE, WHITE: RED}[indicator]


def indicator_of(bao: int) -> int:
    """The indicator kind that shows ``bao`` (the inverse of :func:`bao_from_indicator`).

    Raises ``ValueError`` if ``bao`` is not a kind 0..33.
    """
    bao = _check_kind(bao)
    return next(k for k in range(NUM_KINDS) if bao_from_indicator(k) == bao)


def parse_tiles(text: str) -> list[int]:
    """Read tiles in mpsz, Chinese or Unicode notation into a list of kinds.

    Returns the kinds (ints 0..33) in the order written.  Whitespace, commas
    and ``+``/``-`` separators are ignored.  An empty string gives ``[]``.

    Raises :class:`TileParseError` naming the position and the problem, e.g.
    a suit letter with no digits, ``8z``, ``0m``, digits with no suit, an
    unknown character, or a flower tile.
    """
    if not isinstance(text, str):
        raise TypeError(f"tile notation must be a str, got {type(text).__name__}")
    kinds: list[int] = []
    pending: list[tuple[int, int]] = []  # (digit, position)
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch.isspace() or ch in ",，、+-_|/":
            i += 1
            continue
        if ch in "0123456789":
            pending.append((int(ch), i))
            i += 1
            continue
        if ch in _ZH_NUMERALS and i + 1 < n and text[i + 1] in _SUIT_CHARS:
            pending.append((_ZH_NUMERALS.index(ch) + 1, i))
            i += 1
            continue
        low = ch.lower()
        if low in SUIT_LETTERS and ch.isascii():
            suit = SUIT_LETTERS.index(low)
            if not pending:
                raise TileParseError(text, i, f"suit letter {ch!r} has no digits before it")
            for digit, pos in pending:
                limit = 7 if suit == HONOR else 9
                if not 1 <= digit <= limit:
                    what = "honor tiles are 1z-7z" if suit == HONOR else "ranks are 1-9 (no red fives)"
                    raise TileParseError(text, pos, f"'{digit}{low}' is not a tile: {what}")
                kinds.append(suit * 9 + digit - 1)
            pending.clear()
            i += 1
            continue
        if ch in _SUIT_CHARS:
            if not pending:
                raise TileParseError(text, i, f"{ch!r} has no number before it")
            suit = _SUIT_CHARS[ch]
            for digit, pos in pending:
                if not 1 <= digit <= 9:
                    raise TileParseError(text, pos, f"'{digit}{ch}' is not a tile: ranks are 1-9")
                kinds.append(suit * 9 + digit - 1)
            pending.clear()
            i += 1
            continue
        known = ch in _HONOR_WORDS or ch in _KIND_OF_UNICODE or 0x1F022 <= ord(ch) <= 0x1F02B
        if pending and known:
            digit, pos = pending[0]
            raise TileParseError(text, pos, f"number {digit} is not followed by a suit (m, p, s, z or 万/筒/条)")
        word = text[i : i + 2]
        if word in _HONOR_WORDS and len(word) == 2:
            kinds.append(_HONOR_WORDS[word])
            i += 2
            continue
        if ch in _HONOR_WORDS:
            kinds.append(_HONOR_WORDS[ch])
            i += 1
            continue
        if ch in _KIND_OF_UNICODE:
            kinds.append(_KIND_OF_UNICODE[ch])
            i += 1
            # Unicode tiles may carry a variation selector.
            if i < n and text[i] in "\ufe0e\ufe0f":
                i += 1
            continue
        if 0x1F022 <= ord(ch) <= 0x1F02B:
            raise TileParseError(text, i, f"{ch!r} is a flower/season tile; Shangrao Mahjong has none")
        raise TileParseError(text, i, f"unexpected character {ch!r}")
    if pending:
        digit, pos = pending[0]
        raise TileParseError(text, pos, f"number {digit} is not followed by a suit (m, p, s, z or 万/筒/条)")
    return kinds


def parse_tile(text: str) -> int:
    """Read exactly one tile (any notation of :func:`parse_tiles`).

    Raises :class:`TileParseError` if the text is not exactly one tile.
    """
    kinds = parse_tiles(text)
    if len(kinds) != 1:
        raise TileParseError(text, 0, f"expected exactly one tile, found {len(kinds)}")
    return kinds[0]


def to_34(kinds: Iterable[int]) -> list[int]:
    """Count vector (``tiles_34``, length 34) of a list of kinds.

    Does not check the four-copy limit; see :func:`validate_tiles_34`.
    Raises ``ValueError`` for a kind outside 0..33.
    """
    counts = [0] * NUM_KINDS
    for k in kinds:
        counts[_check_kind(k)] += 1
    return counts


def from_34(tiles_34: Sequence[int]) -> list[int]:
    """Sorted list of kinds of a ``tiles_34`` count vector."""
    return [k for k in range(NUM_KINDS) for _ in range(tiles_34[k])]


def validate_tiles_34(tiles_34: Sequence[int], what: str = "hand", error: type[InputError] = InputError) -> list[int]:
    """Check a ``tiles_34`` vector: length 34, ints 0..4.  Returns it as a list of plain ints.

    Accepts a list, tuple or numpy array of integers (numpy integers via ``operator.index``);
    refuses a string, a mapping, None, bools and floats (even ``1.0``: a count is never
    truncated).  Raises ``error`` (an ``InputError``, a ValueError) naming the offending kind,
    e.g. ``hand has 5 copies of 1m``.
    """
    if isinstance(tiles_34, (str, bytes, Mapping)) or not isinstance(tiles_34, Iterable):
        raise error(f"{what}: tiles_34 must be a sequence of 34 ints 0..4, got {type(tiles_34).__name__}")
    counts = list(tiles_34)
    if len(counts) != NUM_KINDS:
        raise error(f"{what}: tiles_34 must have 34 entries, got {len(counts)}")
    for k, c in enumerate(counts):
        if c.__class__ is not int:
            try:
                if isinstance(c, bool):
                    raise TypeError
                c = counts[k] = operator.index(c)
            except TypeError:
                raise error(f"{what}: count of {format_tile(k)} must be an int 0..4, got {c!r}") from None
        if c < 0:
            raise error(f"{what}: count of {format_tile(k)} must be an int 0..4, got {c!r}")
        if c > 4:
            raise error(f"{what} has {c} copies of {format_tile(k)} ({tile_name(k)}); there are only 4")
    return counts


def format_tile(kind: int) -> str:
    """mpsz of one kind, e.g. ``'5p'``."""
    _check_kind(kind)
    return f"{rank_of(kind)}{SUIT_LETTERS[suit_of(kind)]}"


def unicode_tile(kind: int) -> str:
    """The Unicode mahjong character of a kind (U+1F000 block)."""
    return _UNICODE_OF_KIND[_check_kind(kind)]


def tile_name(kind: int, lang: str = "zh") -> str:
    """Name of a kind: ``'一万'``, ``'五筒'``, ``'东风'``, ``'中'`` (lang ``'zh'``) or ``'1 Characters'``/``'East'`` (``'en'``)."""
    _check_kind(kind)
    if lang == "en":
        if kind >= 27:
            return _EN_HONOR_NAMES[kind - 27]
        return f"{rank_of(kind)} {('Characters', 'Circles', 'Bamboo')[suit_of(kind)]}"
    if kind >= 27:
        return ("东风", "南风", "西风", "北风", "白", "发", "中")[kind - 27]
    return _ZH_NUMERALS[kind % 9] + _ZH_SUIT_NAMES[suit_of(kind)]


def format_tiles(kinds: Iterable[int], style: str = "mpsz", sort: bool = True) -> str:
    """Write kinds as text.

    ``style``: ``'mpsz'`` (compact, ``'123m55z'``), ``'zh'`` (``'一万 二万 …'``),
    or ``'unicode'`` (``'🀇🀈'``).  Raises ``ValueError`` for an unknown style.
    """
    ks = [_check_kind(k) for k in kinds]
    if sort:
        ks.sort()
    if style == "zh":
        return " ".join(tile_name(k) for k in ks)
    if style == "unicode":
        return "".join(unicode_tile(k) for k in ks)
    if style != "mpsz":
        raise InputError(f"unknown tile style {style!r}; use 'mpsz', 'zh' or 'unicode'")
    if not sort:
        return "".join(format_tile(k) for k in ks)
    out = []
    for suit in range(4):
        digits = "".join(str(rank_of(k)) for k in ks if suit_of(k) == suit)
        if digits:
            out.append(digits + SUIT_LETTERS[suit])
    return "".join(out)
