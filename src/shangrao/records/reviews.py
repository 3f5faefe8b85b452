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

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import inspect, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .schema import ReviewRow, utcnow
from .store import Store

if TYPE_CHECKING:
    from ..bots.evaluator import Evaluator
    from ..review import GameReview, HandReview

__all__ = ["delete_reviews", "load_reviews", "review_game", "save_review", "stored_hand_reviews"]


def _has_reviews(store: Store, s: Session) -> bool:
    """Whether the database has the reviews table (one opened read-only before 0005 has not)."""
    return not store.read_only or inspect(s.connection()).has_table("reviews")


def save_review(
    store: Store,
    game_id: int,
    hand_index: int,
    evaluator: str,
    version: str,
    review: dict[str, Any],
    *,
    replace: bool = False,
) -> None:
    """Keep the review of hand ``hand_index`` (0-based) of game ``game_id`` (one transaction); a
    review of that hand by the same evaluator version already stored is kept (the first wins), or,
    with ``replace`` (the stored one is damaged), overwritten.  Raises :class:`RecordError`
    (GameNotFound for a game that is not there)."""
    try:
        with store._write() as s:
            store._game(s, game_id)
            row = s.scalars(
                select(ReviewRow).where(
                    ReviewRow.game_id == game_id,
                    ReviewRow.hand_index == hand_index,
                    ReviewRow.evaluator == evaluator,
                    ReviewRow.version == version,
                )
            ).first()
            if row is None:
                s.add(
                    ReviewRow(
                        game_id=game_id,
                        hand_index=hand_index,
                        evaluator=evaluator,
                        version=version,
                        review=review,
                        created=utcnow(),
                    )
                )
            elif replace:
                row.review, row.created = review, utcnow()
    except IntegrityError:  # another writer stored it first: one review a hand
        return


def load_reviews(store: Store, game_id: int, evaluator: str, version: str) -> dict[int, Any]:
    """The stored reviews of game ``game_id`` by that evaluator version: hand index -> review JSON as
    stored ({} when none, or when the database predates reviews).  A value edited or damaged into
    another shape is returned as it is: :func:`review_game` computes that hand again and replaces it
    (a review is derived data), :func:`stored_hand_reviews` leaves it out.  Raises
    :class:`RecordError` (the database cannot be read)."""
    with store._read(f"the reviews of game {game_id}") as s:
        if not _has_reviews(store, s):
            return {}
        rows = s.execute(
            select(ReviewRow.hand_index, ReviewRow.review).where(
                ReviewRow.game_id == game_id, ReviewRow.evaluator == evaluator, ReviewRow.version == version
            )
        ).all()
        return {int(index): review for index, review in rows}


def _number(x: Any, whole: bool = False) -> bool:
    if isinstance(x, bool) or not isinstance(x, int if whole else (int, float)):
        return False
    return math.isfinite(x)


def _well_formed(hr: Any) -> bool:
    """Whether a stored hand review read back has the shape and types the CLI, the web and the
    summaries rely on (finite numbers where numbers are, strings where words are)."""
    from ..review import Decision, Option, Summary

    def seat(x: Any) -> bool:
        return _number(x, True) and 0 <= x <= 3

    def option(o: Any) -> bool:
        return (
            isinstance(o, Option)
            and isinstance(o.action, str)
            and _number(o.value)
            and (o.stderr is None or _number(o.stderr))
        )

    def decision(d: Any) -> bool:
        return (
            isinstance(d, Decision)
            and seat(d.seat)
            and all(_number(x, True) for x in (d.hand, d.event, d.step))
            and all(isinstance(x, str) for x in (d.phase, d.chosen, d.best, d.reason, d.reason_zh))
            and isinstance(d.tiles, list)
            and all(_number(t, True) for t in d.tiles)
            and (d.drawn is None or _number(d.drawn, True))
            and isinstance(d.options, list)
            and all(option(o) for o in d.options)
            and _number(d.loss)
            and (d.stderr is None or _number(d.stderr))
        )

    def summary(v: Any) -> bool:
        return (
            isinstance(v, Summary)
            and all(_number(getattr(v, k), True) for k in ("decisions", "matches", "hands", "mistakes", "big_mistakes"))
            and all(_number(getattr(v, k)) for k in ("match_rate", "loss", "loss_per_hand"))
            and isinstance(v.largest, list)
            and all(isinstance(x, dict) for x in v.largest)
        )

    return (
        _number(hr.hand, True)
        and isinstance(hr.seats, list)
        and all(seat(s) for s in hr.seats)
        and isinstance(hr.decisions, list)
        and all(decision(d) for d in hr.decisions)
        and isinstance(hr.summary, dict)
        and all(isinstance(k, str) and summary(v) for k, v in hr.summary.items())
        and _number(hr.seconds)
    )


