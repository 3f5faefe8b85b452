"""Table manners at a web table (issue 24): 托管, the 解散 vote and the quick phrases (快捷语) —
:class:`TableManners`, the collaborator of :class:`~shangrao.web.tables.Table` (``table.conduct``) that
drives :class:`shangrao.game.manners.Manners` (the rules, on the table's clock) and stores it.

Stored: ``meta.web.manners`` (:meth:`Manners.to_data`) with ``meta.web.manners_wall`` (the wall time
it was written), so a restarted server keeps who is in 托管 and an open vote's countdown.  A passed
vote ends the match: the game is marked finished with ``meta.end_reason = "dissolved"`` (the
history page and ``shangrao games`` show 解散); its finished hands stay stored, and the hand in
progress stays as its stored events.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..game import IllegalActionError
from ..game.manners import Manners, MannersError
from .errors import SaveError
from .outgoing import PhraseMessage

if TYPE_CHECKING:
    from .tables import Table

#: how long the table's runner waits: seconds, None (until a change), "done" or "idle"
Wait = float | str | None

__all__ = ["END_DISSOLVED", "TableManners", "manners_from_meta"]

#: ``meta.end_reason`` of a match ended by a 解散 vote
END_DISSOLVED = "dissolved"


def manners_from_meta(data: object, wall: float | None, dissolve_timeout: float, phrase_interval: float) -> Manners:
    """The manners stored in a table's ``meta.web.manners`` (written at the wall time ``wall``: an open
    vote's countdown has gone on meanwhile)."""
    elapsed = time.time() - wall if wall is not None else 0.0
    return Manners.from_data(
        data,
        time.monotonic(),
        dissolve_timeout=dissolve_timeout,
        phrase_interval=phrase_interval,
        elapsed=max(0.0, elapsed),
    )


class TableManners:
    """托管, 解散 and 快捷语 of one :class:`~shangrao.web.tables.Table`: ``manners`` (the match's
    :class:`~shangrao.game.manners.Manners`) and ``end_reason`` ("dissolved": the match was ended by a
    解散 vote).  Every change is stored (``table.record``) before it is shown (``table.publish()``);
    callers of the public methods do not hold the table's lock (they take it)."""

    def __init__(self, table: Table, dissolve_timeout: float, phrase_interval: float) -> None:
        self.table = table
        self.manners = Manners(dissolve_timeout=dissolve_timeout, phrase_interval=phrase_interval)
        self.end_reason: str | None = None

    def vote_wakeup(self, timeout: Wait) -> Wait:
        """The runner's wait (seconds, None, "done" or "idle") shortened to an open vote's countdown."""
        end = self.manners.next_wakeup()
        if end is None or timeout in ("done", "idle"):
            return timeout
        left = max(0.005, end - time.monotonic())
        return left if timeout is None else min(float(timeout), left)

    # ------------------------------------------------------------------ facts
    def voters(self) -> tuple[int, ...]:
        """The seated people: the seats of the 解散 vote."""
        return tuple(i for i, s in enumerate(self.table.seats) if s.player == "human" and s.claimed)

    def info(self) -> dict[str, Any]:
        """What every seat and spectator is shown of the manners (:meth:`Manners.public`)."""
        return self.manners.public(time.monotonic())

    def _check_playing(self) -> None:
        t = self.table
        if t.finished:
            raise MannersError("the match has ended")
        if t.status not in ("playing", "between"):
            raise MannersError("the match has not started yet")

    # ------------------------------------------------------------------ 托管
    async def set_managed(self, seat: int, on: bool) -> bool:
        """托管 on (the stand-in plays the seat) or off (the next decision is the person's again);
        False when it changes nothing.  Stored at once.  Raises MannersError (the match is not being
        played, a bot's seat) or SaveError (nothing changed)."""
        t = self.table
        async with t.lock:
            self._check_playing()
            if t.seats[seat].is_bot:
                raise MannersError("a bot's seat has no 托管")
            now = time.monotonic()
            before = dict(self.manners.managed)
            p = t.play
            try:
                changed = (
                    p.set_managed(seat, on, now)
                    if p is not None and p.manners is self.manners
                    else self.manners.set_managed(seat, on, now)
                )
            except IllegalActionError as err:
                raise MannersError(str(err)) from None
            if not changed:
                return False
            try:
                await t.record.store_meta()
            except SaveError:
                self.manners.managed = before
                raise
            t.touch(listing=True)
            t.publish()
            return True

    # ------------------------------------------------------------------ 快捷语
    async def say(self, seat: int, phrase: str) -> None:
        """Show ``seat``'s quick phrase to the table and its spectators (a ``phrase`` message).
        Raises MannersError (no such phrase) or TooFast (the seat's rate)."""
        t = self.table
        async with t.lock:
            words = self.manners.say(seat, phrase, time.monotonic())
            everyone = [c for s in t.seats for c in s.conns] + list(t.spectators.conns)
            t.out.send(everyone, PhraseMessage(seat=seat, phrase=phrase, text=words))

    # ------------------------------------------------------------------ 解散
    async def propose_dissolve(self, seat: int) -> None:
        """``seat`` proposes 解散 (see :mod:`shangrao.game.manners` for the rule).  Raises
        MannersError or SaveError (nothing changed)."""
        async with self.table.lock:
            self._check_playing()
            self.manners.propose(seat, self.voters(), time.monotonic())

            def undo() -> None:
                self.manners.vote = self.manners.result = None

            await self._after_vote(undo)

    async def vote(self, seat: int, agree: bool) -> None:
        """``seat``'s 同意 / 拒绝.  Raises MannersError or SaveError (nothing changed)."""
        async with self.table.lock:
            self._check_playing()
            v = self.manners.vote
            self.manners.answer(seat, agree, time.monotonic())

            def undo() -> None:
                self.manners.vote, self.manners.result = v, None
                if v is not None:
                    v.answers.pop(seat, None)

            await self._after_vote(undo)

    async def _after_vote(self, undo: Callable[[], None]) -> None:
        """Store the vote's new state (a passed one ends the match); caller holds the lock."""
        t = self.table
        try:
            if self.manners.result == "passed" and self.manners.vote is None:
                await self._dissolve()
            else:
                await t.record.store_meta()
        except SaveError:
            undo()
            raise
        t.touch(listing=True)
        t.publish()

    async def settle_vote(self) -> None:
        """The runner's part: a vote whose countdown ran out fails (stored and shown).  Caller holds
        the lock."""
        m = self.manners
        if m.vote is None or m.settle(time.monotonic()) is None:
            return
        await self.table.record.store_meta()
        self.table.touch()
        self.table.publish()

    async def _dissolve(self) -> None:
        """End the match by the vote: finished, ``end_reason`` "dissolved" (raises SaveError with
        nothing changed)."""
        t = self.table
        t.finished, self.end_reason = True, END_DISSOLVED
        try:
            await t.record.finish(list(t.match.scores), {"end_reason": END_DISSOLVED, "web": t.record.meta()["web"]})
        except SaveError:
            t.finished, self.end_reason = False, None
            raise
        t.manager.review_later(t.id, len(t.match.hands))  # issue 37: its hands reviewed in the background
        t.manager.listing_changed()
