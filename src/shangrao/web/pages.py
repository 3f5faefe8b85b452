"""The pages of the UI (static HTML with the labels block) and its error pages: one router (the HTML
itself is :mod:`shangrao.web.page_html`'s)."""

from __future__ import annotations

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse, RedirectResponse, Response

from ..records import GameNotFound, RecordError
from ..records.live import game_head
from .deps import AppState
from .errors import ServerFull, TableError, TableFinished, TableNotFound
from .failures import damaged
from .http import StrictJSONRoute
from .page_html import ERRORS, STATIC_DIR, error_page, labels_script, page
from .stored import DamagedRecord

__all__ = ["ERRORS", "STATIC_DIR", "error_page", "labels_script", "page", "router"]


def router(ctx: AppState) -> APIRouter:
    """The pages: ``/``, ``/t/{id}/{token}``, ``/join/{id}``, ``/error/{code}``, ``/rules``,
    ``/history``, ``/replay/{id}``, ``/favicon.ico``."""
    r = APIRouter(include_in_schema=False, route_class=StrictJSONRoute)
    manager = ctx.manager

    @r.get("/")
    async def lobby() -> Response:
        return page("lobby.html")

    @r.get("/t/{table_id}/{token}")
    async def table_page(table_id: int, token: str) -> Response:
        try:
            await manager.check_link(table_id, token)  # the stored hashes only: nothing is loaded
        except DamagedRecord as err:
            damaged(err)
            return error_page("damaged", table_id, err.what)
        except TableNotFound:
            return error_page("no-table")
        except TableError:
            return error_page("bad-link")
        known = manager.damaged.get(table_id)  # its rows could not be loaded (at start-up, or a socket's)
        if known is not None:
            return error_page("damaged", table_id, known)
        return page("table.html")

    @r.get("/join/{table_id}")
    async def join_page(table_id: int) -> Response:
        try:
            _, token = await manager.claim_free_seat(table_id)
        except DamagedRecord as err:
            damaged(err)
            return error_page("damaged", table_id, err.what)
        except TableNotFound:
            return error_page("no-table")
        except TableFinished:
            return error_page("finished", table_id)
        except ServerFull:
            raise
        except TableError:
            return error_page("full", table_id)
        return RedirectResponse(f"/t/{table_id}/{token}", status_code=303)

    @r.get("/error/{code}")
    async def error_route(code: str, table: int | None = Query(None, ge=0, le=10**18)) -> Response:
        """An error page; ``/error/damaged?table=ID`` (where a table's socket was refused as damaged)
        says what is wrong with that table when the server knows."""
        if code == "damaged" and table is not None and table in manager.damaged:
            return error_page(code, table, manager.damaged[table])
        return error_page(code if code in ERRORS else "not-found")

    @r.get("/favicon.ico")
    async def favicon() -> Response:
        return FileResponse(STATIC_DIR / "tiles" / "bao.svg", media_type="image/svg+xml")

    @r.get("/rules")
    async def rules_page() -> Response:
        return page("rules.html")

    @r.get("/history")
    async def history_page() -> Response:
        return page("history.html")

    @r.get("/replay/{game_id}")
    async def replay_page(game_id: str) -> Response:
        """The replay viewer; an id that is no stored game is an error page (was a blank page)."""
        if not (game_id.isascii() and game_id.isdigit() and len(game_id) <= 18):
            return error_page("no-game")
        try:
            await manager.history(game_head, ctx.store, int(game_id))
        except GameNotFound:
            return error_page("no-game")
        except RecordError:
            return error_page("unreadable")
        return page("replay.html")

    return r
