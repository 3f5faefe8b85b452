"""Scoring one win: pattern, doublings, bonuses and what each payer pays (seed 三、计分和等级).

* :mod:`.situation` — :class:`WinSituation`, the situation of one win (apart from the rules);
* :mod:`.score` — :func:`score` and :class:`ScoreResult` (the calculator, its formula and notes);
* :mod:`.items` — one definition per pattern, doubling and bonus (id, Chinese name, value).

>>> from shangrao.scoring import WinSituation, score
>>> r = score(WinSituation.from_dict({"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p"}))
>>> r.pattern.name, r.payments, r.total
('平糊自摸', (2, 2, 2), 6)
"""

from __future__ import annotations

from .items import PATTERNS
from .score import Bonus, Doubling, PatternScore, ScoreResult, score
from .situation import SituationError, WinBy, WinSituation

__all__ = [
    "PATTERNS",
    "Bonus",
    "Doubling",
    "PatternScore",
    "ScoreResult",
    "SituationError",
    "WinBy",
    "WinSituation",
    "score",
]
