"""Between the compiled core (:mod:`shangrao.sim.core`) and the Python engine's types.

* :func:`action_code` / :func:`code_action`: an :class:`~shangrao.game.actions.Action` as the core's
  int (``type * 34 + kind``) and back.
* :func:`encode_events`: a Python event log (``Game.events``) as the core's event rows
  (int64, shape ``(n, EV_WIDTH)``), so the two logs compare row by row.
* :func:`to_events`: the engine's typed events (:mod:`shangrao.game.protocol`) of a hand the core
  played — the Python engine replays the core's decisions on the same wall and dice, and the rows
  of the replay are checked to equal the core's (:class:`CoreMismatchError` otherwise), so a core
  hand is stored and replayed (``shangrao replay``) as any other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import InputError, InternalError, quote
from ..game.actions import Action, ActionType
from ..game.protocol import Event, EventType
from ..melds import Meld, MeldType
from ..scoring import WinBy
from ..scoring.items import PATTERNS
from . import core as C

if TYPE_CHECKING:
    from ..game import Game
    from ..rules import RuleSet

__all__ = ["CoreMismatchError", "action_code", "code_action", "encode_events", "to_events", "replay_game"]

_TYPES = list(ActionType)
_EV_TYPES = list(EventType)
_EV_INDEX = {t: i for i, t in enumerate(EventType)}
_MTYPES = {
    MeldType.CHOW: C.M_CHOW,
    MeldType.PUNG: C.M_PUNG,
    MeldType.KONG: C.M_KONG,
    MeldType.CONCEALED_KONG: C.M_CONCEALED,
}
_WIN_BY = {w.value: i for i, w in enumerate(WinBy)}
_PATTERN_INDEX = {pid: i for i, pid in enumerate(PATTERNS)}
_REASONS = {r: i for i, r in enumerate(C.TRANSFER_REASONS)}
_SOURCE = {"head": 0, "tail": 1}


class CoreMismatchError(InternalError):
    """The Python engine, replaying a core hand's decisions, logged something else than the core."""


def action_code(action: Action) -> int:
    """The core's int of an action (``type * 34 + kind``; win, pass and catch_bao carry kind 0)."""
    t = _TYPES.index(action.type)
    return t * 34 + (action.tile if action.tile is not None else 0)


def code_action(code: int) -> Action:
    """The :class:`Action` of a core action code."""
    t, k = divmod(int(code), 34)
    atype = _TYPES[t]
    if atype in (ActionType.WIN, ActionType.PASS, ActionType.CATCH_BAO):
        return Action(atype)
    return Action(atype, k)


def _action_code_str(text: str) -> int:
    return action_code(Action.parse(text))


def _meld_row(ev: Event) -> list[int]:
    meld = Meld.parse(ev["meld"])  # type: ignore[typeddict-item]
    ids = list(ev["tiles"]) + [-1] * (4 - len(ev["tiles"]))  # type: ignore[typeddict-item]
    return [_MTYPES[meld.type], meld.tiles[0], 0, *ids]


def encode_events(events: Sequence[Event]) -> np.ndarray:
    """The rows the core writes for these Python events (shape ``(len(events), EV_WIDTH)``, int64).

    Raises :class:`~shangrao.errors.InputError` naming the event for a value beyond int64 (a
    transfer, a payment or a delta of 2**63 points or more: the Python engine's ints are unbounded,
    the core's rows are not)."""
    rows = []
    for ev in events:
        t = _EV_INDEX[EventType(ev["type"])]
        r = [t] + [0] * (C.EV_WIDTH - 1)
        e: dict[str, Any] = ev  # type: ignore[assignment]
        if t == C.E_DEAL:
            r[1:6] = [e["dealer"], e["indicator"], e["dice"][0], e["dice"][1], e["hand_no"]]
        elif t == C.E_DRAW:
            r[1:4] = [e["seat"], e["tile"], _SOURCE[e["source"]]]
        elif t == C.E_DISCARD:
            r[1:3] = [e["seat"], e["tile"]]
        elif t in (C.E_CALL, C.E_PASS):
            r[1:3] = [e["seat"], _action_code_str(e["action"])]
        elif t in (C.E_CHOW, C.E_PUNG, C.E_KONG):
            r[1:3] = [e["seat"], e["from"]]
            r[3:10] = _meld_row(ev)
        elif t == C.E_KONG_STANDS:
            r[1:3] = [e["seat"], 0]
            r[3:10] = _meld_row(ev)
        elif t in (C.E_CONCEALED_KONG, C.E_ADDED_KONG):
            action = Action.parse(e["action"])
            r[1:4] = [e["seat"], action.kind, action_code(action)]
        elif t == C.E_CATCH_BAO:
            r[1:3] = [e["seat"], e["tile"]]
        elif t in (C.E_FOUR_BAO, C.E_DECLARE_WIN):
            r[1] = e["seat"]
        elif t == C.E_TRANSFER:
            r[1:5] = [e["payer"], e["payee"], e["points"], _REASONS[e["reason"]]]
        elif t == C.E_WIN:
            src = e["from"]
            r[1:10] = [
                e["seat"],
                _WIN_BY[e["win_by"]],
                e["tile"],
                -1 if src is None else src,
                _PATTERN_INDEX[e["pattern_id"]],
                e["hand_value"],
                *e["win_payments"],
            ]
        elif t == C.E_END:
            w = 0
            for s in e["winners"]:
                w = w * 5 + s + 1
            r[1:8] = [int(e["drawn"]), e["next_dealer"], w, *e["deltas"]]
        rows.append(r)
    try:
        return np.array(rows, dtype=np.int64).reshape(-1, C.EV_WIDTH)
    except OverflowError:  # a value beyond int64: name the first event that holds one
        for i, r in enumerate(rows):
            for v in r:
                if not -(2**63) <= v < 2**63:
                    raise InputError(
                        f"events[{i}] ({events[i]['type']}): {quote(v)} does not fit the core's 64-bit rows"
                    ) from None
        raise


def replay_game(
    rules: RuleSet,
    seed: int | str | None,
    dealer: int,
    scores: Sequence[int],
    hand_no: int,
    wall: Sequence[int],
    dice: Sequence[int],
    decisions: Sequence[int],
) -> Game:
    """The Python :class:`~shangrao.game.Game` after pushing the core's ``decisions`` (codes) on the
    given wall and dice.  Each decision is checked to be legal (``Game.apply``)."""
    from ..game import Game

    game = Game(rules, seed=seed, dealer=dealer, scores=scores, wall=list(wall), dice=list(dice), hand_no=hand_no)
    for code in decisions:
        game.apply(code_action(code))
    return game


def to_events(
    rules: RuleSet,
    seed: int | str | None,
    dealer: int,
    scores: Sequence[int],
    hand_no: int,
    wall: Sequence[int],
    dice: Sequence[int],
    decisions: Sequence[int],
    rows: np.ndarray | None = None,
) -> list[Event]:
    """The engine's typed events of a core hand (see the module docstring); with ``rows`` (the core's
    event rows) the replay is checked against them."""
    game = replay_game(rules, seed, dealer, scores, hand_no, wall, dice, decisions)
    if rows is not None:
        mine = encode_events(game.events)
        if mine.shape != rows.shape or not np.array_equal(mine, rows):
            raise CoreMismatchError(f"hand {hand_no} (seed {seed!r}): the engine's replay differs from the core's log")
    events: list[Event] = game.events
    return events
