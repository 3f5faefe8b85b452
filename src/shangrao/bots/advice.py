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

A discard listed with its speed (``useful``: unseen tiles that lower its shanten) shows that first,
since the expert ranks discards far from ready by it::

    >>> choice_text(Candidate(Action(ActionType.DISCARD, 4), -1.5, 0.1, 3.0, "basic", "有宝平糊", 2, useful=23))
    '打 五万 (5m)  向听 2 进张 23  期望 -1.50  糊率 10%  → 有宝平糊'

The list is the expert's order of choice, not always the order of the expected points it prints (a
win or a kong is weighed against the discard the expert would make; far from ready, discards go by
speed): :func:`order_note` says so in one line when the two orders differ::

    >>> win = Candidate(Action(ActionType.WIN), 3.0, 1.0, 3.0, "basic", "有宝平糊", -1)
    >>> order_note([win, Candidate(Action(ActionType.DISCARD, 4), 3.9, 0.4, 5.0, "baodiao", "宝吊头", 0)])
    '排序：专家的选择，不按期望——糊和杠与它要打的那张牌比较，其余打法的期望只作参考'

The words of actions, patterns and forms come from their homes (:class:`~shangrao.game.ActionType`,
:data:`shangrao.scoring.items.PATTERNS`, :data:`shangrao.bots.expert.FORM_NAMES`).
"""

from __future__ import annotations

from itertools import pairwise

from ..game.actions import Action, ActionType
from ..scoring.items import PATTERNS
from ..tiles import format_tile, tile_name
from .expert import FORM_NAMES, Candidate

__all__ = ["ALWAYS_EV", "action_text", "aim_text", "choice_text", "ev_text", "order_note", "order_words"]

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
    zh = _lang(lang) == "zh"
    speed = ""
    if c.useful is not None and c.action.type is ActionType.DISCARD:  # what the speed order ranks by
        speed = f"向听 {c.shanten} 进张 {c.useful}  " if zh else f"shanten {c.shanten}, {c.useful} tiles  "
    if zh:
        return f"{action_text(c.action, lang)}  {speed}{ev_text(c, lang)}  糊率 {100 * c.p_win:.0f}%  → {aim_text(c, lang)}"
    return f"{action_text(c.action, lang)}  {speed}{ev_text(c, lang)}  win {100 * c.p_win:.0f}%  → {aim_text(c, lang)}"


def order_words(evs: list[float], by_speed: bool, lang: str = "zh") -> str:
    """:func:`order_note` from the listed expected points (points, in list order) and whether
    discards are listed by speed (some discard shows its 进张)."""
    zh = _lang(lang) == "zh"
    if all(a >= b for a, b in pairwise(evs)):
        return ""
    if zh:
        speed = "离听牌远时打牌按速度（向听少、进张多）排；" if by_speed else ""
        return f"排序：专家的选择，不按期望——{speed}糊和杠与它要打的那张牌比较，其余打法的期望只作参考"
    speed = "far from ready, discards go by speed (shanten, then useful tiles); " if by_speed else ""
    return (
        f"order: the expert's choice, not the expected points — {speed}a win or a kong is weighed against "
        "the discard it would make; the other choices' points are for reference"
    )


def order_note(cands: list[Candidate], lang: str = "zh") -> str:
    """One line saying why ``cands`` (best first, as :func:`shangrao.bots.expert.advise` returns them)
    are not in the order of the expected points they show, or ``""`` when they are.  Raises
    ValueError for a ``lang`` other than zh/en."""
    by_speed = any(c.useful is not None and c.action.type is ActionType.DISCARD for c in cands)
    return order_words([c.ev for c in cands], by_speed, lang)
