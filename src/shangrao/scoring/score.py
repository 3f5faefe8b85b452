"""Scoring one win: pattern, doublings, bonuses and what each payer pays (seed 三、计分和等级).

All amounts are points.  The calculator follows the seed's 计分方法, its notes
1-2 and 奖励分, as settled by decisions D1-D9 in ``docs/rules.md``:

* ``hand_value = base × pattern factor × doublings`` (天糊/地糊: flat points);
* each payer's win part is ``hand_value × 2**(宝 that payer discarded)``
  (注 1; not for 天糊/地糊 or a winner who never held a 宝), and for 抢杠
  ``× 6`` paid by the robbed player alone (D8);
* the winner's bonuses of the hand (碰杠 1, 自摸杠 2, 四个宝 10, 接宝 10) are
  added to each payer's amount (D9; the seed's largest example).

>>> from shangrao.scoring import WinSituation, score
>>> r = score(WinSituation.from_dict({"hand": "123m456p789s123s5z", "win_tile": "5z", "bao": "9p"}))
>>> r.pattern.name, r.payments, r.total
('平糊自摸', (2, 2, 2), 6)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..analysis import Form, Reading, enumerate_readings, is_baodiao_state
from ..melds import MeldType
from ..rules import DEFAULT_RULES, RuleSet
from ..tiles import (
    to_34,
)
from .items import BONUS_NAMES, DOUBLING_NAMES, PATTERNS, PatternDef
from .situation import SituationError, WinBy, WinSituation

__all__ = [
    "WinBy",
    "WinSituation",
    "SituationError",
    "PatternScore",
    "Doubling",
    "Bonus",
    "ScoreResult",
    "score",
    "PATTERNS",
]


@dataclass(frozen=True)
class PatternScore:
    """The pattern scored: id, Chinese name, factor (× base; flat points for 天糊/地糊)."""

    id: str
    name: str
    factor: int
    flat: bool = False
    clause: str = ""


@dataclass(frozen=True)
class Doubling:
    """A multiplier on the hand value: id, Chinese name, times it applies, factor (e.g. 2**n)."""

    id: str
    name: str
    count: int
    factor: int


@dataclass(frozen=True)
class Bonus:
    """A 奖励分 item: id, Chinese name, count, points from each payer (all counts included)."""

    id: str
    name: str
    count: int
    points: int


@dataclass
class ScoreResult:
    """The result of :func:`score`.

    winning: whether the hand wins at all (False: everything else is empty/zero).
    pattern: the :class:`PatternScore` scored; reading: the reading it comes from.
    doublings: multipliers applied to the hand value (杠开, 单吊, 飞宝, 九幺, 抢杠).
    bonuses: 奖励分 items, each paid by every payer.
    hand_value: points of the hand before payer factors and bonuses.
    payer_factors: per payer, ×2**n for the 宝 that payer discarded (注 1), or 1.
    win_payments: per payer (seat order after the winner), the win part.
    bonus_payments: per payer, the bonus part.
    payments: per payer, win part + bonus part.  total: the winner's gain.
    alternatives: other patterns that fit, with their hand values (for the breakdown).
    notes: why an input did not count (e.g. payers' 飞宝 when the winner never held a 宝, 注 1).
    """

    winning: bool
    pattern: PatternScore | None = None
    reading: Reading | None = None
    doublings: list[Doubling] = field(default_factory=list)
    bonuses: list[Bonus] = field(default_factory=list)
    hand_value: int = 0
    payer_factors: tuple[int, int, int] = (1, 1, 1)
    win_payments: tuple[int, int, int] = (0, 0, 0)
    bonus_payments: tuple[int, int, int] = (0, 0, 0)
    payments: tuple[int, int, int] = (0, 0, 0)
    total: int = 0
    alternatives: list[tuple[str, int]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "winning": self.winning,
            "pattern": None
            if self.pattern is None
            else {
                "id": self.pattern.id,
                "name": self.pattern.name,
                "factor": self.pattern.factor,
                "flat": self.pattern.flat,
                "clause": self.pattern.clause,
            },
            "reading": None if self.reading is None else self.reading.to_dict(),
            "doublings": [{"id": d.id, "name": d.name, "count": d.count, "factor": d.factor} for d in self.doublings],
            "bonuses": [{"id": b.id, "name": b.name, "count": b.count, "points": b.points} for b in self.bonuses],
            "hand_value": self.hand_value,
            "payer_factors": list(self.payer_factors),
            "win_payments": list(self.win_payments),
            "bonus_payments": list(self.bonus_payments),
            "payments": list(self.payments),
            "total": self.total,
            "alternatives": [{"name": n, "hand_value": v} for n, v in self.alternatives],
            "notes": list(self.notes),
        }

    def breakdown(self) -> str:
        """A one-line formula a player can check by hand, e.g. ``1*10(清碰碰糊)*2(单吊)… = 10240``."""
        if not self.winning or self.pattern is None:
            return "不糊 (not a win)"
        if self.pattern.flat:
            text = f"{self.pattern.factor}({self.pattern.name})"
        else:
            text = f"{self.pattern.factor}({self.pattern.name})"
            for d in self.doublings:
                text += f"*{d.factor}({d.name}{'' if d.count == 1 else '×' + str(d.count)})"
        text = f"{text} = {self.hand_value}"
        return "; ".join([text, *self.notes])


def _pattern_of(reading: Reading, baodiao: bool, drew_bao: bool, touji_ok: bool = True) -> list[PatternDef]:
    """Candidate patterns of one reading of a self-drawn (or robbed, valued as self-drawn) win.

    From the 宝吊 state: 宝吊宝 when the drawn tile is a 宝 (clause 8), 宝吊无宝 when no 宝 acts
    (clause 9; e.g. three 宝 as a pung of their face), both when both fit; 宝吊头 otherwise, or
    when ``touji_ok`` is False (rule ``baodiao_bao_needs_touji`` and no 偷机 yet).
    """
    P = PATTERNS
    f = reading.form
    if f is Form.SEVEN_PAIRS:
        if reading.bao_acting:
            return [P["haohua_qidui"] if reading.quads else P["qidui"]]
        return [P["qing_haohua_qidui"] if reading.quads else P["qing_qidui"]]
    if f is Form.SHISANLANG:
        if reading.qixing:
            return [P["qixing_shisanlang"] if reading.bao_acting else P["qing_qixing_shisanlang"]]
        return [P["shisanlang"] if reading.bao_acting else P["qing_shisanlang"]]
    if f is Form.JIUYAO:
        if reading.qixing:
            return [P["qixing_jiuyao"] if reading.bao_acting else P["qing_qixing_jiuyao"]]
        return [P["jiuyao"] if reading.bao_acting else P["qing_jiuyao"]]
    out: list[PatternDef] = []
    if reading.bao_acting:
        out.append(P["pengpenghu"] if reading.all_pungs else P["basic"])
    else:
        out.append(P["qing_pengpenghu"] if reading.all_pungs else P["pinghu_zimo"])
    if baodiao:
        if touji_ok and drew_bao:  # (8); when no 宝 acts (9) fits too: score() names both
            out.append(P["pengpenghu_baodiao_bao"] if reading.all_pungs else P["baodiao_bao"])
        elif touji_ok and not reading.bao_acting:
            out.append(P["pengpenghu_baodiao_wubao"] if reading.all_pungs else P["baodiao_wubao"])
        else:
            out.append(P["pengpenghu_baodiao"] if reading.all_pungs else P["baodiao"])
    return out


def _add3(a: tuple[int, int, int], b: tuple[int, int, int]) -> tuple[int, int, int]:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def score(situation: WinSituation | dict[str, Any], rules: RuleSet = DEFAULT_RULES) -> ScoreResult:
    """Score one win (seed 计分方法, 注 1-2, 奖励分; decisions D1-D9).

    situation: a :class:`WinSituation` (or its JSON dict).  rules: a :class:`~shangrao.rules.RuleSet`.

    Returns a :class:`ScoreResult`; ``winning`` is False (and nothing is paid)
    when hand + win tile is no win in any form.  Amounts are points.  When
    several readings or patterns fit, the one that pays the winner most is
    scored (D2) and the others are listed in ``alternatives``.

    Raises :class:`SituationError` (a ``ValueError``) for a malformed situation.
    """
    if isinstance(situation, dict):
        situation = WinSituation.from_dict(situation)
    if not isinstance(situation, WinSituation):
        raise SituationError(f"a situation must be a WinSituation or a JSON object, got {type(situation).__name__}")
    if isinstance(rules, dict):
        rules = RuleSet.from_dict(rules)
    elif not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a RuleSet or its dict, got {type(rules).__name__}")
    s = situation
    if s.win_by is WinBy.DEALER_FIRST_DISCARD and not rules.earthly_win:
        raise SituationError("win_by: 地糊 (dealer_first_discard) is switched off in these rules (earthly_win)")
    if s.win_by is not WinBy.SELF_DRAW and s.bao is not None and s.win_tile == s.bao and not rules.win_on_bao_tile:
        raise SituationError(
            f"win_tile: {s.win_by.value} on a 宝 tile is switched off in these rules (win_on_bao_tile)"
        )
    hand34 = to_34(list(s.hand) + [s.win_tile])
    readings = enumerate_readings(hand34, s.bao, s.melds)
    if s.melds and not rules.jiuyao_melds:  # 九幺 only with no declared melds (house rule)
        readings = [r for r in readings if r.form is not Form.JIUYAO]
    if not readings:
        return ScoreResult(winning=False)
    base = rules.base_points
    bonuses = _bonuses(s, rules)
    bonus_each = sum(b.points for b in bonuses)

    flat = None
    if s.heavenly:
        flat = PATTERNS["heavenly"]
        flat_points = rules.heavenly_points
    elif s.win_by is WinBy.DEALER_FIRST_DISCARD:
        flat = PATTERNS["earthly"]
        flat_points = rules.earthly_points
    if flat is not None:
        reading = readings[0]
        pattern = PatternScore(flat.id, flat.name, flat_points, True, flat.clause)
        win = (flat_points, flat_points, flat_points)
        bonus = (bonus_each, bonus_each, bonus_each)
        payments = _add3(win, bonus)
        notes = [f"注 1: payers' 飞宝 not counted: {flat.name} is paid flat"] if any(s.payers_flown) else []
        return ScoreResult(
            True,
            pattern,
            reading,
            [],
            bonuses,
            flat_points,
            (1, 1, 1),
            win,
            bonus,
            payments,
            sum(payments),
            notes=notes,
        )

    baodiao = is_baodiao_state(to_34(s.hand), s.bao, s.melds)
    drew_bao = s.bao is not None and s.win_tile == s.bao
    touji_ok = not rules.baodiao_bao_needs_touji or s.touji > 0
    candidates = []
    for reading in readings:
        for pdef in _pattern_of(reading, baodiao, drew_bao, touji_ok):
            factor = pdef.factor * (2**reading.quads if pdef.per_quad else 1)
            doublings = _doublings(s, reading, rules)
            value = base * factor
            for d in doublings:
                value *= d.factor
            candidates.append((value, -list(PATTERNS).index(pdef.id), pdef, factor, reading, doublings))
    candidates.sort(key=lambda c: (c[0], c[1]), reverse=True)
    value, _, pdef, factor, reading, doublings = candidates[0]
    alternatives = []
    seen = {pdef.name}
    for c in candidates[1:]:
        if c[2].name not in seen:
            seen.add(c[2].name)
            alternatives.append((c[2].name, c[0]))

    notes = []
    both = {"baodiao_bao": "baodiao_wubao", "pengpenghu_baodiao_bao": "pengpenghu_baodiao_wubao"}
    if pdef.id in both and any(not r.bao_acting and r.form is Form.STANDARD for r in readings):
        other = PATTERNS[both[pdef.id]]
        notes.append(f"{pdef.name} (clause 8: the drawn tile is a 宝) and {other.name} (clause 9: no 宝 acts) both fit")
    if baodiao and not touji_ok and (drew_bao or any(not r.bao_acting for r in readings)):
        notes.append("宝吊宝/宝吊无宝 need a 偷机 first (rule baodiao_bao_needs_touji): scored as 宝吊头")
    payer_factors: tuple[int, int, int] = (1, 1, 1)
    if s.held_bao:
        f0, f1, f2 = s.payers_flown
        payer_factors = (2**f0, 2**f1, 2**f2)
    elif any(s.payers_flown):
        notes.append("注 1: payers' 飞宝 not counted: the winner never held a 宝 this hand")
    if s.win_by is WinBy.ROBBING_KONG:
        r = s.robbed
        win = (
            value * payer_factors[0] if r == 0 else 0,
            value * payer_factors[1] if r == 1 else 0,
            value * payer_factors[2] if r == 2 else 0,
        )
    else:
        win = (value * payer_factors[0], value * payer_factors[1], value * payer_factors[2])
    bonus = (bonus_each, bonus_each, bonus_each)
    payments = _add3(win, bonus)
    return ScoreResult(
        winning=True,
        pattern=PatternScore(pdef.id, pdef.name, factor, False, pdef.clause),
        reading=reading,
        doublings=doublings,
        bonuses=bonuses,
        hand_value=value,
        payer_factors=payer_factors,
        win_payments=win,
        bonus_payments=bonus,
        payments=payments,
        total=sum(payments),
        alternatives=alternatives,
        notes=notes,
    )


def _doublings(s: WinSituation, reading: Reading, rules: RuleSet) -> list[Doubling]:
    out = []
    if s.kong_chain:
        out.append(Doubling("gangkai", DOUBLING_NAMES["gangkai"], s.kong_chain, 2**s.kong_chain))
    if len(s.melds) == 4:
        out.append(Doubling("dandiao", DOUBLING_NAMES["dandiao"], 1, 2))
    if s.winner_flown:
        out.append(Doubling("feibao", DOUBLING_NAMES["feibao"], s.winner_flown, 2**s.winner_flown))
    if reading.all_terminal_honor and reading.form is not Form.JIUYAO and (rules.jiuyao_melds or not s.melds):
        out.append(Doubling("jiuyao", DOUBLING_NAMES["jiuyao"], 1, 2))
    if s.win_by is WinBy.ROBBING_KONG:
        out.append(Doubling("qianggang", DOUBLING_NAMES["qianggang"], 1, rules.robbing_kong_factor))
    return out


def _bonuses(s: WinSituation, rules: RuleSet) -> list[Bonus]:
    out = []
    exposed = sum(1 for m in s.melds if m.type is MeldType.KONG)
    concealed = sum(1 for m in s.melds if m.type is MeldType.CONCEALED_KONG)
    if exposed:
        out.append(Bonus("pung_kong", BONUS_NAMES["pung_kong"], exposed, exposed * rules.pung_kong_bonus))
    if concealed:
        out.append(
            Bonus("concealed_kong", BONUS_NAMES["concealed_kong"], concealed, concealed * rules.concealed_kong_bonus)
        )
    if s.caught_bao:
        out.append(Bonus("caught_bao", BONUS_NAMES["caught_bao"], 1, rules.caught_bao_bonus))
    if s.four_bao:
        out.append(Bonus("four_bao", BONUS_NAMES["four_bao"], 1, rules.four_bao_bonus))
    return out
