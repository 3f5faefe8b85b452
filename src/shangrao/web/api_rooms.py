"""The rooms' pages and API (issue 24; the rooms themselves: :mod:`shangrao.web.rooms`): one router,
the member cookie, the limits on new rooms and on code guessing, and the 战绩 as CSV."""

from __future__ import annotations

import collections
import csv
import io
import time
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from ..records import RecordError
from ..records.rooms import Room, standings
from .deps import AppState
from .http import RateWindow, StrictJSONRoute, client_group
from .messages import RuleOptions, SeatKind, TableName
from .pages import error_page, page
from .rooms import RoomRefused, RoomService, seat_token

__all__ = ["COOKIE_PREFIX", "CSV_COLUMNS", "WrongCodes", "router", "standings_csv"]

#: the member cookie of room ``code`` is ``COOKIE_PREFIX + code`` (the member token; HttpOnly, a year)
COOKIE_PREFIX = "shangrao_room_"
#: the CSV's first columns; then one per seat ("1号 老王"; a seat without a member: "1号")
CSV_COLUMNS = ("场次 match", "对局 game", "局 hand", "时间 time (UTC)")


class WrongCodes:
    """Unknown room codes per address group in a sliding minute; past ``n`` the group is refused
    every code, a right one too, until the minute is over (so guessing learns nothing)."""

    def __init__(self, n: int, window: float = 60.0) -> None:
        self.n, self.window = n, window
        self.hits: dict[str, collections.deque[float]] = {}

    def _recent(self, key: str, now: float) -> collections.deque[float]:
        if len(self.hits) > 10_000:  # forget the keys idle for a window
            for k in [k for k, d in self.hits.items() if not d or now - d[-1] >= self.window]:
                del self.hits[k]
        d = self.hits.setdefault(key, collections.deque())
        while d and now - d[0] >= self.window:
            d.popleft()
        return d

    def blocked(self, key: str, now: float | None = None) -> bool:
        return len(self._recent(key, time.monotonic() if now is None else now)) >= self.n

    def count(self, key: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        self._recent(key, now).append(now)


class NewRoom(BaseModel):
    """POST /api/rooms: the first member's name (``player``), the room's name, hands per match.  The
    names are checked as a table's (:data:`~shangrao.web.messages.TableName`, ``--max-name``)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    player: TableName
    name: TableName = ""
    hands: Annotated[StrictInt, Field(ge=1, le=32)] = 8
    # the matches' settings (issue 38): the 开桌 card's rule options, 允许提示, the empty seats' bot
    rules: RuleOptions = Field(default_factory=dict)
    hints: StrictBool = True
    bot: SeatKind | None = None


class RoomSetup(BaseModel):
    """POST /api/rooms/{code}/setup: the creator's new settings for the next matches (each optional:
    left out, it stays; ``"bot": null`` is the strongest bot)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    rules: RuleOptions | None = None
    hints: StrictBool | None = None
    bot: SeatKind | None = None


class JoinRoom(BaseModel):
    """POST /api/rooms/{code}/join: the new member's name."""

    model_config = ConfigDict(extra="forbid", strict=True)
    player: TableName


def _refused(err: RoomRefused) -> JSONResponse:
    headers = {"Retry-After": "60"} if err.status == 429 else None
    return JSONResponse({"detail": err.detail, "code": err.code}, status_code=err.status, headers=headers)


def _with_cookie(resp: Response, code: str, token: str | None) -> Response:
    if token is not None:
        resp.set_cookie(COOKIE_PREFIX + code, token, max_age=366 * 86_400, httponly=True, samesite="lax", path="/")
    return resp


