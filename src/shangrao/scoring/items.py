"""The scoring items of the seed (计分方法 (1)-(18), 注 1-2, 奖励分), one object each.

Each item carries its id (ASCII), its Chinese name exactly as the seed writes
it, and its value.  Patterns are exclusive (one per win); doublings stack;
bonuses are added points.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "seed_clause",
    "clause_english",
    "PatternDef",
    "PATTERNS",
    "ItemName",
    "DOUBLINGS",
    "BONUSES",
    "DOUBLING_NAMES",
    "BONUS_NAMES",
]


_DECISION = re.compile(r"\s*\(D\d+\)|,\s*D\d+")


def seed_clause(clause: str) -> str:
    """A clause as a player reads it: the seed's words without this project's decision codes
    (``D3``, ``D5``: docs/rules.md), which mean nothing at a table.

    >>> seed_clause("基本分 1 分 (D3)"), seed_clause("计分方法 (12), D5"), seed_clause("计分方法 (1)")
    ('基本分 1 分', '计分方法 (12)', '计分方法 (1)')
    """
    return _DECISION.sub("", clause)


_SCORING_ITEM = re.compile(r"计分方法 \((\d+)\)")


def clause_english(clause: str) -> str:
    """A clause (as :func:`seed_clause` shows it) in English, for the English settlement, which
    prints it with the Chinese beside.  清 in the patterns' names means no 宝 acting, not one suit.

    >>> clause_english("计分方法 (14)"), clause_english("基本分 1 分 (D3)"), clause_english("注 1")
    ('scoring item (14)', 'base score 1 point', 'note 1')
    """
    shown = seed_clause(clause)
    if shown == "基本分 1 分":
        return "base score 1 point"
    return _SCORING_ITEM.sub(r"scoring item (\1)", shown).replace("注 ", "note ")


@dataclass(frozen=True)
class PatternDef:
    """A winning pattern: ``id``, Chinese ``name``, ``factor`` (× base points), or ``flat`` points.

    ``per_quad``: the factor doubles per four-of-a-kind (豪华七对, 清豪华七对; seed items 15-16).
    ``clause``: the seed item it implements.  ``english``: a short English label.
    """

    id: str
    name: str
    factor: int
    clause: str
    flat: bool = False
    per_quad: bool = False
    english: str = ""


_P = PatternDef
PATTERNS: dict[str, PatternDef] = {
    p.id: p
    for p in [
        _P(
            "basic", "有宝平糊", 1, "基本分 1 分 (D3)", english="plain win with 宝"
        ),  # players' name; 基本分 is its value
        _P("pinghu_zimo", "平糊自摸", 2, "计分方法 (1)", english="plain self-draw"),
        _P("baodiao", "宝吊头", 3, "计分方法 (3)", english="baodiao (宝 pair wait)"),
        _P("baodiao_wubao", "宝吊无宝", 6, "计分方法 (4)", english="baodiao, no 宝 used"),
        _P("baodiao_bao", "宝吊宝", 6, "计分方法 (5)", english="baodiao on a 宝"),
        _P("heavenly", "天糊", 10, "计分方法 (6)", flat=True, english="heavenly win"),
        _P("earthly", "地糊", 10, "计分方法 (7)", flat=True, english="earthly win"),
        _P("pengpenghu", "碰碰糊", 4, "计分方法 (9)", english="all pungs"),
        _P("qing_pengpenghu", "清碰碰糊", 10, "计分方法 (10)", english="all pungs, no 宝 acting"),
        _P("pengpenghu_baodiao", "碰碰糊宝吊头", 8, "计分方法 (11)", english="all pungs baodiao"),
        _P("pengpenghu_baodiao_wubao", "碰碰糊宝吊无宝", 16, "计分方法 (12)", english="all pungs baodiao, no 宝 used"),
        _P("pengpenghu_baodiao_bao", "碰碰糊宝吊宝", 16, "计分方法 (12), D5", english="all pungs baodiao on a 宝"),
        _P("qidui", "七对", 4, "计分方法 (13)", english="seven pairs"),
        _P("qing_qidui", "清七对", 10, "计分方法 (14)", english="seven pairs, no 宝 acting"),
        _P("haohua_qidui", "豪华七对", 4, "计分方法 (15)", per_quad=True, english="luxury seven pairs"),
        _P(
            "qing_haohua_qidui",
            "清豪华七对",
            10,
            "计分方法 (16)",
            per_quad=True,
            english="luxury seven pairs, no 宝 acting",
        ),
        _P("shisanlang", "有宝十三浪", 2, "计分方法 (17)", english="shisanlang with 宝"),
        _P("qing_shisanlang", "无宝十三浪", 4, "计分方法 (17)", english="shisanlang without 宝"),
        _P("jiuyao", "有宝九幺", 2, "计分方法 (17)", english="jiuyao with 宝"),
        _P("qing_jiuyao", "无宝九幺", 4, "计分方法 (17)", english="jiuyao without 宝"),
        _P("qixing_shisanlang", "有宝七星十三浪", 4, "计分方法 (18)", english="seven-star shisanlang with 宝"),
        _P("qing_qixing_shisanlang", "无宝七星十三浪", 8, "计分方法 (18)", english="seven-star shisanlang without 宝"),
        _P("qixing_jiuyao", "有宝七星九幺", 4, "计分方法 (18)", english="seven-star jiuyao with 宝"),
        _P("qing_qixing_jiuyao", "无宝七星九幺", 8, "计分方法 (18)", english="seven-star jiuyao without 宝"),
    ]
}


@dataclass(frozen=True)
class ItemName:
    """A doubling or bonus: ``id`` (ASCII, stored in results), Chinese ``name`` (the seed's), ``english``."""

    id: str
    name: str
    english: str


#: doublings and multipliers (注 2: 杠开、单吊、飞宝、九幺; 抢杠 ×6; 注 1: payer's 飞宝)
DOUBLINGS: dict[str, ItemName] = {
    d.id: d
    for d in [
        ItemName("gangkai", "杠开", "win on a kong replacement"),
        ItemName("dandiao", "单吊", "single wait"),
        ItemName("feibao", "飞宝", "宝 discarded"),
        ItemName("jiuyao", "九幺", "terminals and honors"),
        ItemName("qianggang", "抢杠", "robbing the kong"),
    ]
}

#: 奖励分, by the reason id used in transfers and summaries
BONUSES: dict[str, ItemName] = {
    b.id: b
    for b in [
        ItemName("pung_kong", "碰杠", "kong bonus"),
        ItemName("concealed_kong", "自摸杠", "concealed kong bonus"),
        ItemName("caught_bao", "接宝", "caught 宝"),
        ItemName("four_bao", "四个宝", "four 宝"),
    ]
}

DOUBLING_NAMES: dict[str, str] = {k: d.name for k, d in DOUBLINGS.items()}
BONUS_NAMES: dict[str, str] = {k: b.name for k, b in BONUSES.items()}
