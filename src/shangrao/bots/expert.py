"""The ``expert`` bot: plays for expected points under :func:`shangrao.scoring.score`.

It sees only its :class:`~shangrao.game.Observation` and decides every choice by
comparing **expected points** (EV) of the options.

The estimate (one evaluation of a 13-tile state, :meth:`ExpertBot.evaluate`)
============================================================================

Wins come by self-draw only (docs/rules.md D1), so a hand is a race: at each own
draw the hand may improve, and before each own draw every other seat may end the
hand.  For a state (the concealed hand after a discard, its melds, 宝 flown) the
bot computes, over the tiles it has not seen (``Observation.unseen``)::

    EV = P_win * (G + L) - L

* ``G``: points gained when winning = hand value x 2**(own 飞宝) x sum over payers of
  2**(their 飞宝) (注 1).  ``L``: points lost when another seat wins: the opponent model's
  expected hand value of each other seat's win (its 飞宝 included), weighted by its chance to be
  the winner, x 2**(own 飞宝) (the payer's 飞宝 factor); ``loss_value`` (2.4) without the model.
  A draw (荒牌) is rare and is treated as a loss of 0 at the end of the horizon.
* ``P_win``: the chance the hand is completed before it ends.  Own draws left are
  ``R = min(horizon, tiles_left // 4)``; before each draw the other seats take their turns.
  **The opponent model** (:mod:`shangrao.bots.opponents`, issue 20) reads each other seat from
  what this seat sees (its turns, melds, 单吊, 飞宝, late discards, …) as the chance ``F_j(n)`` that
  it wins within its next ``n`` turns; the seats' wins exclude each other, so ``surv[r]`` (the
  chance of still being alive at the r-th own draw) is ``1 - sum_j F_j(n_j)``, ``n_j`` the turns
  seat ``j`` takes before that draw (``opponents="model"``).  By default (``opponents=None``): every seat
  ends the hand with the same hazard ``h(t) = min(hazard_max, hazard_slope * t)`` per turn
  (``t``: its discards and melds so far).
* **Ready hands (听牌), exactly**: for a state one tile from a win, every unseen kind ``k``
  is tried; each winning ``k`` is scored with :func:`shangrao.scoring.score` (so 宝吊头,
  宝吊宝, 宝吊无宝, 碰碰糊, 七对 and their 清 forms, 单吊, 飞宝 and the payers' 飞宝 are
  valued exactly).  A win that could instead be turned into the 宝吊 state (discard the
  宝's partner: 宝 alone + four melds, so any next draw wins ×3) is valued at the better
  of the two.  ``p`` = winning share of the unseen tiles, ``G`` = their mean gain,
  ``P_win = sum_r surv[r] (1-p)**(r-1) p``.  The 宝吊 state has ``p = 1``.
* **Hands further away, by form**: for each form — standard with 宝 acting (value
  ``std_value``), 七对 (4; 清 10), 十三浪 (2; 清 4), 九幺 (2; 清 4) and 碰碰糊 (4; 清 10), the
  清 forms counting a 宝 only as its own face — the tiles lacking ``d`` and the unseen tiles
  that lower ``d`` (``U``) are counted (table lookups, :mod:`shangrao.analysis.tables`);
  ``P_win`` is the chance of ``d`` successes within the own draws left (weighted by
  ``surv``), the j-th success having ``U / unseen * step_decay**j`` per draw and the last one
  (from a ready hand) at most ``ready_q``.  The state's EV is the best form's.

Calibration: on 150 hands of ukeire self-play (every state after a discard, ~6,000), the
predicted ``P_win`` averages 0.40 / 0.23 / 0.18 / 0.15 at shanten 0 / 1 / 2 / 3+ against
realised win rates 0.36 / 0.24 / 0.19 / 0.15 (``hazard_slope`` 0.006, ``step_decay`` 0.8,
``ready_q`` 0.25 had the lowest Brier score of a 12-point grid).

The learned value (``value_model``)
===================================

The estimate above is good at *whether* to win, decline or kong, but its per-form numbers rank
discards of similar speed poorly.  A **linear value learned from self-play** ranks them instead:
55 features of the state after the discard (:func:`_value_features`: the speed order's shanten
and useful tiles, the exact ready-hand EV, per form the win chance, chance per draw and tiles
lacking, the estimate's EV, 宝 held, 飞宝, melds, tiles left, the other seats' turns), weighted
by :data:`shangrao.bots.expert_value.WEIGHTS`, fitted by ridge regression to the seat's points in
the hand over ~200,000 states of 6,000 hands played by this bot without the learned value
(``tools/train_expert_value.py`` reproduces the weights exactly; R^2 0.12 — a hand's points are
mostly luck, but the *differences* between discards are what matters).  It is a regression on
one policy's outcomes, so it is trusted only near that policy: it chooses among the discards
that keep the fastest shanten and at least ``value_pool`` of the fastest discard's useful tiles.
A second round fitted on the learned bot's own games was measured worse (docs/bots.md).

Decisions
=========

* **Discard**: among the discards as fast as ``ukeire``'s choice (lowest shanten; never a 宝) with
  at least ``value_pool`` (0.7) of its unseen useful tiles, the one of highest learned value.
  (Paired against ``ukeire`` on seed 3's 600 deals, where the setting was chosen: +0.24 a hand
  over the previous rule below; with the learned value for claims too, next item, +0.37 [+0.11,
  +0.63]; on other deals +0.07 (seed 4, 600 deals) and +0.21 (seed 1, 300 deals).)  A 宝 is discarded
  (飞宝: ``G`` and ``L`` double, a wildcard is lost) only into a ready hand.
  With ``value_model=None`` the previous rule: the fastest tile, as ``ukeire`` chooses it, unless
  the best discard leaves shanten <= ``near_shanten`` and its EV beats the fastest discard's EV by
  more than ``near_margin`` points (e.g. a ready hand whose waits can become the 宝吊 state), or,
  further away, a non-basic form is worth ``override_margin`` more.  (An EV-only discard choice
  was measured slower: every lost percentage point of win rate costs about 0.1 point a hand.)
* **Win or not (偷机 and more)**: the win on offer is worth ``G_now`` (scored exactly); it is
  declined when some discard gives a state with ``EV > G_now`` — mostly a 有宝平糊 win (+3)
  declined for the 宝吊 state (any draw wins ×3: EV ≈ +7), rarely a 宝吊头 declined for
  宝吊宝/宝吊无宝.  天糊, 地糊 and 抢杠 are always taken.
* **Claims** (吃/碰/杠 on a discard): with ``value_claims`` (default) the learned value of passing
  against the learned value of the best discard after the meld (chosen as above); a kong or 接宝
  on offer, or ``value_claims=False``: EV of the best discard after the meld (next own draw three
  turns away) against EV of passing (next own draw after the seats in between).
* **Kongs**: a concealed kong pays 2 from each (+6) and a replacement draw (杠开 ×2 on it);
  an added kong or a kong on a discard pays 1 from each but can be robbed (抢杠, ×6 of the
  robber's hand paid by us alone).  Rob risk: a seat holding one concealed tile robs when
  it is the kong tile (单吊 ×2) or a 宝 (宝吊头 ×3 × 单吊 ×2), from the unseen tiles; any other
  seat is ready with the opponent model's ``p_ready`` (``min(0.9, ready_slope * t)`` without it)
  and then waits on the tile with
  ``rob_wait_share`` (always when it is the 宝 kind), robbing ``robbed_value``.  The kong is
  made when (1 - risk) (bonus + EV after it) - risk L - expected robbed points beats the
  discard.
* **接宝**: always (+10 from each).

Options (constructor keywords)
------------------------------
``fast`` (False): skip the per-form counts for far hands and look 8 draws ahead, not 12 (about 3×
cheaper; for tests that play many hands).  ``value_model`` ("default": the shipped weights; None:
the analytic rule; or a sequence of 55 weights), ``value_pool`` (0.7: paired against the analytic
rule on 600 deals, 0.6 / 0.7 / 0.8 gave +0.35 / +0.37 / +0.30 with learned claims and +0.23 / +0.24
/ +0.16 without; 0.9 +0.14; the learned value for every discard, no pool, lost 4 points of win
rate), ``value_claims`` (True: the learned value for 吃/碰 too).  ``opponents`` (None, the default:
the single turn-count hazard; "model": the shipped :class:`~shangrao.bots.opponents.OpponentModel`;
or an ``OpponentModel`` — paired on 1,200 fresh deals the model measured -0.06 [-0.20, +0.07] a hand
against the hazard, so it is not the default; docs/bots.md), ``model_loss`` (True: ``L`` from the model's values of
the other seats' wins; False: ``loss_value``).

Constants (class attributes; the reasons for their values)
----------------------------------------------------------
``horizon`` (12): own draws looked ahead; hands rarely last longer (median ~7 rounds).
``step_decay`` (0.8), ``ready_q`` (0.25), and without the opponent model ``hazard_slope`` (0.006),
``hazard_max`` (0.12): the calibration above.  ``loss_value`` (2.4): mean hand value of the other
seats' wins in ukeire self-play.  ``std_value`` (1.3): a far standard hand's value (mostly 有宝平糊,
some 平糊/宝吊头).  ``rob_wait_share`` (0.1), ``robbed_value`` (2.0), and without the model
``ready_slope`` (0.05): the rob risk (ukeire's added kongs were robbed about 1 in 10).
``near_shanten`` (1), ``near_margin`` (2.0 points), ``override_margin`` (1.0): when the EV may
overrule the speed order in the analytic rule (``value_model=None``; docs/bots.md, second round).

Experiments measured and removed (issue 20; their numbers stay in docs/bots.md): ``claim_mode="greedy"``
(claims as ukeire: no measurable difference), ``baodiao_form`` (a 宝吊 route form for far hands: win
rate 25 % to 15 %), ``lookahead`` (two-step useful tiles for ties: no gain, +30 % time),
``exact_baodiao`` (every draw of the 宝吊 state scored: -0.01), ``ply2`` (one exact step from one tile
away: +0.00 / +0.02, p99 ×4), ``rollouts`` (solitaire rollouts by greedy's policy: -0.37 at 32, -0.17
at 256), ``fly=False`` (+0.02: 飞宝 is rare).

Speed: one decision evaluates at most ~14 states with ~34 table lookups each, plus exact
scoring of ready states (memoised per bot), and one read of the opponent model per decision
(``opponents="model"``); the measured decision times are in docs/performance.md, "Bot decision
time".  :func:`advise` exposes the same estimates
for players.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..analysis.hand import is_winning
from ..analysis.readings import Form
from ..analysis.tables import (
    deficits_entries,
    entries_34,
    is_win_entries,
    shanten_entries,
)
from ..game.actions import Action, ActionType, IllegalActionError, as_action
from ..game.state import Observation
from ..melds import Meld, MeldKind, MeldType
from ..scoring import PATTERNS, WinBy, WinSituation, score
from ..scoring.items import DOUBLINGS
from ..tiles import TERMINALS_AND_HONORS, format_tile
from .expert_value import WEIGHTS as VALUE_WEIGHTS
from .opponents import OpponentModel, default_model

__all__ = ["FORM_NAMES", "Candidate", "ExpertBot", "advise", "check_actions_for"]

A = ActionType
_TH = frozenset(TERMINALS_AND_HONORS)

#: form id -> (Chinese name, English name); the Chinese names of scored patterns come from
#: :data:`shangrao.scoring.PATTERNS` (their one home); 十三浪/九幺 name the aim, with or without 宝
FORM_NAMES = {
    "basic": (PATTERNS["basic"].name, "plain win with 宝"),
    "pinghu": (PATTERNS["pinghu_zimo"].name, "plain self-draw (no 宝 acting)"),
    "qidui": (PATTERNS["qidui"].name, "seven pairs"),
    "qing_qidui": (PATTERNS["qing_qidui"].name, PATTERNS["qing_qidui"].english),
    "shisanlang": (Form.SHISANLANG.chinese, "shisanlang"),
    "qing_shisanlang": (PATTERNS["qing_shisanlang"].name, "shisanlang without 宝"),
    "jiuyao": (Form.JIUYAO.chinese, "jiuyao"),
    "qing_jiuyao": (PATTERNS["qing_jiuyao"].name, "jiuyao without 宝"),
    "pengpenghu": (PATTERNS["pengpenghu"].name, "all pungs"),
    "qing_pengpenghu": (PATTERNS["qing_pengpenghu"].name, PATTERNS["qing_pengpenghu"].english),
    "baodiao": (PATTERNS["baodiao"].name, "baodiao (宝 alone, any draw wins)"),
}


@dataclass
class Candidate:
    """One option with the bot's estimate.

    action: the :class:`Action`.  ev: expected points of the hand for this seat from here
    (points; a win now is its exact gain; a discard ranked by the learned value shows that value).
    p_win: chance this seat wins the hand (0..1).  gain: expected points gained when it wins.  aim: the pattern aimed at (id, e.g.
    ``qidui``, ``baodiao``; a pattern id of :mod:`shangrao.scoring` for a ready hand).
    aim_name: its Chinese name.  shanten: of the state after the action (-1 = a win now).
    useful: for a discard, the unseen tiles that would lower that shanten (进张; what the speed order
    ranks by), else None.
    """

    action: Action
    ev: float
    p_win: float
    gain: float
    aim: str
    aim_name: str
    shanten: int
    note: str = ""
    useful: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": str(self.action),
            "ev": round(self.ev, 3),
            "p_win": round(self.p_win, 4),
            "gain": round(self.gain, 3),
            "aim": self.aim,
            "aim_name": self.aim_name,
            "shanten": self.shanten,
            "useful": self.useful,
            "note": self.note,
        }


@dataclass
class _Est:
    ev: float
    p: float
    gain: float
    aim: str
    aim_name: str
    shanten: int
    q: float = 0.0  # ready states: chance that one own draw wins
    detail: dict[Any, tuple[Any, ...]] | None = (
        None  # per form: (tiles lacking, chance per draw, P_win); "ready": (ev, p, gain)
    )


@dataclass
class _Ctx:
    """What one decision needs about the table (from the observation)."""

    unseen: list[int]
    n_unseen: int
    bao: int
    flown: int
    pay_sum: int  # sum over payers of 2**their flown
    held_bao: bool
    opp_turns: list[int]  # per other seat (in turn order after us), discards so far
    opp_hand: list[int]  # concealed tiles per other seat (turn order after us)
    tiles_left: int
    payers_flown: tuple[int, int, int]
    cache: dict[tuple[Any, ...], Any] = field(default_factory=dict)  # memo of _surv (list[float]) and evaluate (_Est)
    #: per other seat (turn order after us): chance it has won within its next n turns, n = 0..(the
    #: opponent model's read); None: the single turn-count hazard (``opponents=None``)
    opp_cum: list[list[float]] | None = None
    opp_ready: list[float] | None = None  # per other seat: chance it is ready now (the model's read)
    loss: float = 2.4  # points lost when another seat wins (before our own 飞宝 factor)


def _pengpeng_deficit(c: Sequence[int], w: int, m: int) -> int:
    """Tiles lacking to ``m`` pungs + a pair from real counts ``c`` and ``w`` wildcards."""
    cs = sorted((x for x in c if x), reverse=True)[: m + 1]
    best = 0
    for i in range(len(cs)):  # kind i is the pair
        v = min(cs[i], 2) + sum(min(x, 3) for j, x in enumerate(cs) if j != i)
        best = max(best, v)
    if len(cs) < m + 1:
        best = max(best, sum(min(x, 3) for x in cs))
    return max(0, 3 * m + 2 - best - w)


class ExpertBot:
    """Expected-points bot (see the module docstring for the estimate and its parameters)."""

    name = "expert"

    #: constants of the estimate (module docstring, "Constants"): not options, nothing sets them
    horizon = 12
    hazard_slope = 0.006
    hazard_max = 0.12
    loss_value = 2.4
    ready_slope = 0.05
    rob_wait_share = 0.1
    robbed_value = 2.0
    std_value = 1.3
    step_decay = 0.8
    ready_q = 0.25
    near_shanten = 1
    near_margin = 2.0
    override_margin = 1.0

    def __init__(
        self,
        seed: int | str | None = None,
        *,
        fast: bool = False,
        value_model: Sequence[float] | str | None = "default",
        value_pool: float = 0.7,
        value_claims: bool = True,
        opponents: OpponentModel | str | None = None,
        model_loss: bool = True,
    ) -> None:
        self.seed = seed  # deterministic: the seed is kept for the bot protocol, no choice is random
        self.fast = fast
        if fast:
            self.horizon = 8
        if isinstance(value_model, str):
            if value_model != "default":
                raise ValueError(
                    f"value_model: give 'default', None or {len(VALUE_WEIGHTS)} weights, got {value_model!r}"
                )
            value_model = VALUE_WEIGHTS
        if value_model is not None and len(value_model) != len(VALUE_WEIGHTS):
            raise ValueError(f"value_model: give {len(VALUE_WEIGHTS)} weights, got {len(value_model)}")
        self.value_model = None if value_model is None else tuple(float(v) for v in value_model)
        if not 0.0 <= value_pool <= 1.0:
            raise ValueError(f"value_pool: a share of the fastest discard's useful tiles, 0..1, got {value_pool!r}")
        self.value_pool = value_pool
        self.value_claims = value_claims
        if isinstance(opponents, str):
            if opponents != "model":
                raise ValueError(f"opponents: give 'model', None or an OpponentModel, got {opponents!r}")
            opponents = default_model()
        if opponents is not None and not isinstance(opponents, OpponentModel):
            raise ValueError(f"opponents: give 'model', None or an OpponentModel, got {type(opponents).__name__}")
        self.opponents = opponents
        self.model_loss = model_loss
        self._score_cache: dict[tuple[Any, ...], tuple[str, str, int]] = {}

    # ------------------------------------------------------------------ public
    def choose(self, obs: Observation, legal: list[Action]) -> Action:
        return self.rank(obs, legal)[0].action

    def rank(self, obs: Observation, legal: list[Action]) -> list[Candidate]:
        """Every legal action with its estimate, best first (ties: the engine's action order)."""
        types = {a.type for a in legal}
        phase = str(getattr(obs.phase, "value", obs.phase))
        ctx = self._ctx(obs)
        cands: list[Candidate] = []
        if phase == "rob" or (phase == "claim" and A.WIN in types):
            # 抢杠 (×6, paid by the kong maker) and 地糊 (10 flat from each): always worth it
            for a in legal:
                if a.type is A.WIN:
                    cands.append(Candidate(a, 1e6, 1.0, 0.0, "win", A.WIN.chinese, -1, "抢杠/地糊"))
                else:
                    cands.append(Candidate(a, -1e6, 0.0, 0.0, "", "", 99))
            return self._sorted(cands)
        if phase == "claim":
            return self._sorted(self._claims(obs, legal, ctx))
        return self._turn(obs, legal, ctx, phase)

    # ------------------------------------------------------------------ context
    def _ctx(self, obs: Observation) -> _Ctx:
        unseen = obs.unseen()
        seat = obs.seat
        order = [(seat + i) % 4 for i in range(1, 4)]
        payers_flown = tuple(obs.flown[s] for s in order)
        ctx = _Ctx(
            unseen=unseen,
            n_unseen=max(1, sum(unseen)),
            bao=obs.bao,
            flown=obs.flown[seat],
            pay_sum=sum(2**f for f in payers_flown),
            held_bao=obs.bao_drawn > 0 or obs.hand_34[obs.bao] > 0,
            opp_turns=[len(obs.discards[s]) + len(obs.melds[s]) for s in order],
            opp_hand=[obs.hand_sizes[s] for s in order],
            tiles_left=obs.tiles_left,
            payers_flown=payers_flown,  # type: ignore[arg-type]
            loss=self.loss_value,
        )
        if self.opponents is not None:
            reads = self.opponents.reads(obs)
            n = self.horizon + 2
            ctx.opp_cum = [[r.cumulative(i) for i in range(n)] for r in reads]
            ctx.opp_ready = [r.p_ready for r in reads]
            if self.model_loss:
                # the loss when another seat wins: the model's value of each seat's win (its 飞宝 included),
                # weighted by its chance to be the one who wins
                w = [r.p_within[-1] for r in reads]
                if sum(w) > 0:
                    ctx.loss = sum(wi * r.value for wi, r in zip(w, reads)) / sum(w)
        return ctx

    def _surv(self, ctx: _Ctx, first_wait: Sequence[int], draws: int) -> list[float]:
        """surv[r] (r = 0..draws-1): chance the hand is alive at own draw r+1.

        first_wait: indexes (0..2, turn order after us) of the other seats that play before the first draw.
        """
        key = ("surv", tuple(first_wait), draws)
        hit: list[float] | None = ctx.cache.get(key)
        if hit is not None:
            return hit
        out = self._surv_curve(ctx, first_wait, draws)
        ctx.cache[key] = out
        return out

    def _surv_curve(self, ctx: _Ctx, first_wait: Sequence[int], draws: int) -> list[float]:
        if ctx.opp_cum is not None:
            # the opponent model: the seats' wins exclude each other, so the chance that none has won by our
            # r-th draw is 1 - the sum of their chances to win within the turns they take before it
            cum = ctx.opp_cum
            last = len(cum[0]) - 1
            out = []
            for r in range(draws):
                lost = 0.0
                for i in range(3):
                    n = min(last, r + (1 if i in first_wait else 0))
                    lost += cum[i][n]
                out.append(max(0.0, 1.0 - lost))
            return out
        turns = list(ctx.opp_turns)
        alive = 1.0
        out = []
        for r in range(draws):
            seats = first_wait if r == 0 else (0, 1, 2)
            for i in seats:
                turns[i] += 1
                alive *= 1.0 - min(self.hazard_max, self.hazard_slope * turns[i])
            out.append(alive)
        return out

    def _draws_left(self, ctx: _Ctx, first_wait: Sequence[int]) -> int:
        # tiles drawn before our r-th draw: len(first_wait) + 1 + 4 (r - 1)
        n = 0
        used = len(first_wait)
        while n < self.horizon and used + 1 <= ctx.tiles_left:
            n += 1
            used += 4
        return n

    # ------------------------------------------------------------------ state estimate
    def evaluate(
        self,
        counts: list[int],
        melds: Sequence[Meld],
        flown: int,
        ctx: _Ctx,
        first_wait: Sequence[int] = (0, 1, 2),
        kong_draw: bool = False,
    ) -> _Est:
        """EV of a state of ``3*(4-len(melds))+1`` concealed tiles (see the module docstring).

        kong_draw: the first draw is a kong replacement right now (no wait, 杠开 ×2 on it).
        """
        key = (bytes(counts), len(melds), flown, tuple(first_wait), kong_draw)
        hit: _Est | None = ctx.cache.get(key)
        if hit is not None:
            return hit
        est = self._evaluate(counts, melds, flown, ctx, first_wait, kong_draw)
        ctx.cache[key] = est
        return est

    def _evaluate(
        self,
        counts: list[int],
        melds: Sequence[Meld],
        flown: int,
        ctx: _Ctx,
        first_wait: Sequence[int],
        kong_draw: bool,
    ) -> _Est:
        bao = ctx.bao
        m = 4 - len(melds)
        jiuyao_ok = all(t in _TH for mm in melds for t in mm.tiles)
        pung_melds = all(mm.kind is not MeldKind.CHOW for mm in melds)
        mult = (2**flown) * ctx.pay_sum
        L = ctx.loss * (2**flown)
        if kong_draw:
            draws = min(self.horizon, ctx.tiles_left)
            surv = [1.0] + self._surv(ctx, (0, 1, 2), max(0, draws - 1))
        else:
            draws = self._draws_left(ctx, first_wait)
            surv = self._surv(ctx, first_wait, draws)
        if draws == 0:
            return _Est(-L * 0.0, 0.0, 0.0, "", "", 8)
        unseen = ctx.unseen
        N = ctx.n_unseen
        w = counts[bao]
        e = entries_34(counts, bao)
        wild = deficits_entries(e[0], e[1], e[2], e[3], e[4], m, jiuyao_ok)
        eq = entries_34(counts, None)
        qing = deficits_entries(eq[0], eq[1], eq[2], eq[3], 0, m, jiuyao_ok)
        real = list(counts)
        real[bao] = 0
        pp_w = _pengpeng_deficit(real, w, m) if pung_melds else None
        pp_q = _pengpeng_deficit(counts, 0, m) if pung_melds else None
        # forms: id -> (deficit, value)
        forms: list[tuple[str, int, float]] = [("basic", wild[0], self.std_value)]
        if wild[1] is not None and wild[2] is not None and qing[1] is not None and qing[2] is not None:
            forms += [
                ("qidui", wild[1], 4.0),
                ("qing_qidui", qing[1], 10.0),
                ("shisanlang", wild[2], 2.0),
                ("qing_shisanlang", qing[2], 4.0),
            ]
        if wild[3] is not None and qing[3] is not None:
            forms += [("jiuyao", wild[3], 2.0), ("qing_jiuyao", qing[3], 4.0)]
        if pp_w is not None and pp_q is not None:
            forms += [("pengpenghu", pp_w, 4.0), ("qing_pengpenghu", pp_q, 10.0)]
        min_wild = min(d for f, d, _ in forms if not f.startswith("qing"))
        best: _Est | None = None
        if min_wild <= 1:
            best = self._ready(counts, melds, flown, ctx, surv, mult, L, kong_draw)
        # useful tiles per form (skipped in the fast setting: far hands then follow the ukeire order)
        useful = {} if self.fast else {f: 0 for f, d, _ in forms if 1 < d <= 8}
        if useful:
            for k in range(34):
                n = unseen[k]
                if not n:
                    continue
                counts[k] += 1
                if k == bao:
                    e2 = entries_34(counts, bao)
                    wild2 = deficits_entries(e2[0], e2[1], e2[2], e2[3], e2[4], m, jiuyao_ok)
                    eq2 = entries_34(counts, None)
                    qing2 = deficits_entries(eq2[0], eq2[1], eq2[2], eq2[3], 0, m, jiuyao_ok)
                else:
                    e2 = entries_34(counts, bao)
                    wild2 = deficits_entries(e2[0], e2[1], e2[2], e2[3], e2[4], m, jiuyao_ok)
                    eq2 = entries_34(counts, None)
                    qing2 = deficits_entries(eq2[0], eq2[1], eq2[2], eq2[3], 0, m, jiuyao_ok)
                counts[k] -= 1
                new: dict[str, int] = {"basic": wild2[0]}
                for f, v in (
                    ("qidui", wild2[1]),
                    ("qing_qidui", qing2[1]),
                    ("shisanlang", wild2[2]),
                    ("qing_shisanlang", qing2[2]),
                    ("jiuyao", wild2[3]),
                    ("qing_jiuyao", qing2[3]),
                ):
                    if v is not None:
                        new[f] = v
                if pp_w is not None:
                    if k == bao:
                        new["pengpenghu"] = pp_w - 1
                        c2 = list(counts)
                        c2[k] += 1
                        new["qing_pengpenghu"] = _pengpeng_deficit(c2, 0, m)
                    else:
                        real[k] += 1
                        new["pengpenghu"] = _pengpeng_deficit(real, w, m)
                        real[k] -= 1
                        c2 = list(counts)
                        c2[k] += 1
                        new["qing_pengpenghu"] = _pengpeng_deficit(c2, 0, m)
                for f, d, _ in forms:
                    if f in useful and new.get(f, 99) < d:
                        useful[f] += n
        detail: dict[Any, tuple[Any, ...]] = {f: (d, useful.get(f, 0) / N, 0.0) for f, d, _ in forms}
        if best is not None:
            detail["ready"] = (best.ev, best.p, best.gain)
        for f, d, value in forms:
            if d <= 1 or d > 8:
                continue
            q = useful.get(f, 0) / N
            if q <= 0:
                continue
            p = _p_complete(d, q, surv, self.step_decay, self.ready_q)
            g = value * mult
            ev = p * (g + L) - L
            detail[f] = (d, q, p)
            if best is None or ev > best.ev:
                best = _Est(ev, p, g, f, FORM_NAMES[f][0], d - 1)
        if best is None:
            best = _Est(-L, 0.0, 0.0, "", "", min_wild - 1)
        best.detail = detail
        return best

    def _ready(
        self,
        counts: list[int],
        melds: Sequence[Meld],
        flown: int,
        ctx: _Ctx,
        surv: list[float],
        mult: int,
        L: float,
        kong_draw: bool,
    ) -> _Est | None:
        """Exact estimate of a ready state: score every winning draw."""
        bao = ctx.bao
        m = 4 - len(melds)
        jiuyao_ok = all(t in _TH for mm in melds for t in mm.tiles)
        unseen = ctx.unseen
        N = ctx.n_unseen
        hand = tuple(k for k in range(34) for _ in range(counts[k]))
        # value of turning a win into the 宝吊 state instead (one more round to survive, then ×3)
        sigma = surv[1] / surv[0] if len(surv) > 1 and surv[0] > 0 else 0.0
        conv = sigma * (3 * mult + L) - L
        win_n = 0
        gain_sum = 0.0
        aims: dict[str, float] = {}
        for k in range(34):
            n = unseen[k]
            if not n:
                continue
            counts[k] += 1
            e = entries_34(counts, bao)
            ok = is_win_entries(e[0], e[1], e[2], e[3], e[4], m, jiuyao_ok)
            counts[k] -= 1
            if not ok:
                continue
            val: float  # the win's points, or the 宝吊 state's value
            pid, _, val = self._win_value(hand, k, melds, flown, ctx, 0)
            if conv > val and (counts[bao] or k == bao) and self._can_baodiao(counts, k, bao):
                pid, val = "baodiao", conv  # decline this win and sit in the 宝吊 state (any draw wins ×3)
            win_n += n
            gain_sum += n * val
            aims[pid] = aims.get(pid, 0.0) + n * val
            if kong_draw:
                pass
        if not win_n:
            return None
        p = win_n / N
        g = gain_sum / win_n
        pw = 0.0
        miss = 1.0
        for s in surv:
            pw += s * miss * p
            miss *= 1.0 - p
        if kong_draw and surv:
            # the replacement draw is 杠开: ×2 on that draw
            pw_first = p
            ev = pw_first * (2 * g + L) + (pw - pw_first) * (g + L) - L
            gain = (pw_first * 2 * g + (pw - pw_first) * g) / pw if pw else g
        else:
            ev = pw * (g + L) - L
            gain = g
        aim = max(aims, key=lambda x: aims[x])
        return _Est(ev, pw, gain, aim, self._pattern_name(aim), 0, p)

    @staticmethod
    def _can_baodiao(counts: list[int], k: int, bao: int) -> bool:
        """Whether the 14 tiles ``counts + k`` less some discard are in the 宝吊 state."""
        counts[k] += 1
        try:
            for x in range(34):
                if counts[x] and x != bao:
                    counts[x] -= 1
                    e = entries_34(counts, bao)
                    counts[x] += 1
                    if e[4] and e[0][0] + e[1][0] + e[2][0] + e[3][0] <= e[4] - 1:
                        return True
            return False
        finally:
            counts[k] -= 1

    def _pattern_name(self, pid: str) -> str:
        from ..scoring import PATTERNS

        p = PATTERNS.get(pid)
        return p.name if p is not None else pid

    def _win_value(
        self,
        hand: tuple[int, ...],
        k: int,
        melds: Sequence[Meld],
        flown: int,
        ctx: _Ctx,
        kong_chain: int,
        win_by: WinBy = WinBy.SELF_DRAW,
    ) -> tuple[str, str, int]:
        """(pattern id, name, points gained) of the self-drawn win of ``hand`` + ``k`` (memoised)."""
        key = (hand, k, tuple(str(x) for x in melds), flown, ctx.payers_flown, kong_chain, ctx.bao, ctx.held_bao)
        hit = self._score_cache.get(key)
        if hit is not None:
            return hit
        bao = ctx.bao
        # 宝 this seat drew: in hand, in its melds, flown by it, and a self-drawn win tile
        drawn = (
            hand.count(bao) + sum(m.tiles.count(bao) for m in melds) + flown + (k == bao and win_by is WinBy.SELF_DRAW)
        )
        sit = WinSituation(
            hand=hand,
            win_tile=k,
            melds=tuple(melds),
            bao=bao,
            win_by=win_by,
            kong_chain=kong_chain,
            winner_flown=flown,
            payers_flown=ctx.payers_flown,
            winner_held_bao=ctx.held_bao or k == bao or flown > 0 or bao in hand,
            # all four 宝 drawn (none flown by a payer): 四个宝, as the engine would say
            four_bao=drawn == 4 and not any(ctx.payers_flown),
        )
        r = score(sit)
        pat = r.pattern
        out = (pat.id, pat.name, sum(r.win_payments)) if r.winning and pat is not None else ("", "", 0)
        if len(self._score_cache) > 50_000:
            self._score_cache.clear()
        self._score_cache[key] = out
        return out

    # ------------------------------------------------------------------ own turn
    def _turn(self, obs: Observation, legal: list[Action], ctx: _Ctx, phase: str) -> list[Candidate]:
        """Own turn: candidates already in the order of choice (see the module docstring)."""
        seat = obs.seat
        melds = list(obs.melds[seat])
        c = list(obs.hand_34)
        discard_est: dict[int, _Est] = {}
        speed: dict[int, tuple[int, int]] = {}
        m = 4 - len(melds)
        jiuyao_ok = all(t in _TH for mm in melds for t in mm.tiles)
        for a in legal:
            if a.type is A.DISCARD and a.tile is not None and a.tile not in discard_est:
                k = a.tile
                c[k] -= 1
                f = ctx.flown + (1 if k == ctx.bao else 0)
                discard_est[k] = self.evaluate(c, melds, f, ctx)
                speed[k] = _speed(c, ctx, m, jiuyao_ok)
                c[k] += 1
        cands: list[tuple[tuple[float, ...], Candidate]] = []
        by_speed = False
        chosen = -1
        vals: dict[int, float] = {}  # learned values of the discards (value_model)
        pool: set[int] = set()
        if discard_est:
            s_min = min(sp[0] for sp in speed.values())
            # the fastest discard (shanten, then useful tiles; never a 宝 while others are left)
            non_bao = [k for k in discard_est if k != ctx.bao] or list(discard_est)
            fast_k = min(non_bao, key=lambda k: (speed[k][0], -speed[k][1], -k))
            # a 宝 is flown only into a ready hand (where the estimate is exact)
            ok = [k for k in discard_est if k != ctx.bao or discard_est[k].shanten <= 0] or list(discard_est)
            best_k = max(ok, key=lambda k: (discard_est[k].ev, -speed[k][0], speed[k][1], -k))
            e_best, e_fast = discard_est[best_k], discard_est[fast_k]
            if s_min <= self.near_shanten:
                chosen = best_k if e_best.ev > e_fast.ev + self.near_margin else fast_k
            else:
                chosen = (
                    best_k
                    if (e_best.aim != "basic" and best_k != ctx.bao and e_best.ev > e_fast.ev + self.override_margin)
                    else fast_k
                )
            if self.value_model is not None:
                # the learned value decides among the discards nearly as fast as the fastest
                pool = self._near_fastest({k: speed[k] for k in ok}, speed[fast_k])
                for k in ok:
                    c[k] -= 1
                    vals[k] = self._lv(ctx, c, melds, ctx.flown + (1 if k == ctx.bao else 0), discard_est[k], speed[k])
                    c[k] += 1
                chosen = max(pool, key=lambda k: (vals[k], speed[k][1], -k)) if pool else fast_k
            by_speed = chosen == fast_k and not vals
            for k, e in discard_est.items():
                if vals:
                    # listed as played: the pool by the learned value (shown as the estimate), then by speed
                    shown = vals.get(k, e.ev)
                    key: tuple[float, ...] = (
                        (0, -e.ev, 0, 0)
                        if k == chosen
                        else (1, 0, -shown, 0)
                        if k in pool
                        else (1, 1, speed[k][0], -speed[k][1], -shown)
                    )
                else:
                    shown = e.ev
                    key = (0 if k == chosen else 1, -e.ev, speed[k][0], -speed[k][1])
                cands.append(
                    (
                        key,
                        Candidate(
                            Action(A.DISCARD, k),
                            shown,
                            e.p,
                            e.gain,
                            e.aim,
                            e.aim_name,
                            speed[k][0],
                            DOUBLINGS["feibao"].name if k == ctx.bao else "",
                            useful=speed[k][1],
                        ),
                    )
                )
        # a win or a kong is weighed against the chosen discard's estimate (the learned value only ranks discards)
        chosen_ev = discard_est[chosen].ev if discard_est else -1e9
        for a in legal:
            t = a.type
            if t is A.WIN:
                cd = self._win_now(obs, a, ctx, melds)
            elif t is A.CONCEALED_KONG or t is A.ADDED_KONG:
                cd = self._kong(obs, a, ctx, melds, c, chosen_ev)
            else:
                continue
            cands.append(((0 if cd.ev >= chosen_ev else 1, -cd.ev, -1, 0), cd))
        cands.sort(key=lambda x: (x[0], x[1].action.sort_key()))
        out = [cd for _, cd in cands]
        if discard_est and by_speed:
            # the discard was chosen by speed: the other discards are listed in that order too (shanten, then
            # useful tiles), in the places discards hold, so a hint does not rank by an estimate it did not use
            at = [i for i in range(1, len(out)) if out[i].action.type is A.DISCARD]
            for i, cd in zip(at, sorted((out[i] for i in at), key=lambda c: (c.shanten, -(c.useful or 0), -c.ev))):
                out[i] = cd
        return out

    def _win_now(self, obs: Observation, a: Action, ctx: _Ctx, melds: Sequence[Meld]) -> Candidate:
        seat = obs.seat
        heavenly = seat == obs.dealer and not any(obs.discards) and not any(obs.melds) and obs.tiles_left == 135 - 52
        k = obs.drawn
        if heavenly or k is None:
            return Candidate(
                a,
                1e6,
                1.0,
                30.0,
                "heavenly" if heavenly else "win",
                PATTERNS["heavenly"].name if heavenly else A.WIN.chinese,
                -1,
            )
        c = list(obs.hand_34)
        c[k] -= 1
        hand = tuple(x for x in range(34) for _ in range(c[x]))
        pid, pname, val = self._win_value(hand, k, melds, ctx.flown, ctx, obs.kong_chain)
        return Candidate(a, float(val), 1.0, float(val), pid, pname, -1)

    def _kong(
        self, obs: Observation, a: Action, ctx: _Ctx, melds: list[Meld], c: list[int], best_discard: float
    ) -> Candidate:
        k = a.tile
        assert k is not None
        rules_bonus = 2 if a.type is A.CONCEALED_KONG else 1
        c2 = list(c)
        if a.type is A.CONCEALED_KONG:
            c2[k] -= 4
            new = Meld(MeldKind.CONCEALED_KONG, (k, k, k, k))
            melds2 = melds + [new]
        else:
            c2[k] -= 1
            melds2 = [
                Meld(MeldKind.KONG, (k, k, k, k)) if (m.kind is MeldKind.PUNG and m.tiles[0] == k) else m for m in melds
            ]
        # after the kong: a replacement draw now, then a discard -> evaluate the 3m+1 state with an immediate draw
        e = self.evaluate(c2, melds2, ctx.flown, ctx, kong_draw=True)
        bonus = 3 * rules_bonus
        risk, loss = (0.0, 0.0) if a.type is A.CONCEALED_KONG else self._rob_risk(ctx, k)
        ev = (1 - risk) * (bonus + e.ev) - risk * ctx.loss * 2**ctx.flown - loss
        return Candidate(
            a, ev, (1 - risk) * e.p, e.gain, e.aim, e.aim_name, e.shanten, f"rob risk {risk:.0%}" if risk else ""
        )

    def _rob_risk(self, ctx: _Ctx, k: int) -> tuple[float, float]:
        """(chance that some other seat robs a kong of ``k`` (抢杠), expected points lost to it).

        A seat holding one concealed tile (four melds) robs when that tile is ``k`` (单吊 ×2) or a 宝
        (宝吊头 ×3 and 单吊 ×2); any other seat is ready with ``min(0.9, ready_slope * turns)`` and then
        waits on ``k`` with ``rob_wait_share`` (on a 宝 kind always), robbing ``robbed_value``.
        Robbing pays ×6 (D8), by us alone.
        """
        safe = 1.0
        loss = 0.0
        N = ctx.n_unseen
        factor = 6 * 2**ctx.flown
        for i, (turns, size) in enumerate(zip(ctx.opp_turns, ctx.opp_hand)):
            if size == 1:
                p_k = ctx.unseen[k] / N
                p_b = ctx.unseen[ctx.bao] / N if k != ctx.bao else 0.0
                p = p_k + p_b
                loss += factor * (p_k * 2 * 2 + p_b * 3 * 2)
            else:
                ready = ctx.opp_ready[i] if ctx.opp_ready is not None else min(0.9, self.ready_slope * turns)
                p = ready * (1.0 if k == ctx.bao else self.rob_wait_share)
                loss += factor * p * self.robbed_value
            safe *= 1.0 - min(1.0, p)
        return 1.0 - safe, loss

    def _lv(self, ctx: _Ctx, c: list[int], melds: Sequence[Meld], f: int, est: _Est, sp: tuple[int, int]) -> float:
        """The learned value (points) of a 3m+1 state from its features (``value_model``)."""
        x = _value_features(ctx, c, melds, f, est, sp)
        w = self.value_model
        assert w is not None
        return float(sum(a * b for a, b in zip(w, x)))

    def _near_fastest(self, speed: dict[int, tuple[int, int]], fastest: tuple[int, int]) -> set[int]:
        """The discards the learned value may choose among: ``speed`` maps a discard to (shanten, useful
        tiles); those with the ``fastest`` shanten and at least ``value_pool`` of its useful tiles."""
        return {k for k, (sh, u) in speed.items() if sh == fastest[0] and u >= self.value_pool * fastest[1]}

    def _lv_best(self, ctx: _Ctx, c2: list[int], melds2: Sequence[Meld]) -> tuple[float, _Est] | None:
        """Best learned value over the discards of a 3m+2 hand, among the fastest (``value_pool``)."""
        m = 4 - len(melds2)
        jiuyao_ok = all(t in _TH for mm in melds2 for t in mm.tiles)
        opts = []
        for d in range(34):
            if c2[d]:
                c2[d] -= 1
                f = ctx.flown + (1 if d == ctx.bao else 0)
                e = self.evaluate(c2, melds2, f, ctx)
                sp = _speed(c2, ctx, m, jiuyao_ok)
                if d != ctx.bao or e.shanten <= 0:
                    opts.append((d, f, e, sp))
                c2[d] += 1
        if not opts:
            return None
        s0 = min(o[3][0] for o in opts)
        pool = self._near_fastest({o[0]: o[3] for o in opts}, (s0, max(o[3][1] for o in opts if o[3][0] == s0)))
        best = None
        for d, f, e, sp in opts:
            if d in pool:
                c2[d] -= 1
                v = self._lv(ctx, c2, melds2, f, e, sp)
                c2[d] += 1
                if best is None or v > best[0]:
                    best = (v, e)
        return best

    # ------------------------------------------------------------------ claims
    def _claims(self, obs: Observation, legal: list[Action], ctx: _Ctx) -> list[Candidate]:
        seat = obs.seat
        assert obs.last_discard is not None
        discarder, k = obs.last_discard
        melds = list(obs.melds[seat])
        c = list(obs.hand_34)
        # passing: the seats between the discarder and us play before our draw
        wait_idx = tuple(sorted(i for i in range(3) if 0 < ((seat + 1 + i) - discarder) % 4 < (seat - discarder) % 4))
        e_pass = self.evaluate(c, melds, ctx.flown, ctx, first_wait=wait_idx)
        out = []
        learned = (
            self.value_model is not None
            and self.value_claims
            and not any(a.type is A.KONG or a.type is A.CATCH_BAO for a in legal)
        )
        if learned:
            m = 4 - len(melds)
            sp = _speed(c, ctx, m, all(t in _TH for mm in melds for t in mm.tiles))
            v_pass = self._lv(ctx, c, melds, ctx.flown, e_pass, sp)
        for a in legal:
            t = a.type
            if t is A.PASS:
                out.append(
                    Candidate(
                        a,
                        v_pass if learned else e_pass.ev,
                        e_pass.p,
                        e_pass.gain,
                        e_pass.aim,
                        e_pass.aim_name,
                        e_pass.shanten,
                    )
                )
            elif t is A.CATCH_BAO:
                out.append(
                    Candidate(
                        a, 1e5, e_pass.p, e_pass.gain, "caught_bao", A.CATCH_BAO.chinese, e_pass.shanten, "+10 each"
                    )
                )
            elif t in (A.PUNG, A.CHOW):
                c2 = list(c)
                if t is A.PUNG:
                    c2[k] -= 2
                    meld = Meld(MeldKind.PUNG, (k, k, k), claimed=k, from_seat=discarder)
                else:
                    lo = a.tile
                    assert lo is not None
                    for x in (lo, lo + 1, lo + 2):
                        if x != k:
                            c2[x] -= 1
                    meld = Meld(MeldKind.CHOW, (lo, lo + 1, lo + 2), claimed=k, from_seat=discarder)
                melds2 = melds + [meld]
                if learned:
                    lb = self._lv_best(ctx, c2, melds2)
                    if lb is not None:
                        v, e = lb
                        out.append(Candidate(a, v, e.p, e.gain, e.aim, e.aim_name, e.shanten))
                    continue
                best = None
                for d in range(34):
                    if c2[d]:
                        c2[d] -= 1
                        f = ctx.flown + (1 if d == ctx.bao else 0)
                        e = self.evaluate(c2, melds2, f, ctx)
                        c2[d] += 1
                        if best is None or e.ev > best.ev:
                            best = e
                if best is None:
                    continue
                out.append(Candidate(a, best.ev, best.p, best.gain, best.aim, best.aim_name, best.shanten))
            elif t is A.KONG:
                c2 = list(c)
                c2[k] -= 3
                melds2 = melds + [Meld(MeldKind.KONG, (k, k, k, k), claimed=k, from_seat=discarder)]
                e = self.evaluate(c2, melds2, ctx.flown, ctx, kong_draw=True)
                risk, loss = self._rob_risk(ctx, k)
                ev = (1 - risk) * (3 + e.ev) - risk * ctx.loss * 2**ctx.flown - loss
                out.append(
                    Candidate(
                        a,
                        ev,
                        (1 - risk) * e.p,
                        e.gain,
                        e.aim,
                        e.aim_name,
                        e.shanten,
                        f"rob risk {risk:.0%}" if risk else "",
                    )
                )
            else:
                out.append(Candidate(a, -1e9, 0.0, 0.0, "", "", 99))
        return out

    @staticmethod
    def _sorted(cands: list[Candidate]) -> list[Candidate]:
        return sorted(cands, key=lambda c: (-c.ev, c.action.sort_key()))


def _speed(c: list[int], ctx: _Ctx, m: int, jiuyao_ok: bool) -> tuple[int, int]:
    """(shanten over all forms with 宝 acting, unseen tiles that lower it) of a 3m+1 hand."""
    bao = ctx.bao
    e = entries_34(c, bao)
    s0 = shanten_entries(e[0], e[1], e[2], e[3], e[4], m, jiuyao_ok)
    u = 0
    unseen = ctx.unseen
    for k in range(34):
        n = unseen[k]
        if n:
            c[k] += 1
            e = entries_34(c, bao)
            if shanten_entries(e[0], e[1], e[2], e[3], e[4], m, jiuyao_ok) < s0:
                u += n
            c[k] -= 1
    return s0, u


#: the forms whose estimates are features of the learned value, in feature order
_VALUE_FORMS = (
    "basic",
    "qidui",
    "qing_qidui",
    "shisanlang",
    "qing_shisanlang",
    "jiuyao",
    "qing_jiuyao",
    "pengpenghu",
    "qing_pengpenghu",
)


def _value_features(
    ctx: _Ctx, c: list[int], melds: Sequence[Meld], flown: int, est: _Est, sp: tuple[int, int]
) -> list[float]:
    """The 55 features of a 3m+1 state (``c``: concealed counts after the discard) for the learned value.

    1, shanten one-hot (0..4+), useful/unseen per shanten, the ready estimate (EV/10, P_win), per form
    of ``_VALUE_FORMS`` (P_win, chance per draw, tiles lacking/9), the estimate's EV/10, P_win, gain/10,
    宝 held one-hot (0..3+), 飞宝 (0, 0.5, 1), declared melds one-hot (0..4), tiles left/100 and the
    other seats' turns/60.  ``est``: :meth:`ExpertBot.evaluate` of the state; ``sp``: its ``_speed``.
    """
    s, u = sp
    x = [1.0]
    oh = [0.0] * 5
    oh[min(max(s, 0), 4)] = 1.0
    x += oh
    x += [o * u / ctx.n_unseen for o in oh]
    det = est.detail or {}
    r = det.get("ready")
    x += [r[0] / 10, r[1]] if r else [0.0, 0.0]
    for f in _VALUE_FORMS:
        d, q, p = det.get(f, (9, 0.0, 0.0))
        x += [p, q, min(d, 9) / 9]
    x += [est.ev / 10, est.p, est.gain / 10]
    held = [0.0] * 4
    held[min(c[ctx.bao], 3)] = 1.0
    x += held
    x += [min(flown, 2) / 2]
    mo = [0.0] * 5
    mo[len(melds)] = 1.0
    x += mo
    x += [ctx.tiles_left / 100, sum(ctx.opp_turns) / 60]
    return x


def _p_complete(d: int, q: float, surv: Sequence[float], decay: float = 0.8, q_last: float = 0.25) -> float:
    """Chance of ``d`` successes by some own draw r, weighted by surv[r]; the j-th success has
    chance ``q * decay**j`` per draw (the nearer the win, the fewer tiles help), and the last one
    (from a ready hand) at most ``q_last``."""
    qs = [q * decay**j for j in range(d)]
    qs[-1] = min(qs[-1], q_last)
    # f[j]: chance of exactly j successes so far
    f = [1.0] + [0.0] * d
    total = 0.0
    for s in surv:
        done = f[d - 1] * qs[d - 1]
        for j in range(d - 1, 0, -1):
            f[j] = f[j] * (1 - qs[j]) + f[j - 1] * qs[j - 1]
        f[0] *= 1 - qs[0]
        total += s * done
    return total


def advise(
    observation: Observation, legal_actions: list[Action], top: int = 5, bot: ExpertBot | None = None
) -> list[Candidate]:
    """The expert's ranking of ``legal_actions`` for ``observation``: the ``top`` best :class:`Candidate`.

    Each candidate gives the expected points (``ev``), the win chance (``p_win``), the
    expected gain of a win (``gain``) and the pattern aimed at.  Raises ``ValueError`` when
    ``legal_actions`` is empty or ``top`` < 1.
    """
    if not isinstance(top, int) or isinstance(top, bool) or top < 1:
        raise ValueError(f"advise: top must be an int >= 1, got {top!r}")
    legal = check_actions_for(observation, legal_actions, "advise")
    b = bot or ExpertBot()
    return b.rank(observation, legal)[:top]


def check_actions_for(observation: Observation, actions: Sequence[Action | str], what: str = "advise") -> list[Action]:
    """The entry check of a list of actions offered for an observation: each an :class:`Action`
    (strings read with :func:`~shangrao.game.actions.parse_action`) that the observer's hand can
    make — a discard or kong of a tile it holds (a concealed kong needs four, a pung two of the
    discard on the table, a kong on a discard three, an added kong a declared pung), a chow of the
    discard with the two other tiles in hand, a win only if the hand (with the discard or robbed
    kong tile when one short) wins, 接宝 only on a discarded 宝.

    Returns the actions as a list.  Raises ``TypeError`` for an observation that is not an
    :class:`Observation`, :class:`IllegalActionError` (a ValueError) naming the first bad action.
    """
    if not isinstance(observation, Observation):
        raise TypeError(f"{what}: observation must be a shangrao.game.Observation, got {type(observation).__name__}")
    if isinstance(actions, (str, bytes, dict)) or not isinstance(actions, Iterable):
        raise TypeError(f"{what}: legal_actions must be a list of actions, got {type(actions).__name__}")
    out: list[Action] = []
    for i, raw in enumerate(actions):
        try:
            a = as_action(raw, f"{what}: legal_actions[{i}]")
        except ValueError as err:
            raise IllegalActionError(str(err)) from None
        why = _cannot(observation, a)
        if why:
            raise IllegalActionError(f"{what}: {a} is not legal for seat {observation.seat}: {why}")
        out.append(a)
    if not out:
        raise IllegalActionError(f"{what}: no legal actions")
    return out


def _cannot(obs: Observation, a: Action) -> str | None:
    """Why the observer's hand cannot make ``a`` (None if it can); see :func:`check_actions_for`."""
    hand = obs.hand_34
    t = a.type
    on_table = None if obs.last_discard is None else obs.last_discard[1]
    if t is ActionType.DISCARD:
        return None if hand[a.kind] else f"no {format_tile(a.kind)} in hand"
    if t is ActionType.CONCEALED_KONG:
        return None if hand[a.kind] >= 4 else f"a concealed kong needs four {format_tile(a.kind)} in hand"
    if t is ActionType.ADDED_KONG:
        pung = any(m.type is MeldType.PUNG and m.tiles[0] == a.kind for m in obs.melds[obs.seat])
        return (
            None
            if hand[a.kind] and pung
            else f"an added kong needs a declared pung of {format_tile(a.kind)} and one in hand"
        )
    if t in (ActionType.PUNG, ActionType.KONG):
        need = 2 if t is ActionType.PUNG else 3
        if on_table != a.kind:
            return f"the discard on the table is not {format_tile(a.kind)}"
        return None if hand[a.kind] >= need else f"{t.value} needs {need} {format_tile(a.kind)} in hand"
    if t is ActionType.CHOW:
        others = [k for k in range(a.kind, a.kind + 3) if k != on_table]
        if on_table is None or len(others) != 2:
            return "the discard on the table is not part of this chow"
        return None if all(hand[k] for k in others) else "the chow's other two tiles are not in hand"
    if t is ActionType.CATCH_BAO:
        return None if on_table == obs.bao else "接宝 is only on a discarded 宝"
    if t is ActionType.WIN:
        melds = obs.melds[obs.seat]
        counts = list(hand)
        if sum(counts) == 3 * (4 - len(melds)) + 1:
            extra = obs.kong[1] if obs.kong is not None else on_table
            if extra is None:
                return "the hand is one tile short and there is no tile to win on"
            counts[extra] += 1
        if sum(counts) != 3 * (4 - len(melds)) + 2 or not is_winning(counts, obs.bao, len(melds)):
            return "the hand does not win"
    return None


def _fmt(k: int) -> str:  # pragma: no cover - debugging helper
    return format_tile(k)
