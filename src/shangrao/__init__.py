"""shangrao — the reference engine for Shangrao Mahjong (上饶麻将).

Tiles and notation (:mod:`shangrao.tiles`), the 宝 wildcard, hand analysis
(:mod:`shangrao.analysis`), scoring (:mod:`shangrao.scoring`), the rule set
(:mod:`shangrao.rules`), and the four-player game engine (:mod:`shangrao.game`).

Quick use::

    >>> import shangrao
    >>> shangrao.score({"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p"}).total
    6
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .analysis import (
    Analysis,
    CopyLimitError,
    Form,
    Reading,
    analyze_34,
    form_shanten,
    is_baodiao_state,
    unseen_counts,
    waits,
)

# the analysis call itself, not a wrapper: one Python call less on the hot path (docs/performance.md)
from .analysis import is_winning as is_winning
from .analysis import shanten as _shanten
from .analysis.hand import validate_hand
from .errors import InputError
from .melds import Meld, MeldError, MeldKind, MeldType, parse_meld
from .rules import DEFAULT_RULES, RuleSet
from .scoring import ScoreResult, SituationError, WinBy, WinSituation
from .scoring import score as _score
from .tiles import (
    TileParseError,
    bao_from_indicator,
    check_kind,
    format_tiles,
    indicator_of,
    parse_tile,
    parse_tiles,
    to_34,
    validate_tiles_34,
)

__version__ = "0.1.0"

__all__ = [
    "__version__",
    "analyze",
    "score",
    "is_winning",
    "shanten",
    "waits",
    "form_shanten",
    "is_baodiao_state",
    "Analysis",
    "Form",
    "Reading",
    "Meld",
    "MeldType",
    "MeldKind",
    "MeldError",
    "RuleSet",
    "DEFAULT_RULES",
    "ScoreResult",
    "WinBy",
    "WinSituation",
    "SituationError",
    "CopyLimitError",
    "TileParseError",
    "parse_tiles",
    "parse_tile",
    "format_tiles",
    "to_34",
    "bao_from_indicator",
]


def shanten(
    tiles_34: Sequence[int],
    bao: int | None,
    declared_melds: int | Sequence[Meld] = 0,
    *,
    unseen: Sequence[int] | None = None,
) -> int:
    """Shanten across all forms with wildcards (-1 complete, 0 ready).

    0 exactly when :func:`waits` finds a wait (a kind all four copies of which are in the hand and
    melds cannot be drawn: ``123456789m1111z`` without 宝 is 1; docs/rules.md R20).
    unseen: optional length-34 copies not in sight (:func:`shangrao.analysis.unseen_counts`);
    then only tiles that still exist count.  See :func:`shangrao.analysis.shanten`.
    Raises ``ValueError`` on a wrong tile count, :class:`~shangrao.analysis.CopyLimitError` for a
    fifth copy across hand and the given melds.
    """
    return _shanten(tiles_34, bao, declared_melds, unseen=unseen)


def _tiles(value: object, what: str) -> list[int]:
    if isinstance(value, str):
        return to_34(parse_tiles(value))
    if isinstance(value, (bytes, dict)) or not isinstance(value, Iterable):
        raise TypeError(f"{what} must be a tile string or a list of kinds 0..33, got {type(value).__name__}")
    return to_34(value)


def _kind(value: object, what: str) -> int | None:
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 34):
        return value
    if isinstance(value, str):
        if value.strip().lower() in ("none", "null", "no", "-"):  # as score's "bao": "none"
            return None
        return parse_tile(value)
    try:
        return check_kind(value, what)  # numpy integers too
    except InputError:
        raise InputError(f"{what} must be a tile string like '5m', a kind 0..33 or None, got {value!r}") from None


def analyze(
    hand: str | Iterable[int] | None = None,
    bao: int | str | None = None,
    melds: Sequence[Meld | str] = (),
    *,
    indicator: int | str | None = None,
    seen: str | Iterable[int] = (),
    tiles_34: Sequence[int] | None = None,
) -> Analysis:
    """Analyse a concealed hand: readings if complete, waits if one short, shanten always.

    hand: tile string (any notation) or a list of kinds 0..33 (one entry per tile).
    tiles_34: instead of ``hand``, the length-34 count vector (ints 0..4).
    bao: the 宝 as a kind 0..33, a tile string (``"5m"``), or None.
    indicator: the flipped tile (kind or string) instead of ``bao``; it is out of play (R1).
    melds: :class:`Meld` objects or ``"KIND:TILES"`` strings.
    seen: other tiles in sight (ponds, other players' melds), a tile string or kinds.

    Waits and shanten count only tiles that still exist: the hand, the melds, the
    indicator (given, or the one the 宝 implies) and ``seen`` are out of reach.

    Raises :class:`TileParseError`, :class:`MeldError` or ``ValueError`` (wrong
    count, more than four copies of a kind in sight) with a message naming the problem.
    """
    if (hand is None) == (tiles_34 is None):
        raise TypeError("give hand (a tile string or a list of kinds) or tiles_34 (34 counts), one of them")
    counts = _tiles(hand, "hand") if tiles_34 is None else validate_tiles_34(tiles_34, "tiles_34")
    bao = _kind(bao, "bao")
    ind = _kind(indicator, "indicator")
    if ind is not None:
        derived = bao_from_indicator(ind)
        if bao is not None and bao != derived:
            raise ValueError(f"bao {format_tiles([bao])} does not follow the indicator {format_tiles([ind])}")
        bao = derived
    elif bao is not None:
        ind = indicator_of(bao)
    ms = [m if isinstance(m, Meld) else parse_meld(m) for m in melds]
    seen_kinds = parse_tiles(seen) if isinstance(seen, str) else list(seen)
    counts = validate_hand(counts, ms)  # count errors first, then copies in sight
    unseen = unseen_counts(counts, ms, ind, seen_kinds)
    return analyze_34(counts, bao, ms, unseen=unseen)


def score(situation: WinSituation | dict[str, Any], rules: RuleSet = DEFAULT_RULES) -> ScoreResult:
    """Score one win.  ``situation``: a :class:`WinSituation` or its JSON dict.

    See :func:`shangrao.scoring.score`.  Raises :class:`SituationError` for a bad situation.
    """
    if isinstance(situation, dict):
        situation = WinSituation.from_dict(situation)
    return _score(situation, rules)
