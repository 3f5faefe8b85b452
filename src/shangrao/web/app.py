"""The FastAPI application of ``shangrao serve``.

Pages (static HTML/CSS/JS from ``shangrao/web/static``; no CDN):

* ``/``                 lobby: create a table, open tables, live tables
* ``/t/{id}/{token}``   the table, as the seat the token belongs to
* ``/join/{id}``        take a free seat of a table (redirects to its seat link)
* ``/history``          stored games; ``/replay/{id}`` the replay viewer

JSON API: ``GET /api/rules``, ``POST /api/tables``, ``GET /api/tables``,
``POST /api/tables/{id}/join``, ``GET /api/games``, ``GET /api/games/{id}``.
WebSocket: ``/ws/{id}/{token}`` (messages: :mod:`shangrao.web.messages`).

Secrets: the seed and the walls of a game are sent only once it is finished; a
replay of an unfinished game shows its completed hands without the seed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
from importlib import resources
from pathlib import Path

from fastapi import FastAPI, HTTPException, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError

from ..game import EventType, Game, IllegalActionError, parse_action
from ..game.actions import ActionParseError
from ..labels import labels_table
from ..records import GameNotFound, RecordError, Store
from ..rules import DEFAULT_RULES, RuleSet
from .messages import (
    ActionMsg,
    CreateTable,
    FillBotsMsg,
    PingMsg,
    ReadyMsg,
    RematchMsg,
    default_bot,
    parse_client_message,
)
from .tables import KIND, Settings, TableError, TableManager
from .views import meld_info

__all__ = ["create_app", "STATIC_DIR"]

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


def _public_game(summary: dict) -> dict:
    d = {k: v for k, v in summary.items() if k != "meta"}
    web = (summary.get("meta") or {}).get("web") or {}
    d["name"] = web.get("name", "")
    if d.get("status") != "finished":
        d["seed"] = None
    return d


def _public_hand_events(events: list[dict], finished: bool) -> list[dict]:
    if finished:
        return events
    out = []
    for ev in events:
        if ev.get("type") == EventType.DEAL:
            ev = {k: v for k, v in ev.items() if k != "seed"}
        out.append(ev)
    return out


def create_app(db: str | None = None, settings: Settings | None = None, *, resume: bool = True) -> FastAPI:
    """The web app over the records database ``db`` (URL or path; default: the CLI's database)."""
    store = Store(db)
    manager = TableManager(store, settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        if resume:
            await manager.resume_all()
        try:
            yield
        finally:
            await manager.close()
            store.close()

    app = FastAPI(title="Shangrao Mahjong 上饶麻将", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.store = store
    app.state.manager = manager
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    # ------------------------------------------------------------------ pages
    @app.get("/", include_in_schema=False)
    async def lobby():
        return _page("lobby.html")

    async def _table_or_none(table_id: int):
        try:
            return await manager.get(table_id)
        except (TableError, RecordError, ValueError):
            return None

    @app.get("/t/{table_id}/{token}", include_in_schema=False)
    async def table_page(table_id: int, token: str):
        t = await _table_or_none(table_id)
        if t is None:
            return error_page("no-table")
        try:
            t.check_token(token)
        except TableError:
            return error_page("bad-link")
        return _page("table.html")

    @app.get("/join/{table_id}", include_in_schema=False)
    async def join_page(table_id: int):
        t = await _table_or_none(table_id)
        if t is None:
            return error_page("no-table")
        if t.finished:
            return error_page("finished", table_id)
        try:
            _seat, token = t.claim_seat()
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
        from ..scoring.items import BONUS_NAMES, DOUBLING_NAMES, PATTERNS

        return {"patterns": [{"id": p.id, "name": p.name, "factor": p.factor, "flat": p.flat,
                              "per_quad": p.per_quad, "clause": p.clause} for p in PATTERNS.values()],
                "doublings": DOUBLING_NAMES, "bonuses": BONUS_NAMES,
                "bonus_points": {"pung_kong": DEFAULT_RULES.pung_kong_bonus,
                                 "concealed_kong": DEFAULT_RULES.concealed_kong_bonus,
                                 "caught_bao": DEFAULT_RULES.caught_bao_bonus,
                                 "four_bao": DEFAULT_RULES.four_bao_bonus}}

    @app.get("/history", include_in_schema=False)
    async def history_page():
        return _page("history.html")

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: int):
        return _page("replay.html")

    # ------------------------------------------------------------------ API
    async def _table(table_id: int):
        try:
            return await manager.get(table_id)
        except TableError as err:
            raise HTTPException(404, str(err)) from None
        except (RecordError, ValueError) as err:
            raise HTTPException(404, f"table {table_id}: {err}") from None

    @app.get("/api/labels")
    async def labels():
        """Every label of the game (:func:`shangrao.labels.labels_table`): the client shows these, not copies."""
        return labels_table()

    @app.get("/api/rules")
    async def rules():
        fields = []
        for f in dataclasses.fields(RuleSet):
            if f.name == "hands_per_match":
                continue
            default = getattr(DEFAULT_RULES, f.name)
            fields.append({"name": f.name, "type": "bool" if isinstance(default, bool) else "int",
                           "default": default})
        from ..bots import BOT_NAMES

        return {"fields": fields, "hands_per_match": DEFAULT_RULES.hands_per_match,
                "bots": list(BOT_NAMES), "default_bot": default_bot()}

    @app.post("/api/tables")
    async def create_table(req: CreateTable):
        try:
            table, token = await manager.create(req.name, req.hands, list(req.seats), req.rules)
        except ValueError as err:
            raise HTTPException(422, str(err)) from None
        return {"id": table.id, "seat": 0, "token": token, "url": f"/t/{table.id}/{token}",
                "join_url": f"/join/{table.id}"}

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: int, req: RematchMsg):
        """A new match with the same seats (kinds) and rules; the asker takes seat 0 of it, the other
        players find it on the finished table (``rematch`` in its info)."""
        t = await _table(table_id)
        try:
            t.check_token(req.token)
        except TableError as err:
            raise HTTPException(403, str(err)) from None
        if not t.finished:
            raise HTTPException(409, f"table {table_id} has not finished")
        if t.rematch is not None:
            return {"id": t.rematch, "url": f"/join/{t.rematch}"}
        rules = {k: v for k, v in t.rules.to_dict().items() if k != "hands_per_match"}
        new, token = await manager.create(t.name, t.rules.hands_per_match, [s.player for s in t.seats[1:]], rules)
        t.rematch = new.id
        t.changed.set()
        await t.broadcast()
        return {"id": new.id, "seat": 0, "token": token, "url": f"/t/{new.id}/{token}"}

    @app.get("/api/tables")
    async def list_tables():
        return {"open": manager.open_tables(), "live": manager.live_tables()}

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: int):
        t = await _table(table_id)
        try:
            seat, token = t.claim_seat()
        except TableError as err:
            raise HTTPException(409, str(err)) from None
        return {"id": table_id, "seat": seat, "token": token, "url": f"/t/{table_id}/{token}"}

    @app.get("/api/games")
    async def games(limit: int = 100):
        return [_public_game(g.to_dict()) for g in store.list_games(limit=max(1, min(limit, 500)))]

    @app.get("/api/games/{game_id}")
    async def game(game_id: int):
        try:
            rec = store.load_game(game_id)
        except GameNotFound as err:
            raise HTTPException(404, str(err)) from None
        finished = rec.status == "finished"
        out = _public_game({"id": rec.id, "created": rec.created.isoformat() if rec.created else None,
                            "kind": rec.mode, "players": rec.players, "seed": rec.seed, "status": rec.status,
                            "hands_played": rec.hands_played, "scores": rec.scores, "rules": rec.rules,
                            "meta": rec.meta})
        out["hands"] = [{"index": h.index, "dealer": h.dealer, "result": h.result, "scores_after": h.scores_after,
                         "events": _public_hand_events(h.events, finished)} for h in rec.hands]
        out["in_progress"] = bool(rec.pending)
        out["web"] = rec.mode == KIND
        return out

    @app.get("/api/games/{game_id}/hands/{hand}/frames")
    async def frames(game_id: int, hand: int):
        """A stored (completed) hand step by step, replayed by the engine: every seat's tiles."""
        try:
            rec = store.load_game(game_id, hand=hand)
        except GameNotFound as err:
            raise HTTPException(404, str(err)) from None
        if not rec.hands:
            raise HTTPException(404, f"game {game_id} has no stored hand {hand}")
        try:
            return {"frames": replay_frames(rec.hands[0].events), "result": rec.hands[0].result,
                    "players": rec.players}
        except ValueError as err:
            raise HTTPException(422, f"hand {hand} of game {game_id} does not replay: {err}") from None

    # ------------------------------------------------------------------ the table socket
    @app.websocket("/ws/{table_id}/{token}")
    async def table_socket(ws: WebSocket, table_id: int, token: str):
        await ws.accept()
        try:
            t = await manager.get(table_id)
            seat = t.check_token(token)
        except (TableError, RecordError, ValueError) as err:
            await ws.send_json({"type": "error", "code": "forbidden", "message": str(err)})
            await ws.close(code=4403)
            return
        await t.connect(seat, ws)
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    raise WebSocketDisconnect(frame.get("code", 1000))
                raw = frame.get("text")
                if raw is None:  # a binary frame (receive_text() died on it with a KeyError)
                    await ws.send_json({"type": "error", "code": "malformed",
                                        "message": "bad message: send JSON text frames, not binary"})
                    continue
                if len(raw) > MAX_MESSAGE:
                    await ws.send_json({"type": "error", "code": "malformed", "message": "message too long"})
                    continue
                try:
                    msg = parse_client_message(raw)
                except (ValidationError, ValueError) as err:
                    await ws.send_json({"type": "error", "code": "malformed",
                                        "message": f"bad message: {_short(err)}"})
                    continue
                try:
                    if isinstance(msg, ActionMsg):
                        await t.human_action(seat, msg.action, msg.seq, msg.hand)
                    elif isinstance(msg, ReadyMsg):
                        await t.set_ready(seat)
                    elif isinstance(msg, FillBotsMsg):
                        await t.request_fill_bots()
                    elif isinstance(msg, PingMsg):
                        await t.pong(ws)
                except (IllegalActionError, ActionParseError, TableError, RecordError) as err:
                    await ws.send_json({"type": "error", "code": "illegal", "message": str(err)})
        except WebSocketDisconnect:
            pass
        finally:
            await t.disconnect(seat, ws)

    return app


