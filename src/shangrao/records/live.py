"""Live-table helpers on top of :class:`~shangrao.records.Store` (used by ``shangrao serve``).

Each is a function of the Store's public methods (kept as functions for the callers of 0.x):

* :func:`append_events` commits all events of ONE applied action in one transaction (so the log
  never holds half an action); :func:`insert_events` is the server's fast path for the same (the
  caller knows the position of the first event, so the rows go in with one INSERT and no reads);
  :func:`insert_event_batches` commits the actions of several tables at once (the server's group
  commit).  All three, and :meth:`Store.append_event`, go through the Store's one append path:
  each event is JSON-encoded once and written by one INSERT.
* :func:`update_meta` / :func:`set_players` change an unfinished game's ``meta`` / ``players`` (a
  web table records its seat claims there).
* :func:`game_head` / :func:`game_heads` read games' rows without their hands;
  :func:`last_event_time` when the last live event of a hand was stored (a restarted server resumes
  a countdown from there).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from .store import GameSummary, Store

__all__ = [
    "append_events",
    "game_head",
    "game_heads",
    "insert_event_batches",
    "insert_events",
    "last_event_time",
    "set_players",
    "update_meta",
]


def append_events(store: Store, game_id: int, hand_index: int, events: Iterable[Any]) -> int:
    """Commit the events (in order) of a hand in progress in ONE transaction (:meth:`Store.append_events`)."""
    return store.append_events(game_id, hand_index, events)


def insert_events(
    store: Store, game_id: int, hand_index: int, first_seq: int, events: Iterable[Any], when: datetime | None = None
) -> None:
    """:meth:`Store.insert_events`: events at positions ``first_seq, …`` in ONE transaction (one INSERT)."""
    store.insert_events(game_id, hand_index, first_seq, events, when)


def insert_event_batches(
    store: Store, batches: Sequence[tuple[int, int, int, Sequence[Any]]], when: datetime | None = None
) -> list[Exception | None]:
    """:meth:`Store.insert_event_batches`: several tables' actions in ONE transaction; per batch None or
    the error that refused it."""
    return store.insert_event_batches(batches, when)


def game_head(store: Store, game_id: int) -> GameSummary:
    """:meth:`Store.game_head`: the game's row without its hands; raises GameNotFound."""
    return store.game_head(game_id)


def game_heads(store: Store, game_ids: Iterable[int]) -> list[GameSummary]:
    """:meth:`Store.game_heads`: the rows of the games that exist (newest first), one query."""
    return store.game_heads(game_ids)


def last_event_time(store: Store, game_id: int, hand_index: int) -> datetime | None:
    """:meth:`Store.last_event_time`: when the hand's last live event (by position) was stored."""
    return store.last_event_time(game_id, hand_index)


def update_meta(store: Store, game_id: int, patch: dict[str, Any]) -> dict[str, Any]:
    """:meth:`Store.update_meta`: merge ``patch`` into the game's ``meta``; returns the new meta."""
    return store.update_meta(game_id, patch)


def set_players(store: Store, game_id: int, players: Sequence[str], meta_patch: dict[str, Any] | None = None) -> None:
    """:meth:`Store.set_players`: replace the seat names, optionally with a meta patch."""
    store.set_players(game_id, players, meta_patch)
