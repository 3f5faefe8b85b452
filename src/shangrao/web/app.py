"""The FastAPI application of ``shangrao serve``.

Pages (static HTML/CSS/JS from ``shangrao/web/static``; no CDN):

* ``/``                 lobby: create a table, open tables, live tables
* ``/t/{id}/{token}``   the table, as the seat the token belongs to
* ``/join/{id}``        take a free seat of a table (redirects to its seat link)
* ``/history``          stored games; ``/replay/{id}`` the replay viewer
* ``/rules``            规则 (the rules help); ``/error/{code}`` the error pages (a wrong link, a
  full or finished table answer with them too)

JSON API: ``GET /api/rules``, ``POST /api/tables``, ``GET /api/tables`` (paged:
``?status=open|live|finished&limit=&offset=``; an ETag for conditional requests),
``POST /api/tables/{id}/join``, ``POST /api/tables/{id}/rematch``, ``GET /api/games``,
``GET /api/games/{id}``, ``GET /api/patterns``.
WebSocket: ``/ws/{id}/{token}`` (messages: :mod:`shangrao.web.messages`).

Secrets: the seed and the walls of a game are sent only once it is finished; a
replay of an unfinished game shows its completed hands without the seed.  No error names the
database (URL, file, host): records errors are reported in words of their own.

Limits (:class:`~shangrao.web.tables.Settings`, options of ``shangrao serve``, docs/web.md):
request body size (413), table name length and characters (422), tables created per client address per
minute (429), live tables per server (503), messages per connection per second (an error
message; the connection stays usable).  A key given twice in one JSON object is refused, in a
request body (422, :class:`StrictJSONRoute`) and in a socket message (``malformed``).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import functools
import json
import logging
import re
import time
from importlib import resources
from pathlib import Path
from typing import Literal

from fastapi import (
    FastAPI,
    HTTPException,
    Query,
    Request,
    WebSocket,
    WebSocketDisconnect,
)
from fastapi.exceptions import RequestValidationError
from fastapi.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
)
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError

from .. import strictjson
from ..errors import quote
from ..game import EventType, Game, IllegalActionError, ReplayError, parse_action, replay
from ..game.actions import ActionParseError
from ..labels import labels_table
from ..records import GameNotFound, RecordError, Store, resolve_db
from ..records import owner as owner_module
from ..records.live import game_head
from ..records.owner import Ownership, StoreBusy, own_live_tables, store_scrub, write_refusal
from ..rules import DEFAULT_RULES, RuleSet
from .connections import Connection
from .messages import (
    ActionMsg,
    CreateTable,
    FillBotsMsg,
    HintMsg,
    PingMsg,
    ReadyMsg,
    RematchMsg,
    clean_name,
    default_bot,
    parse_client_message,
)
from .metrics import metrics_router
from .stored import DamagedRecord
from .tables import (
    KIND,
    SAVE_FAILED,
    HintsOff,
    SaveError,
    SeatBusy,
    ServerFull,
    Settings,
    StaleActionError,
    TableError,
    TableFinished,
    TableManager,
    TableNotFound,
    TooManyWaiting,
    address_group,
    read_only_message,
    rematch_token,
)
from .views import meld_info, payer_factors

__all__ = ["STATIC_DIR", "create_app"]

log = logging.getLogger("shangrao.web")
#: what the lobby and every refusal say once another server has taken this one's tables over
TOOK_OVER = ("只能回放记录，不能开桌 · another shangrao serve took this database's tables over (this one lost its "
             "database connection for a moment): history and replays work here; play on the other server")
STATIC_DIR = Path(str(resources.files("shangrao.web") / "static"))
MAX_MESSAGE = 4096


@functools.cache
def labels_script() -> str:
    """The labels table (:func:`shangrao.labels.labels_table`) as the JSON block every page carries
    (``<script id="labels" type="application/json">``): ``common.js`` builds its words from it, so the
    client holds no copy of a label and needs no extra request.  ``<`` is escaped so no label can end
    the block."""
    data = json.dumps(labels_table(), ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return f'<script id="labels" type="application/json">{data}</script>'


@functools.cache
def _page_html(name: str) -> str:
    html = (STATIC_DIR / name).read_text(encoding="utf-8")
    return html.replace("</head>", labels_script() + "</head>", 1)


def _page(name: str) -> HTMLResponse:
    """A page of the UI: its static HTML with the labels block (:func:`labels_script`) in its head."""
    return HTMLResponse(_page_html(name))


#: error pages of the UI: (status, Chinese, English)
ERRORS = {
    "bad-link": (403, "这个座位链接无效", "This seat link is not valid for this table."),
    "no-table": (404, "没有这张桌", "There is no such table."),
    "full": (409, "这张桌已经坐满了", "This table has no free seat."),
    "finished": (410, "这张桌已经结束了", "This table has finished."),
    "not-found": (404, "找不到这个页面", "There is no such page."),
    "no-game": (404, "没有这局对局记录", "There is no such stored game."),
    "unreadable": (503, "对局记录暂时读不到，请稍后再试", "The records cannot be read now; try again."),
    "damaged": (422, "这张桌的记录无效，不能打开", "The stored record of this table is damaged; it cannot be played or joined."),
}


def error_page(code: str, table_id: int | None = None) -> HTMLResponse:
    """An error as a page of the UI (Chinese with the English line), with a way back."""
    status, zh, en = ERRORS[code]
    extra = ""
    if table_id is not None and code in ("finished", "full"):
        extra = (f'<p><a class="button" href="/replay/{table_id}">回放 · Replay</a></p>' if code == "finished"
                 else "")
    html = f"""<!doctype html><html lang="zh"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>上饶麻将 · {zh}</title>
