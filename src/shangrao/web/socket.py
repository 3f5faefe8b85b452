"""The table socket ``/ws/{table_id}/{token}``: a seat's messages in (:mod:`shangrao.web.messages`,
rate-limited per connection), its table's states out (one router)."""

from __future__ import annotations

import asyncio
import time

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from ..game import IllegalActionError, ReplayError
from ..game.actions import ActionParseError
from ..game.manners import TooFast
from ..records import RecordError
from .connections import Connection
from .deps import AppState
from .errors import SAVE_FAILED, HintsOff, SaveError, SeatBusy, ServerFull, StaleActionError, TableError
from .failures import damaged
from .http import StrictJSONRoute, TokenBucket, cut, short
from .messages import (
    ActionMsg,
    DissolveMsg,
    FillBotsMsg,
    HintMsg,
    ManageMsg,
    PhraseMsg,
    PingMsg,
    ReadyMsg,
    VoteMsg,
    parse_client_message,
)
from .outgoing import ErrorCode, ErrorMessage, encode_text
from .settings import Settings
from .stored import DamagedRecord

__all__ = ["MAX_MESSAGE", "refused_action", "router"]

MAX_MESSAGE = 4096


def refused_action(raw: str | None) -> ActionMsg | None:
    """The action a message over the rate limit carries (it is refused aloud), or None (anything
    else over the limit is counted in the once-a-second notice)."""
    if raw is None or len(raw) > MAX_MESSAGE or '"action"' not in raw:
        return None
    try:
        msg = parse_client_message(raw)
    except (ValidationError, ValueError):
        return None
    return msg if isinstance(msg, ActionMsg) else None


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
        what = (
            "this action was not played — send it again"
            if self.count == 1
            else f"{self.count} actions were not played, the last this one — send it again"
        )
        self.conn.send_message(
            ErrorMessage(
                code="rate_limited",
                hand=a.hand,
                seq=a.seq,
                action=cut(a.action, 40),
                count=self.count,
                message=f"too many messages: at most {self.settings.messages_per_second:g} per second; {what}",
            )
        )
        self.count = 0


async def _refuse(ws: WebSocket, code: ErrorCode, message: str) -> None:
    """Tell a socket why it is refused (before it has a :class:`Connection`)."""
    await ws.send_text(encode_text(ErrorMessage(code=code, message=message)))


#: what loading a table for a socket may raise; :func:`refuse_unloadable` answers each
LOAD_ERRORS = (DamagedRecord, ServerFull, TableError, RecordError, ReplayError, ValueError, SaveError)


async def refuse_unloadable(ws: WebSocket, table_id: int, err: Exception) -> None:
    """Refuse and close a socket whose table could not be loaded (one of :data:`LOAD_ERRORS`): a damaged
    record (4422), a full server (1013), no such table or a bad token (4403), anything else that
    cannot be loaded now (4403, "try again later")."""
    if isinstance(err, DamagedRecord):
        await _refuse(ws, "damaged", damaged(err))
        await ws.close(code=4422)
    elif isinstance(err, ServerFull):
        await _refuse(ws, "full", str(err))
        await ws.close(code=1013)
    elif isinstance(err, TableError):
        await _refuse(ws, "forbidden", str(err))
        await ws.close(code=4403)
    else:
        await _refuse(ws, "forbidden", f"table {table_id} cannot be loaded now; try again later")
        await ws.close(code=4403)


def router(ctx: AppState) -> APIRouter:
    r = APIRouter(route_class=StrictJSONRoute)  # a key given twice in a body is refused
    manager, settings = ctx.manager, ctx.settings

    @r.websocket("/ws/{table_id}/{token}")
    async def table_socket(ws: WebSocket, table_id: int, token: str) -> None:
        await ws.accept()
        conn = None
        for _ in range(3):  # a table may leave memory between finding it and connecting
            try:
                t = await manager.get(table_id, token)
                seat = t.check_token(token)
            except LOAD_ERRORS as err:
                await refuse_unloadable(ws, table_id, err)
                return
            try:
                conn = await t.connect(seat, ws)
            except SeatBusy as err:
                await _refuse(ws, "busy", str(err))
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

        def error(code: ErrorCode, message: str) -> None:
            conn.send_message(ErrorMessage(code=code, message=message))

        try:
            while not conn.closed:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    raise WebSocketDisconnect(frame.get("code", 1000))
                if conn.closed:  # dropped as too slow while we waited
                    break
                if not bucket.take():
                    refused = refused_action(frame.get("text"))
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
                        error(
                            "rate_limited",
                            f"too many messages: at most {settings.messages_per_second:g} "
                            "per second; the excess is ignored",
                        )
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
                    error("malformed", f"bad message: {short(err)}")
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
                    elif isinstance(msg, ManageMsg):  # table manners (issue 24, web/manners.py)
                        await t.set_managed(seat, msg.on)
                    elif isinstance(msg, DissolveMsg):
                        await t.propose_dissolve(seat)
                    elif isinstance(msg, VoteMsg):
                        await t.vote(seat, msg.agree)
                    elif isinstance(msg, PhraseMsg):
                        await t.say(seat, msg.phrase)
                except TooFast as err:
                    error("rate_limited", str(err))
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

    return r
