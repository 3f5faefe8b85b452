"""Every label of the game in one JSON-able table, for front ends (the web client) that must not copy them.

The labels themselves live with what they name — :class:`shangrao.game.ActionType`,
:class:`shangrao.melds.MeldType`, :class:`shangrao.scoring.WinBy`, the pattern, doubling and bonus
definitions of :mod:`shangrao.scoring.items`, the bot registry :data:`shangrao.bots.BOTS`, the phases
of :class:`shangrao.game.Phase` — and :func:`labels_table` only collects them.  The web server serves
it as ``GET /api/labels``.

>>> labels_table()["actions"]["concealed_kong"]
{'zh': '自摸杠', 'en': 'concealed kong'}
"""

from __future__ import annotations

from typing import Any

__all__ = ["labels_table"]

#: the phases' labels (the names of the phases themselves are :class:`shangrao.game.Phase`)
_PHASES = {"act": ("摸牌后", "turn"), "discard": ("出牌", "discard"), "claim": ("吃碰杠", "claim window"),
           "rob": ("抢杠?", "rob window"), "over": ("结束", "hand over")}


def labels_table() -> dict[str, Any]:
    """``{section: {id: {"zh": Chinese, "en": English}}}`` for sections ``actions``, ``melds``,
    ``win_by``, ``patterns`` (also ``factor``), ``doublings``, ``bonuses``, ``bots`` (also ``label``,
    the registry's whole line), ``phases``, and (issue 24) ``phrases`` (the quick phrases, 快捷语) and
    ``manners`` (托管, 解散, the spectator's words, 任意牌（宝吊）), of :mod:`shangrao.game.manners`.
    Ids are the wire names (action types, meld kinds,
    pattern/doubling/bonus ids, bot names).  A bot's words are read off its registry label
    ``"<Chinese name> <name>: <what it plays>"``: ``zh`` the Chinese name, ``en`` the bot's name.
    """
    from .bots import BOTS
    from .game import ActionType, Phase
    from .game.manners import MANNER_WORDS, PHRASES
    from .melds import MeldType
    from .scoring import WinBy
    from .scoring.items import BONUSES, DOUBLINGS, PATTERNS

    return {
        "actions": {t.value: {"zh": t.chinese, "en": t.english} for t in ActionType},
        "melds": {k.value: {"zh": k.chinese, "en": k.english} for k in MeldType},
        "win_by": {w.value: {"zh": w.chinese, "en": w.english} for w in WinBy},
        "patterns": {p.id: {"zh": p.name, "en": p.english, "factor": p.factor} for p in PATTERNS.values()},
        "doublings": {d.id: {"zh": d.name, "en": d.english} for d in DOUBLINGS.values()},
        "bonuses": {b.id: {"zh": b.name, "en": b.english} for b in BONUSES.values()},
        "bots": {name: {"zh": e.label.split(" ", 1)[0], "en": name, "label": e.label} for name, e in BOTS.items()},
        "phases": {p.value: {"zh": _PHASES[p.value][0], "en": _PHASES[p.value][1]} for p in Phase},
        "phrases": {k: {"zh": zh, "en": en} for k, (zh, en) in PHRASES.items()},
        "manners": {k: {"zh": zh, "en": en} for k, (zh, en) in MANNER_WORDS.items()},
    }
