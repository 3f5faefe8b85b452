"""Table manners at a web table (issue 24): 托管, the 解散 vote, the quick phrases (快捷语) and the
spectators' connections — the part of :class:`~shangrao.web.tables.Table` that drives
:class:`shangrao.game.manners.Manners` (the rules, on the table's clock) and stores it.

Stored: ``meta.web.manners`` (:meth:`Manners.to_data`) with ``meta.web.manners_wall`` (the wall time
it was written), so a restarted server keeps who is in 托管 and an open vote's countdown.  A passed
vote ends the match: the game is marked finished with ``meta.end_reason = "dissolved"`` (the
history page and ``shangrao games`` show 解散); its finished hands stay stored, and the hand in
progress stays as its stored events.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ..game import IllegalActionError
from ..game.manners import Manners, MannersError
from ..records.live import update_meta
from .connections import Connection
from .errors import SaveError
from .outgoing import PhraseMessage, encode_text

if TYPE_CHECKING:
    from ..game.table import TableState

__all__ = ["END_DISSOLVED", "TableManners", "manners_from_meta"]

#: ``meta.end_reason`` of a match ended by a 解散 vote
END_DISSOLVED = "dissolved"


def manners_from_meta(data: object, wall: float | None, dissolve_timeout: float, phrase_interval: float) -> Manners:
    """The manners stored in a table's ``meta.web.manners`` (written at the wall time ``wall``: an open
    vote's countdown has gone on meanwhile)."""
    elapsed = time.time() - wall if wall is not None else 0.0
    return Manners.from_data(data, time.monotonic(), dissolve_timeout=dissolve_timeout,
                             phrase_interval=phrase_interval, elapsed=max(0.0, elapsed))


