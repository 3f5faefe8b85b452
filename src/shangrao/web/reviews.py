"""Game reviews for the web (issue 37): computed in the background, with progress, never on the server's
event loop nor under its GIL.

:class:`ReviewJobs` runs :func:`shangrao.records.reviews.review_game` in a separate process
(``settings.review_workers``, default one, spawned on the first review and ended with the app): a
review is CPU work (about 1.4 s a hand for the four seats on one core) and a thread of the server
would share the interpreter's lock with the event loop — measured, a thread made ``GET /api/rules``
answer in up to ~90 ms instead of ~10 ms (docs/performance.md).  A web match is reviewed as soon as
it ends (:meth:`TableManager.review_later <shangrao.web.writer.DatabaseWriter.review_later>`); any
other game when its review is first asked for.  Each hand's review is stored as it is done
(``reviews``), so a review asked again — or after a restart — is read back, not computed again.
``progress(game_id)`` says how far a running one is (the worker reports each hand through a queue).

A database only this process can open (SQLite in memory) is reviewed in a thread instead, as is every
review of a server with ``review_workers=0`` (the tests' default: no process per test); a server on
read-only storage keeps the finished reviews in memory (the worker sends them back).
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from ..records import Store

if TYPE_CHECKING:
    from ..review import GameReview

__all__ = ["MAX_WAITING", "ReviewJobs", "ReviewsBusy"]

log = logging.getLogger("shangrao.web")


def _shared(url: str) -> bool:
    """Whether another process can open the database at ``url`` (not SQLite in memory)."""
    u = url.rstrip("/")
    return not (u.startswith("sqlite") and (u in ("sqlite:", "sqlite:/") or ":memory:" in u or "mode=memory" in u))


#: reviews asked for by requests that may wait or run at once (each is seconds of CPU a hand): one more
#: is refused (:class:`ReviewsBusy`, answered 503 with Retry-After) until one ends, so a client asking
#: for the review of every stored game cannot queue hours of work
MAX_WAITING = 16


class ReviewsBusy(RuntimeError):
    """As many reviews wait or run as the server takes (:data:`MAX_WAITING`); ask again later."""


class _Stopped(Exception):
    """The server is stopping: the review ends after the hand it was doing (that one is stored)."""


# -- the worker process's side ---------------------------------------------------------------------
_W: dict[str, Any] = {}  # in a worker: "queue", "stop", and the stores opened by URL


def _worker_init(progress: Any, stop: Any) -> None:
    _W["queue"], _W["stop"], _W["stores"] = progress, stop, {}


def _review_in_worker(url: str, read_only: bool, game_id: int) -> dict[str, Any] | None:
    """Review game ``game_id`` of the database at ``url`` (in the worker process); its progress goes
    to the queue as ``(game_id, done, total)``.  Returns the review's JSON for a read-only database
    (nothing is stored there), else None (it is stored)."""
    from ..records.reviews import review_game

    stores = _W["stores"]
    key = f"{read_only}:{url}"
    if key not in stores:
        stores[key] = Store(url, read_only=read_only)
    q, stop = _W["queue"], _W["stop"]

    def note(done: int, total: int) -> None:
        q.put((game_id, done, total))
        if stop.is_set():
            raise _Stopped()

    review = review_game(stores[key], game_id, progress=note)
    return review.to_dict() if read_only else None


class ReviewJobs:
    """The background reviews of one server (see the module doc).  ``workers``: processes (0: one
    thread of this process)."""

    def __init__(
        self,
        store: Store,
        workers: int = 1,
        keep: int = 32,
        scrub: Callable[[str], str] = lambda text: text,
        most: int = MAX_WAITING,
    ) -> None:
        self.store = store
        self.most = most  # reviews asked for (start(asked=True)) that may wait or run at once
        self._scrub = scrub  # a failure's words without the database's URL (the page and the log see them)
        self.workers = workers if _shared(store.url) else 0
        self._pool: Executor | None = None
        self._queue: Any = None
        self._stop: Any = None
        self._lock = threading.Lock()
        self._closed = False
        #: game id -> {"done", "total", "error"} while running or failed
        self._jobs: dict[int, dict[str, Any]] = {}
        #: finished reviews of a read-only store (nothing is stored there), newest last
        self._done: dict[int, GameReview] = {}
        self._keep = keep

    @property
    def in_process(self) -> bool:
        """Whether the reviews run in a separate process (else in a thread of this one)."""
        return self.workers > 0

    def _drain(self) -> None:
        """Take the worker's progress reports (caller holds the lock)."""
        if self._queue is None:
            return
        while True:
            try:
                game_id, done, total = self._queue.get_nowait()
            except (queue.Empty, OSError, ValueError, EOFError):
                return
            job = self._jobs.get(game_id)
            if job is not None and job["error"] is None:
                job.update(done=max(job["done"], done), total=total)

    def progress(self, game_id: int) -> dict[str, Any] | None:
        """``{"done", "total", "error"}`` of the review of ``game_id`` while it runs or after it
        failed; None when none runs."""
        with self._lock:
            self._drain()
            job = self._jobs.get(game_id)
            return None if job is None else dict(job)

    def running(self) -> dict[int, dict[str, Any]]:
        """Every review running now: game id -> ``{"done", "total"}``."""
        with self._lock:
            self._drain()
            return {g: {"done": j["done"], "total": j["total"]} for g, j in self._jobs.items() if j["error"] is None}

    def finished(self, game_id: int) -> GameReview | None:
        with self._lock:
            return self._done.get(game_id)

    def _executor(self) -> Executor:
        if self._pool is None:
            if self.workers:
                ctx = multiprocessing.get_context("spawn")  # never a fork of a server with threads
                self._queue, self._stop = ctx.Queue(), ctx.Event()
                self._pool = ProcessPoolExecutor(
                    self.workers, mp_context=ctx, initializer=_worker_init, initargs=(self._queue, self._stop)
                )
            else:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="review")
        return self._pool

    def start(self, game_id: int, total: int, *, asked: bool = False) -> dict[str, Any]:
        """Start reviewing ``game_id`` unless it already runs (or the server is stopping); returns its
        progress.  ``asked``: by a request, refused (:class:`ReviewsBusy`) while :attr:`most` reviews
        wait or run (a match's own review, started when it ends, is never refused)."""
        with self._lock:
            job = self._jobs.get(game_id)
            if job is not None and job.get("error") is None:
                return dict(job)
            if asked and sum(j["error"] is None for j in self._jobs.values()) >= self.most:
                raise ReviewsBusy(f"the server is reviewing {self.most} games now; ask again in a minute")
            job = {"done": 0, "total": total, "error": None}
            if self._closed:
                return dict(job)
            self._jobs[game_id] = job
            try:
                if self.workers:
                    fut = self._executor().submit(_review_in_worker, self.store.url, self.store.read_only, game_id)
                else:
                    fut = self._executor().submit(self._run_here, game_id)
            except RuntimeError as err:  # shut down meanwhile
                job["error"] = str(err)
                return dict(job)
        fut.add_done_callback(lambda f: self._ended(game_id, f))
        return dict(job)

    def _run_here(self, game_id: int) -> Any:
        from ..records.reviews import review_game

        def note(done: int, total: int) -> None:
            with self._lock:
                self._jobs[game_id].update(done=done, total=total)
            if self._closed:
                raise _Stopped()

        return review_game(self.store, game_id, progress=note)

    def _ended(self, game_id: int, fut: Future[Any]) -> None:
        err = None if fut.cancelled() else fut.exception()
        with self._lock:
            self._drain()
            if fut.cancelled() or isinstance(err, _Stopped):
                self._jobs.pop(game_id, None)
                return
            if isinstance(err, BrokenProcessPool) and self._pool is not None and not self._closed:
                # the worker died (killed, out of memory): the next review starts a new one
                broken, self._pool = self._pool, None
                broken.shutdown(wait=False, cancel_futures=True)
                err = RuntimeError("the review's worker process ended abruptly; ask again to retry")
            if err is not None:  # any failure is said to the page (one line), never a dead job
                what = self._scrub(" ".join(str(err).split()))[:300] or type(err).__name__
                self._jobs[game_id]["error"] = what
                if not self._closed:
                    log.warning("the review of game %s failed: %s", game_id, what)
                return
            review = fut.result()
            if self.store.read_only and review is not None:
                if isinstance(review, dict):
                    from ..review import GameReview

                    review = GameReview.from_dict(review)
                self._done[game_id] = review
                while len(self._done) > self._keep:
                    self._done.pop(next(iter(self._done)))
            self._jobs.pop(game_id, None)

    def close(self) -> None:
        """End the reviews with the app: a running one stops after its hand (the hands done are
        stored); a worker process still busy a second later is terminated (the hand it was doing is
        lost, never half stored: each hand's review is one transaction)."""
        with self._lock:
            self._closed = True
            pool = self._pool
        if pool is None:
            return
        if self._stop is not None:
            self._stop.set()
        procs = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for p in procs:
            p.join(1.0)
            if p.is_alive():
                p.terminate()
                p.join(2.0)
        if self._queue is not None:
            with contextlib.suppress(Exception):
                self._queue.close()
                self._queue.join_thread()
