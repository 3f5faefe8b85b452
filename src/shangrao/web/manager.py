"""All live tables of a server: creating, loading (a replay of the stored log, the countdown in
progress resumed), leaving memory, resuming after a restart and stopping.  It holds its collaborators
(issue 39: objects, not bases): ``writer`` (:class:`~shangrao.web.writer.DatabaseWriter`, the
database in worker threads) and ``lobby`` (:class:`~shangrao.web.lobby.LobbyLists`, the lobby's
lists); its ``read``/``write``/``list_tables`` … hand each call to the one that does it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar, cast

from ..game import Event, ReplayError, replay
from ..records import DamagedRecordError, GameNotFound, GameRecord, GameSummary, RecordError, Store
from ..records.compact import CompactHandError
from ..records.live import game_head, insert_events, last_event_time, update_meta
from ..rules import RuleSet
from .clock import ServerClock, _mono_from_wall
from .errors import (
    NotFinished,
    ReadOnlyStore,
    SaveError,
    ServerFull,
    TableError,
    TableFinished,
    TableNotFound,
    TooManyWaiting,
    Unloadable,
    rematch_token,
)
from .lobby import KIND, LobbyLists
from .manners import manners_from_meta
from .messages import clean_name
from .metrics import ServerMetrics
from .outgoing import NoticeMessage, encode_text
from .reviews import ReviewJobs
from .settings import Pace, Settings
from .stored import DamagedRecord, WebMeta, read_web_meta, web_meta
from .tables import Seat, Table
from .writer import DatabaseWriter

__all__ = ["TableManager"]

log = logging.getLogger("shangrao.web")

T = TypeVar("T")

#: what loading a stored table may raise that no retry mends (issue 34): rows damaged or edited
#: outside the server, a compact hand that does not replay, a log this engine refuses.  The table is
#: then *damaged* (:attr:`TableManager.damaged`), never "try again later".
LASTING = (DamagedRecordError, CompactHandError, ReplayError)


class TableManager:
    """All live tables of a server, over one :class:`Store`; its collaborators: ``writer`` (the
    database calls, :class:`~shangrao.web.writer.DatabaseWriter`), ``lobby`` (the lobby's lists,
    :class:`~shangrao.web.lobby.LobbyLists`) and ``metrics`` (:class:`~shangrao.web.metrics.ServerMetrics`)."""

    def __init__(self, store: Store, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self.store = store
        self.tables: dict[int, Table] = {}
        #: unfinished tables found damaged (their stored rows cannot be loaded): id -> what is wrong.
        #: Listed as ``damaged`` (``/api/tables?status=damaged``), never as live; kept until the server
        #: restarts or the table is ended (``shangrao abandon``)
        self.damaged: dict[int, str] = {}
        self._load_lock = asyncio.Lock()
        self.listing_version = 0
        self.metrics = ServerMetrics(self)  # GET /metrics (web/metrics.py)
        st = self.settings
        self.writer = DatabaseWriter(store, self.metrics, st.db_threads, st.read_threads, st.review_workers)
        self.lobby = LobbyLists(store, self.tables, self.damaged, self.writer.history)
        #: the bots decide here, never on the event loop (issue 34; web/table_bots.py)
        self.bot_pool = ThreadPoolExecutor(self.settings.bot_threads, thread_name_prefix="shangrao-bot")

    def listing_changed(self) -> None:
        self.listing_version += 1

    # -- the database (self.writer) ---------------------------------------------------
    @property
    def clock(self) -> ServerClock:
        """The times this server stores (:class:`~shangrao.web.clock.ServerClock`, the writer's)."""
        return self.writer.clock

    @property
    def reviews(self) -> ReviewJobs:
        """The game reviews in the background (the writer's :class:`~shangrao.web.reviews.ReviewJobs`)."""
        return self.writer.reviews

    @property
    def read_only(self) -> str | None:
        """Why no table can be played here (read-only storage, in words), or None: the writer's."""
        return self.writer.read_only

    @read_only.setter
    def read_only(self, why: str | None) -> None:
        self.writer.read_only = why

    async def read(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)``, a database read, in a worker thread (:meth:`DatabaseWriter.read`)."""
        return await self.writer.read(fn, *args, **kwargs)

    async def history(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)``, a history read, in the history threads (:meth:`DatabaseWriter.history`)."""
        return await self.writer.history(fn, *args, **kwargs)

    async def write(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)``, a database write, in a worker thread; raises SaveError
        (:meth:`DatabaseWriter.write`)."""
        return await self.writer.write(fn, *args, **kwargs)

    async def write_events(self, game_id: int, hand_index: int, first_seq: int, events: list[Event]) -> None:
        """Store one action's events through the group commit; raises SaveError
        (:meth:`DatabaseWriter.write_events`)."""
        await self.writer.write_events(game_id, hand_index, first_seq, events)

    def review_later(self, game_id: int, hands: int) -> None:
        """Review a match that just ended in the background (:meth:`DatabaseWriter.review_later`)."""
        self.writer.review_later(game_id, hands)

    def scrub(self, text: str) -> str:
        """``text`` without the database's URL, path, host or name."""
        return self.writer.scrub(text)

    # -- the lobby's lists (self.lobby) -----------------------------------------------
    async def list_tables(self, status: str, limit: int, offset: int) -> tuple[list[dict[str, Any]], bool]:
        """A page of the lobby's list ``status`` (:meth:`LobbyLists.list_tables`)."""
        return await self.lobby.list_tables(status, limit, offset)

    async def tables_by_id(self, ids: list[int], statuses: tuple[str, ...]) -> dict[str, list[dict[str, Any]]]:
        """The lobby's view of the tables ``ids`` by list (:meth:`LobbyLists.tables_by_id`)."""
        return await self.lobby.tables_by_id(ids, statuses)

    async def damaged_tables(self) -> list[dict[str, Any]]:
        """The unfinished tables found damaged (:meth:`LobbyLists.damaged_tables`)."""
        return await self.lobby.damaged_tables()

    def open_tables(self) -> list[dict[str, Any]]:
        """The live tables with a free seat (:meth:`LobbyLists.open_tables`)."""
        return self.lobby.open_tables()

    def live_tables(self) -> list[dict[str, Any]]:
        """The live tables with every seat taken (:meth:`LobbyLists.live_tables`)."""
        return self.lobby.live_tables()

    def _mark_damaged(self, game_id: int, what: str) -> DamagedRecord:
        """Remember table ``game_id`` as damaged (``what``: what is wrong, one line); the error to raise."""
        what = " ".join(what.split())
        what = what if len(what) <= 300 else what[:300] + "…"
        if self.damaged.get(game_id) != what:
            self.damaged[game_id] = what
            self.listing_changed()
        return DamagedRecord(game_id, what)

    # -- creating and loading -------------------------------------------------------
    async def create(
        self,
        name: str,
        hands: int,
        seats: list[str],
        rules: dict[str, Any],
        hints: bool = True,
        token: str | None = None,
        origin: str | None = None,
        seat_tokens: Callable[[int], dict[int, str]] | None = None,
        room: tuple[str, list[str | None]] | None = None,
        pace: Pace = "normal",
    ) -> tuple[Table, str]:
        """A new table; seat 0 is claimed by the creator.  Returns (table, seat-0 token).
        hints: whether its players may ask for the expert's advice (stored with the table).
        token: seat 0's token (default: a new random one; a rematch's is :func:`rematch_token`).
        origin: the creator's :func:`address_group` (at most ``waiting_per_address`` of its tables
        may wait for players at once).
        seat_tokens(game_id): tokens of human seats claimed before anyone can see the table (a room's
        members, :mod:`shangrao.web.rooms`: seat -> token; seat 0's replaces ``token``).
        room: (code, the members' names by seat) of the room the match is played in (stored).
        pace: "slow", "normal" or "fast" (:data:`~shangrao.web.settings.PACES`, stored).

        Raises ValueError (bad rules), ServerFull, TooManyWaiting or SaveError."""
        rs = RuleSet.from_dict({**rules, "hands_per_match": hands})
        self._check_room()
        kinds = ["human", *seats]
        if origin is not None and "human" in seats:  # the new table would wait for players too
            n = self.settings.waiting_per_address
            if sum(1 for t in self.tables.values() if t.origin == origin and t.status == "waiting") >= n:
                raise TooManyWaiting(
                    f"too many tables waiting for players: at most {n} from one address; start or finish one first"
                )
        seed = random.SystemRandom().randrange(2**62)
        name = name.strip() or "上饶麻将"
        st = [Seat(player=k) for k in kinds]
        meta = WebMeta(
            name=name,
            seats=kinds,
            claimed=[False] * 4,
            token_hashes=[None] * 4,
            hints=hints,
            clock=self.clock.record(),
            pace=pace,
        ).to_meta()
        gid = await self.write(self.store.create_game, KIND, kinds, seed=seed, rules=rs, meta=meta)
        table = Table(self, gid, name, rs, seed, st, hints=hints, pace=pace)
        table.origin = origin
        if room is not None:
            table.room, table.names = room[0], list(room[1])
        claims = seat_tokens(gid) if seat_tokens is not None else {}
        _, token = await table.claim_seat(0, claims.pop(0, token))
        for seat, seat_token in sorted(claims.items()):
            await table.claim_seat(seat, seat_token)
        self.tables[gid] = table
        self.listing_changed()
        table.start()
        return table, token

    def _check_room(self) -> None:
        if self.read_only is not None:
            raise ReadOnlyStore(self.read_only)
        n = self.settings.max_live_tables
        if len(self.tables) >= n:
            raise ServerFull(f"the server is full ({n} live tables); try again later")

    def _build(self, rec: GameRecord, web: WebMeta) -> tuple[Table, list[Event] | None]:
        """A table from its record and its checked ``meta.web`` (no database access); returns it and
        the live events the engine added after the stored ones (to be stored by the caller)."""
        seats = [Seat(player=k, claimed=c, token_hash=h) for k, c, h in zip(web.seats, web.claimed, web.token_hashes)]
        table = Table(
            self,
            rec.id,
            clean_name(web.name),
            RuleSet.from_dict(rec.rules),
            int(cast(int, rec.seed)),
            seats,
            hints=web.hints,
            pace=web.pace,
        )
        table.rematch = web.rematch
        if web.room is not None:  # a room's match (issue 24)
            table.room, table.names = (
                web.room,
                [None if n is None else clean_name(n) for n in (web.names or [None] * 4)],
            )
        st = self.settings
        table.manners = manners_from_meta(web.manners, web.manners_wall, st.dissolve_timeout, st.phrase_interval)
        end = rec.meta.get("end_reason") if isinstance(rec.meta, dict) else None
        table.end_reason = end if end == "dissolved" else None
        for h in rec.hands:
            g = replay(h.events)
            table.match.finish_hand(g).events = []
            table.last_settlement = h.result
        extra = None
        pending = rec.pending.get(len(rec.hands))
        if pending:
            g = replay(pending, hold_windows=self.settings.claim_pause > 0)
            table.take_up(g)
            extra = g.events[len(pending) :]
        elif rec.hands:
            table.take_up(replay(rec.hands[-1].events))  # the last settlement stays on the table
            table.between_since = _mono_from_wall(rec.hands[-1].created) or time.monotonic()
        table.finished = rec.status == "finished" or table.match.is_over
        return table, extra

    async def _load(self, game_id: int) -> Table:
        rec = await self.read(self.store.load_game, game_id)
        if rec.mode != KIND:
            raise TableError(f"game {rec.id} is not a web table")
        web = web_meta(rec.meta, rec.id)  # raises DamagedRecord
        table, extra = self._build(rec, web)
        g = table.game
        if table.finished:
            return table
        if g is not None and extra is not None and not extra and not g.is_over:
            # the countdown in progress goes on from when its decision began, by the clock of the
            # server that stored it (ServerClock: wall-clock steps change nothing)
            started = self.clock.to_mono(await self.read(last_event_time, self.store, rec.id, g.hand_no), web.clock)
            assert table.play is not None
            table.play.resume(started, time.monotonic())  # a window's countdown and pause, or a turn's
        # from now on this server writes the table's rows: its clock is the one to read them by
        await self.write(update_meta, self.store, rec.id, table.record.meta())
        if g is not None and extra is not None:
            n = len(g.events) - len(extra)
            if g.is_over:  # stored up to the last action, the hand row was not written
                await table.record.persist(n)
            elif extra:
                await self.write(insert_events, self.store, rec.id, g.hand_no, n, extra, self.clock.stamp())
        return table

    async def get(self, game_id: int, token: str | None = None, *, resuming: bool = False) -> Table:
        """The table ``game_id``, loaded from the database if it is not in memory.

        token: a seat link's token, checked against the stored hashes BEFORE the game is
        loaded (a wrong one raises TableError and replays nothing).  A table with a person seated
        is loaded whatever ``max_live_tables`` when a seat link asks for it or it is being played
        (``resuming``: the restart's :meth:`resume_all`) — a flood of tables never locks a seated
        player out.  Raises TableError (no such table, a wrong token), ServerFull, DamagedRecord (its
        stored meta or rows cannot be loaded, whatever retries: remembered in :attr:`damaged`), or
        RecordError (an unreadable database)."""
        t = self.tables.get(game_id)
        if t is not None:
            if token is not None:
                t.check_token(token)
            return t
        _head, web = await self._stored_web(game_id)
        if token is not None:
            web.seat_of(token)
        known = self.damaged.get(game_id)
        if known is not None:  # found damaged before: not replayed again on every request
            raise DamagedRecord(game_id, known)
        seated, free = web.seated()
        exempt = seated and (token is not None or (resuming and not free))
        async with self._load_lock:
            t = self.tables.get(game_id)
            if t is not None:
                return t
            if not exempt or self.read_only is not None:
                self._check_room()
            try:
                t = await self._load(game_id)
            except LASTING as err:
                what = f"its stored events do not replay: {err}" if isinstance(err, ReplayError) else str(err)
                raise self._mark_damaged(game_id, what) from None
            self.tables[game_id] = t
            t.start()
            return t

    async def _stored_web(self, game_id: int) -> tuple[GameSummary, WebMeta]:
        """The stored row of the web table ``game_id`` (no replay) and its ``meta.web`` part;
        raises TableNotFound when there is no such game or it is not a web table, DamagedRecord when
        its ``meta`` is not what this server writes (:func:`~shangrao.web.stored.web_meta`)."""
        try:
            head = await self.read(game_head, self.store, game_id)
        except GameNotFound:
            raise TableNotFound(f"no table {game_id}") from None
        except (TypeError, ValueError) as err:  # a row edited by hand (players, scores …)
            raise self._mark_damaged(game_id, str(err)[:120]) from None
        if head.mode != KIND:
            raise TableNotFound(f"no table {game_id}")
        try:
            return head, web_meta(head.meta, game_id)
        except DamagedRecord as err:
            if head.status != "finished":
                self._mark_damaged(game_id, err.what)
            raise

    async def check_link(self, game_id: int, token: str) -> int:
        """The seat a link belongs to, without loading the game; raises TableError/TableNotFound."""
        t = self.tables.get(game_id)
        if t is not None:
            return t.check_token(token)
        _head, web = await self._stored_web(game_id)
        return web.seat_of(token)

    async def for_joining(self, game_id: int) -> Table:
        """A table to take a seat at: loaded only if its stored row shows a free seat.  Raises
        TableNotFound, TableFinished, TableError (no free seat) or ServerFull."""
        t = self.tables.get(game_id)
        if t is not None:
            if t.finished:
                raise TableFinished(f"table {game_id} has finished")
            return t
        head, _web = await self._stored_web(game_id)
        if head.status == "finished":
            raise TableFinished(f"table {game_id} has finished")
        if not self.lobby.stored_info(head)["free_seats"]:
            raise TableError(f"table {game_id} has no free seat")
        return await self.get(game_id)

    async def claim_free_seat(self, table_id: int) -> tuple[int, str]:
        """Take a free seat of table ``table_id`` (loaded only if its stored row shows one): (seat,
        token).  Raises TableError (TableNotFound, TableFinished, ServerFull, no free seat),
        DamagedRecord, SaveError (the claim could not be stored) or Unloadable."""
        async with self.loading(table_id):
            t = await self.for_joining(table_id)
        return await t.claim_seat()

    @contextlib.asynccontextmanager
    async def loading(self, table_id: int) -> AsyncIterator[None]:
        """Around loading a table: what is not the request's fault (the database, a stored log this
        engine refuses, a write while loading) becomes :class:`Unloadable`."""
        try:
            yield
        except (TableError, DamagedRecord):
            raise
        except (RecordError, ReplayError, ValueError, SaveError):
            raise Unloadable(f"table {table_id} cannot be loaded now") from None

    async def rematch(self, table_id: int, token: str, origin: str, count_new: Callable[[str], None]) -> dict[str, Any]:
        """A new match at table ``table_id``'s seats (kinds) and rules, asked for with seat ``token``;
        the asker takes seat 0 of it, the other players find it on the finished table.  Asked again,
        the asker gets the same seat link (:func:`rematch_token` of theirs) and any other seat the
        join link.  count_new(origin): the new-table limit (raises TooManyNew).  Returns ``{id, url}``
        (and ``seat``, ``token`` for the asker).  Raises BadLink, TableNotFound, NotFinished,
        ServerFull, TooManyNew, TooManyWaiting, SaveError, Unloadable, DamagedRecord, or
        TableError (a stored rule set this server refuses)."""
        async with self.loading(table_id):
            t = await self.get(table_id, token)  # the token is checked before loading
        async with t.lock:  # one rematch per table, however many ask at once
            try:
                if not t.finished:
                    raise NotFinished(f"table {table_id} has not finished")
                if t.rematch is not None:
                    again = rematch_token(token, table_id)
                    with contextlib.suppress(TableError, RecordError, ValueError):
                        if await self.check_link(t.rematch, again) == 0:  # the one who asked, asking again
                            return {"id": t.rematch, "seat": 0, "token": again, "url": f"/t/{t.rematch}/{again}"}
                    return {"id": t.rematch, "url": f"/join/{t.rematch}"}
                count_new(origin)  # a rematch is a new table: the same limit
                rules = {k: v for k, v in t.rules_dict.items() if k != "hands_per_match"}
                try:
                    new, seat_token = await self.create(
                        t.name,
                        t.rules.hands_per_match,
                        [s.player for s in t.seats[1:]],
                        rules,
                        hints=t.hints,
                        token=rematch_token(token, table_id),
                        origin=origin,
                        pace=t.pace,
                    )
                except TableError:
                    raise
                except ValueError as err:  # a stored rule set this server refuses
                    text = " ".join(str(err).split())
                    raise TableError(
                        f"table {table_id} cannot be played again: {text if len(text) <= 200 else text[:200] + '…'}"
                    ) from None
                await t.set_rematch(new.id)
            finally:
                t.maybe_evict()  # a finished table loaded just for this leaves memory again
        return {"id": new.id, "seat": 0, "token": seat_token, "url": f"/t/{new.id}/{seat_token}"}

    def evict(self, table: Table) -> None:
        """Forget a finished or idle table (its record stays in the database)."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        table.evicted = True
        table.bots.close(table.seats)
        table.play = None
        table.match.hands.clear()
        table.out.clear()

    async def resume_all(self) -> list[int]:
        """Load the unfinished web tables from the database and start their runners: every table
        being played with a person seated, whatever ``max_live_tables`` (issue 25: a flood of
        tables before a restart locked a game in progress out); then, while there is room, the
        tables waiting for players and those without a person (the others are loaded when a seat
        link or a join asks for them).  Returns the ids resumed."""
        rows = await self.read(self.store.list_games, kind=KIND, status="unfinished")
        played: list[int] = []
        rest: list[int] = []
        for g in rows:
            web = read_web_meta(g.meta)  # a damaged one: no person seated (no exemption from the cap)
            seated, free = web.seated() if web is not None else (False, True)
            (played if seated and not free else rest).append(g.id)
        out = []
        full = False
        for gid in played + rest:
            try:
                await self.get(gid, resuming=True)
                out.append(gid)
            except ServerFull:
                full = True
            except (TableError, RecordError, ValueError, SaveError) as err:
                log.error("cannot resume table %s: %s", gid, self.scrub(str(err)))
        if full:
            log.warning(
                "%d table(s) waiting for players were not resumed (the server holds %d live tables); "
                "they are loaded when a seat link asks for them",
                len(played) + len(rest) - len(out),
                self.settings.max_live_tables,
            )
        return out

    async def stop_playing(self, why: str) -> None:
        """Play no table from now on (another server took them over): every write is refused, the
        runners stop, the tables leave memory, and the lobby and every refusal say ``why``."""
        self.read_only = why
        notice = encode_text(NoticeMessage(code="server_problem", message=why))
        for t in list(self.tables.values()):
            await t.stop()
            t.send([c for seat in t.seats for c in seat.conns], notice)
            self.evict(t)
        self.listing_changed()

    async def close(self) -> None:
        """Stop every table, end its bots (outside bots' process groups; in the bots' threads) and the
        worker threads."""
        ends = []
        for t in list(self.tables.values()):
            await t.stop()
            ends += t.bots.close(t.seats)
        self.tables.clear()
        if ends:
            await asyncio.wait([asyncio.wrap_future(f) for f in ends], timeout=30)
        self.bot_pool.shutdown(wait=False, cancel_futures=True)
        self.writer.shutdown()
