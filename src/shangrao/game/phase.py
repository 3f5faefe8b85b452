"""The phases of one hand (:attr:`shangrao.game.Game.phase`).

A :class:`Phase` is a ``str`` enum: ``Phase.CLAIM == "claim"`` holds, so the JSON form
(``Observation.to_dict``, web messages, stored state keys) is the plain word.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Phase"]


class Phase(StrEnum):
    """Who must decide what, now.

    * ``ACT`` — the current seat has just drawn (or holds 14 after a kong's replacement):
      discard, kong, self-drawn win (自摸), 接宝, or 偷机 (decline the win and discard);
    * ``DISCARD`` — the current seat has claimed (吃/碰) and must discard;
    * ``CLAIM`` — a discard is on the table and seats decide 吃/碰/杠/糊 in turn;
    * ``ROB`` — a kong was declared and seats decide whether to rob it (抢杠);
    * ``OVER`` — the hand has ended (a win or 荒牌).
    """

    ACT = "act"
    DISCARD = "discard"
    CLAIM = "claim"
    ROB = "rob"
    OVER = "over"
