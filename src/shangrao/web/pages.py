"""The pages of the UI (static HTML with the labels block) and its error pages: one router."""

from __future__ import annotations

import functools
import html as html_lib
import json
from importlib import resources
from pathlib import Path

from fastapi import APIRouter, Query
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse

from ..labels import labels_table
from ..records import GameNotFound, RecordError
from ..records.live import game_head
from .deps import AppState
from .errors import ServerFull, TableError, TableFinished, TableNotFound
from .failures import damaged
from .http import StrictJSONRoute
from .stored import DamagedRecord

__all__ = ["ERRORS", "STATIC_DIR", "error_page", "labels_script", "page", "router"]

STATIC_DIR = Path(str(resources.files("shangrao.web") / "static"))


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


def page(name: str) -> HTMLResponse:
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
    "no-room": (404, "没有这个房间（房间号是6位数字）", "There is no room with this code (six digits)."),
    "room-full": (409, "这个房间已经满了（4人）", "This room is full: four members have joined it."),
    "room-guessing": (429, "房间号输错太多次了，请一分钟后再试", "Too many unknown room codes: try again in a minute."),
    "damaged": (422, "这张桌的记录无效，不能打开", "The stored record of this table is damaged; it cannot be played or joined."),
}


def damaged_help(table_id: int, what: str) -> str:
    """The damaged page's paragraphs for table ``table_id``: what is wrong (``what``, escaped) and what
    the server's operator can do (Chinese, then English)."""
    w = html_lib.escape(what)
    return (f'<p class="damage">第 {table_id} 桌：{w}</p>'
            f'<p>这张桌没有结束，但它保存的记录读不出来，所以不能继续打。请告诉服务器管理员：'
            f'可以用 <code>shangrao replay {table_id}</code> 查看记录，'
            f'用 <code>shangrao abandon {table_id}</code> 结束这张桌（记为放弃，不再出现在大厅里）。</p>'
            f'<p>Table {table_id} has not finished, but its stored record cannot be loaded, so it cannot be '
            f'played on.  The server\'s operator can inspect it with <code>shangrao replay {table_id}</code> '
            f'and end it with <code>shangrao abandon {table_id}</code> (marked abandoned; it leaves the '
            f'lobby).</p>')


def error_page(code: str, table_id: int | None = None, detail: str | None = None) -> HTMLResponse:
    """An error as a page of the UI (Chinese with the English line), with a way back.  ``detail``: for
    ``damaged``, what is wrong with table ``table_id`` (:func:`damaged_help`)."""
    status, zh, en = ERRORS[code]
    extra = ""
    if table_id is not None and code in ("finished", "full"):
        extra = (f'<p><a class="button" href="/replay/{table_id}">回放 · Replay</a></p>' if code == "finished"
                 else "")
    if table_id is not None and code == "damaged" and detail is not None:
        extra = damaged_help(table_id, detail)
    html = f"""<!doctype html><html lang="zh"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>上饶麻将 · {zh}</title>
<link rel="stylesheet" href="/static/app.css"><link rel="icon" href="/favicon.ico" type="image/svg+xml">{labels_script()}</head>
<body><div id="nav"></div><main class="errpage card" data-error="{code}"><h1>{zh}</h1><p>{en}</p>{extra}
<p><a class="button primary" href="/">回到大厅 · Back to the lobby</a></p></main>
<script src="/static/common.js"></script><script>document.getElementById("nav").append(navBar(""));</script>
</body></html>"""
    return HTMLResponse(html, status_code=status)


def router(ctx: AppState) -> APIRouter:
    """The pages: ``/``, ``/t/{id}/{token}``, ``/join/{id}``, ``/error/{code}``, ``/rules``,
    ``/history``, ``/replay/{id}``, ``/favicon.ico``."""
    r = APIRouter(include_in_schema=False, route_class=StrictJSONRoute)
    manager = ctx.manager

    @r.get("/")
    async def lobby():
        return page("lobby.html")

    @r.get("/t/{table_id}/{token}")
    async def table_page(table_id: int, token: str):
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
    async def join_page(table_id: int):
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
    async def error_route(code: str, table: int | None = Query(None, ge=0, le=10**18)):
        """An error page; ``/error/damaged?table=ID`` (where a table's socket was refused as damaged)
        says what is wrong with that table when the server knows."""
        if code == "damaged" and table is not None and table in manager.damaged:
            return error_page(code, table, manager.damaged[table])
        return error_page(code if code in ERRORS else "not-found")

    @r.get("/favicon.ico")
    async def favicon():
        return FileResponse(STATIC_DIR / "tiles" / "bao.svg", media_type="image/svg+xml")

    @r.get("/rules")
    async def rules_page():
        return page("rules.html")

    @r.get("/history")
    async def history_page():
        return page("history.html")

    @r.get("/replay/{game_id}")
    async def replay_page(game_id: str):
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
