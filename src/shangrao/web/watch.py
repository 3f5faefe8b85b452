"""The spectators' page and socket (issue 24): ``GET /watch/{table_id}`` and ``/ws/watch/{table_id}`` —
the public state of :mod:`shangrao.web.spectators`, never a concealed tile (one router)."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.responses import Response

from .deps import AppState
from .errors import TableNotFound
from .failures import damaged
from .http import StrictJSONRoute, TokenBucket
from .messages import PingMsg, parse_client_message
from .outgoing import ErrorMessage, PongMessage
from .pages import error_page, page
from .socket import LOAD_ERRORS, _refuse, refuse_unloadable
from .spectators import MAX_WATCHERS
from .stored import DamagedRecord

__all__ = ["router"]


def _is_ping(raw: str | None) -> bool:
    """Whether a spectator's frame is a ``ping`` (the one message a spectator may send)."""
    if raw is None or len(raw) > 200:
        return False
    try:
        return isinstance(parse_client_message(raw), PingMsg)
    except ValueError:  # pydantic's ValidationError too
        return False


def router(ctx: AppState) -> APIRouter:
    """``GET /watch/{table_id}`` and the socket ``/ws/watch/{table_id}``."""
    r = APIRouter(route_class=StrictJSONRoute)
    manager = ctx.manager

    @r.get("/watch/{table_id}", include_in_schema=False)
    async def watch_page(table_id: int) -> Response:
        if table_id not in manager.tables:
            try:
                await manager._stored_web(table_id)
            except DamagedRecord as err:
                damaged(err)
                return error_page("damaged")
            except TableNotFound:
                return error_page("no-table")
        return page("table.html")

    @r.websocket("/ws/watch/{table_id}")
    async def watch_socket(ws: WebSocket, table_id: int) -> None:
        await ws.accept()
        try:
            t = await manager.get(table_id)
        except LOAD_ERRORS as err:
            await refuse_unloadable(ws, table_id, err)
            return
        conn = await t.watch(ws)
        if conn is None:
            await _refuse(ws, "busy", f"this table already has {MAX_WATCHERS} spectators; try again later")
            await ws.close(code=1013)
            return
        bucket = TokenBucket(ctx.settings.messages_per_second)
        try:
            while not conn.closed:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    raise WebSocketDisconnect(frame.get("code", 1000))
                if not bucket.take():
                    continue
                if _is_ping(frame.get("text")):
                    conn.send_message(PongMessage())
                else:
                    conn.send_message(
                        ErrorMessage(code="illegal", message="a spectator only watches: nothing but ping is answered")
                    )
        except WebSocketDisconnect:
            pass
        finally:
            await t.unwatch(conn)

    return r
