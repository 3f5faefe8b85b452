"""A stored hand step by step, as the replay viewer shows it: one frame per decision, every seat's
tiles, replayed by the engine (:func:`replay_frames`, beside :func:`shangrao.game.replay`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..rules import RuleSet
from .actions import parse_action
from .events import ReplayError, replay
from .protocol import EventType
from .state import Game, WinRecord

__all__ = ["payer_factors", "replay_frames", "replayed_start"]


def payer_factors(win: WinRecord) -> dict[str, Any]:
    """Why a payer pays more (飞宝, 注 1): ``payer_factors`` (×2**n per payer, seat order after the
    winner, as ``payers``), ``payers_flown`` (the 宝 each payer discarded) and ``flown_not_counted``:
    why payers' 飞宝 did not count (``"never_held"``: the winner never held a 宝 this hand;
    ``"flat"``: 天糊/地糊 are paid flat), else None — the words of the score's note.  ``win``: a
    :class:`shangrao.game.WinRecord`."""
    flown = list(win.situation.payers_flown)
    pattern = win.score.pattern
    lost = None
    if any(flown) and all(f == 1 for f in win.score.payer_factors):
        lost = "flat" if pattern is not None and pattern.flat else "never_held"
    return {"payer_factors": list(win.score.payer_factors), "payers_flown": flown, "flown_not_counted": lost}


def _snapshot(g: Game, ev: dict[str, Any] | None) -> dict[str, Any]:
    obs = [g.observation(s) for s in range(4)]
    o = obs[0]
    melds = [
        [{"kind": m.type.value, "tiles": list(m.tiles), "claimed": m.claimed, "from": m.from_seat} for m in ms]
        for ms in o.melds
    ]
    return {
        "event": ev,
        "hands": [list(x.hand) for x in obs],
        "melds": melds,
        "discards": [list(d) for d in o.discards],
        "tiles_left": o.tiles_left,
        "scores": list(o.scores),
        "current_seat": o.current_seat,
        "phase": o.phase,
        "bao": o.bao,
        "indicator": o.indicator,
        "dealer": o.dealer,
        "last_discard": None if o.last_discard is None else list(o.last_discard),
    }


def replayed_start(events: Sequence[Mapping[str, Any]]) -> tuple[list[dict[str, Any]], Game]:
    """A stored hand's log as the engine replays it (each event a dict, equal to the log's) and a
    :class:`Game` at the hand's start, to step through it again.  A log edited into another shape (a
    field of another type, a seat of 10**30, a missing key) raises :class:`~shangrao.game.ReplayError`,
    never another error."""
    try:
        log: list[dict[str, Any]] = [dict(e) for e in replay(events).events[: len(events)]]
    except ReplayError:
        raise
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError, RecursionError) as err:
        raise ReplayError(f"the log is damaged ({type(err).__name__}: {err})") from None
    d = log[0]
    g = Game(
        RuleSet.from_dict(d["rules"]),
        seed=d.get("seed"),
        dealer=d["dealer"],
        scores=d["scores"],
        wall=d["wall"],
        dice=d["dice"],
        hand_no=d.get("hand_no", 0),
    )
    return log, g


def replay_frames(events: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One frame per decision of a stored hand (the engine replays the log).

    The log is replayed first with :func:`shangrao.game.replay` (which checks the engine reproduces
    it), then narrated from the replay's own events: a log edited into another shape (a field of
    another type, a seat of 10**30, a missing key) raises :class:`~shangrao.game.ReplayError`, never
    another error.  A frame: ``event`` (None first, then the seat, its action and the events it led
    to, without hidden passes), per seat ``hands`` (kinds) and ``melds``, ``discards``,
    ``tiles_left``, ``scores``, ``current_seat``, ``phase``, ``bao``, ``indicator``, ``dealer``,
    ``last_discard``; the last frame of a won hand also ``wins`` (:func:`payer_factors`, and
    ``win_tile``: the kind won on, which that frame shows back in the winner's hand).  Raises
    ReplayError."""
    log, g = replayed_start(events)
    frames = [_snapshot(g, None)]
    for ev in log:
        if "action" in ev:
            n = len(g.events)
            g.apply(parse_action(ev["action"]), seat=ev["seat"])
            shown = [e for e in g.events[n:] if e.get("type") not in (EventType.PASS,)]
            frames.append(_snapshot(g, {"seat": ev["seat"], "action": ev["action"], "events": shown}))
    if g.result is not None:  # the last frame says why a payer pays more (飞宝): the stored summary does not
        frames[-1]["wins"] = [{"seat": w.seat, **payer_factors(w)} for w in g.result.wins]
        # the winner's whole hand: the engine takes the tile won on out of the hand (the win event's
        # ``tile``); the last frame shows it back in, and names it (``win_tile``, a kind)
        won = {e["seat"]: int(e["tile"]) // 4 for e in log if e.get("type") == EventType.WIN}
        for w in frames[-1]["wins"]:
            if w["seat"] in won:
                w["win_tile"] = won[w["seat"]]
                frames[-1]["hands"][w["seat"]] = sorted([*frames[-1]["hands"][w["seat"]], won[w["seat"]]])
    return frames