def _hand_review(got: Any) -> HandReview | None:
    """A stored hand review as a :class:`shangrao.review.HandReview`, or None where it is damaged
    (not an object, a key missing, a value of another type or not finite)."""
    from ..review import HandReview

    if not isinstance(got, dict):
        return None
    try:
        hr = HandReview.from_dict(got)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    return hr if _well_formed(hr) else None


def stored_hand_reviews(store: Store, game_id: int, evaluator: str, version: str) -> dict[int, HandReview]:
    """The usable stored reviews of game ``game_id`` (hand index -> :class:`shangrao.review.HandReview`);
    a damaged one is left out (it is computed again).  Raises :class:`RecordError`."""
    out: dict[int, HandReview] = {}
    for index, got in load_reviews(store, game_id, evaluator, version).items():
        hr = _hand_review(got)
        if hr is not None:
            out[index] = hr
    return out


def delete_reviews(store: Store, game_id: int) -> int:
    """Drop every stored review of game ``game_id`` (they are computed again when asked); returns how
    many.  Raises :class:`RecordError`."""
    with store._write() as s:
        rows = list(s.scalars(select(ReviewRow).where(ReviewRow.game_id == game_id)))
        for r in rows:
            s.delete(r)
        return len(rows)


def review_game(
    store: Store,
    game_id: int,
    *,
    hand: int | None = None,
    evaluator: Evaluator | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> GameReview:
    """The review of game ``game_id`` (every seat; ``hand``: only that hand, 0-based), each hand read
    from ``reviews`` when stored, else computed (:func:`shangrao.review.review_events`) and stored there
    (a read-only store: computed, not stored).  ``progress(done, total)`` after each hand.  Returns a
    :class:`shangrao.review.GameReview`.  Raises GameNotFound, RecordError (a damaged record),
    :class:`~shangrao.game.ReplayError` naming the hand whose log does not replay."""
    from ..bots.evaluator import ExpertEvaluator
    from ..game.events import ReplayError
    from ..review import GameReview, review_events, summarize

    ev = evaluator or ExpertEvaluator()
    rec = store.load_game(game_id, hand=hand)
    stored = load_reviews(store, game_id, ev.name, ev.version)
    out: list[HandReview] = []
    total = len(rec.hands)
    for n, h in enumerate(rec.hands, start=1):
        got = stored.get(h.index)
        hr = None if got is None else _hand_review(got)
        if hr is None:  # not stored yet, or stored damaged (edited by hand): computed, and stored in its place
            try:
                hr = review_events(h.events, None, hand=h.index, evaluator=ev)
            except ReplayError as err:
                raise ReplayError(f"hand {h.index + 1}: {err}") from None
            if not store.read_only:
                save_review(store, game_id, h.index, ev.name, ev.version, hr.to_dict(), replace=got is not None)
        out.append(hr)
        if progress is not None:
            progress(n, total)
    seats = [0, 1, 2, 3]
    return GameReview(ev.name, ev.version, seats, out, summarize(out, seats))
