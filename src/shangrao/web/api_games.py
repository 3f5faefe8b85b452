"""The games (history) API: ``GET /api/games`` (with each game's ``review`` progress while one runs,
else null), ``GET /api/games/{id}``, ``GET
/api/games/{id}/hands/{hand}/frames`` — read, and their answers built, in the history threads, each
costing the client's read budget (one router) — and ``GET /api/games/{id}/review[?seat=S]``: the game's
review (牌谱分析, issue 37), 200 when every finished hand's review is stored, else 202 with the
progress of the background review it starts (:mod:`shangrao.web.reviews`)."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import JSONResponse, Response

from ..game import ReplayError
from ..game.frames import replay_frames
from ..records import Store
from ..records.compact import CompactHandError
from ..records.history import HISTORY_KINDS, MAX_MINE, HistoryRow, list_history
from .deps import AppState
from .http import StrictJSONRoute, cut
from .lobby import KIND
from .messages import clean_name
from .reviews import ReviewsBusy
from .stored import stored_name, stored_names

if TYPE_CHECKING:
    from ..review import GameReview

__all__ = ["history_game", "public_game", "router"]


def public_game(summary: dict[str, Any]) -> dict[str, Any]:
    """A stored game's summary as the history shows it (an unfinished game's without its seed);
    ``end_reason``: "dissolved" for a match ended by a 解散 vote (issue 24), else None."""
    d = {k: v for k, v in summary.items() if k != "meta"}
    meta = summary.get("meta")
    end = meta.get("end_reason") if isinstance(meta, dict) else None
    d["end_reason"] = end if end == "dissolved" else None
    d["name"] = clean_name(stored_name(summary.get("meta")))
    if d.get("status") != "finished":
        d["seed"] = None
    return d


def history_game(row: HistoryRow) -> dict[str, Any]:
    """A game of the history's filtered list (:func:`~shangrao.records.history.list_history`):
    :func:`public_game` with ``mine`` (one of the browser's games), ``room`` (at a room's match:
    ``{"id", "name", "match"}``, never its code, which lets people in) and ``names`` (the members'
    names by seat at a room's match — null for a seat of no member —, else null)."""
    d = public_game(row.game.to_dict())
    d["mine"] = row.mine
    d["room"] = (
        None
        if row.room_id is None
        else {"id": row.room_id, "name": clean_name(row.room_name or ""), "match": row.match_no}
    )
    d["names"] = stored_names(row.game.meta) if row.room_id is not None else None
    return d


def _kinds(text: str | None) -> list[str] | None:
    """The ``kinds`` of ``GET /api/games`` as a list (None: the history's default); 422 naming a bad one."""
    if text is None:
        return None
    out = [k.strip() for k in text.split(",") if k.strip()]
    for k in out:
        if k not in HISTORY_KINDS:
            raise HTTPException(
                422, f"kinds: unknown kind of game {cut(k, 20)!r}; the kinds are {', '.join(HISTORY_KINDS)}"
            )
    return out


def _ids(text: str | None) -> list[int]:
    """The ``mine`` of ``GET /api/games`` (comma-separated game ids); 422 naming a bad one."""
    out = []
    for x in (text or "").split(","):
        x = x.strip()
        if not x:
            continue
        if not (x.isascii() and x.isdigit() and len(x) <= 18):
            raise HTTPException(422, f"mine: {cut(x, 20)!r} is not a game id")
        out.append(int(x))
    if len(set(out)) > MAX_MINE:
        raise HTTPException(422, f"mine: at most {MAX_MINE} game ids, got {len(set(out))}")
    return out


def _public_hand_events(events: list[dict[str, Any]], finished: bool) -> list[dict[str, Any]]:
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
        raise HTTPException(
            422, f"{what}: the stored record holds a value JSON cannot carry (NaN or Infinity); it cannot be shown"
        ) from None


def _game_answer(store: Store, game_id: int) -> JSONResponse:
    """``GET /api/games/{id}``'s answer (run in a history thread).  Raises GameNotFound, RecordError,
    HTTPException (422: a compact hand that does not replay, named)."""
    rec = store.load_game(game_id)
    finished = rec.status == "finished"
    out = public_game(
        {
            "id": rec.id,
            "created": rec.created.isoformat() if rec.created else None,
            "kind": rec.mode,
            "players": rec.players,
            "seed": rec.seed,
            "status": rec.status,
            "hands_played": rec.hands_played,
            "scores": rec.scores,
            "rules": rec.rules,
            "meta": rec.meta,
        }
    )
    try:  # a compact hand (shangrao simulate's fast engine) is replayed from its decisions here
        out["hands"] = [
            {
                "index": h.index,
                "dealer": h.dealer,
                "result": h.result,
                "scores_after": h.scores_after,
                "events": _public_hand_events(h.events, finished),
            }
            for h in rec.hands
        ]
    except CompactHandError as err:  # damaged: said so, naming the game and the hand, never a 500
        raise HTTPException(422, cut(" ".join(str(err).split()), 300)) from None
    out["in_progress"] = bool(rec.pending)
    out["web"] = rec.mode == KIND
    return _stored_json(out, f"game {game_id}")


def _frames_answer(store: Store, game_id: int, hand: int) -> JSONResponse:
    """``GET /api/games/{id}/hands/{hand}/frames``'s answer (run in a history thread): the stored
    hand replayed by the engine.  Raises GameNotFound, RecordError, HTTPException (404, 422: a log
    or a compact hand that does not replay)."""
    rec = store.load_game(game_id, hand=hand)
    if not rec.hands:
        raise HTTPException(404, f"game {game_id} has no stored hand {hand}")
    try:
        frames = replay_frames(rec.hands[0].events)
    except CompactHandError as err:
        raise HTTPException(422, cut(" ".join(str(err).split()), 300)) from None
    except ReplayError as err:  # a log edited into another shape: said so, never a traceback
        raise HTTPException(
            422, f"stored hand {hand} of game {game_id} cannot be replayed: {cut(' '.join(str(err).split()), 200)}"
        ) from None
    return _stored_json(
        {"frames": frames, "result": rec.hands[0].result, "players": rec.players},
        f"stored hand {hand} of game {game_id}",
    )


def _review_body(review: GameReview, players: list[str], seat: int | None) -> dict[str, Any]:
    d = review.for_seats(None if seat is None else [seat]).to_dict()
    d["players"] = players
    d["status"] = "ready"
    return d


def _review_answer(store: Store, game_id: int, seat: int | None) -> tuple[JSONResponse | None, int]:
    """``GET /api/games/{id}/review``'s answer when every finished hand's review is stored (run in a
    history thread), else (None, the number of hands to review).  Raises GameNotFound, RecordError,
    HTTPException (404: no finished hand)."""
    from ..bots.evaluator import ExpertEvaluator
    from ..records.reviews import stored_hand_reviews
    from ..review import GameReview, summarize

    rec = store.load_game(game_id)
    if not rec.hands:
        raise HTTPException(404, f"game {game_id} has no finished hand to review")
    ev = ExpertEvaluator()
    # a hand whose stored review is missing or damaged is reviewed in the background (never here, in
    # a history thread: a review is seconds of CPU), which stores it in the damaged one's place
    stored = stored_hand_reviews(store, game_id, ev.name, ev.version)
    if any(h.index not in stored for h in rec.hands):
        return None, len(rec.hands)
    seats = [0, 1, 2, 3]
    hands = [stored[h.index] for h in rec.hands]
    review = GameReview(ev.name, ev.version, seats, hands, summarize(hands, seats))
    return _stored_json(_review_body(review, rec.players, seat), f"the review of game {game_id}"), len(rec.hands)


def router(ctx: AppState) -> APIRouter:
    r = APIRouter(route_class=StrictJSONRoute)  # a key given twice in a body is refused
    manager, store = ctx.manager, ctx.store

    @r.get("/api/games")
    async def games(
        request: Request,
        limit: int = Query(100, ge=1, le=500),
        offset: int = Query(0, ge=0, le=10**9),
        kinds: str | None = Query(None, max_length=200),
        mine: str | None = Query(None, max_length=1000),
        mine_only: bool | None = None,
    ) -> Response:
        """A page of stored games, newest first.  Read, and its answer built, in the history threads;
        costs 1 + limit/100 of the client's read budget (429 past it).

        With ``kinds`` (comma-separated: web, room, play, simulate, arena — :mod:`shangrao.records.history`),
        ``mine`` (comma-separated ids: the games of a browser's seats, listed first) or ``mine_only``:
        the history's filtered list (its kinds by default: every kind but the bot runs).  Without
        any: every stored game, as before.  A bad value is a 422 naming it."""
        ctx.read_budget(request, 1 + limit / 100)
        filtered = kinds is not None or mine is not None or mine_only is not None
        chosen = _kinds(kinds)
        own = _ids(mine)

        def work() -> JSONResponse:
            running = ctx.manager.reviews.running()  # a review under way: its progress (复盘中 3/8)
            if not filtered:
                rows = store.list_games(limit=limit, offset=offset)
                return _stored_json(
                    [{**public_game(g.to_dict()), "review": running.get(g.id)} for g in rows], "the list of games"
                )
            found = list_history(store, kinds=chosen, mine=own, mine_only=bool(mine_only), limit=limit, offset=offset)
            return _stored_json(
                [{**history_game(h), "review": running.get(h.game.id)} for h in found], "the list of games"
            )

        answer: Response = await manager.history(work)
        return answer

    @r.get("/api/games/{game_id}")
    async def game(request: Request, game_id: int) -> Response:
        ctx.read_budget(request)
        answer: Response = await manager.history(_game_answer, store, game_id)
        return answer

    @r.get("/api/games/{game_id}/hands/{hand}/frames")
    async def frames(request: Request, game_id: int, hand: int) -> Response:
        """A stored (completed) hand step by step, replayed by the engine: every seat's tiles (the
        replay runs in the history threads)."""
        ctx.read_budget(request)
        answer: Response = await manager.history(_frames_answer, store, game_id, hand)
        return answer

    jobs = ctx.manager.reviews  # web/reviews.py: in their own process, ended with the app

    @r.get("/api/games/{game_id}/review")
    async def review(request: Request, game_id: int, seat: int | None = Query(None, ge=0, le=3)) -> Response:
        """The game's review (every seat, or ``seat``): 200 ``{"status": "ready", "summary", "hands", …}``
        when stored; else 202 ``{"status": "running", "done", "total"}`` while the background review
        runs (started when a web match ends, else by this request); 422 when it failed (the next
        request tries again)."""
        ctx.read_budget(request)
        job = jobs.progress(game_id)
        if job is not None:
            if job["error"] is None:
                return JSONResponse({"status": "running", **job}, status_code=202)
            with contextlib.suppress(ReviewsBusy):  # tried again on the next request, when there is room
                jobs.start(game_id, job["total"], asked=True)
            raise HTTPException(422, f"the review of game {game_id} failed: {job['error']}")
        done = jobs.finished(game_id)
        if done is not None:
            players = (await manager.history(store.load_game, game_id)).players
            return _stored_json(_review_body(done, players, seat), f"the review of game {game_id}")
        answer: Response | None
        answer, total = await manager.history(_review_answer, store, game_id, seat)
        if answer is not None:
            return answer
        try:
            started = jobs.start(game_id, total, asked=True)
        except ReviewsBusy as err:  # a bounded queue: a client asking for every game's review waits its turn
            raise HTTPException(503, str(err), headers={"Retry-After": "60"}) from None
        return JSONResponse({"status": "running", **started}, status_code=202)

    return r
