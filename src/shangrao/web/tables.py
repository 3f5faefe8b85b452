"""Live tables: the engine as the single authority, the database as the log.

A :class:`Table` owns one stored game (``kind='web'``): a :class:`~shangrao.game.Match`,
the current :class:`~shangrao.game.Game`, the seats (human or bot), the open
connections per seat (:class:`~shangrao.web.connections.Connection`), and a runner task that
plays the bots, the countdowns and absent players.

Order of every change (under the table's lock): the engine applies the action (raising
:class:`~shangrao.game.IllegalActionError` leaves the state unchanged), the new events are
committed to the database in a worker thread (one transaction per action; a finished hand is
stored with :meth:`Store.append_hand`), and only then is the new state queued for the seats.
If the write fails, the game is put back as it was before the action (replayed from its own
events in memory), the player who acted gets ``could not save; try again`` and the others a
``server_problem`` notice; the runner retries bots and countdowns by itself.

Sending never blocks a table: each connection has its own bounded queue and sender task
(:mod:`shangrao.web.connections`); the state message of a seat is built once per change and
the same text goes to every connection of the seat — and only when the seat's view changed
(a hidden decision of another seat must not show up as an extra message).

Fair claim and rob windows (issue 12): every discard and robbable kong is shown to all seats as
an open window for at least ``claim_pause`` seconds, whether or not anyone can claim (the engine
holds a window nobody can claim open, :attr:`Game.hold_windows`, until the table releases it).
A window asks all its seats at once (:meth:`Game.window_options`);
their answers are held and applied in the engine's order, with one countdown for the window.
The pause holds in time too (issue 25): no answer — a bot's, or a person's given early — is
applied before ``claim_pause`` has passed, so a window closes at max(``claim_pause``, every
answer in) and a seat that cannot claim cannot tell from its length whether another could.

Memory: a finished table leaves memory when nobody is connected to it; a table waiting for
players leaves memory after ``idle_timeout`` seconds without any connection.  Their records
stay in the database and :meth:`TableManager.get` loads them again — after the token was
checked against the stored hashes (:func:`~shangrao.records.live.game_head`), so a wrong link
never replays a game.

After a restart, :meth:`TableManager.load` rebuilds a table from its log: every
stored hand is replayed into the match, and the live events of the hand in
progress are replayed into the game (``replay`` checks that the engine
reproduces them exactly).  The countdown of the decision in progress resumes from the time its
last event was stored (:func:`~shangrao.records.live.last_event_time`), not from full length.

Seat links: ``/t/{table_id}/{token}``; the token is random (``secrets``), only its
SHA-256 is stored (``meta.web.token_hashes``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import hashlib
import hmac
import logging
import random
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from ..bots import BOTS, get_bot
from ..errors import InputError
from ..game import Action, Event, Game, IllegalActionError, Match, parse_action, replay
from ..game.actions import ActionParseError
from ..game.table import TableState, Timing
from ..records import GameNotFound, GameSummary, RecordError, Store
from ..records.live import (
    game_head,
    game_heads,
    insert_event_batches,
    insert_events,
    last_event_time,
    set_players,
    update_meta,
)
from ..records.summary import hand_summary
from ..rules import RuleSet
from .connections import Connection, dumps
from .hints import hint_choices, hint_note
from .messages import clean_name
from .stored import DamagedRecord, web_meta
from .views import LogCache, seat_texts, seat_view

__all__ = [
    "SAVE_FAILED",
    "SERVER_PROBLEM",
    "HintsOff",
    "ReadOnlyStore",
    "SaveError",
    "ServerFull",
    "Settings",
    "StaleActionError",
    "Table",
    "TableError",
    "TableFinished",
    "TableManager",
    "TableNotFound",
    "TooManyWaiting",
    "address_group",
    "hash_token",
    "rematch_token",
]

log = logging.getLogger("shangrao.web")

KIND = "web"
BOT_PLAYERS = tuple(BOTS)  # the seat players that are bots: every registered bot
#: what the player whose action could not be stored is told
SAVE_FAILED = "could not save; try again"
#: what the other seats are told while the table cannot be stored
SERVER_PROBLEM = "the server cannot save this table right now; play goes on by itself when it can"


class TableError(InputError):
    """A request about a table that cannot be served (unknown table, bad token, no free seat)."""


class TableNotFound(TableError):
    """No web table has this id."""


class TableFinished(TableError):
    """The table's match has ended: no seat can be taken."""


class StaleActionError(IllegalActionError):
    """An action answering a state that is no longer the table's (an earlier hand or position)."""


class SaveError(RuntimeError):
    """The database refused a write; nothing was changed.  The text is safe to show."""

    def __init__(self, message: str = SAVE_FAILED) -> None:
        super().__init__(message)


class ServerFull(TableError):
    """The server has as many live tables as it may hold."""


class TooManyWaiting(TableError):
    """One client address (group) holds ``waiting_per_address`` tables waiting for players."""


def address_group(host: str) -> str:
    """The client address a limit counts: an IPv4 address's /24 network, an IPv6 address's /64
    (an IPv4-mapped one as IPv4), every loopback address (all of 127.0.0.0/8 and ::1: this
    machine, or a proxy on it) as one ``"loopback"``, anything else (a test client's name) as
    given.  A flood from many addresses of one network counts once."""
    import ipaddress

    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return "loopback"
    bits = 24 if ip.version == 4 else 64
    return str(ipaddress.ip_network(f"{ip}/{bits}", strict=False))


