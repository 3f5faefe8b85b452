"""The history's list of games (issue 38): filtered by where a game was played, a browser's own games
first, one page at a time.

A stored game's *history kind* is where it was played:

* ``"web"``: a web table of no room (``games.kind`` "web", no ``room_games`` row);
* ``"room"``: a room's match (a web table with a ``room_games`` row: its room's name and match number
  come with it);
* ``"play"``: a terminal game (``shangrao play``);
* ``"simulate"`` and ``"arena"``: bot runs (``shangrao simulate``, ``shangrao arena``) — the ones the
  history hides unless asked (:data:`DEFAULT_KINDS`).

A kind a server added itself (none in this project) is listed only when no filter is given.

>>> from shangrao.records import Store
>>> store = Store("sqlite://")
>>> sim = store.create_game("simulate", ["greedy"] * 4, seed=1, rules={})
>>> web = store.create_game("web", ["human", "expert", "expert", "expert"], seed=2, rules={})
>>> [(r.game.id, r.kind) for r in list_history(store)]
[(2, 'web')]
>>> [r.game.id for r in list_history(store, kinds=HISTORY_KINDS, mine=[sim])]
[1, 2]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, case, or_, select

from .rooms import _has_rooms
from .schema import GameRow, RoomGameRow, RoomRow
from .store import GameSummary, RecordError, Store, _aware, _summary

__all__ = ["BOT_RUNS", "DEFAULT_KINDS", "HISTORY_KINDS", "HistoryRow", "MAX_MINE", "list_history"]

#: every kind the history's filter offers, in its order
HISTORY_KINDS = ("web", "room", "play", "simulate", "arena")
#: the bot runs: hidden unless asked for
BOT_RUNS = ("simulate", "arena")
#: what the history shows when no kind is chosen
DEFAULT_KINDS = tuple(k for k in HISTORY_KINDS if k not in BOT_RUNS)
#: a browser's own games named at most (the lobby remembers 20 seats)
MAX_MINE = 50


@dataclass
class HistoryRow:
    """A game of the history: its row, its history kind, and at a room's match the room's id, name
    and the match's number (1, 2, …)."""

    game: GameSummary
    kind: str
    room_id: int | None = None
    room_name: str | None = None
    match_no: int | None = None
    mine: bool = False


def _damaged(r: GameRow) -> GameSummary:
    when = _aware(r.created) or datetime.fromtimestamp(0, UTC)
    return GameSummary(
        id=r.id,
        created=when,
        updated=when,
        mode=str(r.kind),
        players=["?"] * 4,
        seed=None,
        status="damaged",
        hands_played=0,
        scores=[0, 0, 0, 0],
        rules={},
        meta={},
    )


def list_history(
    store: Store,
    *,
    kinds: Iterable[str] | None = None,
    mine: Sequence[int] = (),
    mine_only: bool = False,
    limit: int = 20,
    offset: int = 0,
) -> list[HistoryRow]:
    """A page of the history: the games of ``kinds`` (:data:`HISTORY_KINDS`; None: :data:`DEFAULT_KINDS`),
    the games ``mine`` (a browser's own, at most :data:`MAX_MINE` ids) first — or only them with
    ``mine_only`` —, then newest first.  Raises :class:`RecordError` for an unknown kind or a database
    that cannot be read; a row edited by hand is listed as "damaged"."""
    chosen = DEFAULT_KINDS if kinds is None else tuple(dict.fromkeys(kinds))
    bad = [k for k in chosen if k not in HISTORY_KINDS]
    if bad:
        raise RecordError(f"unknown kind of game {bad[0]!r}; the kinds are {', '.join(HISTORY_KINDS)}")
    own = sorted({int(i) for i in mine})  # an id beyond the id column names no game (and would overflow it)
    if len(own) > MAX_MINE:
        raise RecordError(f"at most {MAX_MINE} games of one's own are named, got {len(own)}")
    with store._read("the list of games") as s:
        rooms = _has_rooms(store, s)
        q: Any
        if rooms:
            q = (
                select(GameRow, RoomGameRow.room_id, RoomRow.name, RoomGameRow.match_no)
                .outerjoin(RoomGameRow, RoomGameRow.game_id == GameRow.id)
                .outerjoin(RoomRow, RoomRow.id == RoomGameRow.room_id)
            )
            in_room = RoomGameRow.id.is_not(None)
        else:  # a database read-only before revision 0003: no room, every web table is "web"
            q = select(GameRow)
        conds = []
        for k in chosen:
            if k in ("web", "room") and rooms:
                conds.append(and_(GameRow.kind == "web", in_room if k == "room" else ~in_room))
            elif k != "room":
                conds.append(GameRow.kind == k)
        q = q.where(or_(*conds)) if conds else q.where(GameRow.id.is_(None))
        fit = [i for i in own if store.fits_id(i)]
        if mine_only:
            q = q.where(GameRow.id.in_(fit))
        order = [case((GameRow.id.in_(fit), 0), else_=1)] if fit and not mine_only else []
        q = q.order_by(*order, GameRow.id.desc()).offset(min(offset, 2**62)).limit(min(limit, 2**62))
        out = []
        for row in s.execute(q):
            r = row[0]
            try:
                g = GameSummary(**_summary(r))
            except (TypeError, ValueError, KeyError, AttributeError):  # one row edited by hand: listed
                g = _damaged(r)
            room_id, name, match_no = (row[1], row[2], row[3]) if rooms else (None, None, None)
            kind = "room" if room_id is not None else str(r.kind)
            out.append(HistoryRow(g, kind, room_id, name, match_no, r.id in own))
        return out
