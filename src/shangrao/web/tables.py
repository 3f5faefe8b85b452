"""Live tables: the engine as the single authority, the database as the log.

A :class:`Table` owns one stored game (``kind='web'``): a :class:`~shangrao.game.Match`, the hand
being played with its seats' countdowns (:class:`~shangrao.game.table.TableState`, the table's
rules on a clock: claim windows, bots, stand-ins, timeouts), the seats (human or bot) and their
connections, and a runner task with one timer (:meth:`TableState.next_wakeup`).

Order of every change (under the table's asyncio lock): the table protocol applies the action
(raising :class:`~shangrao.game.IllegalActionError` leaves the state unchanged), the new events are
committed to the database (:mod:`shangrao.web.writer`, group commit; a finished hand is stored with
:meth:`Store.append_hand`), and only then is the new state queued for the seats
(:mod:`shangrao.web.broadcast`).  If the write fails, the hand and its clocks are put back as they
were (replayed from its own events in memory), the player who acted gets ``could not save; try
again`` and the others a ``server_problem`` notice; the runner retries bots and countdowns by itself.

Memory: a finished table leaves memory when nobody is connected to it; a table waiting for players
after ``idle_timeout`` seconds without any connection; :class:`~shangrao.web.manager.TableManager`
loads them again (after the token was checked against the stored hashes) and, after a restart,
resumes the countdown in progress from the time its last event was stored.

Seat links: ``/t/{table_id}/{token}``; the token is random (``secrets``), only its SHA-256 is stored
(``meta.web.token_hashes``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import secrets
import time
from typing import TYPE_CHECKING

from msgspec import Raw

from ..bots import get_bot
from ..game import Action, Game, IllegalActionError, Match, parse_action, replay
from ..game.actions import ActionParseError
from ..game.table import BotRequest, TableState, Timing
from ..records.live import set_players, update_meta
from ..records.summary import hand_summary
from ..rules import RuleSet
from .broadcast import SeatMessages
from .clock import ServerClock
from .connections import BOT_PLAYERS, Connection, Seat
from .errors import (
    MAX_CONNECTIONS_PER_SEAT,
    SAVE_FAILED,
    SERVER_PROBLEM,
    BadLink,
    HintsOff,
    ReadOnlyStore,
    SaveError,
    SeatBusy,
    ServerFull,
    StaleActionError,
    TableError,
    TableFinished,
    TableNotFound,
    TooManyWaiting,
    address_group,
    hash_token,
    read_only_message,
    rematch_token,
)
from .hints import send_hint
from .lobby import KIND
from .manners import TableManners
from .outgoing import PongMessage
from .settings import Pace, Settings, paced
from .stored import WebMeta
from .table_bots import TableBots
from .views import LogCache

if TYPE_CHECKING:
    from .manager import TableManager

__all__ = [
    "KIND",
    "MAX_CONNECTIONS_PER_SEAT",
    "SAVE_FAILED",
    "SERVER_PROBLEM",
    "ActionParseError",
    "HintsOff",
    "ReadOnlyStore",
    "SaveError",
    "Seat",
    "SeatBusy",
    "ServerClock",
    "ServerFull",
    "Settings",
    "StaleActionError",
    "Table",
    "TableError",
    "TableFinished",
    "TableNotFound",
    "TooManyWaiting",
    "address_group",
    "hash_token",
    "read_only_message",
    "rematch_token",
]

log = logging.getLogger("shangrao.web")

class Table(SeatMessages, TableManners):
    def __init__(self, manager: TableManager, game_id: int, name: str, rules: RuleSet, seed: int,
                 seats: list[Seat], hints: bool = True, pace: Pace = "normal") -> None:
        self.manager = manager
        self.settings = manager.settings
        self.store = manager.store
        self.id = game_id
        self.name = name
        self.rules = rules
        self.rules_dict = rules.to_dict()  # the lobby and every state message show it
        self.seed = seed
        self.seats = seats
        self.hints = hints  # the host's table option: may the players ask for the expert's advice (提示)
        self.match = Match(rules, seed=seed)
        st = self.settings
        self.pace = pace  # the creator's choice (issue 38): the bots' delay and the windows' pause
        bot_delay, claim_pause = paced(st, pace)
        self.timing = Timing(bot_delay=bot_delay, claim_timeout=st.claim_timeout, turn_timeout=st.turn_timeout,
                             absent_timeout=st.absent_timeout, claim_pause=claim_pause,
                             dissolve_timeout=st.dissolve_timeout, phrase_interval=st.phrase_interval)
        self._init_manners(st)  # 托管, 解散, 快捷语, spectators (issue 24; web/manners.py)
        #: the hand being played (or the last one, its settlement shown) with its seats' countdowns
        self.play: TableState | None = None
        self.last_settlement: dict | None = None
        self.finished = False
        self.evicted = False
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()
        self.task: asyncio.Task | None = None
        self.between_since: float | None = None
        self.failing = False  # the last database write failed (the seats were told)
        self.version = 0  # bumped on every change a seat can see
        self._texts: dict[int, tuple[tuple[int, int], str, bytes]] = {}
        self._info: tuple[int, dict] | None = None
        self._info_json: tuple[dict, Raw] | None = None  # public_info() and its TableInfo, encoded
        self._logs = LogCache()
        self.last_sent: dict[int, bytes] = {}  # per seat: its last state sent, without the countdown (UTF-8)
        self.rematch: int | None = None  # the table of the next match with the same players
        self.origin: str | None = None  # the creator's address group (the waiting-tables limit), in memory only
        self.room: str | None = None  # the room's code when this is a room's match (web/rooms.py), stored
        self.names: list[str | None] = [None] * len(seats)  # the names the room's members chose, by seat
        self._seat_info: tuple[dict, dict] | None = None  # (public_info(), seat_info()) of the last change
        now = time.monotonic()
        self.idle_since = now
        #: the bots, asked in worker threads with a deadline (issue 34; web/table_bots.py)
        self.bots = TableBots(self.id, self.manager.bot_pool, self.settings.bot_deadline, seed, self._bot_answer)
        for i, s in enumerate(seats):
            s.gone_since = now
            if s.is_bot:
                s.bot = self.bots.make(s.player, f"{seed}:{i}")
            s.standin = get_bot(self.settings.standin_bot, seed=f"{seed}:standin:{i}")

    def __repr__(self) -> str:
        return f"<Table {self.id} {self.status} hand={self.hand_no}>"

    # ------------------------------------------------------------------ bots, off the loop (issue 34)
    def _bot_answer(self, req: BotRequest, action: Action) -> None:
        p = self.play
        if p is not None and p.answer(req.key, action):
            self.changed.set()  # the runner applies it (in the engine's order)

    # ------------------------------------------------------------------ facts
    def _take_up(self, game: Game) -> None:
        """Play ``game`` from now (its countdowns start now; :meth:`TableState.resume` after a restart)."""
        self.play = TableState(game, self.seats, self.timing, time.monotonic(), manners=self.manners)

    @property
    def hand_no(self) -> int:
        return self.game.hand_no if self.game is not None else len(self.match.hands)

    @property
    def status(self) -> str:
        if self.finished:
            return "finished"
        if not all(s.claimed or s.is_bot for s in self.seats):
            return "waiting"
        if self.game is None or self.game.is_over:
            return "between"
        return "playing"

    @property
    def connected(self) -> bool:
        return any(s.conns for s in self.seats)

    def free_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.player == "human" and not s.claimed]

    def public_info(self) -> dict:
        if self._info is not None and self._info[0] == self.version:
            return self._info[1]
        now = time.monotonic()
        info = {
            "id": self.id, "name": self.name, "status": self.status, "hands_total": self.rules.hands_per_match,
            "hands_played": len(self.match.hands), "scores": list(self.match.scores),
            "rules": self.rules_dict, "free_seats": self.free_seats(),
            "players": [{"kind": s.player, "claimed": s.claimed, "connected": bool(s.conns),
                         "standin": s.player == "human" and s.claimed and self._absent(s, now),
                         "ready": s.ready, "managed": self.manners.is_managed(i)} for i, s in enumerate(self.seats)],
            "history": [list(h.result.deltas) for h in self.match.hands], "rematch": self.rematch,
            "hints": self.hints, "manners": self.manners_info(), "end_reason": self.end_reason,
            "paused": self.paused,
        }
        self._info = (self.version, info)
        return info

    def _deserted(self) -> bool:
        """The table's only player has left (:meth:`TableState.deserted`: one person's seat, three
        bots; it was connected and is not now): the table waits for them (issue 38)."""
        people = [s for s in self.seats if s.player == "human"]
        return len(people) == 1 and not people[0].conns and people[0].was_here

    @property
    def paused(self) -> bool:
        """The table waits for its only player to come back (issue 38)."""
        return not self.finished and self.status in ("playing", "between") and self._deserted()

    def _absent(self, seat: Seat, now: float) -> bool:
        return not seat.conns and now - seat.gone_since >= self.settings.absent_timeout

    def check_token(self, token: str) -> int:
        h = hash_token(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return i
        raise BadLink()

    def touch(self, listing: bool = False) -> None:
        """Something a seat can see changed (``listing``: also what the lobby shows)."""
        self.version += 1
        self.changed.set()
        if listing:
            self.manager.listing_changed()

    # ------------------------------------------------------------------ persistence
    def _meta(self) -> dict:
        """The ``meta`` patch that stores the table's seats, name, rematch and settings, a room's
        match's room and names (:class:`~shangrao.web.stored.WebMeta`), with this server's clock and its
        manners (issue 24)."""
        return WebMeta(name=self.name, seats=[s.player for s in self.seats], claimed=[s.claimed for s in self.seats],
                       token_hashes=[s.token_hash for s in self.seats], rematch=self.rematch, hints=self.hints,
                       clock=self.manager.clock.record(), room=self.room,
                       names=self.names if self.room is not None else None,
                       manners=self.manners.stored(time.monotonic()), manners_wall=time.time(),
                       pace=self.pace).to_meta()

    async def set_rematch(self, table_id: int) -> None:
        """Record the table of the next match (stored: a finished table leaves memory and is loaded
        again when looked at).  Caller holds the lock; raises SaveError (nothing changed)."""
        self.rematch = table_id
        try:
            await self.manager.write(update_meta, self.store, self.id, self._meta())
        except SaveError:
            self.rematch = None
            raise
        self.touch(listing=True)
        self.broadcast()

    def _players(self) -> list[str]:
        return [s.player for s in self.seats]

    async def claim_seat(self, seat: int | None = None, token: str | None = None) -> tuple[int, str]:
        """Give a free human seat (or ``seat``) a new token (or ``token``); returns (seat, token).

        Raises TableError (no free seat) or SaveError (the claim could not be stored)."""
        async with self.lock:
            free = self.free_seats()
            if seat is None:
                if not free:
                    raise TableError(f"table {self.id} has no free seat")
                seat = free[0]
            elif seat not in free:
                raise TableError(f"seat {seat} of table {self.id} is not free")
            token = token or secrets.token_urlsafe(18)
            s = self.seats[seat]
            s.claimed, s.token_hash = True, hash_token(token)
            try:
                await self.manager.write(update_meta, self.store, self.id, self._meta())
            except SaveError:
                s.claimed, s.token_hash = False, None
                raise
            self.touch(listing=True)
            self.broadcast()
            return seat, token

    async def fill_bots(self) -> bool:
        """Seat bots on the unclaimed seats; False (nothing written or sent) when there are none."""
        async with self.lock:
            free = self.free_seats()
            if not free:
                return False
            kind = self.settings.standin_bot if self.settings.standin_bot in BOT_PLAYERS else "greedy"
            before = [s.player for s in self.seats]
            for i in free:
                self.seats[i].player = kind
            try:
                await self.manager.write(set_players, self.store, self.id, self._players(), self._meta())
            except SaveError:
                for s, k in zip(self.seats, before):
                    s.player = k
                raise
            for i in free:
                self.seats[i].bot = self.bots.make(kind, f"{self.seed}:{i}")
            self.touch(listing=True)
            self.broadcast()
            return True

    async def _persist(self, n_before: int) -> None:
        """Store the events after ``n_before`` (one transaction), or a finished hand; then update
        the match.  Raises SaveError with nothing in memory changed but the game itself."""
        g = self.game
        assert g is not None
        if g.is_over:
            assert g.result is not None
            summary = hand_summary(g.result, g.events)
            await self.manager.write(self.store.append_hand, self.id, g.hand_no, g.dealer, g.events, summary,
                                     scores_after=list(g.result.scores))
            rec = self.match.finish_hand(g)
            rec.events = []  # stored; the live game keeps its own log until the next hand
            self.last_settlement = summary
            self.between_since = time.monotonic()
            for s in self.seats:
                s.ready = False
            if self.match.is_over:
                self.finished = True  # a restart sees the same from the number of stored hands
                with contextlib.suppress(SaveError):  # the next write retries; the table is finished anyway
                    await self.manager.write(self.store.finish_game, self.id, list(self.match.scores))
                self.manager.review_later(self.id, len(self.match.hands))  # issue 37: reviewed in the background
            self.manager.listing_changed()
        else:
            await self.manager.write_events(self.id, g.hand_no, n_before, g.events[n_before:])

    async def _apply(self, action: Action | str, seat: int | None, actor: int | None = None) -> None:
        """Apply (validated; ``seat`` None and ``action`` "release": the held window goes on), persist,
        or raise (IllegalActionError, SaveError: nothing changed).  ``actor``: the person who sent it
        (told by the caller, not by the notice).  Caller holds the lock and broadcasts.

        The table's rules (:class:`~shangrao.game.table.TableState`): an action that opens a claim/rob
        window starts its pause and its one countdown, a window that closes drops the held answers;
        the countdowns start once the change is stored (a window is shown for its whole pause)."""
        p = self.play
        if p is None or p.game.is_over:
            raise IllegalActionError("no hand is being played at this table now")
        g = p.game
        move = (None if action == "release" else parse_action(action)) if isinstance(action, str) else action
        n = len(g.events)
        saved = p.snapshot()
        now = time.monotonic()
        p.apply(seat, move, now)
        try:
            await self._persist(n)
        except SaveError:
            # the game as it was before the action (no database read)
            p.restore(saved, replay(g.events[:n], hold_windows=g.hold_windows))
            self._failed(actor)
            raise
        p.shift(now, time.monotonic())
        self._saved()
        self.manager.metrics.record_action(self.id, actor is not None)
        self.touch()

    async def _start_hand(self) -> None:
        g = self.match.new_hand()
        try:
            await self.manager.write_events(self.id, g.hand_no, 0, list(g.events))
        except SaveError:
            self._failed()
            raise
        self._saved()
        self._take_up(g)
        self.last_settlement = None
        self.between_since = None
        self.touch(listing=True)

    def _failed(self, actor: int | None = None) -> None:
        """A write failed: tell the seats once per episode (the actor is told by its caller)."""
        if self.failing:
            return
        self.failing = True
        for i in range(len(self.seats)):
            if i != actor:
                self._tell(i)

    def _saved(self) -> None:
        if self.failing:
            self.failing = False
            self.touch()

    def _maybe_evict(self) -> None:
        """Leave memory once finished and nobody looks (caller holds the lock)."""
        if not self.connected:
            self.idle_since = time.monotonic()
            if self.finished and (self.task is None or self.task.done()):
                self.manager.evict(self)

    def _at_position(self, seat: int, hand: int | None, seq: int | None) -> Game:
        """The game if (``hand``, ``seq``) is ``seat``'s current position (call with the lock held); an
        action and a hint answer only that.  Raises StaleActionError (no hand, or the table has moved on)
        or IllegalActionError (a claim window is being held: checked before the seq, so the answer does not
        tell that the game moved on)."""
        g = self.game
        if self.finished:
            raise IllegalActionError("the match has ended" + ("（解散）" if self.end_reason else ""))
        if g is None or g.is_over:
            raise StaleActionError("no hand is being played at this table now")
        if self.holding():
            raise IllegalActionError("the table is waiting for claims; look again")
        now_seq = self._logs.seq(g, seat)
        if hand is None or seq is None or hand != g.hand_no or seq != now_seq:
            raise StaleActionError(f"the table has moved on since that state (hand {hand}, seq {seq}; "
                                   f"now hand {g.hand_no}, seq {now_seq}); look again")
        return g
    async def human_action(self, seat: int, text: str, seq: int | None, hand: int | None) -> None:
        """Apply a person's action answering the state (``hand``, ``seq``) the seat was sent.

        ``seq`` is the seat's own counter (the length of its redacted log of the hand,
        :meth:`LogCache.seq`), so (hand, seq) names one position of this seat's view; anything else
        is stale.  In a claim/rob window the answer is held until the engine asks that seat, then
        applied in the engine's order (:meth:`_drain`).

        Raises StaleActionError (the table has moved on), IllegalActionError / ActionParseError
        (nothing changed) or SaveError (could not be stored; nothing changed)."""
        async with self.lock:
            g = self._at_position(seat, hand, seq)
            p = self.play
            assert p is not None
            if g.phase in ("claim", "rob"):
                if not p.options(seat):
                    raise IllegalActionError("not your decision: the table is waiting for claims")
                action = parse_action(text)
                p.hold(seat, action, time.monotonic())
                if p.pausing(time.monotonic()):  # held until the pause ends (the runner applies it)
                    self.touch()
                    self.broadcast()
                    return
                try:
                    await self._drain(actor=seat)
                except SaveError:
                    if p.answers.get(seat) is action:  # not stored: as if it had not been sent
                        del p.answers[seat]
                        raise
                    self._tell(seat)  # stored; another held answer after it was not: told like the others
                self.touch()
                self.broadcast()
                return
            if g.current_seat != seat:
                raise IllegalActionError("not your turn")
            action = parse_action(text)
            await self._apply(action, seat, actor=seat)
            self.broadcast()

    async def _drain(self, actor: int | None = None) -> None:
        """Apply the held window answers while the engine asks a seat that has answered (in the
        engine's order, :meth:`TableState.due`).  A failed write (SaveError) leaves the answer not
        applied held."""
        p = self.play
        while p is not None and p.game.phase in ("claim", "rob") and not p.game.held:
            moves = p.due(time.monotonic())
            if not moves:
                return
            seat, action = moves[0]
            await self._apply(action, seat, actor=actor)

    async def hint(self, seat: int, conn: Connection, hand: int, seq: int) -> None:
        """Queue on ``conn`` the expert's top choices for ``seat``'s decision (:func:`.hints.send_hint`)."""
        await send_hint(self, seat, conn, hand, seq)

    async def pong(self, conn: Connection) -> None:
        """Answer a ping after every state change in progress has been queued (a barrier for
        clients: the connection's queue is sent in order)."""
        async with self.lock:
            conn.send_message(PongMessage())

    async def set_ready(self, seat: int) -> bool:
        """继续 after a settlement; False (nothing sent) if it changes nothing."""
        async with self.lock:
            s = self.seats[seat]
            if s.ready or not (self.game is not None and self.game.is_over) or self.finished:
                return False
            s.ready = True
            self.touch()
            self.broadcast()
            return True

    async def request_fill_bots(self) -> bool:
        return await self.fill_bots()

    # ------------------------------------------------------------------ the runner
    def start(self) -> None:
        if self.task is None and not self.finished:
            self.task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.id}")

    async def stop(self) -> None:
        self.bots.cancel()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):  # stopping: its end is all we want
                await self.task
            self.task = None

    async def _wait(self, timeout: float | None) -> None:
        """Until a change, or ``timeout`` seconds (a timer that sets ``changed``: cheaper than
        ``wait_for``'s task per wait, and the runner looks at everything anew either way)."""
        if timeout is None:
            await self.changed.wait()
            return
        timer = asyncio.get_running_loop().call_later(max(0.0, timeout), self.changed.set)
        try:
            await self.changed.wait()
        finally:
            timer.cancel()

    async def _run(self) -> None:
        while True:
            self.changed.clear()  # a change from now on wakes the wait below
            try:
                timeout = self._vote_wakeup(await self._step())  # or a 解散 vote's countdown
            except asyncio.CancelledError:
                raise
            except SaveError:
                timeout = self.settings.retry_delay  # told the seats; try again by itself
            except Exception:
                log.exception("table %s: runner step failed", self.id)
                timeout = 1.0
            if timeout == "done":
                async with self.lock:
                    self.bots.close(self.seats)  # the match is over: outside bots end now
                    self.task = None
                    self._maybe_evict()
                return
            if timeout == "idle":
                return
            if timeout == 0:
                await asyncio.sleep(0)
                continue
            await self._wait(timeout)

    async def _step(self):
        """Do what is due now; return how long to wait for a change (None: until one), 'done' or 'idle'."""
        st = self.settings
        async with self.lock:
            await self.settle_vote()  # a 解散 vote whose countdown ran out fails
            now = time.monotonic()
            if self.finished:
                return "done"
            if self.status == "waiting":
                if self.connected:
                    return None
                left = self.idle_since + st.idle_timeout - now
                if left <= 0:
                    self.manager.evict(self)
                    return "idle"
                return left
            p = self.play
            if p is None or p.game.is_over:
                humans = [s for s in self.seats if s.player == "human"]
                if self._deserted():  # its only player has left: the next hand waits for them (issue 38)
                    self.between_since = None
                    return None
                if self.between_since is None and p is not None:  # one came back: 继续's countdown anew
                    self.between_since = now
                all_ready = all(s.ready or not s.conns for s in humans)
                since = self.between_since if self.between_since is not None else now - st.next_hand_timeout
                if p is None or all_ready or now - since >= st.next_hand_timeout:
                    await self._start_hand()
                    self.broadcast()
                    return 0
                return max(0.01, since + st.next_hand_timeout - now)
            if p.release_due(now):  # a window nobody could claim was open for its whole pause
                await self._apply("release", None)
                self.broadcast()
                return 0
            prompt_gone = p.collect(now)  # a person's window prompt went (its answer is held)
            if prompt_gone:
                self.touch()
            for req in p.requests(now):  # bots and stand-ins decide in worker threads (issue 34)
                self.bots.ask(req)
            moves = p.due(now)
            if moves:
                seat, action = moves[0]
                await self._apply(action, seat)
                self.broadcast()
                return 0
            if prompt_gone:
                self.broadcast()
            wake = p.next_wakeup(now)
            return None if wake is None else max(0.005, wake - now)


def __getattr__(name: str):
    """``TableManager``'s old home (it is :mod:`shangrao.web.manager`'s now)."""
    if name == "TableManager":
        from .manager import TableManager
        return TableManager
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
