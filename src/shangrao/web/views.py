"""What one seat is sent: built only from that seat's observation, its legal actions
and the log redacted for that seat (:func:`shangrao.game.redact`).

Nothing here reads another seat's concealed tiles, the wall or the seed: the
``state`` message is a function of :meth:`Game.observation`, :meth:`Game.legal_actions`
for the seat, the redacted events and public table facts.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Collection, Mapping
from typing import Any

from ..analysis import waits as waits_of
from ..analysis import waits_after_discards
from ..game import Action, ActionType, EventType, Game, PendingClaim, redact
from ..game.phase import Phase
from ..melds import Meld, MeldType
from ..tiles import format_tile

__all__ = ["LOG_TAIL", "WINDS", "action_info", "may_open_window", "meld_info", "reveal", "seat_view",
           "unseen_counts", "view_seq", "window_game", "window_key"]

WINDS = "东南西北"
LOG_TAIL = 30  # redacted events sent with each state (the table's event log panel)


def meld_info(m: Meld) -> dict:
    return {"kind": m.type.value, "tiles": list(m.tiles), "claimed": m.claimed, "from": m.from_seat}


def action_info(a, can_win: bool) -> dict:
    d = {"action": str(a), "type": a.type.value, "tile": a.tile}
    if a.type is ActionType.CHOW:
        d["tiles"] = [a.tile, a.tile + 1, a.tile + 2]
    if can_win and a.type in (ActionType.PASS, ActionType.DISCARD):
        d["declines_win"] = True  # 偷机
    return d


def unseen_counts(obs) -> list[int]:
    """Per kind: copies the seat has not seen (:meth:`shangrao.game.Observation.unseen`)."""
    return obs.unseen()


def _waits(hand_34, bao, melds, unseen) -> list[dict]:
    try:
        w = waits_of(list(hand_34), bao, list(melds), unseen=unseen)  # tiles left only (issue 10)
    except ValueError:
        return []
    return [{"kind": k, "unseen": unseen[k]} for k in w]


def view_seq(game: Game, seat: int) -> int:
    """The seat's own counter of what it has seen: the length of its redacted log.

    Not ``len(game.events)``: that would grow with other seats' hidden passes in a window."""
    return len(redact(game.events, seat))


def may_open_window(game: Game, action: Action) -> bool:
    """Whether ``action`` (of the seat to decide) can lead to a new claim or rob window: a discard,
    a kong declared in one's turn, or any decision in a claim window (it may resolve into a kong
    on the discard, which may be robbed)."""
    if game.phase == Phase.CLAIM:
        return True
    return action.type in (ActionType.DISCARD, ActionType.ADDED_KONG, ActionType.CONCEALED_KONG)


def window_key(g: Game):
    """Which window is open: ("claim", discarder, tile id) / ("rob", kong seat, tile id), or None."""
    if g.phase == Phase.CLAIM and g.claim is not None:
        return ("claim", g.claim.discarder, g.claim.tile)
    if g.phase == Phase.ROB and g.pending_kong is not None:
        return ("rob", g.pending_kong.seat, g.pending_kong.tile)
    return None


class _Stop(Exception):
    pass


def window_game(game: Game, action: Action) -> Game | None:
    """A copy of ``game`` after ``action``, stopped in the new window the action opens, with no
    deciding seat named: what every seat waits on at the table.  None if it opens no new window.

    Windows: a discard (claim window) and a robbable kong (rob window: an added kong; a kong on a
    discard if ``rules.rob_exposed_kong``; a concealed kong if ``rules.rob_concealed_kong``).
    When nobody can claim (or rob), the engine goes straight on (the next draw, or the kong
    stands); the copy stops there instead, so the table can show the same "waiting for claims"
    whether or not someone can claim.  The real game is not touched.
    """
    if game.current_seat is None or not may_open_window(game, action):
        return None
    before = window_key(game)
    g = copy.deepcopy(game, memo={id(game.events): list(game.events)})
    first = game.current_seat == game.dealer and not getattr(game, "_dealer_acted", True)
    robbable = {"now": False}
    orig_draw, orig_finish, orig_rob, orig_kong = g._draw, g._finish_drawn, g._advance_rob, g._kong_window

    def stop_claim(orig):
        def stop(*args, **kw):
            ev: Mapping[str, Any] = g.events[-1]
            if ev.get("type") != EventType.DISCARD:  # not straight after a discard: no window here
                return orig(*args, **kw)
            tid = ev["tile"]
            g.claim = PendingClaim(discarder=ev["seat"], tile=tid, kind=tid >> 2, queue=[], options={})
            g.phase = Phase.CLAIM
            g.first_discard = first  # as in a window someone can claim (地糊 needs it)
            raise _Stop
        return stop

    def kong_window(seat, meld, ids, robbed_tile, added, index=None):
        concealed = meld.type is MeldType.CONCEALED_KONG
        robbable["now"] = added or (g.rules.rob_concealed_kong if concealed else g.rules.rob_exposed_kong)
        return orig_kong(seat, meld, ids, robbed_tile, added, index)

    def stop_rob():
        pk = g.pending_kong
        if robbable["now"] and pk is not None and not pk.queue and not pk.robbers:
            g.phase = Phase.ROB
            raise _Stop
        return orig_rob()

    g._draw = stop_claim(orig_draw)  # type: ignore[method-assign]
    g._finish_drawn = stop_claim(orig_finish)  # type: ignore[method-assign]
    g._kong_window = kong_window  # type: ignore[method-assign]
    g._advance_rob = stop_rob  # type: ignore[method-assign]
    with contextlib.suppress(_Stop):
        g.apply(action, seat=game.current_seat)
    after = window_key(g)
    if after is None or after == before:
        return None
    g.current_seat = None
    g._legal = None
    return g


