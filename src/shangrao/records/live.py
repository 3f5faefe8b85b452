"""Live-table helpers on top of :class:`~shangrao.records.Store` (used by ``shangrao serve``).

* :func:`append_events` commits all events of ONE applied action in one
  transaction (so the log never holds half an action).
* :func:`insert_events` is the server's fast path for the same: the caller knows the
  position of the first event in the hand (it holds the hand), so the rows go in with one
  INSERT and no reads; a repeated position is refused by the table's unique key.
  :func:`insert_event_batches` commits the actions of several tables at once (the server's
  group commit: one transaction for all the actions that came in while the last one was
  being written), each action's events still all or nothing.
* :func:`update_meta` / :func:`set_players` change an unfinished game's
  ``meta`` / ``players`` (a web table records its seat claims there).
* :func:`game_head` reads a game's row without its hands (a token check before loading);
  :func:`game_heads` the same for a few
  games at once (the lobby's 回到我的座位); :func:`last_event_time` when the last live event of a hand was stored (a restarted server
  resumes a countdown from there).

These use the Store's own tables and sessions; nothing here changes the schema.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError, OperationalError

from .schema import EventRow, GameRow, utcnow
from .store import (
    GameSummary,
    RecordError,
    Store,
    _aware,
    _dumps,
    _summary,
    event_to_dict,
)

__all__ = ["append_events", "game_head", "game_heads", "insert_event_batches", "insert_events", "last_event_time",
           "set_players", "update_meta"]


def append_events(store: Store, game_id: int, hand_index: int, events: Iterable[Any]) -> int:
    """Commit the events (in order) of a hand in progress in ONE transaction (:meth:`Store.append_events`)."""
    return store.append_events(game_id, hand_index, events)


def _event_rows(game_id: int, hand_index: int, first_seq: int, events: Iterable[Any], when: datetime) -> list[dict]:
    rows = []
    for i, ev in enumerate(events):
        e = event_to_dict(ev)
        _dumps(e)
        rows.append({"game_id": game_id, "hand_index": hand_index, "seq": first_seq + i, "event": e,
                     "created": when})
    return rows


def insert_events(store: Store, game_id: int, hand_index: int, first_seq: int, events: Iterable[Any],
                  when: datetime | None = None) -> None:
    """Commit events of a hand in progress at positions ``first_seq, first_seq+1, …`` in ONE
    transaction (one INSERT).  Raises :class:`RecordError` if a position is taken or the
    database refuses the write."""
    _insert_rows(store, _event_rows(game_id, hand_index, first_seq, events, when or utcnow()))


def _insert_rows(store: Store, rows: list[dict]) -> None:
    """One transaction, one INSERT (Core, no ORM session: this runs once per action)."""
    if not rows:
        return
    try:
        with store.engine.begin() as conn:
            conn.execute(insert(EventRow), rows)
    except OperationalError as err:
        raise RecordError(f"cannot write events of game {rows[0]['game_id']}: "
                          f"{' '.join(str(err.orig if err.orig is not None else err).split())}") from None
    except IntegrityError as err:
        r = rows[0]
        raise RecordError(f"game {r['game_id']}: hand {r['hand_index']} event {r['seq']} is already stored "
                          f"({type(err.orig).__name__})") from None


def insert_event_batches(store: Store, batches: Sequence[tuple[int, int, int, Sequence[Any]]],
                         when: datetime | None = None) -> list[Exception | None]:
    """Commit several :func:`insert_events` calls — batches ``(game_id, hand_index, first_seq,
    events)``, e.g. the actions of several tables — in ONE transaction (one INSERT).

    Returns per batch None (stored) or the error that refused it; never raises.  If the shared
    transaction fails, each batch is tried again in its own transaction, so a batch the database
    refuses (a position already taken) fails alone, and a failing database fails each batch with
    its own error."""
    when = when or utcnow()
    out: list[Exception | None] = [None] * len(batches)
    rows: list[list[dict]] = []
    for i, (game_id, hand_index, first_seq, events) in enumerate(batches):
        try:
            rows.append(_event_rows(game_id, hand_index, first_seq, events, when))
        except Exception as err:  # an event that is not JSON: that batch alone is refused
            out[i] = err
            rows.append([])
    todo = [i for i, err in enumerate(out) if err is None]
    if len(todo) > 1:
        try:
            _insert_rows(store, [r for i in todo for r in rows[i]])
            return out
        except Exception:  # each batch on its own says whose write fails and why
            pass
    for i in todo:
        try:
            _insert_rows(store, rows[i])
        except Exception as err:  # returned to its caller
            out[i] = err
    return out


def game_head(store: Store, game_id: int) -> GameSummary:
    """The game's row (kind, status, meta …) without reading its hands; raises GameNotFound."""
    with store._session() as s:
        return GameSummary(**_summary(store._game(s, game_id)))


def game_heads(store: Store, game_ids: Iterable[int]) -> list[GameSummary]:
    """The rows of the games ``game_ids`` that exist (newest first), without their hands; one query."""
    ids = sorted({int(i) for i in game_ids})
    if not ids:
        return []
    with store._session() as s:
        rows = s.scalars(select(GameRow).where(GameRow.id.in_(ids)).order_by(GameRow.id.desc()))
        return [GameSummary(**_summary(r)) for r in rows]


def last_event_time(store: Store, game_id: int, hand_index: int) -> datetime | None:
    """When the last live event of the hand (the one at the highest position) was stored (UTC), or
    None.  By position, not the largest time: a wall clock stepped back while a server ran stored
    later events with earlier times (issue 25)."""
    with store._session() as s:
        return _aware(s.scalar(select(EventRow.created).where(
            EventRow.game_id == game_id, EventRow.hand_index == hand_index).order_by(EventRow.seq.desc()).limit(1)))


def update_meta(store: Store, game_id: int, patch: dict) -> dict:
    """Merge ``patch`` into the game's ``meta`` (one transaction); returns the new meta."""
    _dumps(patch)
    with store._write() as s:
        game = store._game(s, game_id)
        meta = {**(game.meta or {}), **patch}
        game.meta = meta
        game.updated = utcnow()
        return dict(meta)


def set_players(store: Store, game_id: int, players: Sequence[str], meta_patch: dict | None = None) -> None:
    """Replace the seat names (e.g. an empty seat filled by a bot), optionally with a meta patch."""
    with store._write() as s:
        game = store._game(s, game_id)
        game.players = [str(p) for p in players]
        if meta_patch:
            _dumps(meta_patch)
            game.meta = {**(game.meta or {}), **meta_patch}
        game.updated = utcnow()