class ReadOnlyStore(ServerFull):
    """The records database cannot be written (read-only storage): history and replays are served,
    no table can be created or played (issue 25).  Answered like a full server (503)."""


def read_only_message(why: str) -> str:
    """What the lobby and every refused create/join/seat say on a read-only server (``why``: the
    database's own words, without its URL)."""
    return ("只能回放记录，不能开桌 · this server's records database cannot be written "
            f"({why}): history and replays work, but no table can be created or played")


#: open sockets one seat may have at once (tabs, a phone and a desktop …); one more is refused
#: (``busy``): every socket gets every state, so thousands on one seat link would cost the server
MAX_CONNECTIONS_PER_SEAT = 8


class SeatBusy(TableError):
    """The seat has :data:`MAX_CONNECTIONS_PER_SEAT` open sockets already."""


class HintsOff(TableError):
    """A hint asked for at a table whose host switched hints off."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def rematch_token(token: str, table_id: int) -> str:
    """Seat 0's token of the rematch of table ``table_id`` asked for with the seat token ``token``:
    derived from it (HMAC-SHA-256, 24 URL-safe characters like a random token), so the one who asked
    can ask again and get the same seat link (the first answer lost) while nothing but its hash is
    stored, and no other seat's token gives it."""
    import base64

    digest = hmac.new(token.encode(), f"shangrao rematch of {table_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


@dataclass
class Settings:
    """Timing and limits of a server (seconds, counts).  Tests use small values.

    Timing — bot_delay: pause before a bot acts (so people can follow).  claim_timeout: countdown
    of a claim/rob window for a person (then 过).  turn_timeout: countdown of a person's own turn
    (then the stand-in bot plays).  absent_timeout: a seat without a connection this long is played
    by the stand-in bot until its player returns.  next_hand_timeout: pause after a settlement
    before the next hand when not everyone pressed 继续.  standin_bot: the bot for absent players.
    retry_delay: pause before the runner retries after a failed database write.
    claim_pause: every discard (and robbable kong) is shown to all seats as an open window for at
    least this long, whether or not anyone can claim; bots decide inside it (fair windows).

    Limits (docs/web.md) — tables_per_minute: tables one client address may create per minute.
    max_live_tables: tables in memory (playing, waiting or being looked at).  messages_per_second:
    messages one connection may send per second (a burst of as many is allowed).  max_body: bytes of
    an HTTP request body.  max_name: characters of a table (or player) name.  send_queue: messages
    waiting for one connection before it is dropped as too slow; send_timeout: seconds one write to
    a socket may block before the same.  idle_timeout: seconds a table waiting for players stays in
    memory without any connection.

    Floods and reads (issue 25) — waiting_per_address: tables waiting for players one client address
    (group) may hold in memory; tables_per_minute and this count per address group (an IPv4 /24, an
    IPv6 /64: :func:`address_group`), so many addresses of one network count as one.  A table with a
    person seated is never refused for ``max_live_tables`` when its seat link loads it, and a restart
    resumes every such table being played whatever the cap.  reads_per_second: the budget of history
    reads (``/api/games``, a stored game, a replay's frames) of one address group per second, a burst
    of twice as much; a list of games costs one plus one per 100 games asked for.  read_threads:
    worker threads of those reads (and of building their answers), apart from the tables' own
    database threads: a flood of large reads queues for them, never in front of a table's write,
    and takes at most that many threads' share of the CPU.

    db_threads: database worker threads (0: 1 for SQLite, 4 else).

    Connections (:mod:`shangrao.web.guard`, applied by ``shangrao serve``) — header_timeout: seconds a
    connection may take to send a request (its headers, and the body they announce; a WebSocket
    handshake too); then it is closed.
    max_connections_per_address: connections one client address may hold open at once; one more is
    answered 503 and closed at once.  max_connections: connections in all (0: the file limit less a
    reserve, :func:`shangrao.web.guard.capacity`).
    """

    bot_delay: float = 0.6
    claim_timeout: float = 15.0
    turn_timeout: float = 60.0
    absent_timeout: float = 30.0
    next_hand_timeout: float = 30.0
    standin_bot: str = "greedy"
    claim_pause: float = 0.8
    retry_delay: float = 1.0
    tables_per_minute: int = 10
    max_live_tables: int = 500
    messages_per_second: float = 20.0
    max_body: int = 16 * 1024
    max_name: int = 40
    send_queue: int = 64
    send_timeout: float = 10.0
    idle_timeout: float = 600.0
    # issue 25: floods and reads
    waiting_per_address: int = 5
    reads_per_second: float = 10.0
    read_threads: int = 1
    db_threads: int = 0
    # connection limits (issue 22)
    header_timeout: float = 10.0
    max_connections_per_address: int = 64
    max_connections: int = 0


@dataclass
class Seat:
    player: str  # "human" or a bot name of bots.BOTS (written "kind" in the JSON sent and stored)
    claimed: bool = False
    token_hash: str | None = None
    conns: set = field(default_factory=set)
    gone_since: float = 0.0  # loop time since when the seat has had no connection
    bot: object | None = None  # a shangrao.bots bot (choose(observation, legal))
    standin: object | None = None
    ready: bool = False

    @property
    def is_bot(self) -> bool:
        return self.player in BOT_PLAYERS

    @property
    def present(self) -> bool:
        """A connection is open (:class:`shangrao.game.table.SeatLike`)."""
        return bool(self.conns)


def _wall_now() -> datetime:
    """The wall clock (UTC); tests step it."""
    return datetime.now(UTC)


def _boot_id() -> str | None:
    """This boot's id (Linux), under which ``time.monotonic()`` values of every process agree."""
    try:
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as f:
            return f.read().strip() or None
    except OSError:
        return None


class ServerClock:
    """The times a server stores, from a monotonic record that survives wall-clock steps (issue 25).

    The ``created`` time of every live event row a server writes is its start's wall time plus the
    monotonic seconds since (:meth:`stamp`): a wall-clock step while it runs changes nothing, and the
    last event is found by its position, not by the largest time.  Each table's ``meta.web.clock``
    (:meth:`record`) names the server that writes it: its boot id and its start in both clocks.  A
    server restarted in the same boot maps a stored time back onto ``time.monotonic()`` through that
    record (:meth:`to_mono`) — the system's monotonic clock is shared by its processes — so a
    countdown goes on from the time its decision really began, whatever the wall clock did; after a
    reboot (or without a boot id) the wall clock is all there is, and a time in the future counts as
    now."""

    def __init__(self) -> None:
        self.wall0 = _wall_now()
        self.mono0 = time.monotonic()
        self.boot = _boot_id()

    def stamp(self) -> datetime:
        """The ``created`` time of a row written now."""
        return self.wall0 + timedelta(seconds=time.monotonic() - self.mono0)

    def record(self) -> dict:
        """What ``meta.web.clock`` holds for this server."""
        return {"boot": self.boot, "wall": self.wall0.isoformat(), "mono": self.mono0}

    def to_mono(self, when: datetime | None, record: object = None) -> float | None:
        """A stored time as a ``time.monotonic()`` value of this process, never later than now (None
        stays None).  record: the ``meta.web.clock`` of the server that stored it."""
        if when is None:
            return None
        now = time.monotonic()
        if isinstance(record, dict) and self.boot is not None and record.get("boot") == self.boot:
            mono, wall = record.get("mono"), record.get("wall")
            if isinstance(mono, int | float) and not isinstance(mono, bool) and isinstance(wall, str):
                with contextlib.suppress(ValueError, TypeError, OverflowError):
                    started = datetime.fromisoformat(wall)
                    return min(now, float(mono) + (when - started).total_seconds())
        ago = (_wall_now() - when).total_seconds()
        return now - max(0.0, ago)


def _mono_from_wall(when: datetime | None) -> float | None:
    """A stored UTC time as a time.monotonic() value of this process (None stays None)."""
    if when is None:
        return None
    ago = (datetime.now(UTC) - when).total_seconds()
    return time.monotonic() - max(0.0, ago)


class Table:
    def __init__(self, manager: TableManager, game_id: int, name: str, rules: RuleSet, seed: int,
                 seats: list[Seat], hints: bool = True) -> None:
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
        self.timing = Timing(bot_delay=st.bot_delay, claim_timeout=st.claim_timeout, turn_timeout=st.turn_timeout,
                             absent_timeout=st.absent_timeout, claim_pause=st.claim_pause)
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
        self._texts: dict[int, tuple[tuple[int, int], str, str]] = {}
        self._info: tuple[int, dict] | None = None
        self._info_json: tuple[dict, str] | None = None  # public_info() and its JSON text
        self._logs = LogCache()
        self.last_sent: dict[int, str] = {}  # per seat: its last state sent, without the countdown
        self.rematch: int | None = None  # the table of the next match with the same players
        self.origin: str | None = None  # the creator's address group (the waiting-tables limit), in memory only
        now = time.monotonic()
        self.idle_since = now
        for i, s in enumerate(seats):
            s.gone_since = now
            if s.is_bot:
                s.bot = get_bot(s.player, seed=f"{seed}:{i}")
            s.standin = get_bot(self.settings.standin_bot, seed=f"{seed}:standin:{i}")

    def __repr__(self) -> str:
        return f"<Table {self.id} {self.status} hand={self.hand_no}>"

    # ------------------------------------------------------------------ facts
    @property
    def game(self) -> Game | None:
        """The hand being played, or the last one (None before the first)."""
        return self.play.game if self.play is not None else None

    def _take_up(self, game: Game) -> None:
        """Play ``game`` from now (its countdowns start now; :meth:`TableState.resume` after a restart)."""
        self.play = TableState(game, self.seats, self.timing, time.monotonic())

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
                         "ready": s.ready} for s in self.seats],
            "history": [list(h.result.deltas) for h in self.match.hands], "rematch": self.rematch,
            "hints": self.hints,
        }
        self._info = (self.version, info)
        return info

    def _absent(self, seat: Seat, now: float) -> bool:
        return not seat.conns and now - seat.gone_since >= self.settings.absent_timeout

    def check_token(self, token: str) -> int:
        h = hash_token(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return i
        raise TableError("this seat link is not valid for this table")

    def touch(self, listing: bool = False) -> None:
        """Something a seat can see changed (``listing``: also what the lobby shows)."""
        self.version += 1
        self.changed.set()
        if listing:
            self.manager.listing_changed()

    # ------------------------------------------------------------------ persistence
    def _meta(self) -> dict:
        return {"web": {"name": self.name, "seats": [s.player for s in self.seats],
                        "claimed": [s.claimed for s in self.seats],
                        "token_hashes": [s.token_hash for s in self.seats], "rematch": self.rematch,
                        "hints": self.hints, "clock": self.manager.clock.record()}}

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
                self.seats[i].bot = get_bot(kind, seed=f"{self.seed}:{i}")
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

    def _tell(self, seat: int) -> None:
        """Send ``seat`` the server-problem notice."""
        notice = dumps({"type": "notice", "code": "server_problem", "message": SERVER_PROBLEM})
        for c in list(self.seats[seat].conns):
            c.send(notice)

    def _saved(self) -> None:
        if self.failing:
            self.failing = False
            self.touch()

    # ------------------------------------------------------------------ messages
    def _deadline_for(self, seat: int) -> float | None:
        return self.play.deadline_for(seat, time.monotonic()) if self.play is not None else None

    def holding(self) -> bool:
        """A window nobody can claim is held open (:attr:`Game.held`): every seat is shown the open
        window until its pause ends (so nobody learns that no one could claim)."""
        return self.game is not None and self.game.held

    def _answered(self):
        return self.play.answers.keys() if self.play is not None else ()

    def state_for(self, seat: int) -> dict:
        """The seat's ``state`` message (:func:`~shangrao.web.views.seat_view`); :meth:`state_text`
        is the same as JSON text, built once per change."""
        info = self.public_info()
        if self.game is None:
            return {"type": "state", "you": seat, "hand_no": self.hand_no, "seq": 0, "table": info,
                    "view": None, "legal": [], "can_win": False, "deadline": None, "waits": None,
                    "discard_waits": None, "log": [], "settlement": self.last_settlement, "reveal": None}
        return seat_view(self.game, seat, hand_no=self.game.hand_no, table=info,
                         deadline=self._deadline_for(seat),
                         settlement=self.last_settlement if self.game.is_over else None,
                         answered=self._answered())

    def state_text(self, seat: int) -> tuple[str, str]:
        """The seat's ``state`` message as JSON text (``state_for`` encoded) and the same without
        its countdown (what tells whether the seat's view changed), built once per change; the
        table's facts are encoded once for all seats, each log event once per seat."""
        cached = self._texts.get(seat)
        version = (self.version, self.play.version if self.play is not None else 0)
        if cached is not None and cached[0] == version:
            return cached[1], cached[2]
        if self.game is None:
            d = self.state_for(seat)
            text = dumps(d)
            same = dumps({k: v for k, v in d.items() if k != "deadline"})
        else:
            info = self.public_info()  # the same dict for every seat of one change
            cached_info = self._info_json
            if cached_info is None or (cached_info[0] is not info and cached_info[0] != info):
                self._info_json = (info, dumps(info))  # (most changes leave it as it was)
            else:
                self._info_json = (info, cached_info[1])
            text, same = seat_texts(self.game, seat, hand_no=self.game.hand_no, table_json=self._info_json[1],
                                    deadline=self._deadline_for(seat),
                                    settlement=self.last_settlement if self.game.is_over else None,
                                    logs=self._logs, answered=self._answered())
        self._texts[seat] = (version, text, same)
        return text, same

    def broadcast(self, also: Connection | None = None) -> None:
        """Queue each seat its state — only when its view differs from what the seat was last sent
        (a hidden decision of another seat must not show up as an extra message); ``also``: a new
        connection that gets the state in any case.  Never waits for a socket.  Callers hold the
        lock, so nothing unsaved is ever sent."""
        for i, s in enumerate(self.seats):
            if not s.conns:
                continue
            text, same = self.state_text(i)
            unchanged = self.last_sent.get(i) == same
            self.last_sent[i] = same
            for c in list(s.conns):
                if unchanged and c is not also:
                    continue
                c.send(text)

    # ------------------------------------------------------------------ connections
    async def connect(self, seat: int, ws) -> Connection | None:
        """Attach a socket to ``seat``; None if the table has just left memory (get it again)."""
        async with self.lock:
            if self.evicted:
                return None
            if len(self.seats[seat].conns) >= MAX_CONNECTIONS_PER_SEAT:
                raise SeatBusy(f"this seat already has {MAX_CONNECTIONS_PER_SEAT} open connections; close one "
                               "(another tab or device) and reload")
            conn = Connection(ws, queue_size=self.settings.send_queue, send_timeout=self.settings.send_timeout,
                              on_drop=functools.partial(self._dropped, seat))
            self.seats[seat].conns.add(conn)
            self.touch(listing=True)
            self.broadcast(also=conn)
            return conn

    def _dropped(self, seat: int, conn: Connection, why: str) -> None:
        """A connection was dropped as too slow: the seat may be disconnected now."""
        s = self.seats[seat]
        if conn in s.conns:
            s.conns.discard(conn)
            if not s.conns:
                s.gone_since = time.monotonic()
            asyncio.get_running_loop().create_task(self._presence_changed())

    async def _presence_changed(self) -> None:
        async with self.lock:
            self.touch(listing=True)
            self.broadcast()
            self._maybe_evict()

    async def disconnect(self, seat: int, conn: Connection) -> None:
        await conn.aclose()
        async with self.lock:
            s = self.seats[seat]
            if conn in s.conns:
                s.conns.discard(conn)
                if not s.conns:
                    s.gone_since = time.monotonic()
                self.touch(listing=True)
                self.broadcast()
            self._maybe_evict()

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
        """Queue on ``conn`` the expert's top choices for ``seat``'s decision at (``hand``, ``seq``)
        (:func:`~shangrao.web.hints.hint_choices`, from the seat's own observation and the legal
        actions its state shows).  Raises HintsOff, StaleActionError (not the seat's current
        position) or IllegalActionError (no decision of the seat there); nothing is sent then."""
        async with self.lock:
            if not self.hints:
                raise HintsOff("hints are switched off at this table (the host's choice)")
            g = self._at_position(seat, hand, seq)
            assert self.play is not None
            legal = self.play.options(seat)
            if len(legal) < 2:
                raise IllegalActionError("no decision of yours now: nothing to advise on")
            # the seat's own view; in a window it is named as deciding, as its state shows it
            obs = dataclasses.replace(g.observation(seat), current_seat=seat)
            choices = hint_choices(obs, tuple(legal))
            conn.send_json({"type": "hint", "hand": hand, "seq": seq, "choices": choices, "note": hint_note(choices)})

    async def pong(self, conn: Connection) -> None:
        """Answer a ping after every state change in progress has been queued (a barrier for
        clients: the connection's queue is sent in order)."""
        async with self.lock:
            conn.send_json({"type": "pong"})

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
                timeout = await self._step()
            except asyncio.CancelledError:
                raise
            except SaveError:
                timeout = self.settings.retry_delay  # told the seats; try again by itself
            except Exception:
                log.exception("table %s: runner step failed", self.id)
                timeout = 1.0
            if timeout == "done":
                async with self.lock:
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


class TableManager:
    """All live tables of a server, over one :class:`Store`.

    Database calls run in worker threads (``settings.db_threads``; one for SQLite, whose
    writers queue anyway) so that the event loop never waits for a commit.
    """

    def __init__(self, store: Store, settings: Settings | None = None) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.tables: dict[int, Table] = {}
        self._load_lock = asyncio.Lock()
        n = self.settings.db_threads or (1 if store.url.startswith("sqlite") else 4)
        self._pool = ThreadPoolExecutor(n, thread_name_prefix="shangrao-db")
        self.clock = ServerClock()  # the times this server stores (countdowns survive wall-clock steps)
        # history reads (issue 25): their own threads, so a flood of them never queues before a table's
        # write; an in-memory SQLite database is one connection, used by the tables' thread alone
        url = store.url
        shared = url.startswith("sqlite") and (url.rstrip("/") in ("sqlite:", "sqlite:/") or ":memory:" in url
                                               or "mode=memory" in url)
        self._history_pool = None if shared else ThreadPoolExecutor(
            max(1, self.settings.read_threads), thread_name_prefix="shangrao-history")
        self.listing_version = 0
        self._failures: dict[str, list] = {}  # failure kind -> [last logged (monotonic), suppressed]
        self._failing = False
        self._recovered_logged = -1e9
        # group commit of the tables' actions (write_events): queued while a batch is being written
        self._events_queued: list[tuple[tuple, asyncio.Future]] = []
        self._events_writing = False
        #: why no table can be played here (read-only storage, in words for the lobby), or None
        self.read_only: str | None = None

    # -- the database, off the event loop -----------------------------------------
    async def read(self, fn, *args, **kwargs):
        """Run a database read in a worker thread."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, functools.partial(fn, *args, **kwargs))

    async def history(self, fn, *args, **kwargs):
        """Run a history read (and the building of its answer) in the history threads
        (``settings.read_threads``), apart from the tables' database thread."""
        pool = self._history_pool or self._pool
        return await asyncio.get_running_loop().run_in_executor(pool, functools.partial(fn, *args, **kwargs))

    async def write(self, fn, *args, **kwargs):
        """Run a database write in a worker thread; any failure is a :class:`SaveError` (logged once
        a minute per kind, without the database's URL).  A read-only server (:attr:`read_only`: the
        storage refuses writes, or another server took the tables over) writes nothing."""
        if self.read_only is not None:
            raise SaveError()
        try:
            out = await asyncio.get_running_loop().run_in_executor(self._pool, functools.partial(fn, *args, **kwargs))
        except Exception as err:
            self._report(err)
            raise SaveError() from None
        self._written()
        return out

    async def write_events(self, game_id: int, hand_index: int, first_seq: int, events: list[Event]) -> None:
        """Store the events of one action (:func:`~shangrao.records.live.insert_events`) through the
        group commit: the actions that come in while a batch is being written go in the next
        batch, one transaction for all of them (:func:`~shangrao.records.live.insert_event_batches`;
        one worker thread hand-off and one commit per batch, not per action).  Returns once these
        events are committed; a failure is a :class:`SaveError`, as in :meth:`write`."""
        if self.read_only is not None:
            raise SaveError()
        fut = asyncio.get_running_loop().create_future()
        self._events_queued.append(((game_id, hand_index, first_seq, events), fut))
        if not self._events_writing:
            self._write_event_batch()
        err = await fut
        if err is not None:
            self._report(err)
            raise SaveError() from None
        self._written()

    def _write_event_batch(self) -> None:
        batch = [(args, fut) for args, fut in self._events_queued if not fut.done()]  # not a stopped table's
        self._events_queued = []
        if not batch:
            return
        try:
            done = asyncio.get_running_loop().run_in_executor(
                self._pool, insert_event_batches, self.store, [args for args, _ in batch], self.clock.stamp())
        except RuntimeError as err:  # the worker threads are shut down: the server is stopping
            for _, fut in batch:
                fut.set_result(err)
            return
        self._events_writing = True
        done.add_done_callback(functools.partial(self._event_batch_written, batch))

    def _event_batch_written(self, batch: list[tuple[tuple, asyncio.Future]], done: asyncio.Future) -> None:
        self._events_writing = False
        try:
            results = done.result()
        except BaseException as failed:  # the worker itself failed: every action is told
            results = [failed] * len(batch)
        for (_, fut), result in zip(batch, results):
            if not fut.done():  # its table may have been stopped meanwhile
                fut.set_result(result)
        if self._events_queued:
            self._write_event_batch()

    def _written(self) -> None:
        """A write succeeded: say so once after failures (at most once a minute: a flapping disk logs little)."""
        if self._failing:
            self._failing = False
            now = time.monotonic()
            if now - self._recovered_logged >= 60.0:
                self._recovered_logged = now
                log.warning("database writes work again")

    def scrub(self, text: str) -> str:
        """``text`` without the database's URL, path, host or name."""
        from sqlalchemy.engine import make_url

        secrets_ = {self.store.url}
        with contextlib.suppress(Exception):  # not a URL SQLAlchemy reads: the whole text is hidden above
            u = make_url(self.store.url)
            secrets_ |= {u.render_as_string(hide_password=True), u.render_as_string(hide_password=False),
                         str(u.database or ""), str(u.host or ""), str(u.username or "")}
        for x in sorted((x for x in secrets_ if x and len(x) > 2), key=len, reverse=True):
            text = text.replace(x, "<database>")
        return text

    def _report(self, err: Exception) -> None:
        self._failing = True
        kind = type(err).__name__
        detail = self.scrub(" ".join(str(err).split()))[:200]
        if ":" in detail:  # e.g. 'cannot write to <database>: database or disk is full'
            kind += ": " + detail.rsplit(":", 1)[1].strip()[:80]
        now = time.monotonic()
        slot = self._failures.get(kind)
        if slot is not None and now - slot[0] < 60.0:
            slot[1] += 1
            return
        suppressed = slot[1] if slot is not None else 0
        self._failures[kind] = [now, 0]
        log.error("database write failed: %s%s", detail,
                  f" ({suppressed} more like it in the last minute)" if suppressed else "")

    def listing_changed(self) -> None:
        self.listing_version += 1

    # -- creating and loading -------------------------------------------------------
    async def create(self, name: str, hands: int, seats: list[str], rules: dict,
                     hints: bool = True, token: str | None = None, origin: str | None = None) -> tuple[Table, str]:
        """A new table; seat 0 is claimed by the creator.  Returns (table, seat-0 token).
        hints: whether its players may ask for the expert's advice (stored with the table).
        token: seat 0's token (default: a new random one; a rematch's is :func:`rematch_token`).
        origin: the creator's :func:`address_group` (at most ``waiting_per_address`` of its tables
        may wait for players at once).

        Raises ValueError (bad rules), ServerFull, TooManyWaiting or SaveError."""
        rs = RuleSet.from_dict({**rules, "hands_per_match": hands})
        self._check_room()
        kinds = ["human", *seats]
        if origin is not None and "human" in seats:  # the new table would wait for players too
            n = self.settings.waiting_per_address
            if sum(1 for t in self.tables.values() if t.origin == origin and t.status == "waiting") >= n:
                raise TooManyWaiting(f"too many tables waiting for players: at most {n} from one address; "
                                     "start or finish one first")
        seed = random.SystemRandom().randrange(2**62)
        name = name.strip() or "上饶麻将"
        st = [Seat(player=k) for k in kinds]
        meta = {"web": {"name": name, "seats": kinds, "claimed": [False] * 4, "token_hashes": [None] * 4,
                        "hints": hints, "clock": self.clock.record()}}
        gid = await self.write(self.store.create_game, KIND, kinds, seed=seed, rules=rs, meta=meta)
        table = Table(self, gid, name, rs, seed, st, hints=hints)
        table.origin = origin
        _, token = await table.claim_seat(0, token)
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

    def _build(self, rec) -> tuple[Table, list[Event] | None]:
        """A table from its record (no database access); returns it and the live events the
        engine added after the stored ones (to be stored by the caller)."""
        if rec.mode != KIND:
            raise TableError(f"game {rec.id} is not a web table")
        web = web_meta(rec.meta, rec.id)  # raises DamagedRecord
        seats = [Seat(player=k, claimed=bool(c), token_hash=h)
                 for k, c, h in zip(web["seats"], web["claimed"], web["token_hashes"])]
        table = Table(self, rec.id, clean_name(web.get("name", "")), RuleSet.from_dict(rec.rules), int(rec.seed), seats,
                      hints=web.get("hints", True) is not False)
        table.rematch = web.get("rematch")
        for h in rec.hands:
            g = replay(h.events)
            table.match.finish_hand(g).events = []
            table.last_settlement = h.result
        extra = None
        pending = rec.pending.get(len(rec.hands))
        if pending:
            g = replay(pending, hold_windows=self.settings.claim_pause > 0)
            table._take_up(g)
            extra = g.events[len(pending):]
        elif rec.hands:
            table._take_up(replay(rec.hands[-1].events))  # the last settlement stays on the table
            table.between_since = _mono_from_wall(rec.hands[-1].created) or time.monotonic()
        table.finished = rec.status == "finished" or table.match.is_over
        return table, extra

    async def _load(self, game_id: int) -> Table:
        rec = await self.read(self.store.load_game, game_id)
        table, extra = self._build(rec)
        g = table.game
        if table.finished:
            return table
        if g is not None and extra is not None and not extra and not g.is_over:
            # the countdown in progress goes on from when its decision began, by the clock of the
            # server that stored it (ServerClock: wall-clock steps change nothing)
            stored_clock = ((rec.meta or {}).get("web") or {}).get("clock")
            started = self.clock.to_mono(await self.read(last_event_time, self.store, rec.id, g.hand_no), stored_clock)
            assert table.play is not None
            table.play.resume(started, time.monotonic())  # a window's countdown and pause, or a turn's
        # from now on this server writes the table's rows: its clock is the one to read them by
        await self.write(update_meta, self.store, rec.id, table._meta())
        if g is not None and extra is not None:
            n = len(g.events) - len(extra)
            if g.is_over:  # stored up to the last action, the hand row was not written
                await table._persist(n)
            elif extra:
                await self.write(insert_events, self.store, rec.id, g.hand_no, n, extra, self.clock.stamp())
        return table

    async def get(self, game_id: int, token: str | None = None, *, resuming: bool = False) -> Table:
        """The table ``game_id``, loaded from the database if it is not in memory.

        token: a seat link's token, checked against the stored hashes BEFORE the game is
        loaded (a wrong one raises TableError and replays nothing).  A table with a person seated
        is loaded whatever ``max_live_tables`` when a seat link asks for it or it is being played
        (``resuming``: the restart's :meth:`resume_all`) — a flood of tables never locks a seated
        player out.  Raises TableError (no such table, a wrong token), ServerFull, or RecordError
        (an unreadable record)."""
        t = self.tables.get(game_id)
        if t is not None:
            if token is not None:
                t.check_token(token)
            return t
        _head, web = await self._stored_web(game_id)
        if token is not None:
            self._check_stored_token(web, token)
        seated, free = self._seated(web)
        exempt = seated and (token is not None or (resuming and not free))
        async with self._load_lock:
            t = self.tables.get(game_id)
            if t is not None:
                return t
            if not exempt or self.read_only is not None:
                self._check_room()
            t = await self._load(game_id)
            self.tables[game_id] = t
            t.start()
            return t

    async def _stored_web(self, game_id: int) -> tuple[GameSummary, dict]:
        """The stored row of the web table ``game_id`` (no replay) and its ``meta.web`` part;
        raises TableNotFound when there is no such game or it is not a web table, DamagedRecord when
        its ``meta`` is not what this server writes (:func:`~shangrao.web.stored.web_meta`)."""
        try:
            head = await self.read(game_head, self.store, game_id)
        except GameNotFound:
            raise TableNotFound(f"no table {game_id}") from None
        except (TypeError, ValueError) as err:  # a row edited by hand (players, scores …)
            raise DamagedRecord(game_id, " ".join(str(err).split())[:120]) from None
        if head.mode != KIND:
            raise TableNotFound(f"no table {game_id}")
        return head, web_meta(head.meta, game_id)  # raises DamagedRecord

    @staticmethod
    def _seated(web: dict) -> tuple[bool, bool]:
        """From a stored ``meta.web``: (a person holds a seat, a seat is free); a ``meta.web`` edited
        into another shape counts as no person seated (it gets no exemption from the cap)."""
        if not isinstance(web, dict):
            return False, True
        kinds, claimed = web.get("seats"), web.get("claimed")
        if not isinstance(kinds, list) or not isinstance(claimed, list):
            return False, True
        pairs = list(zip(kinds, claimed))
        return (any(k == "human" and c is True for k, c in pairs), any(k == "human" and not c for k, c in pairs))

    @staticmethod
    def _check_stored_token(web: dict, token: str) -> int:
        h = hash_token(token)
        for i, x in enumerate(web.get("token_hashes") or []):
            if x is not None and hmac.compare_digest(x, h):
                return i
        raise TableError("this seat link is not valid for this table")

    async def check_link(self, game_id: int, token: str) -> int:
        """The seat a link belongs to, without loading the game; raises TableError/TableNotFound."""
        t = self.tables.get(game_id)
        if t is not None:
            return t.check_token(token)
        _head, web = await self._stored_web(game_id)
        return self._check_stored_token(web, token)

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
        if not self._stored_info(head)["free_seats"]:
            raise TableError(f"table {game_id} has no free seat")
        return await self.get(game_id)

    def evict(self, table: Table) -> None:
        """Forget a finished or idle table (its record stays in the database)."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        table.evicted = True
        table.play = None
        table.match.hands.clear()
        table._texts.clear()
        table._logs.clear()

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
            seated, free = self._seated((g.meta or {}).get("web") or {})
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
            log.warning("%d table(s) waiting for players were not resumed (the server holds %d live tables); "
                        "they are loaded when a seat link asks for them", len(played) + len(rest) - len(out),
                        self.settings.max_live_tables)
        return out

    async def stop_playing(self, why: str) -> None:
        """Play no table from now on (another server took them over): every write is refused, the
        runners stop, the tables leave memory, and the lobby and every refusal say ``why``."""
        self.read_only = why
        notice = dumps({"type": "notice", "code": "server_problem", "message": why})
        for t in list(self.tables.values()):
            await t.stop()
            for seat in t.seats:
                for c in list(seat.conns):
                    c.send(notice)
            self.evict(t)
        self.listing_changed()

    async def close(self) -> None:
        for t in list(self.tables.values()):
            await t.stop()
        self.tables.clear()
        self._pool.shutdown(wait=True)
        if self._history_pool is not None:
            self._history_pool.shutdown(wait=True)

    # -- the lobby's lists ------------------------------------------------------------
    def _stored_info(self, g) -> dict:
        """The lobby's view of a table that is not in memory, from its stored row; raises DamagedRecord."""
        web = web_meta(g.meta, g.id)
        kinds, claimed = web["seats"], web["claimed"]
        free = [i for i, (k, c) in enumerate(zip(kinds, claimed)) if k == "human" and not c]
        rules = dict(g.rules or {})
        if g.status == "finished":
            status = "finished"
        elif free:
            status = "waiting"
        else:
            status = "between"
        return {"id": g.id, "name": clean_name(web.get("name", "")), "status": status,
                "hands_total": rules.get("hands_per_match"), "hands_played": g.hands_played,
                "scores": list(g.scores), "rules": rules, "free_seats": free,
                "players": [{"kind": k, "claimed": bool(c), "connected": False, "standin": False, "ready": False}
                            for k, c in zip(kinds, claimed)], "rematch": web.get("rematch"),
                "hints": web.get("hints", True) is not False}

    def _listed_info(self, g) -> dict | None:
        """:meth:`_stored_info`, or None (and a log line) where the stored record is damaged."""
        try:
            return self._stored_info(g)
        except DamagedRecord as err:
            log.error("%s (left out of the lobby's lists)", err)
            return None

    def _info(self, g) -> dict | None:
        """The lobby's view of a table; None where its stored record is damaged."""
        t = self.tables.get(g.id)
        return t.public_info() if t is not None and not t.evicted else self._listed_info(g)

    @staticmethod
    def in_list(stored_status: str, info: dict, status: str) -> bool:
        """Whether a table is in the lobby's list ``status``.  Every table is in exactly one list:
        'finished' (its stored row is finished), else 'open' (a seat is free) or 'live' (every
        seat taken: being played, or between hands).  stored_status: the stored row's status;
        info: the table's :meth:`_info`."""
        if stored_status == "finished":
            return status == "finished"
        return status == ("open" if info["free_seats"] else "live")

    async def list_tables(self, status: str, limit: int, offset: int) -> tuple[list[dict], bool]:
        """A page of the lobby's list ``status`` ('open', 'live' or 'finished', see :meth:`in_list`);
        newest first.  Returns (tables, whether there are more).  Tables in memory show their live
        state, the others their stored row.  Read in the history threads (:meth:`history`): the
        lobby's lists never queue in front of a table's write."""
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
                info = self._info(g)
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

    async def tables_by_id(self, ids: list[int], statuses: tuple[str, ...]) -> dict[str, list[dict]]:
        """The lobby's view of the tables ``ids`` (newest first) by list (:meth:`in_list`), for each of
        ``statuses``: the seats a browser holds (its 回到我的座位), wherever they are in the pages."""
        out: dict[str, list[dict]] = {st: [] for st in statuses}
        for g in await self.history(game_heads, self.store, ids):
            info = self._info(g) if g.kind == KIND else None
            if info is None:
                continue
            for st in statuses:
                if self.in_list(g.status, info, st):
                    out[st].append(info)
        return out

    # old names (tests, scripts)
    def open_tables(self) -> list[dict]:
        return [t.public_info() for t in sorted(self.tables.values(), key=lambda t: -t.id)
                if not t.finished and t.free_seats()]

    def live_tables(self) -> list[dict]:
        return [t.public_info() for t in sorted(self.tables.values(), key=lambda t: -t.id)
                if not t.finished and not t.free_seats()]


__all__ += ["KIND", "ActionParseError"]
