"""The FastAPI application of ``shangrao serve``.

Pages (static HTML/CSS/JS from ``shangrao/web/static``; no CDN):

* ``/``                 lobby: create a table, open tables, live tables
* ``/t/{id}/{token}``   the table, as the seat the token belongs to
* ``/join/{id}``        take a free seat of a table (redirects to its seat link)
* ``/history``          stored games; ``/replay/{id}`` the replay viewer
* ``/room/{code}``      a group's room (:mod:`~shangrao.web.api_rooms`): members, matches, 战绩
* ``/rules``            规则 (the rules help); ``/error/{code}`` the error pages (a wrong link, a
  full or finished table answer with them too)

JSON API: ``GET /api/rules``, ``POST /api/tables``, ``GET /api/tables`` (paged:
``?status=open|live|finished&limit=&offset=``; an ETag for conditional requests),
``POST /api/tables/{id}/join``, ``POST /api/tables/{id}/rematch``, ``GET /api/games``,
``GET /api/games/{id}``, ``GET /api/patterns``; the rooms' ``/api/rooms…`` (:mod:`~shangrao.web.api_rooms`).
WebSocket: ``/ws/{id}/{token}`` (messages: :mod:`shangrao.web.messages`).

Secrets: the seed and the walls of a game are sent only once it is finished; a
replay of an unfinished game shows its completed hands without the seed.  No error names the
database (URL, file, host): records errors are reported in words of their own.

Limits (:class:`~shangrao.web.settings.Settings`, options of ``shangrao serve``, docs/web.md):
request body size (413), table name length and characters (422), tables created per client address per
minute (429), live tables per server (503), messages per connection per second (an error
message; the connection stays usable).  A key given twice in one JSON object is refused, in a
request body (422, :class:`StrictJSONRoute`) and in a socket message (``malformed``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import re
from collections.abc import AsyncIterator

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from ..game.frames import replay_frames
from ..records import RecordError, Store, resolve_db
from ..records import owner as owner_module
from ..records.owner import Ownership, StoreBusy, own_live_tables, store_scrub, write_refusal
from . import api_games, api_rooms, api_tables, pages, socket
from . import watch as watch_pages
from .deps import AppState
from .errors import read_only_message
from .failures import add_handlers
from .http import BodyLimit, HeadAsGet, StrictJSONRoute
from .manager import TableManager
from .metrics import metrics_router
from .pages import STATIC_DIR
from .settings import Settings

__all__ = ["STATIC_DIR", "create_app", "replay_frames"]

log = logging.getLogger("shangrao.web")
#: seconds between two looks at the SQLite database's WAL file (:meth:`shangrao.records.Store.check_wal`)
WAL_CHECK_SECONDS = 5.0
#: what the lobby and every refusal say once another server has taken this one's tables over
TOOK_OVER = (
    "只能回放记录，不能开桌 · another shangrao serve took this database's tables over (this one lost its "
    "database connection for a moment): history and replays work here; play on the other server"
)


def _open_store(db: str | None) -> tuple[Store, str | None]:
    """The records database, and why it cannot be written when it had to be opened read-only (an
    SQLite file in WAL mode on a read-only directory or medium cannot even be read the usual way)."""
    try:
        store = Store(db)
    except RecordError as err:
        if not resolve_db(db).startswith("sqlite"):
            raise
        try:
            store = Store(db, read_only=True)
        except RecordError:
            raise err from None
        words = " ".join(str(err).split())
        return store, store_scrub(store, words.rsplit(": ", 1)[-1])
    # an SQLite URI asking for read-only (mode=ro, immutable=1) is read-only from the start: it takes
    # no ownership, so it can serve history beside the server that plays the tables
    url = store.url
    if url.startswith("sqlite") and re.search(r"[?&](mode=ro|immutable=1)(&|$)", url):
        return store, "the database is opened readonly (mode=ro)"
    return store, None


class _Serving:
    """The lifespan of one app: one server per database's live tables (issue 25: a second one is
    refused; on PostgreSQL the lock's connection is checked every ``OWNER_CHECK_SECONDS`` and this
    server stops playing when another took the lock over), the unfinished tables resumed, and
    everything closed at the end."""

    def __init__(self, manager: TableManager, store: Store, resume: bool) -> None:
        self.manager, self.store, self.resume = manager, store, resume
        self.owner: Ownership | None = None

    @contextlib.asynccontextmanager
    async def lifespan(self, app: FastAPI) -> AsyncIterator[None]:
        manager, store = self.manager, self.store
        if manager.read_only is None:
            try:
                self.owner = own_live_tables(store)
            except StoreBusy:
                store.close()
                raise
            except RecordError as err:  # no lock file can be made next to it: read-only storage
                manager.read_only = read_only_message(" ".join(str(err).split())[:160])
            else:
                why = write_refusal(store)
                if why is not None:
                    self.owner.release()
                    self.owner = None
                    manager.read_only = read_only_message(why)
        if manager.read_only is not None:
            log.warning("%s", manager.read_only)
        elif self.resume:
            await manager.resume_all()
        watches = []
        if self.owner is not None and self.owner.watched:
            watches.append(asyncio.get_running_loop().create_task(self._watch_owner(), name="owner-watch"))
        if manager.read_only is None and store._sqlite:
            await self.check_wal()
            watches.append(asyncio.get_running_loop().create_task(self._watch_wal(), name="wal-watch"))
        # everything loaded so far (the modules, the app, the resumed tables) lives as long as the
        # server: out of the collector's sight, a full collection no longer walks it (it took
        # 120-200 ms with the GIL held, every table and request waiting: issue 34)
        gc.collect()
        gc.freeze()
        try:
            yield
        finally:
            for watch in watches:
                watch.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await watch
            await manager.close()
            if self.owner is not None:
                self.owner.release()
            store.close()

    async def check_owner(self) -> None:
        """PostgreSQL: the lock lives as long as its connection.  The connection is asked; when it
        is gone the lock is taken again, and when another server has taken it meanwhile this one
        stops playing (it writes no row for a table the other plays)."""
        if self.owner is None or await self.manager.read(self.owner.alive):
            return
        self.owner.release()
        try:
            self.owner = await self.manager.read(own_live_tables, self.store)
            log.warning("the database connection holding this server's lock was lost; the lock is taken again")
        except StoreBusy:
            self.owner = None
            log.error("another shangrao serve took this database's tables over; this one plays none now")
            await self.manager.stop_playing(TOOK_OVER)
        except RecordError:
            pass  # the database cannot be reached now: asked again at the next check

    async def check_wal(self) -> None:
        """SQLite: whether this server's connections still write into the database's WAL file
        (:meth:`~shangrao.records.Store.check_wal`, in the tables' database thread, between two of its
        writes).  When it was deleted or replaced under them, an error in the log, ``/api/server``'s
        ``records_problem`` and ``/metrics``' ``shangrao_wal_losses_total`` say so, and the
        connections are reopened (the store's pool disposed), so the server does not go on writing
        into a file nobody sees."""
        try:
            problem = await self.manager.read(self.store.check_wal)
        except Exception as err:  # a check that fails must not stop the server: said, and tried again
            log.warning("could not check the database's WAL file: %s", type(err).__name__)
            return
        if problem is not None:
            self.manager.metrics.wal_losses.inc()
            log.error("records database: %s", problem)

    async def _watch_wal(self) -> None:
        while True:
            await asyncio.sleep(WAL_CHECK_SECONDS)
            await self.check_wal()

    async def _watch_owner(self) -> None:
        while self.owner is not None:
            await asyncio.sleep(owner_module.OWNER_CHECK_SECONDS)
            await self.check_owner()


def create_app(db: str | None = None, settings: Settings | None = None, *, resume: bool = True) -> FastAPI:
    """The web app over the records database ``db`` (URL or path; default: the CLI's database): the
    routers of :mod:`~shangrao.web.pages`, :mod:`~shangrao.web.api_tables`, :mod:`~shangrao.web.api_games`
    and :mod:`~shangrao.web.socket` over one :class:`~shangrao.web.deps.AppState`, the refusals'
    handlers (:mod:`~shangrao.web.failures`), and the lifespan: one server per database
    (:mod:`shangrao.records.owner`), the unfinished tables resumed, everything closed at the end."""
    store, read_only = _open_store(db)
    manager = TableManager(store, settings)
    if read_only is not None:
        manager.read_only = read_only_message(read_only)
    serving = _Serving(manager, store, resume)
    app = FastAPI(title="Shangrao Mahjong 上饶麻将", lifespan=serving.lifespan, docs_url=None, redoc_url=None)
    app.router.route_class = StrictJSONRoute  # before any route: a duplicate key in a body is refused
    app.state.store = store
    app.state.check_owner = serving.check_owner  # (tests call it at a moment of their choosing)
    app.state.check_wal = serving.check_wal
    app.state.manager = manager
    app.add_middleware(BodyLimit, limit=manager.settings.max_body)
    app.add_middleware(HeadAsGet)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    add_handlers(app)
    ctx = AppState(manager, store)
    for area in (
        pages,
        api_tables,
        api_games,
        api_rooms,
        watch_pages,
        socket,
    ):  # /ws/watch/{id} before /ws/{id}/{token}
        app.include_router(area.router(ctx))
    app.include_router(metrics_router)  # GET /metrics (Prometheus; web/metrics.py)
    return app
