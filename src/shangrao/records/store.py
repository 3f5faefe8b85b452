"""Game records: a small storage layer over SQLAlchemy 2.x (SQLite by default, PostgreSQL too).

>>> store = Store("sqlite://")                      # in memory
>>> gid = store.create_game("simulate", ["greedy"] * 4, seed=1, rules={})
>>> store.append_hand(gid, 0, dealer=0, events=[{"type": "deal"}], result={"deltas": [6, -2, -2, -2]})
>>> store.load_game(gid).hands[0].events
[{'type': 'deal'}]

Guarantees
----------
* Every :meth:`Store.append_hand` is one transaction: the hand row, the game's
  running scores and hand count, and the removal of the hand's live event rows
  commit together or not at all.  A process killed between hands loses nothing;
  a stored game never holds half a hand.
* :meth:`Store.append_event` commits one event at a time (for a server that
  stores each action before broadcasting it); :meth:`Store.load_game` returns
  the events of a hand still in progress in ``GameRecord.pending``.
* Hands are appended in order (0, 1, 2, …); a gap or a repeat is refused.
* :meth:`Store.insert_games` writes whole games of *compact* hands (their decisions, not their events:
  :mod:`shangrao.records.compact`, revision 0004) in one transaction; ``StoredHand.events`` of such a
  hand replays them when first read, the same events a full record holds.
* One append path: every live event is JSON-encoded once and written by one INSERT
  (:meth:`Store.append_events`, :meth:`Store.insert_events`, :meth:`Store.insert_event_batches`).
* The tables change only through migrations (:mod:`shangrao.records.migrations`).

URLs: anything SQLAlchemy accepts (``sqlite:///path``, ``postgresql+psycopg://…``);
:func:`resolve_db` also takes a plain file path.  The default database is
``platformdirs.user_data_dir('shangrao')/shangrao.sqlite3``, or the
``SHANGRAO_DB`` environment variable when set.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import create_engine, delete, event, func, insert, inspect, select
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session, defer, sessionmaker

from ..errors import quote
from .codec import DamagedRecordError, GameNotFound, RecordError, _dumps, event_to_dict
from .schema import SCHEMA_VERSION, Base, EventRow, GameRow, HandRow, utcnow

if TYPE_CHECKING:
    import sqlite3

    from sqlalchemy.engine.interfaces import DBAPIConnection
    from sqlalchemy.pool import ConnectionPoolEntry

__all__ = [
    "Store",
    "RecordError",
    "GameNotFound",
    "GameRecord",
    "GameSummary",
    "StoredHand",
    "CompactHand",
    "NewGame",
    "default_db_url",
    "resolve_db",
    "event_to_dict",
    "GAME_MODES",
]

#: how a stored game was played (its ``mode``; the column and the JSON key are ``kind``, as in 0.1.0)
GAME_MODES = ("simulate", "play")
GAME_KINDS = GAME_MODES  # the 0.1.0 name
_MAX_SEED = 2**63 - 1


def default_db_url() -> str:
    """``SHANGRAO_DB`` (path or URL) if set, else the SQLite file under the user's data directory."""
    env = os.environ.get("SHANGRAO_DB")
    if env:
        return resolve_db(env)
    from platformdirs import user_data_dir

    return resolve_db(str(Path(user_data_dir("shangrao")) / "shangrao.sqlite3"))


def resolve_db(db: str | os.PathLike[str] | None) -> str:
    """A ``--db`` value as a database URL: a URL (``scheme://…``) as is, a path as an SQLite file URL."""
    if db is None:
        return default_db_url()
    text = os.fspath(db)
    if "://" in text:
        return text
    if not text.strip():
        raise RecordError("empty database path")
    path = Path(text).expanduser().resolve()
    if path.is_dir():
        raise RecordError(
            f"{quote(text)} is a directory; give a database file, e.g. {quote(str(path / 'shangrao.sqlite3'))}"
        )
    # a URL's database part is percent-decoded and ends at "?": escape both, so a file named
    # "a%20b" or "x?.sqlite3" is that file, not "a b" or "x" (issue 34, tried with odd paths)
    return "sqlite:///" + str(path).replace("%", "%25").replace("?", "%3F")


def _read_only_creator(path: str) -> Callable[[], sqlite3.Connection]:
    """A sqlite3 connect function opening ``path`` read-only (``mode=ro``, else ``immutable=1``)."""
    import sqlite3
    from urllib.parse import quote

    uri = "file:" + quote(str(Path(path).resolve()))

    def connect() -> sqlite3.Connection:
        conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=30, check_same_thread=False)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchall()
            return conn
        except sqlite3.OperationalError:  # WAL on a read-only directory or medium: no -shm possible
            conn.close()
            return sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, timeout=30, check_same_thread=False)

    return connect


def _file_key(path: Path) -> tuple[int, int] | None:
    """(device, inode) of ``path`` by ``os.stat`` (nothing opened), None when it is not there."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _event_text(stored: Any) -> str:
    """A live event row's value as JSON text (a database read read-only before its upgrade to 0002 may
    still hold a JSON column, which the driver decodes)."""
    return stored if isinstance(stored, str) else _dumps(stored)


def _event_of(stored: Any) -> dict[str, Any]:
    """A live event row's value as the event object."""
    event: dict[str, Any] = json.loads(stored) if isinstance(stored, str) else stored
    return event


