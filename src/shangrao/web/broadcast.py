"""A table's seats' connections and what they are sent: each seat's ``state`` message built once per change (the
table's facts encoded once for all seats, each log event once per seat) and queued on every
connection of the seat only when its view changed — a hidden decision of another seat must not
show up as an extra message.  Sending never blocks a table: each connection has its own bounded
queue and sender task (:mod:`shangrao.web.connections`).  :class:`SeatMessages` is the part of
:class:`~shangrao.web.tables.Table` that does it, with attaching and dropping the connections."""

from __future__ import annotations

import asyncio
import functools
import time
from typing import TYPE_CHECKING, Any

import msgspec

from .connections import Connection
from .errors import MAX_CONNECTIONS_PER_SEAT, SERVER_PROBLEM, SeatBusy
from .outgoing import NoticeMessage, StateMessage, TableInfo, encode, encode_text
from .views import LogCache, state_message, state_texts

if TYPE_CHECKING:
    from ..game import Game
    from ..game.table import TableState
    from .settings import Settings

__all__ = ["SeatMessages"]


class SeatMessages:
    """The seats' messages of a :class:`~shangrao.web.tables.Table` (a part of it)."""

    seats: list
    play: TableState | None
    version: int
    last_settlement: dict | None
    last_sent: dict[int, bytes]
    _texts: dict[int, tuple[tuple[int, int], str, bytes]]
    _info_json: tuple[dict, msgspec.Raw] | None
    _logs: LogCache
    lock: asyncio.Lock
    manager: Any  # the TableManager (its metrics)
    id: int
    evicted: bool
    settings: Settings
    _send_watchers: Any  # the spectators' part (web/manners.py: TableManners)
    end_reason: str | None  # "dissolved" (web/manners.py)
    room: str | None  # a room's code at a room's match (web/rooms.py)
    names: list[str | None]  # the room members' names by seat
    _seat_info: tuple[dict, dict] | None

    @property
    def game(self) -> Game | None:
        """The hand being played, or the last one (None before the first)."""
        return self.play.game if self.play is not None else None

    @property
    def hand_no(self) -> int:  # pragma: no cover - the table's
        raise NotImplementedError

    def public_info(self) -> dict:  # pragma: no cover - the table's
        raise NotImplementedError

    def seat_info(self) -> dict:
        """:meth:`public_info` and, at a room's match, the room's code and the members' names by seat:
        for the seats' ``state`` messages only — the lobby lists :meth:`public_info`, which holds
        neither (a room's code is what lets people into it)."""
        info = self.public_info()
        if self.room is None:
            return info
        if self._seat_info is None or self._seat_info[0] is not info:
            players = [{**p, "name": n} for p, n in zip(info["players"], self.names)]
            self._seat_info = (info, {**info, "room": self.room, "players": players})
        return self._seat_info[1]

    def watch_info(self) -> dict:
        """What a spectator is shown of the table: :meth:`public_info` and, at a room's match, the
        members' names by seat (issue 38) — not the room's code, which lets people into the room."""
        info = self.public_info()
        if self.room is None:
            return info
        return {**info, "players": [{**p, "name": n} for p, n in zip(info["players"], self.names)]}

    def touch(self, listing: bool = False) -> None:  # pragma: no cover - the table's
        raise NotImplementedError

    def _maybe_evict(self) -> None:  # pragma: no cover - the table's
        raise NotImplementedError

    def _deadline_for(self, seat: int) -> float | None:
        if self.play is None or self.end_reason:  # a match ended by 解散: no countdown
            return None
        return self.play.deadline_for(seat, time.monotonic())

    def holding(self) -> bool:
        """A window nobody can claim is held open (:attr:`Game.held`): every seat is shown the open
        window until its pause ends (so nobody learns that no one could claim)."""
        return self.game is not None and self.game.held

    def _answered(self):
        return self.play.answers.keys() if self.play is not None else ()

    def _table_info(self) -> msgspec.Raw:
        """The table's facts (``seat_info``: ``public_info`` and a room's code and names) as the ``state`` messages carry them: a
        :class:`~shangrao.web.outgoing.TableInfo` (``msgspec.convert`` checks the dict against it),
        encoded once for every seat, again only when they changed (most changes leave them as they
        were)."""
        info = self.seat_info()
        cached = self._info_json
        if cached is None or (cached[0] is not info and cached[0] != info):
            self._info_json = cached = (info, msgspec.Raw(encode(msgspec.convert(info, TableInfo))))
        else:
            self._info_json = (info, cached[1])
        return cached[1]

    def state_message(self, seat: int) -> StateMessage:
        """The seat's ``state`` message (:func:`~shangrao.web.views.state_message`)."""
        table = self._table_info()
        if self.game is None:
            return StateMessage(you=seat, hand_no=self.hand_no, seq=0, table=table, view=None, legal=[],
                                can_win=False, waits=None, discard_waits=None, baodiao_discards=None, settlement=self.last_settlement,
                                reveal=msgspec.Raw(b"null"), log=[], deadline=None)
        return state_message(self.game, seat, hand_no=self.game.hand_no, table=table,
                             deadline=self._deadline_for(seat),
                             settlement=self.last_settlement if self.game.is_over else None,
                             logs=self._logs, answered=self._answered())

    def state_text(self, seat: int) -> tuple[str, bytes]:
        """The seat's ``state`` message as JSON text and the same without its countdown (what tells
        whether the seat's view changed: :func:`~shangrao.web.views.state_texts`), built once per
        change."""
        cached = self._texts.get(seat)
        version = (self.version, self.play.version if self.play is not None else 0)
        if cached is not None and cached[0] == version:
            return cached[1], cached[2]
        text, same = state_texts(self.state_message(seat))
        self._texts[seat] = (version, text, same)
        return text, same

    def broadcast(self, also: Connection | None = None) -> None:
        """Queue each seat its state — only when its view differs from what the seat was last sent
        (a hidden decision of another seat must not show up as an extra message); ``also``: a new
        connection that gets the state in any case.  Never waits for a socket.  Callers hold the
        lock, so nothing unsaved is ever sent."""
        for i, s in enumerate(self.seats):
            if not s.conns:
                continue
            text, same = self.state_text(i)
            unchanged = self.last_sent.get(i) == same
            self.last_sent[i] = same
            for c in list(s.conns):
                if unchanged and c is not also:
                    continue
                c.send(text)
        self._send_watchers()  # the spectators' public state (web/manners.py), when it changed
        self.manager.metrics.record_update(self.id)

    def _tell(self, seat: int) -> None:
        """Send ``seat`` the server-problem notice."""
        notice = encode_text(NoticeMessage(code="server_problem", message=SERVER_PROBLEM))
        for c in list(self.seats[seat].conns):
            c.send(notice)

    # ------------------------------------------------------------------ connections
    async def connect(self, seat: int, ws) -> Connection | None:
        """Attach a socket to ``seat``; None if the table has just left memory (get it again)."""
        async with self.lock:
            if self.evicted:
                return None
            if len(self.seats[seat].conns) >= MAX_CONNECTIONS_PER_SEAT:
                raise SeatBusy(f"this seat already has {MAX_CONNECTIONS_PER_SEAT} open connections; close one "
                               "(another tab or device) and reload")
            conn = Connection(ws, queue_size=self.settings.send_queue, send_timeout=self.settings.send_timeout,
                              on_drop=functools.partial(self._dropped, seat))
            self.seats[seat].conns.add(conn)
            self.seats[seat].was_here = True
            self.touch(listing=True)
            self.broadcast(also=conn)
            return conn

    def _dropped(self, seat: int, conn: Connection, why: str) -> None:
        """A connection was dropped as too slow: the seat may be disconnected now."""
        self.manager.metrics.record_drop(why)
        s = self.seats[seat]
        if conn in s.conns:
            s.conns.discard(conn)
            if not s.conns:
                s.gone_since = time.monotonic()
            asyncio.get_running_loop().create_task(self._presence_changed())

    async def _presence_changed(self) -> None:
        async with self.lock:
            self.touch(listing=True)
            self.broadcast()
            self._maybe_evict()

    async def disconnect(self, seat: int, conn: Connection) -> None:
        await conn.aclose()
        async with self.lock:
            s = self.seats[seat]
            if conn in s.conns:
                s.conns.discard(conn)
                if not s.conns:
                    s.gone_since = time.monotonic()
                self.touch(listing=True)
                self.broadcast()
            self._maybe_evict()