def reveal(game: Game) -> dict | None:
    """倒牌: at the end of a hand every hand is laid down (what the table shows then).

    hands_down: per seat the concealed kinds.  wins: per winner the scored reading — groups (``kind``,
    ``tiles`` as read, ``wild`` True where a 宝 stands for that face), its declared melds, the
    winning tile and where it is in the groups, how it came (``win_by``, ``heavenly``,
    ``kong_chain`` > 0 = 杠开, ``from`` = the robbed or discarding seat), the pattern with its
    factor and clause, every doubling (name, count, factor) and the hand value.  None before the end.
    """
    r = game.result
    if r is None:
        return None
    events: list[Mapping[str, Any]] = list(game.events)
    win_events = {e["seat"]: e for e in events if e.get("type") == EventType.WIN}
    wins = []
    for w in r.wins:
        sc, sit = w.score, w.situation
        groups = []
        mark = None
        if sc.reading is not None:
            for gi, g in enumerate(sc.reading.groups):
                groups.append({"kind": g.shape, "tiles": list(g.tiles), "wild": list(g.wild)})
                for ti, (t, wild) in enumerate(zip(g.tiles, g.wild)):
                    if mark is None and ((not wild and t == sit.win_tile) or (wild and sit.win_tile == sit.bao)):
                        mark = [gi, ti]
        ev: Mapping[str, Any] = win_events.get(w.seat, {})
        pat = sc.pattern
        assert pat is not None  # a recorded win always has its pattern
        wins.append({
            "seat": w.seat, "win_tile": sit.win_tile, "win_by": sit.win_by.value, "heavenly": sit.heavenly,
            "kong_chain": sit.kong_chain, "from": ev.get("from"), "form": sc.reading.form.value if sc.reading else None,
            "groups": groups, "mark": mark, "melds": [meld_info(m) for m in sit.melds],
            "pattern": {"name": pat.name, "factor": pat.factor, "clause": pat.clause},
            "doublings": [{"id": d.id, "name": d.name, "count": d.count, "factor": d.factor} for d in sc.doublings],
            "hand_value": sc.hand_value, "payers": list(w.payers), "win_payments": list(sc.win_payments),
        })
    return {"hands_down": [game.hand_kinds(s) for s in range(4)], "wins": wins, "drawn": r.drawn}


def seat_view(game: Game, seat: int, *, hand_no: int, table: dict, deadline: float | None,
              settlement: dict | None = None, answered: Collection[int] = ()) -> dict:
    """The ``state`` message for ``seat``.

    In a claim or rob window every seat still to be asked gets its options at once
    (:meth:`Game.window_options`), not only the seat the engine asks first, and the view names
    the seat itself as deciding while it has options, else nobody.  ``answered``: seats whose
    answer the table holds until the engine reaches them (they wait like everyone else).
    """
    obs = game.observation(seat)
    window = game.phase in (Phase.CLAIM, Phase.ROB)
    if window:
        legal = [] if seat in answered else game.window_options().get(seat, [])
    else:
        legal = game.legal_actions(seat) if not game.is_over and game.current_seat is not None else []
    can_win = any(a.type is ActionType.WIN for a in legal)
    me = obs.seat
    melds_me = obs.melds[me]
    unseen = unseen_counts(obs)
    waits = None
    discard_waits = None
    n_concealed = len(obs.hand)
    if n_concealed == 13 - 3 * len(melds_me):
        waits = _waits(obs.hand_34, obs.bao, melds_me, unseen)
    elif n_concealed == 14 - 3 * len(melds_me) and legal and obs.current_seat == me:
        kinds = [a.kind for a in legal if a.type is ActionType.DISCARD]
        after = waits_after_discards(obs.hand_34, obs.bao, melds_me, discards=kinds)
        discard_waits = {format_tile(k): [{"kind": x, "unseen": unseen[x]} for x in w] for k, w in after.items()}
    view = obs.to_dict()
    if window:
        view["current_seat"] = seat if legal else None
    view["melds"] = [[meld_info(m) for m in ms] for ms in obs.melds]
    view["winds"] = [WINDS[(s - obs.dealer) % 4] for s in range(4)]
    view["bao_count"] = sum(1 for k in obs.hand if k == obs.bao)
    log = redact(game.events, seat)
    return {
        "type": "state",
        "you": me,
        "hand_no": hand_no,
        "seq": len(log),
        "table": table,
        "view": view,
        "legal": [action_info(a, can_win) for a in legal],
        "can_win": can_win,
        "deadline": deadline,
        "waits": waits,
        "discard_waits": discard_waits,
        "log": log[-LOG_TAIL:],
        "settlement": settlement,
        "reveal": reveal(game) if game.is_over else None,
    }
