"""What a table sends: each seat's ``state`` message built once per change (the table's facts encoded
once for all seats, each log event once per seat) and queued on every connection of the seat only when
its view changed — a hidden decision of another seat must not show up as an extra message.  Sending
never blocks a table: each connection has its own bounded queue and sender task
(:mod:`shangrao.web.connections`).

:class:`Broadcast` is the collaborator of :class:`~shangrao.web.tables.Table` (``table.out``) that does
it, and :meth:`Broadcast.send` is the table's ONE publish path (issue 39): every message a table sends —
the seats' states, the server-problem notice, quick phrases, the spectators' ``watch``, a ``pong``, a
hint — is queued there."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import msgspec

from .errors import SERVER_PROBLEM
from .outgoing import NoticeMessage, OutgoingMessage, StateMessage, TableInfo, encode, encode_text
from .views import LogCache, state_message, state_texts

if TYPE_CHECKING:
    from .connections import Connection
    from .tables import Table

__all__ = ["Broadcast"]


class Broadcast:
    """The messages of one :class:`~shangrao.web.tables.Table` (read through its public facts: seats,
    ``play``, ``version``, ``last_settlement``, ``hand_no``, ``public_info()``, ``room``, ``names``,
    ``end_reason``).  Holds the caches of what was built and sent; :meth:`send` queues every message."""

    def __init__(self, table: Table) -> None:
        self.table = table
        #: the hand's logs as each seat sees them, and its ``seq`` (:class:`~shangrao.web.views.LogCache`)
        self.logs = LogCache()
        #: per seat: its last state sent, without the countdown (UTF-8)
        self.last_sent: dict[int, bytes] = {}
        self._texts: dict[int, tuple[tuple[int, int], str, bytes]] = {}
        self._info_json: tuple[dict[str, Any], msgspec.Raw] | None = None
        self._seat_info: tuple[dict[str, Any], dict[str, Any]] | None = None

    # ------------------------------------------------------------------ the one publish path
    def send(self, conns: Iterable[Connection], message: OutgoingMessage | str) -> None:
        """Queue ``message`` (an outgoing message, or its JSON text already encoded) on each of ``conns``;
        never waits for a socket.  Every message a table sends goes through here."""
        text = message if isinstance(message, str) else encode_text(message)
        for c in list(conns):
            c.send(text)

    # ------------------------------------------------------------------ what a seat is shown
    def seat_info(self) -> dict[str, Any]:
        """The table's ``public_info()`` and, at a room's match, the room's code and the members' names
        by seat: for the seats' ``state`` messages only — the lobby lists ``public_info()``, which holds
        neither (a room's code is what lets people into it)."""
        t = self.table
        info = t.public_info()
        if t.room is None:
            return info
        if self._seat_info is None or self._seat_info[0] is not info:
            players = [{**p, "name": n} for p, n in zip(info["players"], t.names)]
            self._seat_info = (info, {**info, "room": t.room, "players": players})
        return self._seat_info[1]

    def watch_info(self) -> dict[str, Any]:
        """What a spectator is shown of the table: ``public_info()`` and, at a room's match, the members'
        names by seat (issue 38) — not the room's code, which lets people into the room."""
        t = self.table
        info = t.public_info()
        if t.room is None:
            return info
        return {**info, "players": [{**p, "name": n} for p, n in zip(info["players"], t.names)]}

    def _deadline_for(self, seat: int) -> float | None:
        p = self.table.play
        if p is None or self.table.end_reason:  # a match ended by 解散: no countdown
            return None
        return p.deadline_for(seat, time.monotonic())

    def _table_info(self) -> msgspec.Raw:
        """The table's facts (:meth:`seat_info`) as the ``state`` messages carry them: a
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
        t = self.table
        table = self._table_info()
        g = t.game
        if g is None:
            return StateMessage(
                you=seat,
                hand_no=t.hand_no,
                seq=0,
                table=table,
                view=None,
                legal=[],
                can_win=False,
                waits=None,
                discard_waits=None,
                baodiao_discards=None,
                settlement=t.last_settlement,
                reveal=msgspec.Raw(b"null"),
                log=[],
                deadline=None,
            )
        answered = t.play.answers.keys() if t.play is not None else ()
        return state_message(
            g,
            seat,
            hand_no=g.hand_no,
            table=table,
            deadline=self._deadline_for(seat),
            settlement=t.last_settlement if g.is_over else None,
            logs=self.logs,
            answered=answered,
        )

    def state_text(self, seat: int) -> tuple[str, bytes]:
        """The seat's ``state`` message as JSON text and the same without its countdown (what tells
        whether the seat's view changed: :func:`~shangrao.web.views.state_texts`), built once per
        change."""
        t = self.table
        cached = self._texts.get(seat)
        version = (t.version, t.play.version if t.play is not None else 0)
        if cached is not None and cached[0] == version:
            return cached[1], cached[2]
        text, same = state_texts(self.state_message(seat))
        self._texts[seat] = (version, text, same)
        return text, same

    def states(self, also: Connection | None = None) -> None:
        """Queue each seat its state — only when its view differs from what the seat was last sent;
        ``also``: a new connection that gets the state in any case."""
        for i, s in enumerate(self.table.seats):
            if not s.conns:
                continue
            text, same = self.state_text(i)
            unchanged = self.last_sent.get(i) == same
            self.last_sent[i] = same
            self.send((c for c in list(s.conns) if not unchanged or c is also), text)

    def server_problem(self, seat: int) -> None:
        """Send ``seat`` the server-problem notice (a write failed; play goes on by itself)."""
        self.send(self.table.seats[seat].conns, NoticeMessage(code="server_problem", message=SERVER_PROBLEM))

    def clear(self) -> None:
        """Forget what was built (the table leaves memory)."""
        self._texts.clear()
        self.logs.clear()
