"""The tables API: ``/api/rules``, ``/api/labels``, ``/api/patterns``, ``/api/server``, ``POST /api/tables``,
``GET /api/tables``, ``POST /api/tables/{id}/join``, ``POST /api/tables/{id}/rematch`` (one router;
refusals are answered by :mod:`shangrao.web.failures`)."""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import JSONResponse, Response

from ..labels import labels_table
from ..rules import DEFAULT_RULES, RuleSet
from .deps import AppState
from .errors import TableError
from .http import StrictJSONRoute, client_group, cut
from .messages import CreateTable, RematchMsg, default_bot

__all__ = ["router"]


def router(ctx: AppState) -> APIRouter:
    r = APIRouter(route_class=StrictJSONRoute)  # a key given twice in a body is refused
    manager, settings = ctx.manager, ctx.settings

    @r.get("/api/patterns", response_model=None)
    async def patterns() -> dict[str, Any]:
        """The patterns, doublings and bonuses for the rules page (from ``shangrao.scoring``)."""
        from ..scoring.items import BONUS_NAMES, DOUBLING_NAMES, PATTERNS, seed_clause

        return {
            "patterns": [
                {
                    "id": p.id,
                    "name": p.name,
                    "factor": p.factor,
                    "flat": p.flat,
                    "per_quad": p.per_quad,
                    "clause": seed_clause(p.clause),
                }
                for p in PATTERNS.values()
            ],
            "doublings": DOUBLING_NAMES,
            "bonuses": BONUS_NAMES,
            "bonus_points": {
                "pung_kong": DEFAULT_RULES.pung_kong_bonus,
                "concealed_kong": DEFAULT_RULES.concealed_kong_bonus,
                "caught_bao": DEFAULT_RULES.caught_bao_bonus,
                "four_bao": DEFAULT_RULES.four_bao_bonus,
            },
        }

    @r.get("/api/labels", response_model=None)
    async def labels() -> dict[str, Any]:
        """Every label of the game (:func:`shangrao.labels.labels_table`): the client shows these, not copies."""
        return labels_table()

    @r.get("/api/server", response_model=None)
    async def server_state() -> dict[str, Any]:
        """What the lobby says about this server: ``read_only`` — why no table can be played here
        (read-only storage; history and replays still work), or null; ``records_problem`` — the last
        fault found in the records database's files (the SQLite WAL deleted under the server,
        :meth:`~shangrao.records.Store.check_wal`), or null."""
        return {"read_only": manager.read_only, "records_problem": getattr(manager.store, "wal_problem", None)}

    @r.get("/api/rules", response_model=None)
    async def rules() -> dict[str, Any]:
        fields = []
        for f in dataclasses.fields(RuleSet):
            if f.name == "hands_per_match":
                continue
            default = getattr(DEFAULT_RULES, f.name)
            fields.append({"name": f.name, "type": "bool" if isinstance(default, bool) else "int", "default": default})
        from ..bots import BOT_NAMES, web_bot_labels

        # the offered bots by their labels only: never the operator's command lines or paths (issue 34)
        return {
            "fields": fields,
            "hands_per_match": DEFAULT_RULES.hands_per_match,
            "bots": [*BOT_NAMES, *web_bot_labels()],
            "default_bot": default_bot(),
        }

    @r.post("/api/tables", response_model=None)
    async def create_table(req: CreateTable, request: Request) -> dict[str, Any]:
        if len(req.name) > settings.max_name:
            raise HTTPException(422, f"name: at most {settings.max_name} characters, got {len(req.name)}")
        addr = client_group(request)
        ctx.new_table_allowed(addr)
        try:
            table, token = await manager.create(
                req.name, req.hands, list(req.seats), req.rules, hints=req.hints, origin=addr, pace=req.pace
            )
        except TableError:
            raise  # a refusal of the server's (ServerFull, TooManyWaiting: answered by its handler)
        except ValueError as err:  # bad rules
            raise HTTPException(422, cut(str(err), 300)) from None
        return {
            "id": table.id,
            "seat": 0,
            "token": token,
            "url": f"/t/{table.id}/{token}",
            "join_url": f"/join/{table.id}",
        }

    @r.post("/api/tables/{table_id}/rematch", response_model=None)
    async def rematch(table_id: int, req: RematchMsg, request: Request) -> dict[str, Any]:
        """A new match with the same seats (kinds) and rules (:meth:`TableManager.rematch`); at a room's
        table the room's next match, the asker at their own seat (:meth:`RoomService.rematch`)."""
        if ctx.rooms is not None:
            done: dict[str, Any] | None = await ctx.rooms.rematch(
                table_id, req.token, lambda: ctx.new_table_allowed(client_group(request))
            )
            if done is not None:
                return done
        made: dict[str, Any] = await manager.rematch(table_id, req.token, client_group(request), ctx.new_table_allowed)
        return made

    @r.get("/api/tables")
    async def list_tables(
        request: Request,
        status: Literal["open", "live", "finished", "damaged"] | None = None,
        limit: int = Query(20, ge=1, le=100),
        offset: int = Query(0, ge=0, le=10**9),
        ids: str | None = Query(None, max_length=400, pattern=r"^\d{1,18}(,\d{1,18}){0,19}$"),
    ) -> Response:
        """A page of tables, newest first.  Every table is in exactly one list: ``open`` (a seat is
        free), ``live`` (every seat taken) or ``finished``; an unfinished table whose stored rows
        cannot be loaded is in ``damaged`` only (``{"id", "status": "damaged", "error"}``, as far as
        the server has tried to load it: at start-up, or when a link asked).  Without ``status``: ``{"open": [...],
        "live": [...]}`` (the first ``limit`` of each); with it: ``{"status", "tables", "offset",
        "limit", "more"}``.  ``ids`` (at most 20, comma-separated): only those tables, on one page, in
        the shape ``status`` asks for (the lobby's 回到我的座位 for the seats a browser holds, wherever
        they are in the pages: without ``status``, both the open and the live ones).
        Answers 304 to ``If-None-Match`` with the ETag when nothing the lobby shows has changed."""
        etag = f'W/"t{manager.listing_version}-{status}-{limit}-{offset}-{ids or ""}"'
        headers = {"ETag": etag, "Cache-Control": "no-cache"}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        if ids is not None:
            wanted = [int(x) for x in ids.split(",")]
            if status is None:  # the old shape: a seat's table is open or live (exactly one of them)
                lists = await manager.tables_by_id(wanted, ("open", "live"))
                body = {
                    "open": lists["open"],
                    "live": lists["live"],
                    "more_open": False,
                    "more_live": False,
                    "offset": 0,
                    "limit": len(wanted),
                }
            else:
                tables = (await manager.tables_by_id(wanted, (status,)))[status]
                body = {"status": status, "tables": tables, "offset": 0, "limit": len(tables), "more": False}
        elif status is None:
            open_, more_open = await manager.list_tables("open", limit, offset)
            live, more_live = await manager.list_tables("live", limit, offset)
            body = {
                "open": open_,
                "live": live,
                "more_open": more_open,
                "more_live": more_live,
                "offset": offset,
                "limit": limit,
            }
        else:
            tables, more = await manager.list_tables(status, limit, offset)
            body = {"status": status, "tables": tables, "offset": offset, "limit": limit, "more": more}
        return JSONResponse(body, headers=headers)

    @r.post("/api/tables/{table_id}/join", response_model=None)
    async def join(table_id: int) -> dict[str, Any]:
        seat, token = await manager.claim_free_seat(table_id)
        return {"id": table_id, "seat": seat, "token": token, "url": f"/t/{table_id}/{token}"}

    return r
