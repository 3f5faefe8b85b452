"""The event log of a hand: JSON lines, replay and per-seat redaction.

The events themselves — :class:`~shangrao.game.protocol.EventType` and the keys of each type — are
documented once, in :mod:`shangrao.game.protocol`.  Events that record a decision carry ``"seat"``
and ``"action"`` (the action's string form) so the hand can be replayed by applying those actions
in order.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .. import strictjson
from ..errors import InputError
from ..rules import RuleSet
from .actions import parse_action
from .protocol import DISPLAY_KEYS, EventType
from .state import Game

__all__ = ["events_to_jsonl", "events_from_jsonl", "replay", "redact", "ReplayError"]


class ReplayError(InputError):
    """An event log cannot be replayed (no deal, an illegal action, or a diverging event)."""


def events_to_jsonl(events: Iterable[Mapping[str, Any]]) -> str:
    """One JSON object per line (UTF-8 text, Chinese kept), ending with a newline."""
    return "".join(json.dumps(e, ensure_ascii=False, sort_keys=True) + "\n" for e in events)


def events_from_jsonl(text: str) -> list[dict[str, Any]]:
    """The events of a JSON-lines log.  Raises :class:`ReplayError` naming the bad line."""
    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            ev = json.loads(line)
        except json.JSONDecodeError as err:
            raise ReplayError(
                f"event log line {n}: bad JSON at column {err.colno}: {strictjson.error_words(err)}"
            ) from None
        except RecursionError:
            raise ReplayError(f"event log line {n}: JSON nested too deeply") from None
        if not isinstance(ev, dict):
            raise ReplayError(f"event log line {n}: an event is a JSON object, got {type(ev).__name__}")
        out.append(ev)
    return out


def replay(events: Sequence[Mapping[str, Any]] | str, check: bool = True, *, hold_windows: bool = False) -> Game:
    """Rebuild a :class:`Game` from its log: the deal, then every event's ``action``.

    ``hold_windows``: the game is rebuilt in that mode (:attr:`Game.hold_windows`); a held window
    is released where the log goes on past it, so a log that ends in one gives the game held there.

    With ``check`` the rebuilt game's events must equal the given ones (a
    prefix log replays to the same prefix), apart from the display labels a log carries
    (:data:`~shangrao.game.protocol.DISPLAY_KEYS`: a win's Chinese pattern name and breakdown
    text, a transfer's name), which follow the version that wrote the log.  Raises
    :class:`ReplayError`.
    """
    if isinstance(events, str):
        events = events_from_jsonl(events)
    if (
        not isinstance(events, Sequence)
        or not events
        or not isinstance(events[0], dict)
        or events[0].get("type") != EventType.DEAL
    ):
        raise ReplayError("an event log starts with a deal event")
    d = events[0]
    if "wall" not in d:
        raise ReplayError("the deal event has no wall (a redacted log cannot be replayed)")
    try:
        game = Game(
            RuleSet.from_dict(d["rules"]),
            seed=d.get("seed"),
            dealer=d["dealer"],
            scores=d["scores"],
            wall=d["wall"],
            dice=d["dice"],
            hand_no=d.get("hand_no", 0),
        )
    except KeyError as err:
        raise ReplayError(f"the deal event has no {err.args[0]!r}") from None
    except (TypeError, ValueError) as err:
        raise ReplayError(f"the deal event: {err}") from None
    game.hold_windows = hold_windows
    for i, ev in enumerate(events):
        if not isinstance(ev, dict):
            raise ReplayError(f"event {i}: an event is a JSON object, got {type(ev).__name__}")
        if "action" in ev:
            if "seat" not in ev:
                raise ReplayError(f"event {i} ({ev.get('type')}): no 'seat'")
            if game.held:
                game.release()
            try:
                game.apply(parse_action(ev["action"]), seat=ev["seat"])
            except ValueError as err:
                raise ReplayError(f"event {i} ({ev.get('type')}): {err}") from None
    if game.held and len(game.events) < len(events):
        game.release()
    if check:
        n = len(events)
        got = game.events[:n]
        if got != list(events):
            for i, (a, b) in enumerate(zip(got, events)):
                if a != b and _essential(a) != _essential(b):  # type: ignore[arg-type]  # a log event
                    raise ReplayError(f"replay diverges at event {i}: got {a}, log has {b}")
            if len(got) != n:
                raise ReplayError(f"replay produced {len(game.events)} events, the log has {n}")
    return game


def _essential(event: Mapping[str, Any]) -> dict[str, Any]:
    """The event without its display labels (what a replay must reproduce exactly)."""
    drop = DISPLAY_KEYS.get(str(event.get("type")), ())
    return {k: v for k, v in event.items() if k not in drop}


def redact(events: Iterable[Mapping[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The log as ``seat`` saw it (mjai-style): no wall order, no seed, no other seat's
    dealt tiles or draws, and no other seat's ``call`` or ``pass`` in a claim/rob window —
    the table shows only that a window was open, then what was claimed (the ``chow`` /
    ``pung`` / ``kong`` / ``catch_bao`` / ``win`` event).  Wins reveal the winner's hand
    (it is shown on the table).  The full log (:attr:`Game.events`) is unchanged.
    """
    from .state import _check_seat

    seat = _check_seat(seat)
    out = []
    for ev in events:
        t = ev.get("type")
        if t == EventType.DEAL:
            e = {k: v for k, v in ev.items() if k not in ("wall", "seed", "hands")}
            e["hand"] = list(ev["hands"][seat])
            e["seat"] = seat
            out.append(e)
        elif t == EventType.DRAW and ev["seat"] != seat:
            out.append({"type": EventType.DRAW, "seat": ev["seat"], "tile": None, "kind": None, "source": ev["source"]})
        elif (t == EventType.PASS or t == EventType.CALL) and ev.get("seat") != seat:
            continue  # another seat's decision in a window: not shown at the table
        else:
            out.append(dict(ev))
    return out