def standings_csv(table: dict[str, Any]) -> str:
    """The 战绩 (:func:`shangrao.records.rooms.standings`) as CSV text, UTF-8 with a BOM (Excel on a
    Chinese Windows reads it so): a header (:data:`CSV_COLUMNS`, then "N号 name" per seat), a row per
    stored hand (match number, game id, hand number, when it was stored, the four seats' points), and
    a last row ``合计 total`` (empty, the number of hands, empty, the four totals)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(
        [*CSV_COLUMNS, *(f"{p['seat']}号 {p['name']}" if p["name"] else f"{p['seat']}号" for p in table["players"])]
    )
    for m in table["matches"]:
        for h in m["hands"]:
            w.writerow([m["match"], m["game"], h["hand"], h["at"] or "", *h["deltas"]])
    w.writerow(["合计 total", "", table["hands"], "", *table["totals"]])
    return "\ufeff" + out.getvalue()


def router(ctx: AppState) -> APIRouter:
    """``POST /api/rooms``, ``POST /api/rooms/{code}/join``, ``GET /api/rooms/{code}``, ``POST
    /api/rooms/{code}/matches``, ``POST /api/rooms/{code}/setup``, ``GET /room/{code}``, ``/room/{code}/play``, ``/room/{code}/standings.csv``
    (docs/web.md, "Rooms / 房间")."""
    r = APIRouter(route_class=StrictJSONRoute)
    rooms = RoomService(ctx.manager)
    ctx.rooms = rooms  # the rematch route asks it about a room's tables
    settings = ctx.settings
    creations = RateWindow(settings.rooms_per_minute, 60.0)
    wrong = WrongCodes(settings.room_guesses, 60.0)

    def count_room(addr: str) -> Callable[[], None]:
        def count() -> None:
            if not creations.allow(addr):
                raise RoomRefused(
                    429,
                    "too_many_rooms",
                    f"too many new rooms: at most {settings.rooms_per_minute} "
                    "per minute from one address (or network); try again in a minute",
                )

        return count

    async def find(code: str, request: Request) -> Room:
        """The live room ``code``; unknown codes count against the address group (past the limit,
        every code is refused for the minute)."""
        addr = client_group(request)
        if wrong.blocked(addr):
            raise RoomRefused(
                429,
                "guessing",
                f"too many unknown room codes: at most {settings.room_guesses} "
                "a minute from one address (or network); try again in a minute",
            )
        try:
            return await rooms.find(code)
        except RoomRefused:
            wrong.count(addr)
            raise

    def token_of(room: Room, request: Request) -> str | None:
        return request.cookies.get(COOKIE_PREFIX + room.code)

    def page_refusal(err: RoomRefused) -> HTMLResponse:
        return error_page({"guessing": "room-guessing", "room_full": "room-full"}.get(err.code, "no-room"))

    @r.post("/api/rooms")
    async def new_room(req: NewRoom, request: Request) -> Response:
        try:
            if req.bot == "human":
                raise RoomRefused(422, "bad_bot", "bot: the empty seats' player is a bot, not 'human'")
            room, token = await rooms.create(
                req.player,
                req.name,
                req.hands,
                count_room(client_group(request)),
                rules=req.rules,
                hints=req.hints,
                bot=req.bot,
            )
        except RoomRefused as err:
            return _refused(err)
        return _with_cookie(JSONResponse({"code": room.code, "seat": 0, "url": f"/room/{room.code}"}), room.code, token)

    @r.post("/api/rooms/{code}/join")
    async def join_room(code: str, req: JoinRoom, request: Request) -> Response:
        try:
            room = await find(code, request)
            m, token = await rooms.join(room, req.player, token_of(room, request))
        except RoomRefused as err:
            return _refused(err)
        return _with_cookie(
            JSONResponse({"code": room.code, "seat": m.seat, "url": f"/room/{room.code}"}), room.code, token
        )

    @r.get("/api/rooms/{code}", response_model=None)
    async def room_info(code: str, request: Request) -> dict[str, Any] | Response:
        try:
            room = await find(code, request)
        except RoomRefused as err:
            return _refused(err)
        ctx.read_budget(request, 1.0 + len(room.games) / 10)
        me = rooms.member(room, token_of(room, request))
        table = await ctx.manager.history(standings, ctx.store, room)
        return {
            "code": room.code,
            "name": room.name,
            "hands": room.hands,
            "setup": room.setup,
            "members": [{"seat": m.seat, "name": m.name} for m in room.members],
            "me": None if me is None else me.seat,
            "current": await rooms.current(room),
            "standings": table,
        }

    @r.post("/api/rooms/{code}/matches", response_model=None)
    async def start(code: str, request: Request) -> dict[str, Any] | Response:
        try:
            room = await find(code, request)
            me = rooms.member(room, token_of(room, request))
            if me is None:
                raise RoomRefused(403, "not_member", "only the room's members may start its match")
            gid, token = await rooms.start_match(room, me, lambda: ctx.new_table_allowed(client_group(request)))
        except RoomRefused as err:
            return _refused(err)
        return {"id": gid, "seat": me.seat, "token": token, "url": f"/t/{gid}/{token}"}

    @r.post("/api/rooms/{code}/setup", response_model=None)
    async def change_setup(code: str, req: RoomSetup, request: Request) -> dict[str, Any] | Response:
        """The creator's new rules, 提示 and bot for the room's next matches (issue 38)."""
        try:
            if req.bot == "human":
                raise RoomRefused(422, "bad_bot", "bot: the empty seats' player is a bot, not 'human'")
            room = await find(code, request)
            me = rooms.member(room, token_of(room, request))
            if me is None:
                raise RoomRefused(403, "not_creator", "only the room's creator (seat 0) may change its rules")
            room = await rooms.change_setup(
                room, me, req.rules, req.hints, req.bot, default_bot="bot" in req.model_fields_set and req.bot is None
            )
        except RoomRefused as err:
            return _refused(err)
        return {"code": room.code, "setup": room.setup}

    @r.get("/room/{code}", include_in_schema=False)
    async def room_page(code: str, request: Request) -> Response:
        try:
            await find(code, request)
        except RoomRefused as err:
            return page_refusal(err)
        except RecordError:
            return error_page("unreadable")
        return page("room.html")

    @r.get("/room/{code}/play", include_in_schema=False)
    async def play(code: str, request: Request) -> Response:
        """A member's seat at the room's current match (a redirect); anyone else: the room page."""
        try:
            room = await find(code, request)
        except RoomRefused as err:
            return page_refusal(err)
        me = rooms.member(room, token_of(room, request))
        if me is None or not room.games:
            return RedirectResponse(f"/room/{room.code}", status_code=303)
        gid = room.games[-1]
        return RedirectResponse(f"/t/{gid}/{seat_token(me.token_hash, gid)}", status_code=303)

    @r.get("/room/{code}/standings.csv", include_in_schema=False)
    async def standings_file(code: str, request: Request) -> Response:
        try:
            room = await find(code, request)
        except RoomRefused as err:
            return page_refusal(err)
        ctx.read_budget(request, 1.0 + len(room.games) / 10)
        table = await ctx.manager.history(standings, ctx.store, room)
        return Response(
            standings_csv(table).encode("utf-8"),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="room-{room.code}.csv"'},
        )

    return r
