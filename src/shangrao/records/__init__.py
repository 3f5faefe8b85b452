"""Game records: storage of matches, hands and live events (SQLite by default, PostgreSQL by URL).

* :mod:`.store` — :class:`Store` (SQLAlchemy 2.x), its guarantees and the database URLs;
* :mod:`.compact` — compact hands (revision 0004): a hand stored by its decisions, replayed when read;
* :mod:`.schema` — the tables; :mod:`.summary` — statistics over stored hands;
* :mod:`.migrations` — the tables' revisions (Alembic), run when a Store opens a database to write;
* :mod:`.live` — helpers for a server that stores each action before showing it;
* :mod:`.owner` — one server at a time plays a database's live tables (a lock held while it runs).

>>> from shangrao.records import Store
>>> store = Store("sqlite://")                      # in memory
>>> gid = store.create_game("simulate", ["greedy"] * 4, seed=1, rules={})
>>> store.load_game(gid).players
['greedy', 'greedy', 'greedy', 'greedy']
"""

from __future__ import annotations

from .codec import DamagedRecordError, GameNotFound, RecordError
from .store import (
    GAME_KINDS as GAME_KINDS,  # the 0.1.0 name of GAME_MODES
)
from .store import (
    GAME_MODES,
    CompactHand,
    GameRecord,
    GameSummary,
    NewGame,
    Store,
    StoredHand,
    default_db_url,
    event_to_dict,
    resolve_db,
)

__all__ = [
    "GAME_MODES",
    "GameNotFound",
    "GameRecord",
    "GameSummary",
    "StoredHand",
    "CompactHand",
    "DamagedRecordError",
    "NewGame",
    "RecordError",
    "Store",
    "default_db_url",
    "event_to_dict",
    "resolve_db",
]
