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

from .analysis import Analysis, Form, Reading, analyze_34, form_shanten, is_baodiao_state, waits
from .analysis import is_winning as _is_winning
from .analysis import shanten as _shanten
from .melds import Meld, MeldError, MeldKind, MeldType, parse_meld
from .rules import DEFAULT_RULES, RuleSet
from .scoring import ScoreResult, SituationError, WinBy, WinSituation
from .scoring import score as _score
from .tiles import TileParseError, bao_from_indicator, format_tiles, parse_tile, parse_tiles, to_34

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
    "TileParseError",
    "parse_tiles",
    "parse_tile",
    "format_tiles",
    "to_34",
    "bao_from_indicator",
]


def is_winning(tiles_34: Sequence[int], bao: int | None, declared_melds: int | Sequence[Meld] = 0) -> bool:
    """Whether ``tiles_34`` (length-34 counts of the concealed hand, 宝 included) is a win.

    bao: the 宝 kind 0..33 or None.  declared_melds: count, or the melds.
    See :func:`shangrao.analysis.is_winning`.  Raises ``ValueError`` on a wrong tile count.
    """
    return _is_winning(tiles_34, bao, declared_melds)


def shanten(tiles_34: Sequence[int], bao: int | None, declared_melds: int | Sequence[Meld] = 0) -> int:
    """Shanten across all forms with wildcards (-1 complete, 0 ready).

    See :func:`shangrao.analysis.shanten`.  Raises ``ValueError`` on a wrong tile count.
    """
    return _shanten(tiles_34, bao, declared_melds)


def _tiles(value, what: str) -> list[int]:
    if isinstance(value, str):
        return to_34(parse_tiles(value))
    if isinstance(value, (bytes, dict)) or not isinstance(value, Iterable):
        raise TypeError(f"{what} must be a tile string, a list of kinds or a tiles_34 vector, "
                        f"got {type(value).__name__}")
    value = list(value)
    if len(value) == 34:
        return value
    return to_34(value)


def analyze(hand, bao=None, melds: Sequence[Meld | str] = ()) -> Analysis:
    """Analyse a concealed hand: readings if complete, waits if one short, shanten always.

    hand: tile string (any notation), a list of kinds, or a length-34 ``tiles_34``.
    bao: the 宝 as a kind 0..33, a tile string (``"5m"``), or None.
    melds: :class:`Meld` objects or ``"KIND:TILES"`` strings.

    Raises :class:`TileParseError`, :class:`MeldError` or ``ValueError`` (wrong
    count, fifth copy) with a message naming the problem.
    """
    tiles_34 = _tiles(hand, "hand")
    if isinstance(bao, str):
        bao = parse_tile(bao)
    ms = [m if isinstance(m, Meld) else parse_meld(m) for m in melds]
    return analyze_34(tiles_34, bao, ms)


def score(situation: WinSituation | dict, rules: RuleSet = DEFAULT_RULES) -> ScoreResult:
    """Score one win.  ``situation``: a :class:`WinSituation` or its JSON dict.

    See :func:`shangrao.scoring.score`.  Raises :class:`SituationError` for a bad situation.
    """
    if isinstance(situation, dict):
        situation = WinSituation.from_dict(situation)
    return _score(situation, rules)
