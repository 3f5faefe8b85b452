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

Collaborators (issue 39: objects the table holds and calls, not bases it inherits; the table itself
holds the facts and dispatches): ``seating`` (:class:`~shangrao.web.seating.SeatConnections`: the seats'
sockets and links), ``out`` (:class:`~shangrao.web.broadcast.Broadcast`: what is sent; its
:meth:`~shangrao.web.broadcast.Broadcast.send` is the ONE publish path), ``spectators``
(:class:`~shangrao.web.spectators.Spectators`), ``conduct`` (:class:`~shangrao.web.manners.TableManners`:
托管, 解散, 快捷语), ``record`` (:class:`~shangrao.web.table_record.TableRecord`: what is stored, over the
manager's writer), ``bots`` (:class:`~shangrao.web.table_bots.TableBots`) and ``wakeup``
(:class:`~shangrao.web.clock.Wakeup`: the runner's one timer).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any

from ..bots import get_bot
from ..game import Action, Game, IllegalActionError, Match, parse_action, replay
from ..game.actions import ActionParseError
from ..game.manners import Manners
from ..game.table import BotRequest, TableState, Timing
from ..rules import RuleSet
from .broadcast import Broadcast
from .clock import ServerClock, Wakeup
from .connections import BOT_PLAYERS, Connection, Seat
from .errors import (
    MAX_CONNECTIONS_PER_SEAT,
    SAVE_FAILED,
    SERVER_PROBLEM,
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
from .manners import TableManners, Wait
from .outgoing import OutgoingMessage, PongMessage
from .seating import SeatConnections
from .settings import Pace, Settings, paced
from .spectators import Spectators
from .table_bots import TableBots
from .table_record import TableRecord

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


class Table:
    """One live web table: its facts (the match, the hand being played with its countdowns, the seats,
    its settings) and its collaborators (see the module doc); every public method takes the table's
    lock, changes the facts through the table protocol, stores the change (``record``) and only then
    publishes it (:meth:`publish`)."""

    def __init__(
        self,
        manager: TableManager,
        game_id: int,
        name: str,
        rules: RuleSet,
        seed: int,
        seats: list[Seat],
        hints: bool = True,
        pace: Pace = "normal",
    ) -> None:
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
        self.timing = Timing(
            bot_delay=bot_delay,
            claim_timeout=st.claim_timeout,
            turn_timeout=st.turn_timeout,
            absent_timeout=st.absent_timeout,
            claim_pause=claim_pause,
            dissolve_timeout=st.dissolve_timeout,
            phrase_interval=st.phrase_interval,
        )
        #: the hand being played (or the last one, its settlement shown) with its seats' countdowns
        self.play: TableState | None = None
        self.last_settlement: dict[str, Any] | None = None
        self.finished = False
        self.evicted = False
        self.lock = asyncio.Lock()
        self.task: asyncio.Task[None] | None = None
        self.between_since: float | None = None
        self.version = 0  # bumped on every change a seat can see
        self._info: tuple[int, dict[str, Any]] | None = None
        self.rematch: int | None = None  # the table of the next match with the same players
        self.origin: str | None = None  # the creator's address group (the waiting-tables limit), in memory only
        self.room: str | None = None  # the room's code when this is a room's match (web/rooms.py), stored
        self.names: list[str | None] = [None] * len(seats)  # the names the room's members chose, by seat
        # the collaborators (issue 39)
        self.wakeup = Wakeup()
        self.seating = SeatConnections(self, seats)
        self.out = Broadcast(self)
        self.spectators = Spectators(self)
        self.conduct = TableManners(self, st.dissolve_timeout, st.phrase_interval)  # 托管, 解散, 快捷语 (issue 24)
        self.record = TableRecord(self)
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

    # ------------------------------------------------------------------ the one publish path
    def publish(self, also: Connection | None = None) -> None:
        """Queue each seat its state where its view changed (``also``: a new connection, sent it in any
        case) and the spectators the public state where it changed.  Callers hold the lock, so nothing
        unsaved is ever sent.  Every message goes out through :meth:`Broadcast.send`."""
        self.out.states(also)
        self.spectators.publish()
        self.manager.metrics.record_update(self.id)

    def broadcast(self, also: Connection | None = None) -> None:
        """:meth:`publish` (its name before issue 39)."""
        self.publish(also)

    def send(self, conns: list[Connection] | set[Connection], message: OutgoingMessage | str) -> None:
        """Queue one message on ``conns`` (:meth:`Broadcast.send`)."""
        self.out.send(conns, message)

    # ------------------------------------------------------------------ bots, off the loop (issue 34)
    def _bot_answer(self, req: BotRequest, action: Action) -> None:
        p = self.play
        if p is not None and p.answer(req.key, action):
            self.wakeup.set()  # the runner applies it (in the engine's order)

    # ------------------------------------------------------------------ facts
    def take_up(self, game: Game) -> None:
        """Play ``game`` from now (its countdowns start now; :meth:`TableState.resume` after a restart)."""
        self.play = TableState(game, self.seats, self.timing, time.monotonic(), manners=self.manners)

    _take_up = take_up

    @property
    def game(self) -> Game | None:
        """The hand being played, or the last one (None before the first)."""
        return self.play.game if self.play is not None else None

    @property
    def manners(self) -> Manners:
        """The match's manners (托管, an open 解散 vote, the phrases' rate): ``conduct``'s."""
        return self.conduct.manners

    @manners.setter
    def manners(self, value: Manners) -> None:
        self.conduct.manners = value

    @property
    def end_reason(self) -> str | None:
        """ "dissolved" when a 解散 vote ended the match, else None: ``conduct``'s."""
        return self.conduct.end_reason

    @end_reason.setter
    def end_reason(self, value: str | None) -> None:
        self.conduct.end_reason = value

    @property
    def watchers(self) -> set[Connection]:
        """The spectators' connections (``spectators.conns``)."""
        return self.spectators.conns

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
        return self.seating.connected

    def free_seats(self) -> list[int]:
        return self.seating.free()

    def public_info(self) -> dict[str, Any]:
        if self._info is not None and self._info[0] == self.version:
            return self._info[1]
        now = time.monotonic()
        manners = self.manners
        info = {
            "id": self.id,
            "name": self.name,
            "status": self.status,
            "hands_total": self.rules.hands_per_match,
            "hands_played": len(self.match.hands),
            "scores": list(self.match.scores),
            "rules": self.rules_dict,
            "free_seats": self.free_seats(),
            "players": [
                {
                    "kind": s.player,
                    "claimed": s.claimed,
                    "connected": bool(s.conns),
                    "standin": s.player == "human" and s.claimed and self.seating.absent(s, now),
                    "ready": s.ready,
                    "managed": manners.is_managed(i),
                }
                for i, s in enumerate(self.seats)
            ],
            "history": [list(h.result.deltas) for h in self.match.hands],
            "rematch": self.rematch,
            "hints": self.hints,
            "manners": self.conduct.info(),
            "end_reason": self.end_reason,
            "paused": self.paused,
        }
        self._info = (self.version, info)
        return info

    def seat_info(self) -> dict[str, Any]:
        """:meth:`Broadcast.seat_info`: what the seats' ``state`` messages show of the table."""
        return self.out.seat_info()

    def watch_info(self) -> dict[str, Any]:
        """:meth:`Broadcast.watch_info`: what a spectator is shown of the table."""
        return self.out.watch_info()

    @property
    def paused(self) -> bool:
        """The table waits for its only player to come back (issue 38)."""
        return not self.finished and self.status in ("playing", "between") and self.seating.deserted()

    def holding(self) -> bool:
        """A window nobody can claim is held open (:attr:`Game.held`): every seat is shown the open
        window until its pause ends (so nobody learns that no one could claim)."""
        return self.game is not None and self.game.held

    def check_token(self, token: str) -> int:
        return self.seating.check_token(token)

    def touch(self, listing: bool = False) -> None:
        """Something a seat can see changed (``listing``: also what the lobby shows)."""
        self.version += 1
        self.wakeup.set()
        if listing:
            self.manager.listing_changed()

    # ------------------------------------------------------------------ persistence
    def _meta(self) -> dict[str, Any]:
        """:meth:`TableRecord.meta` (the stored ``meta`` patch)."""
        return self.record.meta()

    async def _persist(self, n_before: int) -> None:
        """:meth:`TableRecord.persist`."""
        await self.record.persist(n_before)

    async def set_rematch(self, table_id: int) -> None:
        """Record the table of the next match (stored: a finished table leaves memory and is loaded
        again when looked at).  Caller holds the lock; raises SaveError (nothing changed)."""
        self.rematch = table_id
        try:
            await self.record.store_meta()
        except SaveError:
            self.rematch = None
            raise
        self.touch(listing=True)
        self.publish()

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
                await self.record.store_meta()
            except SaveError:
                s.claimed, s.token_hash = False, None
                raise
            self.touch(listing=True)
            self.publish()
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
                await self.record.store_players()
            except SaveError:
                for s, k in zip(self.seats, before):
                    s.player = k
                raise
            for i in free:
                self.seats[i].bot = self.bots.make(kind, f"{self.seed}:{i}")
            self.touch(listing=True)
            self.publish()
            return True

    async def _apply(self, action: Action | str, seat: int | None, actor: int | None = None) -> None:
        """Apply (validated; ``seat`` None and ``action`` "release": the held window goes on), persist,
        or raise (IllegalActionError, SaveError: nothing changed).  ``actor``: the person who sent it
        (told by the caller, not by the notice).  Caller holds the lock and publishes.

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
            await self.record.persist(n)
        except SaveError:
            # the game as it was before the action (no database read)
            p.restore(saved, replay(g.events[:n], hold_windows=g.hold_windows))
            self.record.failed(actor)
            raise
        p.shift(now, time.monotonic())
        self.record.saved()
        self.manager.metrics.record_action(self.id, actor is not None)
        self.touch()

    async def _start_hand(self) -> None:
        g = self.match.new_hand()
        await self.record.store_deal(g)
        self.take_up(g)
        self.last_settlement = None
        self.between_since = None
        self.touch(listing=True)

    def maybe_evict(self) -> None:
        """Leave memory once finished and nobody looks (caller holds the lock)."""
        if not self.connected:
            self.idle_since = time.monotonic()
            if self.finished and (self.task is None or self.task.done()):
                self.manager.evict(self)

    _maybe_evict = maybe_evict

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
        now_seq = self.out.logs.seq(g, seat)
        if hand is None or seq is None or hand != g.hand_no or seq != now_seq:
            raise StaleActionError(
                f"the table has moved on since that state (hand {hand}, seq {seq}; "
                f"now hand {g.hand_no}, seq {now_seq}); look again"
            )
        return g

    # ------------------------------------------------------------------ what the sockets ask (dispatch)
    async def connect(self, seat: int, ws: Any) -> Connection | None:
        """:meth:`SeatConnections.connect`."""
        return await self.seating.connect(seat, ws)

    async def disconnect(self, seat: int, conn: Connection) -> None:
        """:meth:`SeatConnections.disconnect`."""
        await self.seating.disconnect(seat, conn)

    async def watch(self, ws: Any) -> Connection | None:
        """:meth:`Spectators.watch`."""
        return await self.spectators.watch(ws)

    async def unwatch(self, conn: Connection) -> None:
        """:meth:`Spectators.unwatch`."""
        await self.spectators.unwatch(conn)

    async def set_managed(self, seat: int, on: bool) -> bool:
        """:meth:`TableManners.set_managed` (托管)."""
        return await self.conduct.set_managed(seat, on)

    async def say(self, seat: int, phrase: str) -> None:
        """:meth:`TableManners.say` (快捷语)."""
        await self.conduct.say(seat, phrase)

    async def propose_dissolve(self, seat: int) -> None:
        """:meth:`TableManners.propose_dissolve` (解散)."""
        await self.conduct.propose_dissolve(seat)

    async def vote(self, seat: int, agree: bool) -> None:
        """:meth:`TableManners.vote`."""
        await self.conduct.vote(seat, agree)

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
                    self.publish()
                    return
                try:
                    await self._drain(actor=seat)
                except SaveError:
                    if p.answers.get(seat) is action:  # not stored: as if it had not been sent
                        del p.answers[seat]
                        raise
                    self.out.server_problem(seat)  # stored; another held answer after it was not: told like the others
                self.touch()
                self.publish()
                return
            if g.current_seat != seat:
                raise IllegalActionError("not your turn")
            action = parse_action(text)
            await self._apply(action, seat, actor=seat)
            self.publish()

    async def _drain(self, actor: int | None = None) -> None:
        """Apply the held window answers while the engine asks a seat that has answered (in the
        engine's order, :meth:`TableState.advance_clock`).  A failed write (SaveError) leaves the answer
        not applied held."""
        p = self.play
        while p is not None and p.game.phase in ("claim", "rob") and not p.game.held:
            moves = p.advance_clock(time.monotonic())
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
            self.out.send([conn], PongMessage())

    async def set_ready(self, seat: int) -> bool:
        """继续 after a settlement; False (nothing sent) if it changes nothing."""
        async with self.lock:
            s = self.seats[seat]
            if s.ready or not (self.game is not None and self.game.is_over) or self.finished:
                return False
            s.ready = True
            self.touch()
            self.publish()
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

    async def _run(self) -> None:
        while True:
            self.wakeup.clear()  # a change from now on wakes the wait below
            timeout: Wait
            try:
                timeout = self.conduct.vote_wakeup(await self._step())  # or a 解散 vote's countdown
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
                    self.maybe_evict()
                return
            if timeout == "idle":
                return
            if timeout == 0:
                await asyncio.sleep(0)
                continue
            await self.wakeup.wait(None if timeout is None else float(timeout))

    async def _step(self) -> Wait:
        """Do what is due now; return how long to wait for a change (None: until one), 'done' or 'idle'."""
        st = self.settings
        async with self.lock:
            await self.conduct.settle_vote()  # a 解散 vote whose countdown ran out fails
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
                if self.seating.deserted():  # its only player has left: the next hand waits for them (issue 38)
                    self.between_since = None
                    return None
                if self.between_since is None and p is not None:  # one came back: 继续's countdown anew
                    self.between_since = now
                all_ready = all(s.ready or not s.conns for s in humans)
                since = self.between_since if self.between_since is not None else now - st.next_hand_timeout
                if p is None or all_ready or now - since >= st.next_hand_timeout:
                    await self._start_hand()
                    self.publish()
                    return 0
                return max(0.01, since + st.next_hand_timeout - now)
            if p.release_due(now):  # a window nobody could claim was open for its whole pause
                await self._apply("release", None)
                self.publish()
                return 0
            prompt_gone = p.collect(now)  # a person's window prompt went (its answer is held)
            if prompt_gone:
                self.touch()
            for req in p.requests(now):  # bots and stand-ins decide in worker threads (issue 34)
                self.bots.ask(req)
            moves = p.advance_clock(now)
            if moves:
                seat, action = moves[0]
                await self._apply(action, seat)
                self.publish()
                return 0
            if prompt_gone:
                self.publish()
            wake = p.next_wakeup(now)
            return None if wake is None else max(0.005, wake - now)
