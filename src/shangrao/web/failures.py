"""Every refusal's HTTP answer, once per error class (FastAPI exception handlers): a route raises
what went wrong (:mod:`shangrao.web.errors`, :class:`~shangrao.records.RecordError` …) and the status
and words come from here, never from a hand-written mapping in the route."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..records import DamagedRecordError, GameNotFound, RecordError
from ..records.compact import CompactHandError
from .errors import (
    SAVE_FAILED,
    BadLink,
    NotFinished,
    SaveError,
    ServerFull,
    TableError,
    TableFinished,
    TableNotFound,
    TooManyNew,
    TooManyWaiting,
    Unloadable,
)
from .http import cut
from .page_html import error_page
from .stored import DamagedRecord

__all__ = ["NOT_PAGES", "PAGE_ERRORS", "UNREADABLE", "add_handlers", "damaged", "page_error"]

log = logging.getLogger("shangrao.web")

#: what a request is told when the records database cannot be read
UNREADABLE = "the records database cannot be read now; try again"


def damaged(err: DamagedRecord) -> str:
    """Log a damaged stored table (:mod:`shangrao.web.stored`); returns the message to answer with."""
    log.error("%s", err)
    return str(err)


def _detail(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"detail": message}, status_code=status, headers=headers)


#: (error class, HTTP status) of the refusals answered with the error's own words; a subclass's
#: entry wins over its base's (Starlette looks handlers up along the class's MRO)
STATUS: tuple[tuple[type[Exception], int], ...] = (
    (TableError, 409),
    (TableNotFound, 404),
    (BadLink, 403),
    (NotFinished, 409),
    (ServerFull, 503),
    (TooManyWaiting, 429),
    (TooManyNew, 429),
    (Unloadable, 503),
)


#: the pages whose bad link is answered with an error page of the UI (its code in
#: :data:`shangrao.web.page_html.ERRORS`), by the start of the path; any other page path: ``not-found``
PAGE_ERRORS = (
    ("/t/", "no-table"),
    ("/join/", "no-table"),
    ("/watch/", "no-table"),
    ("/replay/", "no-game"),
    ("/room/", "no-room"),
)
#: paths that are not pages: their refusals stay JSON (or the static files' own answer)
NOT_PAGES = ("/api/", "/ws/", "/static/", "/metrics")


def page_error(request: Request) -> str | None:
    """The error page a bad link answers (``/t/abc/x``, ``/watch/x``, ``/no-such-page``: a page of
    the UI in Chinese with a way home, issue 24), or None for the API and the static files."""
    path = request.url.path
    if request.method not in ("GET", "HEAD") or path.startswith(NOT_PAGES):
        return None
    return next((code for start, code in PAGE_ERRORS if path.startswith(start)), "not-found")


def add_handlers(app: FastAPI) -> None:
    """Register the handlers on ``app``."""

    def own_words(status: int) -> Callable[[Request, Exception], Awaitable[JSONResponse]]:
        async def handler(request: Request, exc: Exception) -> JSONResponse:
            return _detail(status, str(exc))

        return handler

    for cls, status in STATUS:
        app.add_exception_handler(cls, own_words(status))

    @app.exception_handler(TableFinished)
    async def finished(request: Request, exc: TableFinished) -> JSONResponse:
        return _detail(409, str(exc), {"X-Table": "finished"})

    @app.exception_handler(DamagedRecord)
    async def damaged_record(request: Request, exc: DamagedRecord) -> JSONResponse:
        return _detail(422, damaged(exc))

    @app.exception_handler(SaveError)
    async def not_saved(request: Request, exc: SaveError) -> JSONResponse:
        return _detail(503, SAVE_FAILED)

    @app.exception_handler(GameNotFound)
    async def no_game(request: Request, exc: GameNotFound) -> JSONResponse:
        return _detail(404, f"no game {request.path_params.get('game_id')}")  # (its own words name the database)

    async def damaged_row(request: Request, exc: Exception) -> JSONResponse:
        # lasting damage of a stored row: said, naming the game and the hand, not "try again"
        log.error("%s", exc)
        return _detail(422, cut(" ".join(str(exc).split()), 300))

    app.add_exception_handler(DamagedRecordError, damaged_row)
    app.add_exception_handler(CompactHandError, damaged_row)

    @app.exception_handler(RecordError)
    async def unreadable(request: Request, exc: RecordError) -> JSONResponse:
        return _detail(503, UNREADABLE)

    @app.exception_handler(StarletteHTTPException)
    async def no_route(request: Request, exc: StarletteHTTPException) -> Response:
        # a path no route matches (/no-such-page) is a page of the UI, not {"detail": "Not Found"}
        code = page_error(request) if exc.status_code == 404 and "endpoint" not in request.scope else None
        if code is None:
            return await http_exception_handler(request, exc)
        return error_page(code)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> Response:
        code = page_error(request)
        if code is not None:  # a page's link with a bad parameter (/t/abc/x, /join/x, /watch/x)
            return error_page(code)
        # FastAPI's own answer echoes the input (a 50 MB body came back as a 52 MB 422): not this one
        errors = []
        for e in exc.errors()[:10]:
            # a location may hold a key sent (a huge unknown rule option): each part cut to 40 characters
            errors.append(
                {
                    "loc": [cut(str(x)) for x in e.get("loc", ())][:6],
                    "msg": str(e.get("msg", ""))[:200],
                    "type": str(e.get("type", "")),
                }
            )
        return JSONResponse({"detail": errors}, status_code=422)
