"""The seats of a web table and their sockets: :class:`SeatConnections`, the collaborator of
:class:`~shangrao.web.tables.Table` (``table.seating``) that attaches and drops the seats' connections,
checks seat links and answers who sits where (free seats, absent or gone players)."""

from __future__ import annotations

import asyncio
import functools
import hmac
import time
from typing import TYPE_CHECKING, Any

from .connections import Connection, Seat
from .errors import MAX_CONNECTIONS_PER_SEAT, BadLink, SeatBusy, hash_token

if TYPE_CHECKING:
    from .tables import Table

__all__ = ["SeatConnections"]


class SeatConnections:
    """The seats (``table.seats``: one :class:`~shangrao.web.connections.Seat` each) of one table with
    their connections."""

    def __init__(self, table: Table, seats: list[Seat]) -> None:
        self.table = table
        self.seats = seats

    # ------------------------------------------------------------------ facts
    def free(self) -> list[int]:
        """The human seats nobody has claimed yet."""
        return [i for i, s in enumerate(self.seats) if s.player == "human" and not s.claimed]

    @property
    def connected(self) -> bool:
        """Some seat has an open connection."""
        return any(s.conns for s in self.seats)

    def absent(self, seat: Seat, now: float) -> bool:
        """``seat`` has had no connection for ``absent_timeout`` seconds (its stand-in plays)."""
        return not seat.conns and now - seat.gone_since >= self.table.settings.absent_timeout

    def deserted(self) -> bool:
        """The table's only player has left (:meth:`TableState.deserted`: one person's seat, three
        bots; it was connected and is not now): the table waits for them (issue 38)."""
        people = [s for s in self.seats if s.player == "human"]
        return len(people) == 1 and not people[0].conns and people[0].was_here

    def check_token(self, token: str) -> int:
        """The seat whose link holds ``token``; raises BadLink."""
        h = hash_token(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return i
        raise BadLink()

    # ------------------------------------------------------------------ connections
    async def connect(self, seat: int, ws: Any) -> Connection | None:
        """Attach a socket to ``seat`` (sent the state at once); None if the table has just left memory
        (get it again).  Raises SeatBusy (the seat has ``MAX_CONNECTIONS_PER_SEAT`` open already)."""
        t = self.table
        async with t.lock:
            if t.evicted:
                return None
            if len(self.seats[seat].conns) >= MAX_CONNECTIONS_PER_SEAT:
                raise SeatBusy(
                    f"this seat already has {MAX_CONNECTIONS_PER_SEAT} open connections; close one "
                    "(another tab or device) and reload"
                )
            st = t.settings
            conn = Connection(
                ws,
                queue_size=st.send_queue,
                send_timeout=st.send_timeout,
                on_drop=functools.partial(self._dropped, seat),
            )
            self.seats[seat].conns.add(conn)
            self.seats[seat].was_here = True
            t.touch(listing=True)
            t.publish(also=conn)
            return conn

    def _dropped(self, seat: int, conn: Connection, why: str) -> None:
        """A connection was dropped as too slow: the seat may be disconnected now."""
        self.table.manager.metrics.record_drop(why)
        s = self.seats[seat]
        if conn in s.conns:
            s.conns.discard(conn)
            if not s.conns:
                s.gone_since = time.monotonic()
            asyncio.get_running_loop().create_task(self._presence_changed())

    async def _presence_changed(self) -> None:
        t = self.table
        async with t.lock:
            t.touch(listing=True)
            t.publish()
            t.maybe_evict()

    async def disconnect(self, seat: int, conn: Connection) -> None:
        """Close ``conn`` of ``seat`` and forget it (the seat's absence counts from now when it was its last)."""
        await conn.aclose()
        t = self.table
        async with t.lock:
            s = self.seats[seat]
            if conn in s.conns:
                s.conns.discard(conn)
                if not s.conns:
                    s.gone_since = time.monotonic()
                t.touch(listing=True)
                t.publish()
            t.maybe_evict()
