"""The database off the event loop: worker threads for the tables' writes and reads, apart ones for
history reads, the group commit of the tables' actions, and failures logged once a minute per kind
without the database's URL.  :class:`DatabaseWriter` is the collaborator of
:class:`~shangrao.web.manager.TableManager` (``manager.writer``) that talks to the database; the
manager's ``read``/``write``/``write_events``/``history`` hand each call to it."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from ..game import Event
from ..records import Store
from ..records.live import insert_event_batches
from .clock import ServerClock
from .errors import SaveError
from .reviews import ReviewJobs

if TYPE_CHECKING:
    from .metrics import ServerMetrics

__all__ = ["DatabaseWriter"]

log = logging.getLogger("shangrao.web")

T = TypeVar("T")


class DatabaseWriter:
    """Database calls in worker threads (``settings.db_threads``; one for SQLite, whose writers queue
    anyway) so that the event loop never waits for a commit.  ``metrics``: the server's
    (:mod:`shangrao.web.metrics`), told each write's latency and failure."""

    def __init__(
        self, store: Store, metrics: ServerMetrics, db_threads: int, read_threads: int, review_workers: int = 0
    ) -> None:
        self.store = store
        self.metrics = metrics
        #: the game reviews (issue 37): in their own process, a web match's as soon as it ends
        self.reviews = ReviewJobs(store, review_workers, scrub=self.scrub)
        self._review_finished = review_workers > 0
        n = db_threads or (1 if store.url.startswith("sqlite") else 4)
        self._pool = ThreadPoolExecutor(n, thread_name_prefix="shangrao-db")
        self.clock = ServerClock()  # the times this server stores (countdowns survive wall-clock steps)
        # history reads (issue 25): their own threads, so a flood of them never queues before a table's
        # write; an in-memory SQLite database is one connection, used by the tables' thread alone
        url = store.url
        shared = url.startswith("sqlite") and (
            url.rstrip("/") in ("sqlite:", "sqlite:/") or ":memory:" in url or "mode=memory" in url
        )
        self._history_pool = (
            None if shared else ThreadPoolExecutor(max(1, read_threads), thread_name_prefix="shangrao-history")
        )
        self._failures: dict[str, list[float]] = {}  # failure kind -> [last logged (monotonic), suppressed]
        self._failing = False
        self._recovered_logged = -1e9
        # group commit of the tables' actions (write_events): queued while a batch is being written
        self._events_queued: list[tuple[tuple[Any, ...], asyncio.Future[BaseException | None]]] = []
        self._events_writing = False
        #: why no table can be played here (read-only storage, in words for the lobby), or None
        self.read_only: str | None = None

    async def read(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a database read in a worker thread."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, functools.partial(fn, *args, **kwargs))

    async def history(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a history read (and the building of its answer) in the history threads
        (``settings.read_threads``), apart from the tables' database thread."""
        pool = self._history_pool or self._pool
        return await asyncio.get_running_loop().run_in_executor(pool, functools.partial(fn, *args, **kwargs))

    async def write(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a database write in a worker thread; any failure is a :class:`SaveError` (logged once
        a minute per kind, without the database's URL).  A read-only server (:attr:`read_only`: the
        storage refuses writes, or another server took the tables over) writes nothing."""
        if self.read_only is not None:
            raise SaveError()
        t0 = time.perf_counter()
        try:
            out = await asyncio.get_running_loop().run_in_executor(self._pool, functools.partial(fn, *args, **kwargs))
        except Exception as err:
            self.metrics.record_write("other", time.perf_counter() - t0, failed=True)
            self._report(err)
            raise SaveError() from None
        self.metrics.record_write("other", time.perf_counter() - t0)
        self._written()
        return out

    async def write_events(self, game_id: int, hand_index: int, first_seq: int, events: list[Event]) -> None:
        """Store the events of one action (:func:`~shangrao.records.live.insert_events`) through the
        group commit: the actions that come in while a batch is being written go in the next
        batch, one transaction for all of them (:func:`~shangrao.records.live.insert_event_batches`;
        one worker thread hand-off and one commit per batch, not per action).  Returns once these
        events are committed; a failure is a :class:`SaveError`, as in :meth:`write`."""
        if self.read_only is not None:
            raise SaveError()
        fut = asyncio.get_running_loop().create_future()
        self._events_queued.append(((game_id, hand_index, first_seq, events), fut))
        if not self._events_writing:
            self._write_event_batch()
        t0 = time.perf_counter()
        err = await fut
        self.metrics.record_write("events", time.perf_counter() - t0, failed=err is not None)
        if err is not None:
            self._report(err)
            raise SaveError() from None
        self._written()

    def _write_event_batch(self) -> None:
        batch = [(args, fut) for args, fut in self._events_queued if not fut.done()]  # not a stopped table's
        self._events_queued = []
        if not batch:
            return
        try:
            done = asyncio.get_running_loop().run_in_executor(
                self._pool, insert_event_batches, self.store, [args for args, _ in batch], self.clock.stamp()
            )
        except RuntimeError as err:  # the worker threads are shut down: the server is stopping
            for _, fut in batch:
                fut.set_result(err)
            return
        self._events_writing = True
        done.add_done_callback(functools.partial(self._event_batch_written, batch))

    def _event_batch_written(
        self,
        batch: list[tuple[tuple[Any, ...], asyncio.Future[BaseException | None]]],
        done: asyncio.Future[list[BaseException | None]],
    ) -> None:
        self._events_writing = False
        try:
            results = done.result()
        except BaseException as failed:  # the worker itself failed: every action is told
            results = [failed] * len(batch)
        for (_, fut), result in zip(batch, results):
            if not fut.done():  # its table may have been stopped meanwhile
                fut.set_result(result)
        if self._events_queued:
            self._write_event_batch()

    def review_later(self, game_id: int, hands: int) -> None:
        """A match just ended with ``hands`` stored hands: start its review (牌谱分析) in the background,
        so that it is ready when asked for (the replay page and the history show its progress).
        Nothing with ``review_workers=0``, on a read-only server, or without a hand."""
        if self._review_finished and self.read_only is None and hands > 0:
            self.reviews.start(game_id, hands)

    def _written(self) -> None:
        """A write succeeded: say so once after failures (at most once a minute: a flapping disk logs little)."""
        if self._failing:
            self._failing = False
            now = time.monotonic()
            if now - self._recovered_logged >= 60.0:
                self._recovered_logged = now
                log.warning("database writes work again")

    def scrub(self, text: str) -> str:
        """``text`` without the database's URL, path, host or name."""
        from sqlalchemy.engine import make_url

        secrets_ = {self.store.url}
        with contextlib.suppress(Exception):  # not a URL SQLAlchemy reads: the whole text is hidden above
            u = make_url(self.store.url)
            secrets_ |= {
                u.render_as_string(hide_password=True),
                u.render_as_string(hide_password=False),
                str(u.database or ""),
                str(u.host or ""),
                str(u.username or ""),
            }
        for x in sorted((x for x in secrets_ if x and len(x) > 2), key=len, reverse=True):
            text = text.replace(x, "<database>")
        return text

    def _report(self, err: Exception) -> None:
        self._failing = True
        kind = type(err).__name__
        detail = self.scrub(" ".join(str(err).split()))[:200]
        if ":" in detail:  # e.g. 'cannot write to <database>: database or disk is full'
            kind += ": " + detail.rsplit(":", 1)[1].strip()[:80]
        now = time.monotonic()
        slot = self._failures.get(kind)
        if slot is not None and now - slot[0] < 60.0:
            slot[1] += 1
            return
        suppressed = slot[1] if slot is not None else 0
        self._failures[kind] = [now, 0]
        log.error(
            "database write failed: %s%s",
            detail,
            f" ({suppressed} more like it in the last minute)" if suppressed else "",
        )

    def shutdown(self) -> None:
        self.reviews.close()
        self._pool.shutdown(wait=True)
        if self._history_pool is not None:
            self._history_pool.shutdown(wait=True)
