"""Spectators (issue 24): what ``/watch/{table_id}`` (the page) and ``/ws/watch/{table_id}`` (its socket,
:mod:`shangrao.web.watch`) show of a table — what anyone outside it may see, never a concealed tile
of any seat.

The spectator's ``watch`` message (:func:`spectator_state`) is built only from the engine's public
facts: the fields of :class:`~shangrao.game.Observation` that every seat sees alike (melds, discards,
hand sizes, 宝 and its indicator, scores, 飞宝 counts, the discard or kong on the table; who decides,
but nobody in a claim/rob window), the log with every draw and the deal's hands hidden and every
window answer (过/call) left out (:func:`public_log`), and at the end of a hand what the table lays
down for everyone (the 倒牌 reveal and the settlement, as the seats get them).  No countdown is sent
(a window's countdown would tell who may claim), and a spectator is sent a message only when this
public state changed.  A spectator sends nothing but ``ping``; a table holds at most
:data:`MAX_WATCHERS` of them: :class:`Spectators` is the collaborator of
:class:`~shangrao.web.tables.Table` (``table.spectators``) that holds their connections and sends them
the public state through the table's one publish path (:meth:`~shangrao.web.broadcast.Broadcast.send`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import msgspec

from ..game import EventType
from ..game.phase import Phase
from .connections import Connection
from .outgoing import PublicView, TableInfo, WatchMessage, encode_text
from .views import LOG_TAIL, WINDS, meld_view, reveal

if TYPE_CHECKING:
    from ..game import Game
    from .tables import Table

__all__ = ["MAX_WATCHERS", "Spectators", "public_log", "public_view", "spectator_state"]

#: spectators' connections one table holds at most
MAX_WATCHERS = 32

_WINDOW = (Phase.CLAIM, Phase.ROB)


def public_log(events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The log as a spectator sees it: the deal without the wall, the seed and the hands; every draw
    without its tile; no 过 or call of any seat (a window shows only what was claimed).  A win's
    hand is laid down at the table, so it stays."""
    out = []
    for ev in events:
        t = ev.get("type")
        if t == EventType.DEAL:
            out.append({k: v for k, v in ev.items() if k not in ("wall", "seed", "hands")})
        elif t == EventType.DRAW:
            out.append({"type": EventType.DRAW, "seat": ev["seat"], "tile": None, "kind": None, "source": ev["source"]})
        elif t in (EventType.PASS, EventType.CALL):
            continue
        else:
            out.append(dict(ev))
    return out


def public_view(game: Game) -> PublicView:
    """The view every seat shares at this moment (no seat's hand, draw or 宝 count): hand sizes,
    melds, discards, 宝, indicator, tiles left, dealer, scores, flown, the discard or kong on the
    table, who decides (None in a claim/rob window), seat winds."""
    o = game.observation(0)
    return PublicView(
        phase=o.phase.value,
        current_seat=None if game.phase in _WINDOW else o.current_seat,
        hand_sizes=list(o.hand_sizes),
        melds=[[meld_view(m) for m in ms] for ms in o.melds],
        discards=[list(d) for d in o.discards],
        bao=o.bao,
        indicator=o.indicator,
        tiles_left=o.tiles_left,
        dealer=o.dealer,
        scores=list(o.scores),
        flown=list(o.flown),
        last_discard=None if o.last_discard is None else list(o.last_discard),
        kong=None if o.kong is None else list(o.kong),
        kong_chain=o.kong_chain,
        first_discard=o.first_discard,
        winds=[WINDS[(s - o.dealer) % 4] for s in range(4)],
    )


def spectator_state(table: Table) -> WatchMessage:
    """A spectator's ``watch`` message: ``hand_no``, ``table`` (the public table facts), ``view``
    (:func:`public_view`, None before the first hand), ``log`` (the last events of :func:`public_log`),
    ``settlement`` and ``reveal`` (only once the hand is over, as the seats get them)."""
    g = table.game
    info = msgspec.convert(table.out.watch_info(), TableInfo)  # a room's members' names, not its code
    if g is None:
        return WatchMessage(
            hand_no=table.hand_no, table=info, view=None, log=[], settlement=table.last_settlement, reveal=None
        )
    over = g.is_over
    return WatchMessage(
        hand_no=g.hand_no,
        table=info,
        view=public_view(g),
        log=public_log(g.events)[-LOG_TAIL:],
        settlement=table.last_settlement if over else None,
        reveal=reveal(g) if over else None,
    )


class Spectators:
    """The spectators of one table: their connections (``conns``, at most :data:`MAX_WATCHERS`) and the
    public state they were last sent (``sent``, JSON text)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.conns: set[Connection] = set()
        self.sent: str | None = None

    async def watch(self, ws: Any) -> Connection | None:
        """Attach a spectator's socket (sent the public state at once); None when the table holds
        :data:`MAX_WATCHERS` already."""
        t = self.table
        async with t.lock:
            if len(self.conns) >= MAX_WATCHERS:
                return None
            st = t.settings
            conn = Connection(
                ws, queue_size=st.send_queue, send_timeout=st.send_timeout, on_drop=lambda c, why: self.conns.discard(c)
            )  # dropped when too slow, like a seat's
            self.conns.add(conn)
            self.publish(also=conn)
            return conn

    async def unwatch(self, conn: Connection) -> None:
        """Close a spectator's socket and forget it."""
        await conn.aclose()
        async with self.table.lock:
            self.conns.discard(conn)

    def publish(self, also: Connection | None = None) -> None:
        """Queue the spectators the public state when it changed since they were last sent it (``also``:
        a new spectator, sent it in any case)."""
        if not self.conns:
            return
        text = encode_text(spectator_state(self.table))
        unchanged = text == self.sent
        self.sent = text
        self.table.out.send((c for c in list(self.conns) if not unchanged or c is also), text)
