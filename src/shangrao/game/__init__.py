r"""The four-player game engine of Shangrao Mahjong (上饶麻将).

Public API:

* :class:`Game` (one hand, a pure state machine): ``Game(rules=DEFAULT_RULES, seed=None,
  dealer=0, scores=(0,0,0,0), wall=None, dice=None, hand_no=0)``; ``current_seat``,
  ``phase`` (:class:`Phase`, a str enum), ``legal_actions(seat=None) -> list[Action]``, ``apply(action, seat=None)``
  (validating; raises :class:`IllegalActionError`), ``push(action)`` (unchecked),
  ``observation(seat) -> Observation``, ``is_over``, ``result -> HandResult``,
  ``events`` (list of JSON-able dicts, typed :data:`Event`), ``transfers``, ``scores``, ``tile_locations()``;
  ``claim`` (:class:`PendingClaim`) and ``pending_kong`` (:class:`PendingKong`) while a window is open.
* :class:`Action` / :class:`ActionType` / :func:`parse_action`: ``str(Action)`` is the
  compact form (``discard 5m``, ``chow 345m``, ``pung 5m``, ``kong 5m``,
  ``added_kong 5m``, ``concealed_kong 5m``, ``win``, ``pass``, ``catch_bao``).
* :class:`HandResult`, :class:`WinRecord`, :class:`Transfer`, :class:`Observation`.
* Events: :class:`EventType` and the event shapes (``TypedDict``\ s; the schema, documented once,
  is :mod:`shangrao.game.protocol`); :func:`events_to_jsonl`, :func:`events_from_jsonl`, :func:`replay`
  (``replay(events) -> Game``), :func:`redact` (one seat's view) in :mod:`shangrao.game.events`.
* Matches: :class:`Match`, :func:`play_match`, :func:`play_hand`, :class:`Bot`
  (``choose(observation, legal_actions) -> Action``), :class:`HandRecord`, :class:`MatchResult`.
* Tests: :func:`script_wall` builds a wall that forces a situation.

Example::

    from shangrao.game import Match, play_match, events_to_jsonl, replay
    from shangrao.bots import get_bot

    bots = [get_bot("greedy", seed=i) for i in range(4)]
    result = play_match(bots, seed=1, on_hand=lambda rec: print(rec.hand_no, rec.result.deltas))
    print(result.scores)
    log = result.hands[0].events               # JSON-able dicts
    text = events_to_jsonl(log)                # JSON lines
    assert replay(log).result == result.hands[0].result

    # driving one hand by hand (e.g. a human at seat 0):
    m = Match(seed=7)
    g = m.new_hand()
    while not g.is_over:
        seat = g.current_seat
        obs = g.observation(seat)
        g.apply(g.legal_actions()[0])          # or parse_action(input())
    m.finish_hand(g)
"""

from __future__ import annotations

from .actions import (
    Action,
    ActionParseError,
    ActionType,
    IllegalActionError,
    parse_action,
)
from .events import ReplayError, events_from_jsonl, events_to_jsonl, redact, replay
from .match import Bot, HandRecord, Match, MatchResult, play_hand, play_match
from .phase import Phase
from .protocol import EVENT_KEYS, Event, EventType, event_type
from .state import EngineError, Game, HandResult, Observation, PendingClaim, PendingKong, Transfer, WinRecord
from .wall import WallError, script_wall

__all__ = [
    "Action",
    "ActionType",
    "ActionParseError",
    "IllegalActionError",
    "parse_action",
    "Game",
    "Phase",
    "Observation",
    "HandResult",
    "WinRecord",
    "Transfer",
    "EngineError",
    "PendingClaim",
    "PendingKong",
    "EventType",
    "Event",
    "EVENT_KEYS",
    "event_type",
    "events_to_jsonl",
    "events_from_jsonl",
    "replay",
    "redact",
    "ReplayError",
    "Bot",
    "HandRecord",
    "Match",
    "MatchResult",
    "play_hand",
    "play_match",
    "script_wall",
    "WallError",
]