def _aware(dt: datetime | None) -> datetime | None:
    if dt is not None and dt.tzinfo is None:
        return dt.replace(tzinfo=UTC)
    return dt


class StoredHand:
    """One stored hand: index (0-based), dealer seat, events (dicts), result summary, scores after it.

    A compact hand (revision 0004: ``hands.decisions``, :mod:`shangrao.records.compact`) holds no
    events; ``events`` replays its decisions in the Python engine the first time it is read (about
    1.5 ms) and keeps them: the same events as a full record of the hand.  Reading ``events`` of a
    compact hand that does not replay raises :class:`~shangrao.records.compact.CompactHandError`
    (a :class:`RecordError`) naming the game and the hand.  ``compact`` tells the two apart.
    """

    __slots__ = ("_events", "_source", "created", "dealer", "index", "result", "scores_after")

    def __init__(
        self,
        index: int,
        dealer: int,
        events: list[dict[str, Any]] | None,
        result: dict[str, Any],
        scores_after: list[int],
        created: datetime | None = None,
        *,
        source: tuple[int, bytes, Any, Any] | None = None,
    ) -> None:
        if events is None and source is None:
            raise RecordError(f"hand {index}: give its events or the compact record to replay them from")
        self.index = index
        self.dealer = dealer
        self._events = events
        self.result = result
        self.scores_after = scores_after
        self.created = created
        #: (game id, decisions value, game seed, rules dict) of a compact hand not expanded yet
        self._source = source

    @property
    def compact(self) -> bool:
        """Whether the hand is stored by its decisions (``hands.decisions``) rather than its events."""
        return self._source is not None

    @property
    def events(self) -> list[dict[str, Any]]:
        if self._events is None:
            from .compact import expand_hand

            assert self._source is not None
            game_id, value, seed, rules = self._source
            self._events = expand_hand(game_id, self.index, self.dealer, value, seed, rules, self.result)
        return self._events

    @events.setter
    def events(self, value: list[dict[str, Any]]) -> None:
        self._events = value

    def _key(self) -> tuple[Any, ...]:
        return (self.index, self.dealer, self.events, self.result, self.scores_after, self.created)

    def to_dict(self) -> dict[str, Any]:
        """``{"index", "dealer", "events", "result", "scores_after", "created"}`` (the fields, as
        ``dataclasses.asdict`` gave them when this was a dataclass; a compact hand is replayed)."""
        return dict(zip(("index", "dealer", "events", "result", "scores_after", "created"), self._key()))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, StoredHand):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass it was

    def __repr__(self) -> str:
        events = f"<{len(self._events)} events>" if self._events is not None else "<compact, not replayed yet>"
        return (
            f"StoredHand(index={self.index!r}, dealer={self.dealer!r}, events={events}, result={self.result!r}, "
            f"scores_after={self.scores_after!r}, created={self.created!r})"
        )


@dataclass(frozen=True)
class CompactHand:
    """A completed hand to store by its decisions (:meth:`Store.insert_games`).

    index: 0-based position in the game; dealer: seat 0..3; decisions: the ``hands.decisions`` value
    (:func:`shangrao.records.compact.pack_hand`: the scores before the hand, a check, the decision
    codes); result: the summary (:func:`shangrao.records.summary.hand_summary`, JSON: finite numbers
    only); scores_after: the 4 cumulative scores after it."""

    index: int
    dealer: int
    decisions: bytes
    result: dict[str, Any]
    scores_after: Sequence[int]


@dataclass(frozen=True)
class NewGame:
    """A whole game to store at once (:meth:`Store.insert_games`): mode ('simulate'), the 4 player
    names, the match seed (its hands' seeds are ``f"{seed}:{index}"``), rules (``RuleSet.to_dict()``),
    meta, the hands in order, status ('finished'), and scores: the game's scores when it has no hands
    (else the last hand's ``scores_after``)."""

    mode: str
    players: Sequence[str]
    seed: int
    rules: dict[str, Any]
    meta: dict[str, Any]
    hands: Sequence[CompactHand]
    status: str = "finished"
    scores: Sequence[int] = (0, 0, 0, 0)


@dataclass
class GameSummary:
    """A row of :meth:`Store.list_games`."""

    id: int
    created: datetime
    updated: datetime
    mode: str  # 'simulate' | 'play' | 'web' …: how the game was played (stored as ``kind``)
    players: list[str]
    seed: int | None
    status: str
    hands_played: int
    scores: list[int]
    rules: dict[str, Any] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        """The 0.1.0 name of :attr:`mode`."""
        return self.mode

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d = {("kind" if k == "mode" else k): v for k, v in d.items()}  # the JSON key of 0.1.0
        d["created"] = self.created.isoformat() if self.created else None
        d["updated"] = self.updated.isoformat() if self.updated else None
        return d


@dataclass
class GameRecord(GameSummary):
    """A whole stored game: the summary, its completed hands, and live events of unfinished hands."""

    hands: list[StoredHand] = field(default_factory=list)
    #: hand index -> events appended by append_event for a hand not yet completed
    pending: dict[int, list[dict[str, Any]]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """:meth:`GameSummary.to_dict` with ``hands`` (:meth:`StoredHand.to_dict` each) and ``pending``."""
        d = super().to_dict()
        d["hands"] = [h.to_dict() for h in self.hands]
        return d


def _ints4(value: Any, what: str) -> list[int]:
    """A stored list of four ints (scores), or ValueError naming ``what`` (a row edited by hand)."""
    if (
        not isinstance(value, list)
        or len(value) != 4
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)
    ):
        raise ValueError(f"{what} is not a list of 4 integers: {quote(value)}")
    return list(value)


