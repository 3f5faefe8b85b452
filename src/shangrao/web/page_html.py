"""The HTML of the UI's pages and error pages (the labels block in every head): below both the pages'
router (:mod:`shangrao.web.pages`) and the error handlers (:mod:`shangrao.web.failures`), which both
answer with it — so neither imports the other (issue 39)."""

from __future__ import annotations

import functools
import html as html_lib
import json
from importlib import resources
from pathlib import Path

from fastapi.responses import HTMLResponse

from ..labels import labels_table

__all__ = ["ERRORS", "STATIC_DIR", "damaged_help", "error_page", "labels_script", "page"]

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
    "damaged": (
        422,
        "这张桌的记录无效，不能打开",
        "The stored record of this table is damaged; it cannot be played or joined.",
    ),
}


def damaged_help(table_id: int, what: str) -> str:
    """The damaged page's paragraphs for table ``table_id``: what is wrong (``what``, escaped) and what
    the server's operator can do (Chinese, then English)."""
    w = html_lib.escape(what)
    return (
        f'<p class="damage">第 {table_id} 桌：{w}</p>'
        f"<p>这张桌没有结束，但它保存的记录读不出来，所以不能继续打。请告诉服务器管理员："
        f"可以用 <code>shangrao replay {table_id}</code> 查看记录，"
        f"用 <code>shangrao abandon {table_id}</code> 结束这张桌（记为放弃，不再出现在大厅里）。</p>"
        f"<p>Table {table_id} has not finished, but its stored record cannot be loaded, so it cannot be "
        f"played on.  The server's operator can inspect it with <code>shangrao replay {table_id}</code> "
        f"and end it with <code>shangrao abandon {table_id}</code> (marked abandoned; it leaves the "
        f"lobby).</p>"
    )


def error_page(code: str, table_id: int | None = None, detail: str | None = None) -> HTMLResponse:
    """An error as a page of the UI (Chinese with the English line), with a way back.  ``detail``: for
    ``damaged``, what is wrong with table ``table_id`` (:func:`damaged_help`)."""
    status, zh, en = ERRORS[code]
    extra = ""
    if table_id is not None and code in ("finished", "full"):
        extra = f'<p><a class="button" href="/replay/{table_id}">回放 · Replay</a></p>' if code == "finished" else ""
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
