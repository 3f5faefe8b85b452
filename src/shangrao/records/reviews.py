"""Stored game reviews (issue 37): a hand's review is computed once and kept in ``reviews`` beside the
game (revision 0005), keyed by the evaluator's name and version.

The review itself is computed by :mod:`shangrao.review` (a layer below); this module only stores and
reads its JSON (``HandReview.to_dict()``, every seat of the hand)::

    >>> from shangrao.records import Store
    >>> store = Store("sqlite://")
    >>> gid = store.create_game("simulate", ["expert"] * 4)
    >>> save_review(store, gid, 0, "expert", "1", {"hand": 0, "decisions": []})
    >>> load_reviews(store, gid, "expert", "1")
    {0: {'hand': 0, 'decisions': []}}
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import inspect, select
from sqlalchemy.exc import IntegrityError

from .schema import ReviewRow, utcnow
from .store import RecordError, Store

__all__ = ["delete_reviews", "load_reviews", "review_game", "save_review"]


def _has_reviews(store: Store, s) -> bool:
    """Whether the database has the reviews table (one opened read-only before 0005 has not)."""
    return not store.read_only or inspect(s.connection()).has_table("reviews")


def save_review(store: Store, game_id: int, hand_index: int, evaluator: str, version: str,
                review: dict[str, Any]) -> None:
    """Keep the review of hand ``hand_index`` (0-based) of game ``game_id`` (one transaction); a
    review of that hand by the same evaluator version already stored is kept (the first wins).
    Raises :class:`RecordError` (GameNotFound for a game that is not there)."""
    try:
        with store._write() as s:
            store._game(s, game_id)
            if s.scalars(select(ReviewRow.id).where(
                    ReviewRow.game_id == game_id, ReviewRow.hand_index == hand_index,
                    ReviewRow.evaluator == evaluator, ReviewRow.version == version)).first() is None:
                s.add(ReviewRow(game_id=game_id, hand_index=hand_index, evaluator=evaluator, version=version,
                                review=review, created=utcnow()))
    except IntegrityError:  # another writer stored it first: one review a hand
        return


def load_reviews(store: Store, game_id: int, evaluator: str, version: str) -> dict[int, dict[str, Any]]:
    """The stored reviews of game ``game_id`` by that evaluator version: hand index -> review JSON
    ({} when none, or when the database predates reviews).  Raises :class:`RecordError`."""
    with store._read(f"the reviews of game {game_id}") as s:
        if not _has_reviews(store, s):
            return {}
        rows = s.execute(select(ReviewRow.hand_index, ReviewRow.review).where(
            ReviewRow.game_id == game_id, ReviewRow.evaluator == evaluator, ReviewRow.version == version)).all()
        out = {}
        for index, review in rows:
            if not isinstance(review, dict):
                raise RecordError(f"game {game_id}, hand {index + 1}: the stored review is damaged")
            out[int(index)] = review
        return out


def delete_reviews(store: Store, game_id: int) -> int:
    """Drop every stored review of game ``game_id`` (they are computed again when asked); returns how
    many.  Raises :class:`RecordError`."""
    with store._write() as s:
        rows = list(s.scalars(select(ReviewRow).where(ReviewRow.game_id == game_id)))
        for r in rows:
            s.delete(r)
        return len(rows)


def review_game(store: Store, game_id: int, *, hand: int | None = None, evaluator=None,
                progress: Callable[[int, int], None] | None = None):
    """The review of game ``game_id`` (every seat; ``hand``: only that hand, 0-based), each hand read
    from ``reviews`` when stored, else computed (:func:`shangrao.review.review_events`) and stored there
    (a read-only store: computed, not stored).  ``progress(done, total)`` after each hand.  Returns a
    :class:`shangrao.review.GameReview`.  Raises GameNotFound, RecordError (a damaged record),
    :class:`~shangrao.game.ReplayError` naming the hand whose log does not replay."""
    from ..bots.evaluator import ExpertEvaluator
    from ..game.events import ReplayError
    from ..review import GameReview, HandReview, review_events, summarize

    ev = evaluator or ExpertEvaluator()
    rec = store.load_game(game_id, hand=hand)
    stored = load_reviews(store, game_id, ev.name, ev.version)
    out: list[HandReview] = []
    total = len(rec.hands)
    for n, h in enumerate(rec.hands, start=1):
        got = stored.get(h.index)
        hr = None
        if got is not None:
            try:
                hr = HandReview.from_dict(got)
            except (KeyError, TypeError, ValueError):
                hr = None  # a review stored by hand or damaged: computed again (and not stored twice)
        if hr is None:
            try:
                hr = review_events(h.events, None, hand=h.index, evaluator=ev)
            except ReplayError as err:
                raise ReplayError(f"hand {h.index + 1}: {err}") from None
            if not store.read_only and got is None:
                save_review(store, game_id, h.index, ev.name, ev.version, hr.to_dict())
        out.append(hr)
        if progress is not None:
            progress(n, total)
    seats = [0, 1, 2, 3]
    return GameReview(ev.name, ev.version, seats, out, summarize(out, seats))