class TableManners:
    """托管, 解散, 快捷语 and spectators of a :class:`~shangrao.web.tables.Table` (a part of it)."""

    manners: Manners
    seats: list
    play: TableState | None
    finished: bool
    end_reason: str | None
    watchers: set[Connection]
    manager: Any
    match: Any
    store: Any
    id: int
    lock: Any

    # the table's own (tables.py)
    def _meta(self) -> dict:  # pragma: no cover - the table's
        raise NotImplementedError

    def touch(self, listing: bool = False) -> None:  # pragma: no cover - the table's
        raise NotImplementedError

    def broadcast(self, also: Connection | None = None) -> None:  # pragma: no cover - the table's
        raise NotImplementedError

    @property
    def status(self) -> str:  # pragma: no cover - the table's
        raise NotImplementedError

    def _init_manners(self, st) -> None:
        """The match's manners from the settings ``st`` (dissolve_timeout, phrase_interval)."""
        self.manners = Manners(dissolve_timeout=st.dissolve_timeout, phrase_interval=st.phrase_interval)
        self.end_reason = None  # "dissolved": the match was ended by a 解散 vote
        self.watchers = set()  # the spectators' connections (web/spectators.py)
        self.watch_sent: str | None = None  # the spectators' last state

    def _vote_wakeup(self, timeout):
        """The runner's wait (seconds, None, "done" or "idle") shortened to an open vote's countdown."""
        end = self.manners.next_wakeup()
        if end is None or timeout in ("done", "idle"):
            return timeout
        left = max(0.005, end - time.monotonic())
        return left if timeout is None else min(timeout, left)

    # ------------------------------------------------------------------ facts
    def voters(self) -> tuple[int, ...]:
        """The seated people: the seats of the 解散 vote."""
        return tuple(i for i, s in enumerate(self.seats) if s.player == "human" and s.claimed)

    def manners_info(self) -> dict:
        """What every seat and spectator is shown of the manners (:meth:`Manners.public`)."""
        return self.manners.public(time.monotonic())

    async def _store_manners(self) -> None:
        await self.manager.write(update_meta, self.store, self.id, self._meta())

    def _check_playing(self) -> None:
        if self.finished:
            raise MannersError("the match has ended")
        if self.status not in ("playing", "between"):
            raise MannersError("the match has not started yet")

    # ------------------------------------------------------------------ 托管
    async def set_managed(self, seat: int, on: bool) -> bool:
        """托管 on (the stand-in plays the seat) or off (the next decision is the person's again);
        False when it changes nothing.  Stored at once.  Raises MannersError (the match is not being
        played, a bot's seat) or SaveError (nothing changed)."""
        async with self.lock:
            self._check_playing()
            if self.seats[seat].is_bot:
                raise MannersError("a bot's seat has no 托管")
            now = time.monotonic()
            before = dict(self.manners.managed)
            p = self.play
            try:
                changed = (p.set_managed(seat, on, now) if p is not None and p.manners is self.manners
                           else self.manners.set_managed(seat, on, now))
            except IllegalActionError as err:
                raise MannersError(str(err)) from None
            if not changed:
                return False
            try:
                await self._store_manners()
            except SaveError:
                self.manners.managed = before
                raise
            self.touch(listing=True)
            self.broadcast()
            return True

    # ------------------------------------------------------------------ 快捷语
    async def say(self, seat: int, phrase: str) -> None:
        """Show ``seat``'s quick phrase to the table and its spectators (a ``phrase`` message).
        Raises MannersError (no such phrase) or TooFast (the seat's rate)."""
        async with self.lock:
            words = self.manners.say(seat, phrase, time.monotonic())
            text = encode_text(PhraseMessage(seat=seat, phrase=phrase, text=words))
            for s in self.seats:
                for c in list(s.conns):
                    c.send(text)
            for c in list(self.watchers):
                c.send(text)

    # ------------------------------------------------------------------ 解散
    async def propose_dissolve(self, seat: int) -> None:
        """``seat`` proposes 解散 (see :mod:`shangrao.game.manners` for the rule).  Raises
        MannersError or SaveError (nothing changed)."""
        async with self.lock:
            self._check_playing()
            self.manners.propose(seat, self.voters(), time.monotonic())
            def undo() -> None:
                self.manners.vote = self.manners.result = None
            await self._after_vote(undo)

    async def vote(self, seat: int, agree: bool) -> None:
        """``seat``'s 同意 / 拒绝.  Raises MannersError or SaveError (nothing changed)."""
        async with self.lock:
            self._check_playing()
            v = self.manners.vote
            self.manners.answer(seat, agree, time.monotonic())

            def undo() -> None:
                self.manners.vote, self.manners.result = v, None
                if v is not None:
                    v.answers.pop(seat, None)
            await self._after_vote(undo)

    async def _after_vote(self, undo) -> None:
        """Store the vote's new state (a passed one ends the match); caller holds the lock."""
        try:
            if self.manners.result == "passed" and self.manners.vote is None:
                await self._dissolve()
            else:
                await self._store_manners()
        except SaveError:
            undo()
            raise
        self.touch(listing=True)
        self.broadcast()

    async def settle_vote(self) -> None:
        """The runner's part: a vote whose countdown ran out fails (stored and shown).  Caller holds
        the lock."""
        m = self.manners
        if m.vote is None or m.settle(time.monotonic()) is None:
            return
        await self._store_manners()
        self.touch()
        self.broadcast()

    async def _dissolve(self) -> None:
        """End the match by the vote: finished, ``end_reason`` "dissolved" (raises SaveError with
        nothing changed)."""
        self.finished, self.end_reason = True, END_DISSOLVED
        try:
            await self.manager.write(self.store.finish_game, self.id, list(self._scores()),
                                     {"end_reason": END_DISSOLVED, "web": self._meta()["web"]})
        except SaveError:
            self.finished, self.end_reason = False, None
            raise
        self.manager.review_later(self.id, len(self.match.hands))  # issue 37: its hands reviewed in the background
        self.manager.listing_changed()

    def _scores(self) -> list[int]:
        return list(self.match.scores)

    # ------------------------------------------------------------------ spectators (web/watch.py)
    async def watch(self, ws) -> Connection | None:
        """Attach a spectator's socket (sent the public state at once); None when the table holds
        :data:`~shangrao.web.spectators.MAX_WATCHERS` already."""
        from .spectators import MAX_WATCHERS, send_watchers, watcher_connection

        async with self.lock:
            if len(self.watchers) >= MAX_WATCHERS:
                return None
            conn = watcher_connection(self, ws)  # type: ignore[arg-type]
            self.watchers.add(conn)
            send_watchers(self, also=conn)  # type: ignore[arg-type]
            return conn

    async def unwatch(self, conn: Connection) -> None:
        await conn.aclose()
        async with self.lock:
            self.watchers.discard(conn)

    def _send_watchers(self) -> None:
        """Queue the spectators the public state if it changed (:func:`~shangrao.web.spectators.send_watchers`)."""
        if self.watchers:
            from .spectators import send_watchers

            send_watchers(self)  # type: ignore[arg-type]
