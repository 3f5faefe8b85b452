"""The lobby's lists of tables (open, live, finished, damaged): live tables as they are in memory, the
others from their stored rows; the damaged ones (unfinished tables whose stored rows cannot be
loaded, issue 34) as the manager found them.  :class:`LobbyLists` is the collaborator of
:class:`~shangrao.web.manager.TableManager` (``manager.lobby``) that answers the lobby."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ..records import GameSummary, RecordError, Store
from ..records.live import game_heads
from .messages import clean_name
from .stored import DamagedRecord, web_meta

if TYPE_CHECKING:
    from .tables import Table

__all__ = ["KIND", "LobbyLists"]

log = logging.getLogger("shangrao.web")

KIND = "web"


class LobbyLists:
    """The lobby's views of the tables: ``tables`` (the manager's live ones by id, read, never changed
    here), ``damaged`` (id -> what is wrong; an ended one is forgotten here), ``store`` and ``history``
    (the manager's history reads: ``await history(fn, *args)`` runs ``fn`` off the loop)."""

    def __init__(
        self, store: Store, tables: dict[int, Table], damaged: dict[int, str], history: Callable[..., Awaitable[Any]]
    ) -> None:
        self.store = store
        self.tables = tables
        self.damaged = damaged
        self.history = history

    def stored_info(self, g: GameSummary) -> dict[str, Any]:
        """The lobby's view of a table that is not in memory, from its stored row; raises DamagedRecord."""
        web = web_meta(g.meta, g.id)
        kinds, claimed = web.seats, web.claimed
        free = [i for i, (k, c) in enumerate(zip(kinds, claimed)) if k == "human" and not c]
        rules = dict(g.rules or {})
        if g.status == "finished":
            status = "finished"
        elif free:
            status = "waiting"
        else:
            status = "between"
        return {
            "id": g.id,
            "name": clean_name(web.name),
            "status": status,
            "hands_total": rules.get("hands_per_match"),
            "hands_played": g.hands_played,
            "scores": list(g.scores),
            "rules": rules,
            "free_seats": free,
            "players": [
                {"kind": k, "claimed": bool(c), "connected": False, "standin": False, "ready": False}
                for k, c in zip(kinds, claimed)
            ],
            "rematch": web.rematch,
            "hints": web.hints,
        }

    def _listed_info(self, g: GameSummary) -> dict[str, Any] | None:
        """:meth:`stored_info`, or None (and a log line) where the stored record is damaged."""
        try:
            return self.stored_info(g)
        except DamagedRecord as err:
            log.error("%s (left out of the lobby's lists)", err)
            return None

    def _info(self, g: GameSummary) -> dict[str, Any] | None:
        """The lobby's view of a table; None where its stored record is damaged."""
        t = self.tables.get(g.id)
        return t.public_info() if t is not None and not t.evicted else self._listed_info(g)

    @staticmethod
    def in_list(stored_status: str, info: dict[str, Any], status: str) -> bool:
        """Whether a table is in the lobby's list ``status``.  Every table is in exactly one list:
        'finished' (its stored row is finished), else 'open' (a seat is free) or 'live' (every
        seat taken: being played, or between hands).  stored_status: the stored row's status;
        info: the table's :meth:`_info`."""
        if stored_status == "finished":
            return status == "finished"
        return status == ("open" if info["free_seats"] else "live")

    async def damaged_tables(self) -> list[dict[str, Any]]:
        """The unfinished tables found damaged, newest first: ``{"id", "status": "damaged", "error"}``
        (``error``: what is wrong).  One ended since (``shangrao abandon``: its row finished) is
        forgotten here."""
        ids = sorted(self.damaged, reverse=True)
        if ids:
            try:
                ended = {g.id for g in await self.history(game_heads, self.store, ids) if g.status == "finished"}
            except (RecordError, TypeError, ValueError):  # a row that cannot be read at all: still damaged
                ended = set()
            for gid in ended:
                self.damaged.pop(gid, None)
        return [{"id": gid, "status": "damaged", "error": self.damaged[gid]} for gid in ids if gid in self.damaged]

    async def list_tables(self, status: str, limit: int, offset: int) -> tuple[list[dict[str, Any]], bool]:
        """A page of the lobby's list ``status`` ('open', 'live', 'finished', see :meth:`in_list`, or
        'damaged', :meth:`damaged_tables`); newest first.  Returns (tables, whether there are more).
        Tables in memory show their live state, the others their stored row; a damaged table is in
        no list but 'damaged'.  Read in the history threads (:meth:`history`): the lobby's lists
        never queue in front of a table's write."""
        if status == "damaged":
            damaged = await self.damaged_tables()
            return damaged[offset : offset + limit], len(damaged) > offset + limit
        want = limit + 1
        if status == "finished":
            rows = await self.history(self.store.list_games, kind=KIND, status="finished", limit=want, offset=offset)
            done = [self._listed_info(g) for g in rows]
            out = [info for info in done if info is not None]
            return out[:limit], len(done) > limit
        out = []
        skipped = 0
        chunk, at = 200, 0
        while len(out) < want:
            rows = await self.history(self.store.list_games, kind=KIND, status="unfinished", limit=chunk, offset=at)
            for g in rows:
                info = self._info(g) if g.id not in self.damaged else None
                if info is None or not self.in_list(g.status, info, status):
                    continue
                if skipped < offset:
                    skipped += 1
                    continue
                out.append(info)
                if len(out) >= want:
                    break
            if len(rows) < chunk:
                break
            at += chunk
        return out[:limit], len(out) > limit

    async def tables_by_id(self, ids: list[int], statuses: tuple[str, ...]) -> dict[str, list[dict[str, Any]]]:
        """The lobby's view of the tables ``ids`` (newest first) by list (:meth:`in_list`), for each of
        ``statuses``: the seats a browser holds (its 回到我的座位), wherever they are in the pages."""
        out: dict[str, list[dict[str, Any]]] = {st: [] for st in statuses}
        if "damaged" in statuses:
            wanted = set(ids)
            out["damaged"] = [d for d in await self.damaged_tables() if d["id"] in wanted]
        for g in await self.history(game_heads, self.store, ids):
            info = self._info(g) if g.kind == KIND and g.id not in self.damaged else None
            if info is None:
                continue
            for st in statuses:
                if self.in_list(g.status, info, st):
                    out[st].append(info)
        return out

    # old names (tests, scripts)
    def open_tables(self) -> list[dict[str, Any]]:
        return [
            t.public_info()
            for t in sorted(self.tables.values(), key=lambda t: -t.id)
            if not t.finished and t.free_seats()
        ]

    def live_tables(self) -> list[dict[str, Any]]:
        return [
            t.public_info()
            for t in sorted(self.tables.values(), key=lambda t: -t.id)
            if not t.finished and not t.free_seats()
        ]