<link rel="stylesheet" href="/static/app.css"><link rel="icon" href="/favicon.ico" type="image/svg+xml">{labels_script()}</head>
<body><div id="nav"></div><main class="errpage card" data-error="{code}"><h1>{zh}</h1><p>{en}</p>{extra}
<p><a class="button primary" href="/">回到大厅 · Back to the lobby</a></p></main>
<script src="/static/common.js"></script><script>document.getElementById("nav").append(navBar(""));</script>
</body></html>"""
    return HTMLResponse(html, status_code=status)


def _damaged(err: DamagedRecord) -> str:
    """Log a damaged stored table (:mod:`shangrao.web.stored`); returns the message to answer with."""
    log.error("%s", err)
    return str(err)


def _public_game(summary: dict) -> dict:
    d = {k: v for k, v in summary.items() if k != "meta"}
    meta = summary.get("meta")
    web = meta.get("web") if isinstance(meta, dict) else None
    d["name"] = clean_name(web.get("name", "")) if isinstance(web, dict) else ""
    if d.get("status") != "finished":
        d["seed"] = None
    return d


def _public_hand_events(events: list, finished: bool) -> list:
    """A stored hand's events as the history shows them: an unfinished game's without the seed.  The
    events are passed on as stored, whatever their shape (a log edited by hand is not read here: the
    replay viewer asks for the frames, which replay it first)."""
    if finished:
        return events
    # every event, not only the deal: a deal whose "type" was edited into something else keeps no seed either
    return [{k: v for k, v in ev.items() if k != "seed"} if isinstance(ev, dict) else ev for ev in events]


def _stored_json(body: object, what: str) -> JSONResponse:
    """``body`` (read from the database) as a JSON answer; a stored value JSON cannot carry (NaN or
    Infinity, written into a record by hand) is a ``422`` naming ``what``, not a 500."""
    try:
        return JSONResponse(body)
    except (ValueError, TypeError):
        raise HTTPException(422, f"{what}: the stored record holds a value JSON cannot carry "
                                 "(NaN or Infinity); it cannot be shown") from None


class StrictJSONRequest(Request):
    """A request whose JSON body refuses a key given twice in one object (FastAPI's ``json.loads``
    keeps the last silently): ``422`` naming the key.  Used by every HTTP route (:class:`StrictJSONRoute`)."""

    async def json(self):
        if not hasattr(self, "_json"):
            body = await self.body()
            try:
                self._json = strictjson.loads(body)
            except strictjson.DuplicateKeyError as err:
                raise HTTPException(422, f"body: {err}") from None
            except json.JSONDecodeError as err:
                raise HTTPException(422, f"body: bad JSON at line {err.lineno}, column {err.colno}: {strictjson.error_words(err)}") from None
            except UnicodeDecodeError:
                raise HTTPException(422, "body: not UTF-8 text") from None
            except RecursionError:
                raise HTTPException(422, "body: JSON nested too deeply") from None
            except ValueError:  # an integer of more than 4300 digits
                raise HTTPException(422, "body: a number in the JSON has more than 4300 digits") from None
        return self._json


class StrictJSONRoute(APIRoute):
    """The app's routes read their request as :class:`StrictJSONRequest` (FastAPI's documented way to
    change how a body is read)."""

    def get_route_handler(self):
        handler = super().get_route_handler()

        async def strict_handler(request: Request) -> Response:
            strict = StrictJSONRequest(request.scope, request.receive)
            if request.method in ("POST", "PUT", "PATCH"):
                kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
                if kind != "application/json" and await strict.body():
                    # a body in another type read as "not an object" by pydantic: say what to send instead
                    raise HTTPException(415, f"send the body as application/json (got {quote(kind or 'no type', 40)})")
            return await handler(strict)

        return strict_handler


class HeadAsGet:
    """ASGI middleware: ``HEAD`` is answered as ``GET`` without the body (the status and headers,
    Content-Length included, as GET's), for every page, API and static route — FastAPI's routes
    answer only the methods they name (405).  Except ``/join/{id}``: its GET takes a seat, which a
    HEAD (a link checker, a preview) must not, so a HEAD there is refused (405) as before."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope.get("method") != "HEAD" or scope.get("path", "").startswith("/join/"):
            return await self.app(scope, receive, send)

        async def no_body(msg):
            if msg["type"] == "http.response.body":
                msg = {"type": "http.response.body", "body": b"", "more_body": msg.get("more_body", False)}
            await send(msg)

        await self.app({**scope, "method": "GET"}, receive, no_body)


class BodyLimit:
    """ASGI middleware: an HTTP request body over ``limit`` bytes is answered 413 and not read on."""

    def __init__(self, app, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        for k, v in scope.get("headers") or ():
            if k == b"content-length":
                try:
                    too_big = int(v) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    return await self._refuse(send)
        if scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            return await self.app(scope, receive, send)
        # no (or a small) Content-Length: read the body here, at most `limit` bytes, then hand it on
        body, more = b"", True
        while more:
            msg = await receive()
            if msg["type"] != "http.request":
                return await self.app(scope, receive, send)  # the client went away
            body += msg.get("body", b"")
            more = msg.get("more_body", False)
            if len(body) > self.limit:
                return await self._refuse(send)
        sent = False

        async def replay():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send) -> None:
        body = (b'{"detail":"request body too large: at most %d bytes"}' % self.limit)
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


class RateWindow:
    """At most ``n`` events per key in any ``window`` seconds (a sliding window; memory for the
    keys seen in the last window only)."""

    def __init__(self, n: int, window: float = 60.0) -> None:
        self.n, self.window = n, window
        self.hits: dict[str, collections.deque] = {}

    def allow(self, key: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if len(self.hits) > 10_000:  # forget keys idle for a window
            for k in [k for k, d in self.hits.items() if not d or now - d[-1] >= self.window]:
                del self.hits[k]
        d = self.hits.setdefault(key, collections.deque())
        while d and now - d[0] >= self.window:
            d.popleft()
        if len(d) >= self.n:
            return False
        d.append(now)
        return True


class TokenBucket:
    """``rate`` messages per second with bursts of ``rate`` (per connection)."""

    def __init__(self, rate: float) -> None:
        self.rate = max(0.001, float(rate))
        self.capacity = max(1.0, self.rate)
        self.tokens = self.capacity
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class ReadBudget:
    """Token buckets per key (an address group): ``rate`` tokens a second, bursts of ``2 * rate``;
    memory for the keys seen in the last minute or so only."""

    def __init__(self, rate: float) -> None:
        self.rate = max(0.001, float(rate))
        self.capacity = max(1.0, 2 * self.rate)
        self.buckets: dict[str, list[float]] = {}

    def take(self, key: str, cost: float = 1.0, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if len(self.buckets) > 10_000:  # forget the keys that are full again
            for k in [k for k, (tok, at) in self.buckets.items() if tok + (now - at) * self.rate >= self.capacity]:
                del self.buckets[k]
        b = self.buckets.get(key)
        if b is None:
            b = self.buckets[key] = [self.capacity, now]
        b[0] = min(self.capacity, b[0] + (now - b[1]) * self.rate)
        b[1] = now
        cost = min(cost, self.capacity)  # the largest read is always possible once the bucket is full
        if b[0] >= cost:
            b[0] -= cost
            return True
        return False


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


def create_app(db: str | None = None, settings: Settings | None = None, *, resume: bool = True) -> FastAPI:
    """The web app over the records database ``db`` (URL or path; default: the CLI's database)."""
    store, read_only = _open_store(db)
    manager = TableManager(store, settings)
    settings = manager.settings
    creations = RateWindow(settings.tables_per_minute, 60.0)
    reads = ReadBudget(settings.reads_per_second)

    def read_budget(request: Request, cost: float = 1.0) -> None:
        """A history read of ``cost`` from the client's address group, or 429 (issue 25: eight
        concurrent large reads slowed a live table's replies from 3 ms to 766 ms)."""
        if not reads.take(_client_group(request), cost):
            raise HTTPException(429, f"too many history reads from one address (or network): at most "
                                     f"{settings.reads_per_second:g} a second (a list of games costs one per "
                                     "100 games); try again in a second", headers={"Retry-After": "1"})

    if read_only is not None:
        manager.read_only = read_only_message(read_only)

    owner: Ownership | None = None

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        nonlocal owner
        if manager.read_only is None:
            # one server plays a database's live tables (issue 25): a second one is refused here
            try:
                owner = own_live_tables(store)
            except StoreBusy:
                store.close()
                raise
            except RecordError as err:  # no lock file can be made next to it: read-only storage
                manager.read_only = read_only_message(" ".join(str(err).split())[:160])
            else:
                why = write_refusal(store)
                if why is not None:
                    owner.release()
                    owner = None
                    manager.read_only = read_only_message(why)
        if manager.read_only is not None:
            log.warning("%s", manager.read_only)
        elif resume:
            await manager.resume_all()
        watch = None
        if owner is not None and owner.watched:
            watch = asyncio.get_running_loop().create_task(_watch_owner(), name="owner-watch")
        try:
            yield
        finally:
            if watch is not None:
                watch.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await watch
            await manager.close()
            if owner is not None:
                owner.release()
            store.close()

    async def check_owner() -> None:
        """PostgreSQL: the lock lives as long as its connection.  The connection is asked; when it
        is gone the lock is taken again, and when another server has taken it meanwhile this one
        stops playing (it writes no row for a table the other plays)."""
        nonlocal owner
        if owner is None or await manager.read(owner.alive):
            return
        owner.release()
        try:
            owner = await manager.read(own_live_tables, store)
            log.warning("the database connection holding this server's lock was lost; the lock is taken again")
        except StoreBusy:
            owner = None
            log.error("another shangrao serve took this database's tables over; this one plays none now")
            await manager.stop_playing(TOOK_OVER)
        except RecordError:
            pass  # the database cannot be reached now: asked again at the next check

    async def _watch_owner() -> None:
        while owner is not None:
            await asyncio.sleep(owner_module.OWNER_CHECK_SECONDS)
            await check_owner()

    app = FastAPI(title="Shangrao Mahjong 上饶麻将", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.router.route_class = StrictJSONRoute  # before any route: a duplicate key in a body is refused
    app.state.store = store
    app.state.check_owner = check_owner  # (tests call it at a moment of their choosing)
    app.state.manager = manager
    app.add_middleware(BodyLimit, limit=settings.max_body)
    app.add_middleware(HeadAsGet)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.include_router(metrics_router)  # GET /metrics (Prometheus; web/metrics.py)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError):
        # FastAPI's own answer echoes the input (a 50 MB body came back as a 52 MB 422): not this one
        errors = []
        for e in exc.errors()[:10]:
            # a location may hold a key sent (a huge unknown rule option): each part cut to 40 characters
            errors.append({"loc": [_cut(str(x)) for x in e.get("loc", ())][:6], "msg": str(e.get("msg", ""))[:200],
                           "type": str(e.get("type", ""))})
        return JSONResponse({"detail": errors}, status_code=422)

    # ------------------------------------------------------------------ pages
    @app.get("/", include_in_schema=False)
    async def lobby():
        return _page("lobby.html")

    @app.get("/t/{table_id}/{token}", include_in_schema=False)
    async def table_page(table_id: int, token: str):
        try:
            await manager.check_link(table_id, token)  # the stored hashes only: nothing is loaded
        except DamagedRecord as err:
            _damaged(err)
            return error_page("damaged")
        except TableNotFound:
            return error_page("no-table")
        except TableError:
            return error_page("bad-link")
        except RecordError:
            raise HTTPException(503, "the records database cannot be read now; try again") from None
        return _page("table.html")

    @app.get("/join/{table_id}", include_in_schema=False)
    async def join_page(table_id: int):
        try:
            _, token = await _claim(table_id)
        except DamagedRecord as err:
            _damaged(err)
            return error_page("damaged")
        except TableNotFound:
            return error_page("no-table")
        except TableFinished:
            return error_page("finished", table_id)
        except ServerFull as err:
            raise HTTPException(503, str(err)) from None
        except TableError:
            return error_page("full", table_id)
        return RedirectResponse(f"/t/{table_id}/{token}", status_code=303)

    @app.get("/error/{code}", include_in_schema=False)
    async def error_route(code: str):
        return error_page(code if code in ERRORS else "not-found")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon():
        return FileResponse(STATIC_DIR / "tiles" / "bao.svg", media_type="image/svg+xml")

    @app.get("/rules", include_in_schema=False)
    async def rules_page():
        return _page("rules.html")

    @app.get("/api/patterns")
    async def patterns():
        """The patterns, doublings and bonuses for the rules page (from ``shangrao.scoring``)."""
        from ..scoring.items import BONUS_NAMES, DOUBLING_NAMES, PATTERNS, seed_clause

        return {"patterns": [{"id": p.id, "name": p.name, "factor": p.factor, "flat": p.flat,
                              "per_quad": p.per_quad, "clause": seed_clause(p.clause)} for p in PATTERNS.values()],
                "doublings": DOUBLING_NAMES, "bonuses": BONUS_NAMES,
                "bonus_points": {"pung_kong": DEFAULT_RULES.pung_kong_bonus,
                                 "concealed_kong": DEFAULT_RULES.concealed_kong_bonus,
                                 "caught_bao": DEFAULT_RULES.caught_bao_bonus,
                                 "four_bao": DEFAULT_RULES.four_bao_bonus}}

    @app.get("/history", include_in_schema=False)
    async def history_page():
        return _page("history.html")

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str):
        """The replay viewer; an id that is no stored game is an error page (was a blank page)."""
        if not (game_id.isascii() and game_id.isdigit() and len(game_id) <= 18):
            return error_page("no-game")
        try:
            await manager.history(game_head, store, int(game_id))
        except GameNotFound:
            return error_page("no-game")
        except RecordError:
            return error_page("unreadable")
        return _page("replay.html")

    # ------------------------------------------------------------------ API
    async def _claim(table_id: int) -> tuple[int, str]:
        """A free seat of the table (loaded only if its stored row shows one): (seat, token).
        Raises TableError (TableNotFound, TableFinished, ServerFull, no free seat) or HTTPException
        (the database cannot be written or read now)."""
        try:
            t = await manager.for_joining(table_id)
            return await t.claim_seat()
        except SaveError:
            raise HTTPException(503, SAVE_FAILED) from None
        except (RecordError, ReplayError, ValueError) as err:
            if isinstance(err, TableError | DamagedRecord):
                raise
            raise HTTPException(503, f"table {table_id} cannot be loaded now") from None

    async def _join(table_id: int) -> tuple[int, str]:
        try:
            return await _claim(table_id)
        except DamagedRecord as err:
            raise HTTPException(422, _damaged(err)) from None
        except TableNotFound as err:
            raise HTTPException(404, str(err)) from None
        except TableFinished as err:
            raise HTTPException(409, str(err), headers={"X-Table": "finished"}) from None
        except ServerFull as err:
            raise HTTPException(503, str(err)) from None
        except TableError as err:
            raise HTTPException(409, str(err)) from None

    @app.get("/api/labels")
    async def labels():
        """Every label of the game (:func:`shangrao.labels.labels_table`): the client shows these, not copies."""
        return labels_table()

    @app.get("/api/server")
    async def server_state():
        """What the lobby says about this server: ``read_only`` — why no table can be played here
        (read-only storage; history and replays still work), or null."""
        return {"read_only": manager.read_only}

    @app.get("/api/rules")
    async def rules():
        fields = []
        for f in dataclasses.fields(RuleSet):
            if f.name == "hands_per_match":
                continue
            default = getattr(DEFAULT_RULES, f.name)
            fields.append({"name": f.name, "type": "bool" if isinstance(default, bool) else "int",
                           "default": default})
        from ..bots import BOT_NAMES, web_bot_specs

        return {"fields": fields, "hands_per_match": DEFAULT_RULES.hands_per_match,
                "bots": [*BOT_NAMES, *web_bot_specs()], "default_bot": default_bot()}

    @app.post("/api/tables")
    async def create_table(req: CreateTable, request: Request):
        if len(req.name) > settings.max_name:
            raise HTTPException(422, f"name: at most {settings.max_name} characters, got {len(req.name)}")
        addr = _client_group(request)
        if not creations.allow(addr):
            raise HTTPException(429, f"too many new tables: at most {settings.tables_per_minute} "
                                     "per minute from one address (or network); try again in a minute")
        try:
            table, token = await manager.create(req.name, req.hands, list(req.seats), req.rules, hints=req.hints,
                                                origin=addr)
        except ServerFull as err:
            raise HTTPException(503, str(err)) from None
        except TooManyWaiting as err:
            raise HTTPException(429, str(err)) from None
        except SaveError:
            raise HTTPException(503, SAVE_FAILED) from None
        except ValueError as err:
            raise HTTPException(422, _cut(str(err), 300)) from None
        return {"id": table.id, "seat": 0, "token": token, "url": f"/t/{table.id}/{token}",
                "join_url": f"/join/{table.id}"}

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: int, req: RematchMsg, request: Request):
        """A new match with the same seats (kinds) and rules; the asker takes seat 0 of it, the other
        players find it on the finished table (``rematch`` in its info).  Asked again, it answers the
        asker the same seat link (its token is :func:`~shangrao.web.tables.rematch_token` of theirs:
        a first answer lost is not a seat lost) and any other seat the table's join link."""
        try:
            t = await manager.get(table_id, req.token)  # the token is checked before loading
        except DamagedRecord as err:
            raise HTTPException(422, _damaged(err)) from None
        except TableNotFound as err:
            raise HTTPException(404, str(err)) from None
        except ServerFull as err:
            raise HTTPException(503, str(err)) from None
        except TableError as err:
            raise HTTPException(403, str(err)) from None
        except (RecordError, ReplayError, ValueError, SaveError):
            raise HTTPException(503, f"table {table_id} cannot be loaded now") from None
        async with t.lock:  # one rematch per table, however many ask at once
            try:
                if not t.finished:
                    raise HTTPException(409, f"table {table_id} has not finished")
                if t.rematch is not None:
                    again = rematch_token(req.token, table_id)
                    with contextlib.suppress(TableError, RecordError, ValueError):
                        if await manager.check_link(t.rematch, again) == 0:  # the one who asked, asking again
                            return {"id": t.rematch, "seat": 0, "token": again, "url": f"/t/{t.rematch}/{again}"}
                    return {"id": t.rematch, "url": f"/join/{t.rematch}"}
                addr = _client_group(request)
                if not creations.allow(addr):  # a rematch is a new table: the same limit
                    raise HTTPException(429, f"too many new tables: at most {settings.tables_per_minute} "
                                             "per minute from one address (or network); try again in a minute")
                rules = {k: v for k, v in t.rules_dict.items() if k != "hands_per_match"}
                try:
                    new, token = await manager.create(t.name, t.rules.hands_per_match,
                                                      [s.player for s in t.seats[1:]], rules, hints=t.hints,
                                                      token=rematch_token(req.token, table_id), origin=addr)
                    await t.set_rematch(new.id)
                except ServerFull as err:
                    raise HTTPException(503, str(err)) from None
                except TooManyWaiting as err:
                    raise HTTPException(429, str(err)) from None
                except SaveError:
                    raise HTTPException(503, SAVE_FAILED) from None
                except ValueError as err:  # a stored rule set this server refuses
                    raise HTTPException(409, f"table {table_id} cannot be played again: {_cut(str(err), 200)}") from None
            finally:
                t._maybe_evict()  # a finished table loaded just for this leaves memory again
        return {"id": new.id, "seat": 0, "token": token, "url": f"/t/{new.id}/{token}"}

    @app.get("/api/tables")
    async def list_tables(request: Request, status: Literal["open", "live", "finished"] | None = None,
                          limit: int = Query(20, ge=1, le=100), offset: int = Query(0, ge=0, le=10**9),
                          ids: str | None = Query(None, max_length=400, pattern=r"^\d{1,18}(,\d{1,18}){0,19}$")):
        """A page of tables, newest first.  Every table is in exactly one list: ``open`` (a seat is
        free), ``live`` (every seat taken) or ``finished``.  Without ``status``: ``{"open": [...],
        "live": [...]}`` (the first ``limit`` of each); with it: ``{"status", "tables", "offset",
        "limit", "more"}``.  ``ids`` (at most 20, comma-separated): only those tables, on one page, in
        the shape ``status`` asks for (the lobby's 回到我的座位 for the seats a browser holds, wherever
        they are in the pages: without ``status``, both the open and the live ones).
        Answers 304 to ``If-None-Match`` with the ETag when nothing the lobby shows has changed."""
        etag = f'W/"t{manager.listing_version}-{status}-{limit}-{offset}-{ids or ""}"'
        headers = {"ETag": etag, "Cache-Control": "no-cache"}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        try:
            if ids is not None:
                wanted = [int(x) for x in ids.split(",")]
                if status is None:  # the old shape: a seat's table is open or live (exactly one of them)
                    lists = await manager.tables_by_id(wanted, ("open", "live"))
                    body = {"open": lists["open"], "live": lists["live"], "more_open": False, "more_live": False,
                            "offset": 0, "limit": len(wanted)}
                else:
                    tables = (await manager.tables_by_id(wanted, (status,)))[status]
                    body = {"status": status, "tables": tables, "offset": 0, "limit": len(tables), "more": False}
            elif status is None:
                open_, more_open = await manager.list_tables("open", limit, offset)
                live, more_live = await manager.list_tables("live", limit, offset)
                body = {"open": open_, "live": live, "more_open": more_open, "more_live": more_live,
                        "offset": offset, "limit": limit}
            else:
                tables, more = await manager.list_tables(status, limit, offset)
                body = {"status": status, "tables": tables, "offset": offset, "limit": limit, "more": more}
        except RecordError:
            raise HTTPException(503, "the records database cannot be read now; try again") from None
        return JSONResponse(body, headers=headers)

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: int):
        seat, token = await _join(table_id)
        return {"id": table_id, "seat": seat, "token": token, "url": f"/t/{table_id}/{token}"}

    @app.get("/api/games")
    async def games(request: Request, limit: int = Query(100, ge=1, le=500),
                    offset: int = Query(0, ge=0, le=10**9)):
        """A page of stored games, newest first.  Read, and its answer built, in the history threads;
        costs 1 + limit/100 of the client's read budget (429 past it)."""
        read_budget(request, 1 + limit / 100)

        def work() -> JSONResponse:
            rows = store.list_games(limit=limit, offset=offset)
            return _stored_json([_public_game(g.to_dict()) for g in rows], "the list of games")

        try:
            return await manager.history(work)
        except RecordError:
            raise HTTPException(503, "the records database cannot be read now; try again") from None

    @app.get("/api/games/{game_id}")
    async def game(request: Request, game_id: int):
        read_budget(request)
        try:
            return await manager.history(_game_answer, store, game_id)
        except GameNotFound:
            raise HTTPException(404, f"no game {game_id}") from None
        except RecordError:
            raise HTTPException(503, "the records database cannot be read now; try again") from None

    @app.get("/api/games/{game_id}/hands/{hand}/frames")
    async def frames(request: Request, game_id: int, hand: int):
        """A stored (completed) hand step by step, replayed by the engine: every seat's tiles (the
        replay runs in the history threads)."""
        read_budget(request)
        try:
            return await manager.history(_frames_answer, store, game_id, hand)
        except GameNotFound:
            raise HTTPException(404, f"no game {game_id}") from None
        except RecordError:
            raise HTTPException(503, "the records database cannot be read now; try again") from None

    # ------------------------------------------------------------------ the table socket
    @app.websocket("/ws/{table_id}/{token}")
    async def table_socket(ws: WebSocket, table_id: int, token: str):
        await ws.accept()
        conn = None
        for _ in range(3):  # a table may leave memory between finding it and connecting
            try:
                t = await manager.get(table_id, token)
                seat = t.check_token(token)
            except DamagedRecord as err:
                await ws.send_json({"type": "error", "code": "damaged", "message": _damaged(err)})
                await ws.close(code=4422)
                return
            except ServerFull as err:
                await ws.send_json({"type": "error", "code": "full", "message": str(err)})
                await ws.close(code=1013)
                return
            except TableError as err:
                await ws.send_json({"type": "error", "code": "forbidden", "message": str(err)})
                await ws.close(code=4403)
                return
            except (RecordError, ReplayError, ValueError, SaveError):
                await ws.send_json({"type": "error", "code": "forbidden",
                                    "message": f"table {table_id} cannot be loaded now; try again later"})
                await ws.close(code=4403)
                return
            try:
                conn = await t.connect(seat, ws)
            except SeatBusy as err:
                await ws.send_json({"type": "error", "code": "busy", "message": str(err)})
                await ws.close(code=1013)
                return
            if conn is not None:
                break
        if conn is None:
            await ws.close(code=1013)
            return
        bucket = TokenBucket(settings.messages_per_second)
        last_notice = -1.0
        burst = _Refusals(conn, settings)

        def error(code: str, message: str) -> None:
            conn.send_json({"type": "error", "code": code, "message": message})

        try:
            while not conn.closed:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    raise WebSocketDisconnect(frame.get("code", 1000))
                if conn.closed:  # dropped as too slow while we waited
                    break
                if not bucket.take():
                    refused = _refused_action(frame.get("text"))
                    if refused is not None:
                        # an action is never dropped silently (issue 25): the sender is told that this
                        # one was not played, and for which state, so it can send it again.  In a burst
                        # that fills half the send queue the refusals are counted and told in one
                        # message a second (one reply each would drop the sender as too slow)
                        burst.refuse(refused)
                        continue
                    # anything else: one notice a second however many are refused (replying to each
                    # ping of a burst would fill the client's send queue and drop it as too slow)
                    now = time.monotonic()
                    if now - last_notice >= 1.0:
                        last_notice = now
                        error("rate_limited", f"too many messages: at most {settings.messages_per_second:g} "
                                              "per second; the excess is ignored")
                    continue
                raw = frame.get("text")
                if raw is None:  # a binary frame (receive_text() died on it with a KeyError)
                    error("malformed", "bad message: send JSON text frames, not binary")
                    continue
                if len(raw) > MAX_MESSAGE:
                    error("malformed", "message too long")
                    continue
                try:
                    msg = parse_client_message(raw)
                except (ValidationError, ValueError) as err:
                    error("malformed", f"bad message: {_short(err)}")
                    continue
                try:
                    if isinstance(msg, ActionMsg):
                        await t.human_action(seat, msg.action, msg.seq, msg.hand)
                    elif isinstance(msg, ReadyMsg):
                        await t.set_ready(seat)
                    elif isinstance(msg, FillBotsMsg):
                        await t.request_fill_bots()
                    elif isinstance(msg, PingMsg):
                        await t.pong(conn)  # under the table's lock: after every state in progress
                    elif isinstance(msg, HintMsg):
                        await t.hint(seat, conn, msg.hand, msg.seq)
                except HintsOff as err:
                    error("hints_off", str(err))
                except StaleActionError as err:
                    error("stale", str(err))
                except SaveError:
                    error("unavailable", SAVE_FAILED)
                except (IllegalActionError, ActionParseError, TableError) as err:
                    error("illegal", str(err))
        except WebSocketDisconnect:
            pass
        finally:
            await t.disconnect(seat, conn)

    return app


def _client_group(request: Request | WebSocket) -> str:
    """The client's address as the limits count it (:func:`~shangrao.web.tables.address_group`: the
    TCP peer's /24 or /64; ``serve`` trusts no forwarded-for header)."""
    return address_group(request.client.host if request.client else "?")


def _game_answer(store: Store, game_id: int) -> JSONResponse:
    """``GET /api/games/{id}``'s answer (run in a history thread).  Raises GameNotFound, RecordError."""
    rec = store.load_game(game_id)
    finished = rec.status == "finished"
    out = _public_game({"id": rec.id, "created": rec.created.isoformat() if rec.created else None,
                        "kind": rec.mode, "players": rec.players, "seed": rec.seed, "status": rec.status,
                        "hands_played": rec.hands_played, "scores": rec.scores, "rules": rec.rules,
                        "meta": rec.meta})
    out["hands"] = [{"index": h.index, "dealer": h.dealer, "result": h.result, "scores_after": h.scores_after,
                     "events": _public_hand_events(h.events, finished)} for h in rec.hands]
    out["in_progress"] = bool(rec.pending)
    out["web"] = rec.mode == KIND
    return _stored_json(out, f"game {game_id}")


def _frames_answer(store: Store, game_id: int, hand: int) -> JSONResponse:
    """``GET /api/games/{id}/hands/{hand}/frames``'s answer (run in a history thread): the stored
    hand replayed by the engine.  Raises GameNotFound, RecordError, HTTPException (404, 422)."""
    rec = store.load_game(game_id, hand=hand)
    if not rec.hands:
        raise HTTPException(404, f"game {game_id} has no stored hand {hand}")
    try:
        frames = replay_frames(rec.hands[0].events)
    except ReplayError as err:  # a log edited into another shape: said so, never a traceback
        raise HTTPException(422, f"stored hand {hand} of game {game_id} cannot be replayed: "
                                 f"{_cut(' '.join(str(err).split()), 200)}") from None
    return _stored_json({"frames": frames, "result": rec.hands[0].result, "players": rec.players},
                        f"stored hand {hand} of game {game_id}")


class _Refusals:
    """The refusals of actions over one connection's message limit (issue 25: never silent).  Each is
    told at once while the connection's send queue is less than half full; in a burst that fills it
    they are counted and told in one message a second (``count``: how many; the last one's action,
    hand and seq) — one reply each would drop the sender as too slow."""

    def __init__(self, conn: Connection, settings: Settings) -> None:
        self.conn, self.settings = conn, settings
        self.count = 0
        self.last: ActionMsg | None = None
        self.told = -1.0
        self.timer: asyncio.TimerHandle | None = None

    def refuse(self, action: ActionMsg) -> None:
        self.count += 1
        self.last = action
        now = time.monotonic()
        if self.conn.queued < self.settings.send_queue // 2 or now - self.told >= 1.0:
            self.tell()
        elif self.timer is None:
            self.timer = asyncio.get_running_loop().call_later(max(0.0, self.told + 1.0 - now), self.tell)

    def tell(self) -> None:
        self.timer = None
        a = self.last
        if not self.count or a is None or self.conn.closed:
            return
        self.told = time.monotonic()
        what = ("this action was not played — send it again" if self.count == 1 else
                f"{self.count} actions were not played, the last this one — send it again")
        self.conn.send_json({"type": "error", "code": "rate_limited", "hand": a.hand, "seq": a.seq,
                             "action": _cut(a.action, 40), "count": self.count,
                             "message": f"too many messages: at most {self.settings.messages_per_second:g} "
                                        f"per second; {what}"})
        self.count = 0


def _refused_action(raw: str | None) -> ActionMsg | None:
    """The action a message over the rate limit carries (it is refused aloud), or None (anything
    else over the limit is counted in the once-a-second notice)."""
    if raw is None or len(raw) > MAX_MESSAGE or '"action"' not in raw:
        return None
    try:
        msg = parse_client_message(raw)
    except (ValidationError, ValueError):
        return None
    return msg if isinstance(msg, ActionMsg) else None


def _snapshot(g: Game, ev: dict | None) -> dict:
    obs = [g.observation(s) for s in range(4)]
    o = obs[0]
    return {"event": ev, "hands": [list(x.hand) for x in obs], "melds": [[meld_info(m) for m in ms] for ms in o.melds],
            "discards": [list(d) for d in o.discards], "tiles_left": o.tiles_left, "scores": list(o.scores),
            "current_seat": o.current_seat, "phase": o.phase, "bao": o.bao, "indicator": o.indicator,
            "dealer": o.dealer, "last_discard": None if o.last_discard is None else list(o.last_discard)}


def replay_frames(events: list) -> list[dict]:
    """One frame per decision of a stored hand (the engine replays the log).

    The log is replayed first with :func:`shangrao.game.replay` (which checks the engine reproduces
    it), then narrated from the replay's own events: a log edited into another shape (a field of
    another type, a seat of 10**30, a missing key) raises :class:`~shangrao.game.ReplayError`, never
    another error.  Raises ReplayError."""
    try:
        log: list[dict] = [dict(e) for e in replay(events).events[:len(events)]]  # the engine's, equal to the log's
    except ReplayError:
        raise
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError, RecursionError) as err:
        raise ReplayError(f"the log is damaged ({type(err).__name__}: {err})") from None
    d = log[0]
    g = Game(RuleSet.from_dict(d["rules"]), seed=d.get("seed"), dealer=d["dealer"], scores=d["scores"],
             wall=d["wall"], dice=d["dice"], hand_no=d.get("hand_no", 0))
    frames = [_snapshot(g, None)]
    for ev in log:
        if "action" in ev:
            n = len(g.events)
            g.apply(parse_action(ev["action"]), seat=ev["seat"])
            shown = [e for e in g.events[n:] if e.get("type") not in (EventType.PASS,)]
            frames.append(_snapshot(g, {"seat": ev["seat"], "action": ev["action"], "events": shown}))
    if g.result is not None:  # the last frame says why a payer pays more (飞宝): the stored summary does not
        frames[-1]["wins"] = [{"seat": w.seat, **payer_factors(w)} for w in g.result.wins]
    return frames


def _cut(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters (with "…"): what someone sent is never echoed whole."""
    return text if len(text) <= limit else text[:limit] + "…"


def _short(err: Exception) -> str:
    if isinstance(err, ValidationError):
        parts = []
        for e in err.errors()[:3]:
            loc = ".".join(_cut(str(x)) for x in e.get("loc", ()))
            parts.append(f"{loc}: {e.get('msg')}" if loc else str(e.get("msg")))
        return "; ".join(parts)
    return " ".join(str(err).split())[:200]

