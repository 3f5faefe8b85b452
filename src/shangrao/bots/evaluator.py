"""Option values for a game review (牌谱分析, issue 37): what each legal action of a decision is worth.

An :class:`Evaluator` has a ``name``, a ``version`` (stored with every review, so a review made by
an older evaluator can be told apart) and :meth:`Evaluator.evaluate`, which values **every** legal
action of a decision in points — the expected points of the hand for the deciding seat from there —
with a standard error where the evaluator has one (a search by sampling; None for an estimate).  The
review (:mod:`shangrao.review`) compares the chosen action's value with the best one's.

Until the ``search`` bot lands the one evaluator is :class:`ExpertEvaluator`, the ``expert`` bot's
estimates (:meth:`shangrao.bots.expert.ExpertBot.rank`) put on one scale so that **the expert's own
choice is always the best value** (its choices lose 0):

* ``rank`` lists every legal action, but its numbers are of three kinds: the exact points of a win
  now, the analytic estimate (the module docstring of :mod:`shangrao.bots.expert`) of a discard
  outside the learned value's pool and of a kong, and the learned value of the discards it chooses
  among (and of 吃/碰/过).  The expert weighs a win or a kong against the *analytic* estimate of the
  discard it would make.  So on its own turn a discard ``k`` is valued at that estimate of the chosen
  discard ``E`` plus the learned value's difference to the chosen one (``E + v_k - v_chosen``), never
  above ``E`` (a discard slower than the expert trusts its learned value for is not counted as
  better); a 宝 it would not fly (not into a ready hand) at ``min(E, its estimate)``.  A win is its
  exact points, a kong its estimate.
* A claim (吃/碰/过) is the learned value of each choice, as the expert compares them; with a kong
  or 接宝 on offer its analytic estimates; 接宝 is the pass's estimate + 30 (10 from each seat).
* 抢杠, 地糊 and 天糊 the expert always takes (``rank`` gives them a marker, not points): the win
  is valued at the exact points it scores when the caller gives them (``wins``; the review applies
  the win to a copy of the game), and the other options at their estimate.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, runtime_checkable

from ..game.actions import Action, ActionType
from ..game.state import Observation
from .expert import Candidate, ExpertBot

__all__ = ["EXPERT_EVALUATOR_VERSION", "Evaluator", "ExpertEvaluator", "Values"]

A = ActionType

#: action -> (value in points, standard error in points or None)
Values = dict[Action, tuple[float, float | None]]

#: bumped whenever the expert's estimates or the rules below change (stored with each review)
EXPERT_EVALUATOR_VERSION = "1"

_MARK = 1e4  # |ev| at least this: a marker of rank(), not points


@runtime_checkable
class Evaluator(Protocol):
    """What the review needs of an evaluator (the expert's estimates now, a search later)."""

    name: str
    version: str

    def evaluate(
        self, observation: Observation, legal: list[Action], wins: Mapping[Action, float] | None = None
    ) -> Values:
        """Every action of ``legal`` -> (value in points, standard error or None).  ``wins``: the exact
        points of a win action where the caller knows them.  Raises ValueError for an empty ``legal``."""
        ...


class ExpertEvaluator:
    """The ``expert`` bot's estimates on one scale (module docstring); deterministic."""

    name = "expert"
    version = EXPERT_EVALUATOR_VERSION

    def __init__(self, bot: ExpertBot | None = None) -> None:
        self.bot = bot or ExpertBot()
        #: the expert's candidates of the last :meth:`evaluate` (best first), for the review's words
        self.last: list[Candidate] = []

    def evaluate(
        self, observation: Observation, legal: list[Action], wins: Mapping[Action, float] | None = None
    ) -> Values:
        """See :class:`Evaluator`.  The first action of the expert's ranking has the highest value."""
        if not legal:
            raise ValueError("evaluate: no legal actions")
        bot = self.bot
        cands = bot.rank(observation, legal)
        self.last = cands
        phase = str(getattr(observation.phase, "value", observation.phase))
        ctx = bot._ctx(observation)
        melds = list(observation.melds[observation.seat])
        c = list(observation.hand_34)
        out: Values = {}
        if phase in ("rob", "claim") and any(a.type is A.WIN for a in legal):
            # always taken: the win's exact points when given; the rest as a claim (or the pass's estimate)
            rest = [a for a in legal if a.type is not A.WIN]
            e_pass = bot.evaluate(c, melds, ctx.flown, ctx).ev
            if phase == "claim" and rest:
                for cd in bot._claims(observation, rest, ctx):
                    out[cd.action] = (self._points(cd, e_pass), None)
            for a in rest:
                out.setdefault(a, (e_pass, None))
            best_other = max((v for v, _ in out.values()), default=e_pass)
            for a in legal:
                if a.type is A.WIN:
                    out[a] = (float(wins[a]) if wins and a in wins else max(best_other, 0.0) + 1.0, None)
            return out
        if phase == "claim":
            v_pass = next((cd.ev for cd in cands if cd.action.type is A.PASS), 0.0)
            for cd in cands:
                out[cd.action] = (self._points(cd, v_pass), None)
            return out
        # own turn (act / discard)
        discards = [cd for cd in cands if cd.action.type is A.DISCARD]
        chosen = discards[0] if discards else None
        if chosen is not None:
            k = chosen.action.tile
            assert k is not None
            c[k] -= 1
            big_e = bot.evaluate(c, melds, ctx.flown + (1 if k == ctx.bao else 0), ctx).ev
            c[k] += 1
            for cd in discards:
                kk = cd.action.tile
                assert kk is not None
                if kk == ctx.bao and cd is not chosen and cd.shanten > 0:  # not flown: rank shows its estimate
                    c[kk] -= 1
                    e = bot.evaluate(c, melds, ctx.flown + 1, ctx).ev
                    c[kk] += 1
                    out[cd.action] = (min(big_e, e), None)
                else:
                    out[cd.action] = (big_e + min(0.0, cd.ev - chosen.ev), None)
        for cd in cands:
            if cd.action.type is A.DISCARD:
                continue
            if abs(cd.ev) >= _MARK:  # 天糊 (a marker): its exact points when given
                v = float(wins[cd.action]) if wins and cd.action in wins else max(v for v, _ in out.values()) + 1.0
                out[cd.action] = (v, None)
            else:
                out[cd.action] = (cd.ev, None)
        for a in legal:  # (every legal action is ranked; kept in case an option has no candidate)
            out.setdefault(a, (min((v for v, _ in out.values()), default=0.0), None))
        return out

    @staticmethod
    def _points(cd: Candidate, e_pass: float) -> float:
        if cd.action.type is A.CATCH_BAO:
            return e_pass + 30.0
        return cd.ev if abs(cd.ev) < _MARK else e_pass