def _summary(row: GameRow) -> dict[str, Any]:
    players = row.players
    if not isinstance(players, list) or len(players) != 4 or not all(isinstance(p, str) for p in players):
        raise ValueError(f"players is not a list of 4 names: {quote(players)}")
    if not isinstance(row.hands_played, int) or row.hands_played < 0:
        raise ValueError(f"hands_played is not a count: {quote(row.hands_played)}")
    return dict(
        id=row.id,
        created=_aware(row.created),
        updated=_aware(row.updated),
        mode=row.kind,
        players=list(players),
        seed=row.seed,
        status=row.status,
        hands_played=row.hands_played,
        scores=_ints4(row.scores, "scores"),
        rules=dict(row.rules or {}),
        # a meta edited into something else than an object reads as empty (a web table: damaged, web/stored.py)
        meta=dict(row.meta) if isinstance(row.meta, dict) else {},
    )


def _hand(h: HandRow, game: GameRow) -> StoredHand:
    if not isinstance(h.dealer, int) or not 0 <= h.dealer <= 3:
        raise ValueError(f"hand {h.hand_index}: dealer is not a seat 0..3: {quote(h.dealer)}")
    if not isinstance(h.result, dict):
        raise ValueError(f"hand {h.hand_index}: the result is not an object: {quote(h.result)}")
    compact = h.__dict__.get("decisions")  # absent: a database before revision 0004, read as it is
    scores_after = _ints4(h.scores_after, f"hand {h.hand_index}: scores_after")
    if compact is not None:  # replayed when its events are first read (StoredHand.events)
        return StoredHand(
            index=h.hand_index,
            dealer=h.dealer,
            events=None,
            result=dict(h.result),
            scores_after=scores_after,
            created=_aware(h.created),
            source=(game.id, compact, game.seed, game.rules),
        )
    if h.events is None:
        raise ValueError(f"hand {h.hand_index}: neither events nor decisions are stored")
    return StoredHand(
        index=h.hand_index,
        dealer=h.dealer,
        events=[json.loads(line) for line in h.events.splitlines() if line.strip()],
        result=dict(h.result),
        scores_after=scores_after,
        created=_aware(h.created),
    )


