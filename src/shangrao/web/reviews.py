"""Game reviews for the web (issue 37): computed in the background, one game at a time, with progress.

:class:`ReviewJobs` runs :func:`shangrao.records.reviews.review_game` in its own thread (one: a
review is CPU work, about 1 s a hand for the four seats on one core), so neither the tables nor the
history reads wait for it; each hand's review is stored as it is done (``reviews``), so a review
asked again — or after a restart — is read back, not computed again.  ``progress(game_id)`` says how
far a running one is; a server on read-only storage keeps the finished reviews in memory instead.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..records import Store

__all__ = ["ReviewJobs"]


class ReviewJobs:
    """The background reviews of one server (see the module doc)."""

    def __init__(self, store: Store, keep: int = 32) -> None:
        self.store = store
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="review")
        self._lock = threading.Lock()
        #: game id -> {"done", "total", "error"} while running or failed
        self._jobs: dict[int, dict[str, Any]] = {}
        #: finished reviews of a read-only store (nothing is stored there), newest last
        self._done: dict[int, Any] = {}
        self._keep = keep

    def progress(self, game_id: int) -> dict[str, Any] | None:
        with self._lock:
            job = self._jobs.get(game_id)
            return None if job is None else dict(job)

    def finished(self, game_id: int):
        with self._lock:
            return self._done.get(game_id)

    def start(self, game_id: int, total: int) -> dict[str, Any]:
        """Start reviewing ``game_id`` unless it already runs; returns its progress."""
        with self._lock:
            job = self._jobs.get(game_id)
            if job is not None and job.get("error") is None:
                return dict(job)
            job = {"done": 0, "total": total, "error": None}
            self._jobs[game_id] = job
        self._pool.submit(self._run, game_id)
        return dict(job)

    def _run(self, game_id: int) -> None:
        from ..records.reviews import review_game

        def note(done: int, total: int) -> None:
            with self._lock:
                self._jobs[game_id].update(done=done, total=total)

        try:
            review = review_game(self.store, game_id, progress=note)
        except Exception as err:  # any failure is said to the page (one line), never a dead job
            with self._lock:
                self._jobs[game_id]["error"] = " ".join(str(err).split())[:300] or type(err).__name__
            return
        with self._lock:
            if self.store.read_only:
                self._done[game_id] = review
                while len(self._done) > self._keep:
                    self._done.pop(next(iter(self._done)))
            self._jobs.pop(game_id, None)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
