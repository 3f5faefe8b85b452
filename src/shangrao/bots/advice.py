"""How the expert's advice is written for a player: the one home of the words of ``shangrao advise``,
the ``提示``/``hint`` command of ``shangrao play`` and the 提示 button of the web table.

A :class:`~shangrao.bots.expert.Candidate` becomes one line, in Chinese (the default) or English::

    >>> from shangrao.bots.expert import Candidate
    >>> from shangrao.game.actions import Action, ActionType
    >>> c = Candidate(Action(ActionType.DISCARD, 4), 1.234, 0.3, 4.0, "qidui", "七对", 1)
    >>> choice_text(c)
    '打 五万 (5m)  期望 +1.23  糊率 30%  → 七对'
    >>> choice_text(c, "en")
    'discard 5m  EV +1.23  win 30%  → seven pairs'

The words of actions, patterns and forms come from their homes (:class:`~shangrao.game.ActionType`,
:data:`shangrao.scoring.items.PATTERNS`, :data:`shangrao.bots.expert.FORM_NAMES`).
"""

from __future__ import annotations

from ..game.actions import Action, ActionType
from ..scoring.items import PATTERNS
from ..tiles import format_tile, tile_name
from .expert import FORM_NAMES, Candidate

__all__ = ["ALWAYS_EV", "action_text", "aim_text", "choice_text", "ev_text"]

#: an expected value this large marks an action the expert always takes (抢杠, 地糊)
ALWAYS_EV = 1e5


def _lang(lang: str) -> str:
    if lang not in ("zh", "en"):
        raise ValueError(f"lang: zh or en, got {lang!r}")
    return lang


def action_text(a: Action, lang: str = "zh") -> str:
    """An action for a player: ``'打 五万 (5m)'``, ``'吃 三万四万五万 (345m)'``, ``'过'`` (zh) or the
    engine's string form ``'discard 5m'`` (en).  Raises ValueError for another ``lang``."""
    if _lang(lang) == "en":
        return str(a)
    if a.tile is None:
        return a.type.chinese
    if a.type is ActionType.CHOW:
        names = "".join(tile_name(a.tile + i) for i in range(3))
        return f"{a.type.chinese} {names} ({str(a).split(' ', 1)[1]})"
    return f"{a.type.chinese} {tile_name(a.tile)} ({format_tile(a.tile)})"


def aim_text(c: Candidate, lang: str = "zh") -> str:
    """The pattern a candidate aims at: its Chinese name, or in English the form's or pattern's
    English name (the id when it has none); ``'—'`` for no aim."""
    if _lang(lang) == "en":
        if c.aim in FORM_NAMES:
            return FORM_NAMES[c.aim][1]
        if c.aim in PATTERNS and PATTERNS[c.aim].english:
            return PATTERNS[c.aim].english
        return c.aim or "—"
    return c.aim_name or "—"


def ev_text(c: Candidate, lang: str = "zh") -> str:
    """The expected points of a candidate: ``'期望 +1.23'`` / ``'EV +1.23'``, or ``'必选 always'`` /
    ``'always'`` for an action the expert always takes."""
    zh = _lang(lang) == "zh"
    if c.ev >= ALWAYS_EV:
        return "必选 always" if zh else "always"
    return f"期望 {c.ev:+.2f}" if zh else f"EV {c.ev:+.2f}"


def choice_text(c: Candidate, lang: str = "zh") -> str:
    """One candidate as one line: the action, its expected points (points), the win chance and the
    pattern aimed at (see the module example).  Raises ValueError for a ``lang`` other than zh/en."""
    if _lang(lang) == "zh":
        return f"{action_text(c.action, lang)}  {ev_text(c, lang)}  糊率 {100 * c.p_win:.0f}%  → {aim_text(c, lang)}"
    return f"{action_text(c.action, lang)}  {ev_text(c, lang)}  win {100 * c.p_win:.0f}%  → {aim_text(c, lang)}"