class Store:
    """Game records in a database given by URL (see the module doc).

    Opened for writing, an empty database gets the tables, an older one is upgraded
    (:mod:`shangrao.records.migrations`); ``read_only=True`` changes nothing.  Raises
    :class:`RecordError` for a bad URL or an unreachable database, and its subclass
    :class:`~shangrao.records.migrations.SchemaError` for a database newer than this code or one that
    cannot be upgraded.
    """

    def __init__(
        self, url: str | os.PathLike[str] | None = None, *, echo: bool = False, read_only: bool = False
    ) -> None:
        self.url = resolve_db(url)
        self.read_only = read_only
        try:
            parsed = make_url(self.url)
        except ArgumentError as err:
            raise RecordError(f"not a database URL or path: {self.url!r} ({err})") from None
        kwargs: dict[str, Any] = {"echo": echo, "future": True}
        self._sqlite = parsed.get_backend_name() == "sqlite"
        #: SQLite file: the WAL file (device, inode) each open connection of this process opened
        self._wal_files: dict[int, tuple[int, int] | None] = {}
        self._wal_path: Path | None = None
        self._wal_generation = 0
        #: how many times :meth:`check_wal` found the WAL gone, and what it said the last time
        self.wal_losses = 0
        self.wal_problem: str | None = None
        engine_url: Any = self.url
        if self._sqlite:
            database = parsed.database or ""
            plain_file = bool(database) and database != ":memory:" and not database.startswith("file:")
            kwargs["connect_args"] = {"timeout": 30}
            if read_only and plain_file and not Path(database).exists():
                database = ""  # nothing stored yet: an empty in-memory database, nothing created on disk
                engine_url = "sqlite://"
            elif read_only and plain_file:
                # read-only commands (games, replay) open the file read-only, so a database on a
                # read-only directory or medium can be read; WAL needs its -shm file, and when that
                # cannot be created the file is opened as immutable (nobody can be writing it then)
                engine_url = "sqlite://"
                kwargs["creator"] = _read_only_creator(database)
            elif plain_file:
                Path(database).parent.mkdir(parents=True, exist_ok=True)
            if not database or database == ":memory:":
                from sqlalchemy.pool import StaticPool

                kwargs["poolclass"] = StaticPool
                kwargs["connect_args"]["check_same_thread"] = False
        try:
            self.engine: Engine = create_engine(engine_url, **kwargs)
        except (ArgumentError, ImportError, SQLAlchemyError) as err:
            raise RecordError(f"cannot open {self._safe_url()}: {err}") from None
        if self._sqlite:
            file_db = bool(database) and database != ":memory:" and not read_only

            wal_path = Path(database + "-wal")
            self._wal_path = wal_path if file_db else None

            @event.listens_for(self.engine, "connect")
            def _fk_on(dbapi_conn: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA foreign_keys=ON")
                if file_db:
                    # WAL + synchronous=NORMAL: a committed hand survives the process being
                    # killed (only a power cut may lose the last commits), without one fsync
                    # per hand; readers (replay, the web server) do not block the writer.
                    try:
                        mode = cur.execute("PRAGMA journal_mode=WAL").fetchone()
                        cur.execute("PRAGMA synchronous=NORMAL")
                    except Exception:
                        mode = None
                    if mode is not None and str(mode[0]).lower() == "wal":
                        with contextlib.suppress(Exception):  # a read opens the WAL (a new database's too)
                            cur.execute("SELECT count(*) FROM sqlite_master").fetchall()
                        self._wal_files[id(dbapi_conn)] = _file_key(wal_path)  # the file it opened
                    _record.info["wal_generation"] = self._wal_generation
                cur.close()

            @event.listens_for(self.engine, "checkin")
            def _checked_in(dbapi_conn: DBAPIConnection | None, record: ConnectionPoolEntry) -> None:
                # a connection that was checked out when check_wal found the WAL gone: closed as it comes
                # back, so no connection of this process shares SQLite's state of the lost WAL with a new one
                if (
                    dbapi_conn is not None
                    and record.info.get("wal_generation", self._wal_generation) != self._wal_generation
                ):
                    self._wal_files.pop(id(dbapi_conn), None)
                    record.invalidate()

            @event.listens_for(self.engine, "close")
            def _closed(dbapi_conn: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
                self._wal_files.pop(id(dbapi_conn), None)

            @event.listens_for(self.engine, "close_detached")
            def _closed_detached(dbapi_conn: DBAPIConnection) -> None:
                self._wal_files.pop(id(dbapi_conn), None)

        from .migrations import SchemaError, check, prepare

        try:
            if read_only and not self._sqlite:
                check(self.engine, self._safe_url())  # a server database: nothing is changed; newer is refused
            elif read_only and "creator" in kwargs:
                check(self.engine, self._safe_url())
                with self.engine.connect() as conn:
                    tables = conn.exec_driver_sql("SELECT name FROM sqlite_master WHERE type='table'").all()
                if "games" not in {t[0] for t in tables}:  # nothing stored yet: read as empty
                    from sqlalchemy.pool import StaticPool

                    self.engine.dispose()
                    self.engine = create_engine(
                        "sqlite://", future=True, poolclass=StaticPool, connect_args={"check_same_thread": False}
                    )
                    Base.metadata.create_all(self.engine)
            elif read_only:  # in memory, or a file: URI opened as the caller says
                check(self.engine, self._safe_url())
                with self.engine.connect() as conn:
                    stored = conn.exec_driver_sql("SELECT name FROM sqlite_master WHERE type='table'").all()
                if "games" not in {t[0] for t in stored}:  # nothing stored yet (an older one: read as it is,
                    Base.metadata.create_all(self.engine)  # without the tables of later revisions)
            else:
                # an empty database gets today's tables; an older one is upgraded; a newer one refused
                prepare(self.engine, self._safe_url(), Base.metadata.create_all)
        except SchemaError:
            self.engine.dispose()
            raise
        except SQLAlchemyError as err:
            raise RecordError(
                f"cannot open the records database {self._safe_url()}: "
                f"{' '.join(str(err.orig if hasattr(err, 'orig') else err).split())}"
            ) from None
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    # -- helpers -------------------------------------------------------------------
    def _safe_url(self) -> str:
        try:
            return make_url(self.url).render_as_string(hide_password=True)
        except ArgumentError:
            return repr(self.url)

    def _session(self) -> Session:
        return self._sessions()

    @contextlib.contextmanager
    def _write(self) -> Iterator[Session]:
        """One write transaction; a database that refuses the write (read-only, locked, full)
        is a :class:`RecordError` naming it, not a driver traceback."""
        try:
            with self._session() as s, s.begin():
                yield s
        except OperationalError as err:
            raise RecordError(
                f"cannot write to {self._safe_url()}: "
                f"{' '.join(str(err.orig if err.orig is not None else err).split())}"
            ) from None

    @contextlib.contextmanager
    def _read(self, what: str) -> Iterator[Session]:
        """A read session: a database that is not ours or cannot be read, and a row damaged outside
        this library, are a :class:`RecordError` naming it (``what``), not a driver traceback."""
        try:
            with self._session() as s:
                yield s
        except RecordError:
            raise
        except SQLAlchemyError as err:
            msg = " ".join(str(getattr(err, "orig", None) or err).split())
            raise RecordError(
                f"cannot read the records database (not a shangrao records database, or damaged): {msg}"
            ) from None
        except (TypeError, ValueError, KeyError, AttributeError) as err:  # a row edited by hand
            raise DamagedRecordError(f"{what}: the stored record is damaged ({type(err).__name__}: {err})") from None

    def fits_id(self, n: int) -> bool:
        """Whether ``n`` fits the database's id and hand-index columns (``Integer``: 64 bits in SQLite,
        32 in PostgreSQL): a larger one names no row, and sent to the database it is an "integer
        out of range" error (a 503 on the web, "cannot read the records database" in the CLI)."""
        bits = 63 if self.engine.dialect.name == "sqlite" else 31
        return -(1 << bits) <= n < 1 << bits

    def _game(self, s: Session, game_id: int) -> GameRow:
        if not isinstance(game_id, int) or isinstance(game_id, bool):
            raise GameNotFound(f"game id must be an integer, got {game_id!r}")
        if not self.fits_id(game_id):  # beyond the id column: the driver or the database overflows
            raise GameNotFound(f"no game with id {game_id} in {self._safe_url()}")
        row = s.get(GameRow, game_id)
        if row is None:
            raise GameNotFound(f"no game with id {game_id} in {self._safe_url()}")
        return row

    def _has_decisions(self, s: Session) -> bool:
        """Whether ``hands`` has the ``decisions`` column (revision 0004): a database opened for
        writing always has it (upgraded on open); an older one opened read-only does not."""
        known = getattr(self, "_decisions_column", None)
        if known is None:
            known = self._decisions_column = any(
                c["name"] == "decisions" for c in inspect(s.connection()).get_columns("hands")
            )
        return known

    def close(self) -> None:
        self.engine.dispose()

    def check_wal(self) -> str | None:
        """Whether this process's SQLite connections still write into the database's WAL file: None
        when they do (or the store is no SQLite file in WAL mode), else what is wrong, in words
        without the path — and the store has recovered: its pool is disposed, so the next
        connection opens the database and its WAL again.

        The WAL (``<database>-wal``) is never deleted while a connection of this process is open on
        it, unless something outside SQLite did it: ``rm``, a restore, or another process's SQLite
        that believed it was the last connection because this process had lost its locks (issue 34).
        Its connections would then go on committing into a file nobody else sees, and lose it all
        at a restart.  Only ``os.stat``: the database file is never opened here.  What they
        committed since the WAL was lost is not seen by other processes; SQLite may still write it
        into the database when the last of them closes (it checkpoints on close when no other
        process has the database open).  Cheap (a ``stat``): ``shangrao serve`` calls it at start-up
        and every :data:`shangrao.web.app.WAL_CHECK_SECONDS`."""
        if self._wal_path is None:
            return None
        open_on = {k for k in list(self._wal_files.values()) if k is not None}
        if not open_on:
            return None
        now = _file_key(self._wal_path)
        if now is not None and open_on == {now}:
            return None
        what = (
            "the database's WAL file (<database>-wal) was deleted"
            if now is None
            else "the database's WAL file (<database>-wal) was replaced by another file"
        )
        self.wal_losses += 1
        self.wal_problem = (
            f"{what} while this process had it open: commits since then were not seen by other "
            "processes; the connections are reopened (did a process outside shangrao delete it?)"
        )
        self._wal_files.clear()
        self._wal_generation += 1
        self.engine.dispose()  # the next connection opens the database and its (new) WAL
        return self.wal_problem

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing -------------------------------------------------------------------
    def create_game(
        self,
        mode: str,
        players: Sequence[str],
        seed: int | None = None,
        rules: Any = None,
        meta: dict[str, Any] | None = None,
        scores: Sequence[int] | None = None,
    ) -> int:
        """Store a new, unfinished game and return its id (one transaction).

        mode: how it is played, 'simulate' or 'play' (other short names are accepted for servers).
        players: a name per seat (bot names or 'human').  seed: the game's seed.
        rules: a RuleSet or its dict.  scores: starting scores (default zeros).
        """
        if not isinstance(mode, str) or not mode or len(mode) > 32 or "\x00" in mode:
            raise RecordError(f"game mode must be a short string such as 'simulate' or 'play' (no NUL), got {mode!r}")
        players = [str(p) for p in players]
        if seed is not None and (not isinstance(seed, int) or not -_MAX_SEED - 1 <= seed <= _MAX_SEED):
            raise RecordError(f"seed must be a 64-bit integer, got {seed!r}")
        if rules is None:
            rules = {}
        elif hasattr(rules, "to_dict"):
            rules = rules.to_dict()
        _dumps(rules)
        meta = dict(meta or {})
        meta.setdefault("schema", SCHEMA_VERSION)
        _dumps(meta)
        scores = list(scores) if scores is not None else [0] * len(players)
        _dumps(scores)
        now = utcnow()
        with self._write() as s:
            row = GameRow(
                kind=mode,
                players=players,
                seed=seed,
                rules=rules,
                status="unfinished",
                hands_played=0,
                scores=scores,
                meta=meta,
                created=now,
                updated=now,
            )
            s.add(row)
            s.flush()
            return row.id

    def append_event(self, game_id: int, hand_index: int, ev: Any) -> int:
        """Commit one event of a hand in progress; returns its 0-based position in the hand."""
        return self.append_events(game_id, hand_index, [ev]) - 1

    # the one append path: every live event is encoded once (_event_rows) and written by one INSERT
    # (_insert_rows, or the same statement inside append_events' transaction)
    @staticmethod
    def _event_rows(
        game_id: int, hand_index: int, first_seq: int, events: Iterable[Any], when: datetime
    ) -> list[dict[str, Any]]:
        return [
            {
                "game_id": game_id,
                "hand_index": hand_index,
                "seq": first_seq + i,
                "event": _dumps(event_to_dict(ev)),
                "created": when,
            }
            for i, ev in enumerate(events)
        ]

    def _insert_rows(self, rows: list[dict[str, Any]]) -> None:
        """One transaction, one INSERT (Core, no ORM session: this runs once per action)."""
        if not rows:
            return
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(EventRow), rows)
        except OperationalError as err:
            raise RecordError(
                f"cannot write events of game {rows[0]['game_id']}: "
                f"{' '.join(str(err.orig if err.orig is not None else err).split())}"
            ) from None
        except IntegrityError as err:
            r = rows[0]
            raise RecordError(
                f"game {r['game_id']}: hand {r['hand_index']} event {r['seq']} is already stored "
                f"({type(err.orig).__name__})"
            ) from None

    def insert_events(
        self, game_id: int, hand_index: int, first_seq: int, events: Iterable[Any], when: datetime | None = None
    ) -> None:
        """Commit events of a hand in progress at positions ``first_seq, first_seq+1, …`` in ONE
        transaction (one INSERT, no reads: the caller holds the hand and knows its length).  when: the
        rows' ``created`` time (default now, UTC).  Raises :class:`RecordError` if a position is taken,
        an event is not JSON, or the database refuses the write."""
        self._insert_rows(self._event_rows(game_id, hand_index, first_seq, events, when or utcnow()))

    def insert_event_batches(
        self, batches: Sequence[tuple[int, int, int, Sequence[Any]]], when: datetime | None = None
    ) -> list[Exception | None]:
        """Commit several :meth:`insert_events` calls — batches ``(game_id, hand_index, first_seq,
        events)``, e.g. the actions of several tables — in ONE transaction (one INSERT).

        Returns per batch None (stored) or the error that refused it; never raises.  If the shared
        transaction fails, each batch is tried again in its own transaction, so a batch the database
        refuses (a position already taken) fails alone, and a failing database fails each batch with
        its own error."""
        when = when or utcnow()
        out: list[Exception | None] = [None] * len(batches)
        rows: list[list[dict[str, Any]]] = []
        for i, (game_id, hand_index, first_seq, events) in enumerate(batches):
            try:
                rows.append(self._event_rows(game_id, hand_index, first_seq, events, when))
            except Exception as err:  # an event that is not JSON: that batch alone is refused
                out[i] = err
                rows.append([])
        todo = [i for i, err in enumerate(out) if err is None]
        if len(todo) > 1:
            try:
                self._insert_rows([r for i in todo for r in rows[i]])
                return out
            except Exception:  # each batch on its own says whose write fails and why
                pass
        for i in todo:
            try:
                self._insert_rows(rows[i])
            except Exception as err:  # returned to its caller
                out[i] = err
        return out

    def append_events(self, game_id: int, hand_index: int, events: Iterable[Any]) -> int:
        """Commit the events (in order) of a hand in progress in ONE transaction.

        Returns the number of live events of the hand after the write.  Raises
        :class:`RecordError` for a finished game or a hand that is not the next one.
        """
        evs = list(events)
        rows = self._event_rows(game_id, hand_index, 0, evs, utcnow())  # encoded (and checked) before the write
        with self._write() as s:
            game = self._game(s, game_id)
            if game.status == "finished":
                raise RecordError(f"game {game_id} is finished; no more events")
            if hand_index != game.hands_played:
                raise RecordError(
                    f"game {game_id}: events go to hand {game.hands_played} (the next one), not hand {hand_index}"
                )
            last = s.scalar(
                select(func.max(EventRow.seq)).where(EventRow.game_id == game_id, EventRow.hand_index == hand_index)
            )
            seq = 0 if last is None else last + 1
            for i, r in enumerate(rows):
                r["seq"] = seq + i
            if rows:
                s.execute(insert(EventRow), rows)
            game.updated = utcnow()
            return seq + len(rows)

    def append_hand(
        self,
        game_id: int,
        hand_index: int,
        dealer: int,
        events: Iterable[Any] | None,
        result: dict[str, Any],
        scores_after: Sequence[int] | None = None,
    ) -> None:
        """Store one completed hand in ONE transaction (hand row + game scores + live events cleared).

        events: the hand's events (dicts, or objects with ``to_dict()``); None takes the events
        stored so far with :meth:`append_event`.  result: the summary (``winners``, ``patterns``,
        ``deltas`` per seat, …).  scores_after: cumulative scores after the hand; default: the
        game's scores plus ``result['deltas']``.

        Raises :class:`RecordError` for a finished game, a repeated or out-of-order hand index,
        or data that is not JSON.
        """
        if not isinstance(result, dict):
            raise RecordError(f"result must be a dict, got {type(result).__name__}")
        # each event encoded once: the hand row holds the JSON lines
        lines = None if events is None else [_dumps(event_to_dict(e)) for e in events]
        result_text = _dumps(result)
        try:
            with self._session() as s, s.begin():
                game = self._game(s, game_id)
                if game.status == "finished":
                    raise RecordError(f"game {game_id} is finished; cannot add hand {hand_index}")
                if hand_index != game.hands_played:
                    raise RecordError(
                        f"game {game_id} has {game.hands_played} hand(s); the next hand is "
                        f"{game.hands_played}, not {hand_index}"
                    )
                if lines is None:  # the stored live events, as they were encoded
                    lines = [
                        _event_text(e)
                        for e in s.scalars(
                            select(EventRow.event)
                            .where(EventRow.game_id == game_id, EventRow.hand_index == hand_index)
                            .order_by(EventRow.seq)
                        )
                    ]
                if scores_after is None:
                    deltas = result.get("deltas")
                    if deltas is None:
                        scores = list(game.scores)
                    else:
                        if len(deltas) != len(game.scores):
                            raise RecordError(
                                f"result deltas has {len(deltas)} entries, game has {len(game.scores)} seats"
                            )
                        scores = [a + b for a, b in zip(game.scores, deltas)]
                else:
                    scores = list(scores_after)
                _dumps(scores)
                text = "\n".join(lines)
                s.add(
                    HandRow(
                        game_id=game_id,
                        hand_index=hand_index,
                        dealer=int(dealer),
                        events=text,
                        result=json.loads(result_text),
                        scores_after=scores,
                        created=utcnow(),
                    )
                )
                s.execute(delete(EventRow).where(EventRow.game_id == game_id, EventRow.hand_index == hand_index))
                game.hands_played = hand_index + 1
                game.scores = scores
                game.updated = utcnow()
        except IntegrityError as err:
            raise RecordError(f"game {game_id}: hand {hand_index} is already stored ({err.orig})") from None
        except OperationalError as err:
            raise RecordError(f"cannot write to {self._safe_url()}: {err.orig}") from None

    def insert_games(self, games: Sequence[NewGame]) -> list[int]:
        """Store whole games of compact hands (:class:`NewGame`, :class:`CompactHand`) in ONE
        transaction: one multi-row INSERT of the games, one of all their hands, nothing read back but
        the new ids.  Returns the games' ids, in order.  What ``shangrao simulate`` does with the fast
        engine: a game is written whole once its match is played, so a stored game is never half a
        match, and a run killed midway loses only the games not written yet.

        Each game's hands must be numbered 0, 1, …; the game's scores are the last hand's
        ``scores_after`` (its ``scores`` when it has none) and ``hands_played`` their number.
        Raises :class:`RecordError` for a bad game or hand (naming it) or a database that refuses
        the write; nothing is written then."""
        now = utcnow()
        game_rows: list[dict[str, Any]] = []
        hand_rows: list[list[dict[str, Any]]] = []
        rules_text: dict[int, str] = {}
        for n, g in enumerate(games):
            what = f"games[{n}]"
            if not isinstance(g.mode, str) or not g.mode or len(g.mode) > 32 or "\x00" in g.mode:
                raise RecordError(f"{what}: game mode must be a short string, got {g.mode!r}")
            if not isinstance(g.seed, int) or isinstance(g.seed, bool) or not -_MAX_SEED - 1 <= g.seed <= _MAX_SEED:
                raise RecordError(f"{what}: a compact game needs its 64-bit integer seed, got {g.seed!r}")
            if id(g.rules) not in rules_text:  # the games of a run share one rules dict: checked once
                rules_text[id(g.rules)] = _dumps(g.rules)
            meta = {"schema": SCHEMA_VERSION, **g.meta}
            _dumps(meta)
            rows = []
            scores = list(g.scores)
            for i, h in enumerate(g.hands):
                if h.index != i:
                    raise RecordError(f"{what}: hand {i} is numbered {h.index}; hands are stored 0, 1, …")
                if not isinstance(h.dealer, int) or not 0 <= h.dealer <= 3:
                    raise RecordError(f"{what} hand {i}: the dealer is a seat 0..3, got {h.dealer!r}")
                if not isinstance(h.decisions, bytes) or not isinstance(h.result, dict):
                    raise RecordError(f"{what} hand {i}: decisions are bytes and result a dict")
                scores = list(h.scores_after)
                rows.append(
                    {
                        "hand_index": i,
                        "dealer": h.dealer,
                        "events": None,
                        "decisions": h.decisions,
                        "result": h.result,
                        "scores_after": scores,
                        "created": now,
                    }
                )
            hand_rows.append(rows)
            game_rows.append(
                {
                    "kind": g.mode,
                    "players": [str(p) for p in g.players],
                    "seed": g.seed,
                    "rules": g.rules,
                    "status": g.status,
                    "hands_played": len(rows),
                    "scores": scores,
                    "meta": meta,
                    "created": now,
                    "updated": now,
                }
            )
        if not game_rows:
            return []
        try:
            with self.engine.begin() as conn:
                ids = list(
                    conn.execute(
                        insert(GameRow).returning(GameRow.id, sort_by_parameter_order=True), game_rows
                    ).scalars()
                )
                flat = [{**r, "game_id": gid} for gid, rows in zip(ids, hand_rows) for r in rows]
                if flat:
                    conn.execute(insert(HandRow), flat)
        except OperationalError as err:
            raise RecordError(
                f"cannot write to {self._safe_url()}: "
                f"{' '.join(str(err.orig if err.orig is not None else err).split())}"
            ) from None
        except (IntegrityError, TypeError, ValueError) as err:
            raise RecordError(
                f"cannot store {len(game_rows)} game(s) in {self._safe_url()}: "
                f"{' '.join(str(getattr(err, 'orig', None) or err).split())[:300]}"
            ) from None
        return ids

    def finish_game(
        self, game_id: int, scores: Sequence[int] | None = None, meta: dict[str, Any] | None = None
    ) -> None:
        """Mark a game finished with its final scores (default: the running scores)."""
        with self._write() as s:
            game = self._game(s, game_id)
            if scores is not None:
                _dumps(scores)
                game.scores = list(scores)
            if meta:
                _dumps(meta)
                game.meta = {**(game.meta or {}), **meta}
            game.status = "finished"
            game.updated = utcnow()

    def update_meta(self, game_id: int, patch: dict[str, Any]) -> dict[str, Any]:
        """Merge ``patch`` into the game's ``meta`` (one transaction); returns the new meta."""
        _dumps(patch)
        with self._write() as s:
            game = self._game(s, game_id)
            meta = {**(game.meta or {}), **patch}
            game.meta = meta
            game.updated = utcnow()
            return dict(meta)

    def set_players(self, game_id: int, players: Sequence[str], meta_patch: dict[str, Any] | None = None) -> None:
        """Replace the seat names (e.g. an empty seat filled by a bot), optionally with a meta patch."""
        with self._write() as s:
            game = self._game(s, game_id)
            game.players = [str(p) for p in players]
            if meta_patch:
                _dumps(meta_patch)
                game.meta = {**(game.meta or {}), **meta_patch}
            game.updated = utcnow()

    # -- reading -------------------------------------------------------------------
    def game_head(self, game_id: int) -> GameSummary:
        """The game's row (mode, status, meta …) without reading its hands; raises :class:`GameNotFound`."""
        with self._session() as s:
            return GameSummary(**_summary(self._game(s, game_id)))

    def game_heads(self, game_ids: Iterable[int]) -> list[GameSummary]:
        """The rows of the games ``game_ids`` that exist (newest first), without their hands; one query."""
        ids = sorted({int(i) for i in game_ids})
        if not ids:
            return []
        with self._session() as s:
            rows = s.scalars(select(GameRow).where(GameRow.id.in_(ids)).order_by(GameRow.id.desc()))
            return [GameSummary(**_summary(r)) for r in rows]

    def last_event_time(self, game_id: int, hand_index: int) -> datetime | None:
        """When the last live event of the hand (the one at the highest position) was stored (UTC), or
        None.  By position, not the largest time: a wall clock stepped back while a server ran stored
        later events with earlier times (issue 25)."""
        with self._session() as s:
            return _aware(
                s.scalar(
                    select(EventRow.created)
                    .where(EventRow.game_id == game_id, EventRow.hand_index == hand_index)
                    .order_by(EventRow.seq.desc())
                    .limit(1)
                )
            )

    def list_games(
        self,
        *,
        limit: int | None = None,
        offset: int = 0,
        mode: str | None = None,
        status: str | None = None,
        newest_first: bool = True,
        kind: str | None = None,
    ) -> list[GameSummary]:
        """Stored games (newest first by default), optionally filtered by mode and status (``kind``: 0.1.0's
        name of ``mode``)."""
        mode = kind if mode is None else mode
        q = select(GameRow)
        if mode is not None:
            q = q.where(GameRow.kind == mode)
        if status is not None:
            q = q.where(GameRow.status == status)
        q = q.order_by(GameRow.id.desc() if newest_first else GameRow.id.asc()).offset(min(offset, _MAX_SEED))
        if limit is not None:
            q = q.limit(min(limit, _MAX_SEED))  # a larger LIMIT overflows the driver; nothing is lost
        with self._read("the list of games") as s:
            out = []
            for r in s.scalars(q):
                try:
                    out.append(GameSummary(**_summary(r)))
                except (TypeError, ValueError, KeyError, AttributeError):  # one row edited by hand: listed
                    when = _aware(r.created) or datetime.fromtimestamp(0, UTC)
                    out.append(
                        GameSummary(
                            id=r.id,
                            created=when,
                            updated=when,
                            mode=str(r.kind),
                            players=["?"] * 4,
                            seed=None,
                            status="damaged",
                            hands_played=0,
                            scores=[0, 0, 0, 0],
                            rules={},
                            meta={},
                        )
                    )
            return out

    def count_games(self) -> int:
        with self._read("the number of games") as s:
            return s.scalar(select(func.count()).select_from(GameRow)) or 0

    def load_game(self, game_id: int, *, hand: int | None = None) -> GameRecord:
        """The whole game: summary, completed hands with events (dicts), pending live events.

        hand: load only that hand (0-based).  Raises :class:`GameNotFound`, or :class:`RecordError`
        when the database cannot be read or the game's rows are damaged.
        """
        with self._read(f"game {game_id}") as s:
            game = self._game(s, game_id)
            q = select(HandRow).where(HandRow.game_id == game_id).order_by(HandRow.hand_index)
            if hand is not None:
                q = q.where(HandRow.hand_index == (hand if hand >= 0 and self.fits_id(hand) else -1))
            if not self._has_decisions(s):  # a database before revision 0004 opened read-only
                q = q.options(defer(HandRow.decisions, raiseload=True))
            hands = [_hand(h, game) for h in s.scalars(q)]
            pending: dict[int, list[dict[str, Any]]] = {}
            for r in s.scalars(
                select(EventRow).where(EventRow.game_id == game_id).order_by(EventRow.hand_index, EventRow.seq)
            ):
                pending.setdefault(r.hand_index, []).append(_event_of(r.event))
            return GameRecord(**_summary(game), hands=hands, pending=pending)
