"""Live-table helpers on top of :class:`~shangrao.records.Store` (used by ``shangrao serve``).

* :func:`append_events` commits all events of ONE applied action in one
  transaction (so the log never holds half an action).
* :func:`update_meta` / :func:`set_players` change an unfinished game's
  ``meta`` / ``players`` (a web table records its seat claims there).

These use the Store's own tables and sessions; nothing here changes the schema.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .schema import utcnow
from .store import Store, _dumps

__all__ = ["append_events", "update_meta", "set_players"]


def append_events(store: Store, game_id: int, hand_index: int, events: Iterable[Any]) -> int:
    """Commit the events (in order) of a hand in progress in ONE transaction (:meth:`Store.append_events`)."""
    return store.append_events(game_id, hand_index, events)


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
