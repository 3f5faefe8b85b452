"""What a web table stores (its ``meta.web``, its events and hands) and what it does when a write
fails: :class:`TableRecord`, the collaborator of :class:`~shangrao.web.tables.Table` (``table.record``)
over the manager's database writer (boardgame.io's injected storage: the table never calls the
database itself)."""

from __future__ import annotations

import contextlib
import time
from typing import TYPE_CHECKING, Any

from ..records.live import set_players, update_meta
from ..records.summary import hand_summary
from .errors import SaveError
from .stored import WebMeta

if TYPE_CHECKING:
    from ..game import Game
    from .tables import Table

__all__ = ["TableRecord"]


class TableRecord:
    """The stored side of one table.  ``failing``: the last write failed (the seats were told, once)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.failing = False

    def meta(self) -> dict[str, Any]:
        """The ``meta`` patch that stores the table's seats, name, rematch and settings, a room's match's
        room and names (:class:`~shangrao.web.stored.WebMeta`), with this server's clock and its manners
        (issue 24)."""
        t = self.table
        return WebMeta(
            name=t.name,
            seats=[s.player for s in t.seats],
            claimed=[s.claimed for s in t.seats],
            token_hashes=[s.token_hash for s in t.seats],
            rematch=t.rematch,
            hints=t.hints,
            clock=t.manager.clock.record(),
            room=t.room,
            names=t.names if t.room is not None else None,
            manners=t.manners.stored(time.monotonic()),
            manners_wall=time.time(),
            pace=t.pace,
        ).to_meta()

    async def store_meta(self) -> None:
        """Store :meth:`meta`; raises SaveError (nothing stored)."""
        t = self.table
        await t.manager.write(update_meta, t.store, t.id, self.meta())

    async def store_players(self) -> None:
        """Store the seats' players and :meth:`meta`; raises SaveError."""
        t = self.table
        await t.manager.write(set_players, t.store, t.id, [s.player for s in t.seats], self.meta())

    async def finish(self, scores: list[int], meta: dict[str, Any] | None = None) -> None:
        """Mark the stored game finished with ``scores`` (and the ``meta`` patch); raises SaveError."""
        t = self.table
        args = (meta,) if meta is not None else ()
        await t.manager.write(t.store.finish_game, t.id, scores, *args)

    async def store_deal(self, g: Game) -> None:
        """Store the deal of the hand ``g`` just begun; raises SaveError (the seats told)."""
        t = self.table
        try:
            await t.manager.write_events(t.id, g.hand_no, 0, list(g.events))
        except SaveError:
            self.failed()
            raise
        self.saved()

    async def persist(self, n_before: int) -> None:
        """Store the events of ``table.game`` after ``n_before`` (one transaction), or the finished hand;
        then update the match.  Raises SaveError with nothing in memory changed but the game itself."""
        t = self.table
        g = t.game
        assert g is not None
        if not g.is_over:
            await t.manager.write_events(t.id, g.hand_no, n_before, g.events[n_before:])
            return
        assert g.result is not None
        summary = hand_summary(g.result, g.events)
        await t.manager.write(
            t.store.append_hand, t.id, g.hand_no, g.dealer, g.events, summary, scores_after=list(g.result.scores)
        )
        rec = t.match.finish_hand(g)
        rec.events = []  # stored; the live game keeps its own log until the next hand
        t.last_settlement = summary
        t.between_since = time.monotonic()
        for s in t.seats:
            s.ready = False
        if t.match.is_over:
            t.finished = True  # a restart sees the same from the number of stored hands
            with contextlib.suppress(SaveError):  # the next write retries; the table is finished anyway
                await self.finish(list(t.match.scores))
            t.manager.review_later(t.id, len(t.match.hands))  # issue 37: reviewed in the background
        t.manager.listing_changed()

    def failed(self, actor: int | None = None) -> None:
        """A write failed: tell the seats once per episode (the actor is told by its caller)."""
        if self.failing:
            return
        self.failing = True
        for i in range(len(self.table.seats)):
            if i != actor:
                self.table.out.server_problem(i)

    def saved(self) -> None:
        """A write succeeded: the failing episode (if any) is over, which the seats see."""
        if self.failing:
            self.failing = False
            self.table.touch()
