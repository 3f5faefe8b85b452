"""The scoring items of the seed (计分方法 (1)-(18), 注 1-2, 奖励分), one object each.

Each item carries its id (ASCII), its Chinese name exactly as the seed writes
it, and its value.  Patterns are exclusive (one per win); doublings stack;
bonuses are added points.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PatternDef", "PATTERNS", "DOUBLING_NAMES", "BONUS_NAMES"]


@dataclass(frozen=True)
class PatternDef:
    """A winning pattern: ``id``, Chinese ``name``, ``factor`` (× base points), or ``flat`` points.

    ``per_quad``: the factor doubles per four-of-a-kind (豪华七对, 清豪华七对; seed items 15-16).
    ``clause``: the seed item it implements.
    """

    id: str
    name: str
    factor: int
    clause: str
    flat: bool = False
    per_quad: bool = False


_P = PatternDef
PATTERNS: dict[str, PatternDef] = {p.id: p for p in [
    _P("basic", "有宝平糊", 1, "基本分 1 分 (D3)"),  # players' name; 基本分 is its value
    _P("pinghu_zimo", "平糊自摸", 2, "计分方法 (1)"),
    _P("baodiao", "宝吊头", 3, "计分方法 (3)"),
    _P("baodiao_wubao", "宝吊无宝", 6, "计分方法 (4)"),
    _P("baodiao_bao", "宝吊宝", 6, "计分方法 (5)"),
    _P("heavenly", "天糊", 10, "计分方法 (6)", flat=True),
    _P("earthly", "地糊", 10, "计分方法 (7)", flat=True),
    _P("pengpenghu", "碰碰糊", 4, "计分方法 (9)"),
    _P("qing_pengpenghu", "清碰碰糊", 10, "计分方法 (10)"),
    _P("pengpenghu_baodiao", "碰碰糊宝吊头", 8, "计分方法 (11)"),
    _P("pengpenghu_baodiao_wubao", "碰碰糊宝吊无宝", 16, "计分方法 (12)"),
    _P("pengpenghu_baodiao_bao", "碰碰糊宝吊宝", 16, "计分方法 (12), D5"),
    _P("qidui", "七对", 4, "计分方法 (13)"),
    _P("qing_qidui", "清七对", 10, "计分方法 (14)"),
    _P("haohua_qidui", "豪华七对", 4, "计分方法 (15)", per_quad=True),
    _P("qing_haohua_qidui", "清豪华七对", 10, "计分方法 (16)", per_quad=True),
    _P("shisanlang", "有宝十三浪", 2, "计分方法 (17)"),
    _P("qing_shisanlang", "无宝十三浪", 4, "计分方法 (17)"),
    _P("jiuyao", "有宝九幺", 2, "计分方法 (17)"),
    _P("qing_jiuyao", "无宝九幺", 4, "计分方法 (17)"),
    _P("qixing_shisanlang", "有宝七星十三浪", 4, "计分方法 (18)"),
    _P("qing_qixing_shisanlang", "无宝七星十三浪", 8, "计分方法 (18)"),
    _P("qixing_jiuyao", "有宝七星九幺", 4, "计分方法 (18)"),
    _P("qing_qixing_jiuyao", "无宝七星九幺", 8, "计分方法 (18)"),
]}

#: doublings and multipliers (注 2: 杠开、单吊、飞宝、九幺; 抢杠 ×6; 注 1: payer's 飞宝)
DOUBLING_NAMES: dict[str, str] = {
    "gangkai": "杠开",
    "dandiao": "单吊",
    "feibao": "飞宝",
    "jiuyao": "九幺",
    "qianggang": "抢杠",
}

#: 奖励分
BONUS_NAMES: dict[str, str] = {
    "pung_kong": "碰杠",
    "concealed_kong": "自摸杠",
    "caught_bao": "接宝",
    "four_bao": "四个宝",
}