def _snapshot(g: Game, ev: dict | None) -> dict:
    obs = [g.observation(s) for s in range(4)]
    o = obs[0]
    return {"event": ev, "hands": [list(x.hand) for x in obs], "melds": [[meld_info(m) for m in ms] for ms in o.melds],
            "discards": [list(d) for d in o.discards], "tiles_left": o.tiles_left, "scores": list(o.scores),
            "current_seat": o.current_seat, "phase": o.phase, "bao": o.bao, "indicator": o.indicator,
            "dealer": o.dealer, "last_discard": None if o.last_discard is None else list(o.last_discard)}


def replay_frames(events: list[dict]) -> list[dict]:
    """One frame per decision of a stored hand (the engine replays the log)."""
    d = events[0]
    g = Game(RuleSet.from_dict(d["rules"]), seed=d.get("seed"), dealer=d["dealer"], scores=d["scores"],
             wall=d["wall"], dice=d["dice"], hand_no=d.get("hand_no", 0))
    frames = [_snapshot(g, None)]
    for ev in events:
        if "action" in ev:
            n = len(g.events)
            g.apply(parse_action(ev["action"]), seat=ev["seat"])
            shown = [e for e in g.events[n:] if e.get("type") not in (EventType.PASS,)]
            frames.append(_snapshot(g, {"seat": ev["seat"], "action": ev["action"], "events": shown}))
    return frames


def _short(err: Exception) -> str:
    if isinstance(err, ValidationError):
        parts = []
        for e in err.errors()[:3]:
            loc = ".".join(str(x) for x in e.get("loc", ()))
            parts.append(f"{loc}: {e.get('msg')}" if loc else str(e.get("msg")))
        return "; ".join(parts)
    return " ".join(str(err).split())[:200]

