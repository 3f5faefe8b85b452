"""Between the Python objects of the engine and the plain arrays of the kernels (:mod:`.kernels`).

* :func:`situation_record` — a :class:`~shangrao.scoring.WinSituation` as the
  :class:`~shangrao.sim.kernels.Situation` record :func:`~shangrao.sim.kernels.score_win` reads;
* :func:`score_situation` — :func:`~shangrao.sim.kernels.score_win` on one situation, the output
  array (``int64[N_OUT]``) returned;
* :func:`breakdown` — the one-line formula of :meth:`shangrao.scoring.ScoreResult.breakdown` from that
  array, so that a core's WIN event reads exactly as the engine's.

These run in Python (for tests, replays and events), not in the hot loop.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..melds import MeldType
from ..rules import DEFAULT_RULES, RuleSet
from ..scoring import PATTERNS, WinBy, WinSituation
from ..scoring.items import DOUBLING_NAMES
from . import kernels as K
from .rules import encode_rules

__all__ = ["MELD_CODES", "WIN_BY_CODES", "situation_record", "score_situation", "breakdown"]

#: MeldType → the kernels' MELD_* code
MELD_CODES: dict[MeldType, int] = {
    MeldType.CHOW: K.MELD_CHOW,
    MeldType.PUNG: K.MELD_PUNG,
    MeldType.KONG: K.MELD_KONG,
    MeldType.CONCEALED_KONG: K.MELD_CONCEALED_KONG,
}
#: WinBy → the kernels' WIN_* code
WIN_BY_CODES: dict[WinBy, int] = {
    WinBy.SELF_DRAW: K.WIN_SELF_DRAW,
    WinBy.ROBBING_KONG: K.WIN_ROBBING_KONG,
    WinBy.DEALER_FIRST_DISCARD: K.WIN_DEALER_FIRST_DISCARD,
}


def situation_record(s: WinSituation) -> K.Situation:
    """The :class:`~shangrao.sim.kernels.Situation` of a (validated) situation: its hand as ``int8[34]``
    counts, its melds as ``MELD_*`` codes and lowest kinds (``int8[4]`` each), its payers' 飞宝 as
    ``int64[3]``, the rest as ints and bools (no 宝: ``NO_BAO``; no 抢杠: robbed -1)."""
    hand34 = np.zeros(34, dtype=np.int8)
    for k in s.hand:
        hand34[k] += 1
    meld_type = np.zeros(4, dtype=np.int8)
    meld_kind = np.zeros(4, dtype=np.int8)
    for i, m in enumerate(s.melds):
        meld_type[i] = MELD_CODES[m.type]
        meld_kind[i] = min(m.tiles)
    return K.Situation(
        hand34,
        s.win_tile,
        K.NO_BAO if s.bao is None else s.bao,
        meld_type,
        meld_kind,
        len(s.melds),
        WIN_BY_CODES[s.win_by],
        bool(s.heavenly),
        s.kong_chain,
        s.winner_flown,
        np.array(s.payers_flown, dtype=np.int64),
        bool(s.held_bao),
        bool(s.four_bao),
        bool(s.caught_bao),
        -1 if s.robbed is None else s.robbed,
        s.touji,
    )


def score_situation(s: WinSituation, rules: RuleSet = DEFAULT_RULES) -> np.ndarray:
    """``int64[N_OUT]``: :func:`~shangrao.sim.kernels.score_win` of one situation (``O_*`` fields)."""
    out = np.zeros(K.N_OUT, dtype=np.int64)
    kernel: Any = K.score_win  # a numba Dispatcher: its stub knows no arguments
    kernel(K.tables(), situation_record(s), encode_rules(rules), out)
    return out


def breakdown(out: np.ndarray, rules: RuleSet = DEFAULT_RULES) -> str:
    """:meth:`shangrao.scoring.ScoreResult.breakdown` of a :func:`score_win` output: the formula and
    the notes, e.g. ``"2(平糊自摸)*2(杠开) = 4"``."""
    p = int(out[K.O_PATTERN])
    if p < 0:
        return "不糊 (not a win)"
    pdef = PATTERNS[K.PATTERN_IDS[p]]
    text = f"{int(out[K.O_FACTOR])}({pdef.name})"
    if not pdef.flat:
        doublings: list[tuple[str, int, int]] = []  # (id, count, factor), in score._doublings' order
        if out[K.O_GANGKAI]:
            n = int(out[K.O_GANGKAI])
            doublings.append(("gangkai", n, 2**n))
        if out[K.O_DANDIAO]:
            doublings.append(("dandiao", 1, 2))
        if out[K.O_FEIBAO]:
            n = int(out[K.O_FEIBAO])
            doublings.append(("feibao", n, 2**n))
        if out[K.O_JIUYAO]:
            doublings.append(("jiuyao", 1, 2))
        if out[K.O_QIANGGANG]:
            doublings.append(("qianggang", 1, rules.robbing_kong_factor))
        for did, count, factor in doublings:
            text += f"*{factor}({DOUBLING_NAMES[did]}{'' if count == 1 else '×' + str(count)})"
    text = f"{text} = {int(out[K.O_HAND_VALUE])}"
    notes = []
    bits = int(out[K.O_NOTES])
    if bits & K.NOTE_FLAT_FLOWN:
        notes.append(f"注 1: payers' 飞宝 not counted: {pdef.name} is paid flat")
    if bits & K.NOTE_BOTH_FIT:
        both = {"baodiao_bao": "baodiao_wubao", "pengpenghu_baodiao_bao": "pengpenghu_baodiao_wubao"}
        other = PATTERNS[both[pdef.id]]
        notes.append(f"{pdef.name} (clause 8: the drawn tile is a 宝) and {other.name} (clause 9: no 宝 acts) both fit")
    if bits & K.NOTE_NEEDS_TOUJI:
        notes.append("宝吊宝/宝吊无宝 need a 偷机 first (rule baodiao_bao_needs_touji): scored as 宝吊头")
    if bits & K.NOTE_NOT_HELD_FLOWN:
        notes.append("注 1: payers' 飞宝 not counted: the winner never held a 宝 this hand")
    return "; ".join([text, *notes])
