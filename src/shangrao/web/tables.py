"""Live tables: the engine as the single authority, the database as the log.

A :class:`Table` owns one stored game (``kind='web'``): a :class:`~shangrao.game.Match`,
the current :class:`~shangrao.game.Game`, the seats (human or bot), the open
WebSocket connections per seat, and a runner task that plays the bots, the
countdowns and absent players.

Order of every change: the engine applies the action (raising
:class:`~shangrao.game.IllegalActionError` leaves the state unchanged), the new
events are committed to the database (one transaction per action; a finished
hand is stored with :meth:`Store.append_hand`), and only then is the new state
sent to the seats.  If the write fails, the table is rebuilt from the database.

After a restart, :meth:`TableManager.load` rebuilds a table from its log: every
stored hand is replayed into the match, and the live events of the hand in
progress are replayed into the game (``replay`` checks that the engine
reproduces them exactly).

Seat links: ``/t/{table_id}/{token}``; the token is random (``secrets``), only its
SHA-256 is stored (``meta.web.token_hashes``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import random
import secrets
import time
from dataclasses import dataclass, field

from ..bots import BOTS, get_bot
from ..errors import InputError
from ..game import Bot, Game, IllegalActionError, Match, Phase, parse_action, replay
from ..game.actions import ActionParseError, ActionType
from ..records import GameNotFound, RecordError, Store
from ..records.live import append_events, set_players, update_meta
from ..records.summary import hand_summary
from ..rules import RuleSet
from .views import seat_view, view_seq, window_game, window_key

__all__ = ["Settings", "Table", "TableManager", "TableError", "hash_token"]

log = logging.getLogger("shangrao.web")

KIND = "web"
BOT_PLAYERS = tuple(BOTS)  # the seat players that are bots: every registered bot


class TableError(InputError):
    """A request about a table that cannot be served (unknown table, bad token, no free seat)."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Settings:
    """Timing of a server (seconds).  Tests use small values.

    bot_delay: pause before a bot acts (so people can follow).  claim_timeout: countdown of a
    claim/rob window for a person (then 过).  turn_timeout: countdown of a person's own turn
    (then the stand-in bot plays).  absent_timeout: a seat without a connection this long is played
    by the stand-in bot until its player returns.  next_hand_timeout: pause after a settlement
    before the next hand when not everyone pressed 继续.  standin_bot: the bot for absent players.
    claim_pause: every discard (and robbable kong) is shown to all seats as an open window for at
    least this long, whether or not anyone can claim; bots decide inside it (fair windows).
    """

    bot_delay: float = 0.6
    claim_timeout: float = 15.0
    turn_timeout: float = 60.0
    absent_timeout: float = 30.0
    next_hand_timeout: float = 30.0
    standin_bot: str = "greedy"
    claim_pause: float = 0.8


@dataclass
class Seat:
    player: str  # "human" or a bot name of bots.BOTS (written "kind" in the JSON sent and stored)
    claimed: bool = False
    token_hash: str | None = None
    conns: set = field(default_factory=set)
    gone_since: float = 0.0  # loop time since when the seat has had no connection
    bot: Bot | None = None
    standin: Bot | None = None
    ready: bool = False

    @property
    def is_bot(self) -> bool:
        return self.player in BOT_PLAYERS


class Table:
    def __init__(self, manager: TableManager, game_id: int, name: str, rules: RuleSet, seed: int,
                 seats: list[Seat]) -> None:
        self.manager = manager
        self.settings = manager.settings
        self.store = manager.store
        self.id = game_id
        self.name = name
        self.rules = rules
        self.seed = seed
        self.seats = seats
        self.match = Match(rules, seed=seed)
        self.game: Game | None = None
        self.last_settlement: dict | None = None
        self.finished = False
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()
        self.task: asyncio.Task | None = None
        self.decision_key: tuple | None = None
        self.decision_deadline: float | None = None
        self.decision_started: float = 0.0
        self.between_since: float | None = None
        # fair windows: a copy of the game stopped in the window the last discard/kong opened,
        # shown to every seat until hold_until once the real game has moved on (views.window_game)
        self.hold_game: Game | None = None
        self.hold_until: float = 0.0
        self.last_sent: dict[int, str] = {}
        self.rematch: int | None = None  # the table of the next match with the same players
        # a claim/rob window asks all its seats at once; answers wait here for the engine's order
        self.answers: dict[int, object] = {}
        self.window_started: float = 0.0
        self.window_deadline: float | None = None
        now = time.monotonic()
        for i, s in enumerate(seats):
            s.gone_since = now
            if s.is_bot:
                s.bot = get_bot(s.player, seed=f"{seed}:{i}")
            s.standin = get_bot(self.settings.standin_bot, seed=f"{seed}:standin:{i}")

    # ------------------------------------------------------------------ facts
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

    def free_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.player == "human" and not s.claimed]

    def public_info(self) -> dict:
        now = time.monotonic()
        return {
            "id": self.id, "name": self.name, "status": self.status, "hands_total": self.rules.hands_per_match,
            "hands_played": len(self.match.hands), "scores": list(self.match.scores),
            "rules": self.rules.to_dict(), "free_seats": self.free_seats(),
            "players": [{"kind": s.player, "claimed": s.claimed, "connected": bool(s.conns),
                         "standin": s.player == "human" and s.claimed and self._absent(s, now),
                         "ready": s.ready} for s in self.seats],
            "history": [list(h.result.deltas) for h in self.match.hands], "rematch": self.rematch,
        }

    def _absent(self, seat: Seat, now: float) -> bool:
        return not seat.conns and now - seat.gone_since >= self.settings.absent_timeout

    def check_token(self, token: str) -> int:
        h = hash_token(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return i
        raise TableError("this seat link is not valid for this table")

    # ------------------------------------------------------------------ persistence
    def _meta(self) -> dict:
        return {"web": {"name": self.name, "seats": [s.player for s in self.seats],
                        "claimed": [s.claimed for s in self.seats],
                        "token_hashes": [s.token_hash for s in self.seats]}}

    def _players(self) -> list[str]:
        return [s.player for s in self.seats]

    def claim_seat(self, seat: int | None = None) -> tuple[int, str]:
        """Give a free human seat (or ``seat``) a new token; returns (seat, token)."""
        free = self.free_seats()
        if seat is None:
            if not free:
                raise TableError(f"table {self.id} has no free seat")
            seat = free[0]
        elif seat not in free:
            raise TableError(f"seat {seat} of table {self.id} is not free")
        token = secrets.token_urlsafe(18)
        s = self.seats[seat]
        s.claimed, s.token_hash = True, hash_token(token)
        update_meta(self.store, self.id, self._meta())
        self.changed.set()
        return seat, token

    def fill_bots(self) -> None:
        for i in self.free_seats():
            s = self.seats[i]
            s.player = self.settings.standin_bot if self.settings.standin_bot in BOT_PLAYERS else "greedy"
            s.bot = get_bot(s.player, seed=f"{self.seed}:{i}")
        set_players(self.store, self.id, self._players(), self._meta())
        self.changed.set()

    def _persist(self, n_before: int) -> None:
        """Write the events after ``n_before`` (one transaction); store a finished hand."""
        g = self.game
        assert g is not None
        if g.is_over:
            rec = self.match.finish_hand(g)
            summary = hand_summary(rec.result, rec.events)
            self.store.append_hand(self.id, rec.hand_no, rec.dealer, rec.events, summary,
                                   scores_after=list(rec.result.scores))
            self.last_settlement = summary
            self.between_since = time.monotonic()
            for s in self.seats:
                s.ready = False
            if self.match.is_over:
                self.store.finish_game(self.id, list(self.match.scores))
                self.finished = True
        else:
            append_events(self.store, self.id, g.hand_no, g.events[n_before:])

    def _recover(self) -> None:
        """After a failed write: rebuild the table from the database."""
        fresh = self.manager._build(self.store.load_game(self.id))
        self.match, self.game = fresh.match, fresh.game
        self.last_settlement, self.finished = fresh.last_settlement, fresh.finished

    def _apply(self, action, seat: int) -> None:
        """Apply (validated), persist, or raise.  Caller holds the lock and broadcasts."""
        g = self.game
        if g is None or g.is_over:
            raise IllegalActionError("no hand is being played at this table now")
        n = len(g.events)
        if isinstance(action, str):
            action = parse_action(action)
        frozen = window_game(g, action) if g.current_seat == seat and action in g.legal_actions() else None
        before = window_key(g)
        g.apply(action, seat=seat)
        if frozen is not None:
            self.hold_game = frozen
            self.hold_until = time.monotonic() + self.settings.claim_pause
        after = window_key(g)
        if after is None or after != before:  # a window closed or a new one opened
            self.answers.clear()
            self.window_deadline = None
            if after is not None:
                self.window_started = time.monotonic()
                self.window_deadline = self.window_started + self.settings.claim_timeout
        try:
            self._persist(n)
        except (RecordError, Exception) as err:
            log.exception("table %s: cannot store an action, rebuilding from the database", self.id)
            self._recover()
            raise IllegalActionError(f"the server could not store the action ({err}); nothing changed") from None
        self._arm()
        self.changed.set()

    def _start_hand(self) -> None:
        g = self.match.new_hand()
        append_events(self.store, self.id, g.hand_no, g.events)
        self.game = g
        self.last_settlement = None
        self.between_since = None
        self._arm()
        self.changed.set()

    # ------------------------------------------------------------------ messages
    def _deadline_for(self, seat: int) -> float | None:
        g = self.game
        if g is not None and g.phase in (Phase.CLAIM, Phase.ROB):
            if self.window_deadline is None or seat in self.answers or seat not in g.window_options():
                return None
            return round(max(0.0, self.window_deadline - time.monotonic()), 1)
        if self.decision_deadline is None or self.game is None or self.game.current_seat != seat:
            return None
        return round(max(0.0, self.decision_deadline - time.monotonic()), 1)

    def holding(self) -> bool:
        """A window's pause is running and the real game has already left the window: every seat
        is still shown the open window (so nobody learns that no one could claim)."""
        g = self.game
        return (self.hold_game is not None and g is not None and time.monotonic() < self.hold_until
                and g.phase not in ("claim", "rob"))

    def state_for(self, seat: int) -> dict:
        info = self.public_info()
        if self.holding():
            assert self.hold_game is not None
            return seat_view(self.hold_game, seat, hand_no=self.hold_game.hand_no, table=info, deadline=None)
        if self.game is None:
            return {"type": "state", "you": seat, "hand_no": self.hand_no, "seq": 0, "table": info,
                    "view": None, "legal": [], "can_win": False, "deadline": None, "waits": None,
                    "discard_waits": None, "log": [], "settlement": self.last_settlement, "reveal": None}
        return seat_view(self.game, seat, hand_no=self.game.hand_no, table=info,
                         deadline=self._deadline_for(seat),
                         settlement=self.last_settlement if self.game.is_over else None,
                         answered=self.answers.keys())

    async def broadcast(self, also=None) -> None:
        """Send each seat its state — only when it differs from what the seat was last sent (a
        hidden decision of another seat must not show up as an extra message).  ``also``: a new
        connection that gets the state in any case."""
        for i, s in enumerate(self.seats):
            if not s.conns:
                continue
            msg = self.state_for(i)
            text = json.dumps({k: v for k, v in msg.items() if k != "deadline"}, sort_keys=True,
                              ensure_ascii=False)
            same = self.last_sent.get(i) == text
            self.last_sent[i] = text
            for ws in list(s.conns):
                if same and ws is not also:
                    continue
                try:
                    await ws.send_json(msg)
                except Exception:
                    s.conns.discard(ws)

    # ------------------------------------------------------------------ connections
    async def connect(self, seat: int, ws) -> None:
        async with self.lock:
            self.seats[seat].conns.add(ws)
            self.changed.set()
            await self.broadcast(also=ws)

    async def disconnect(self, seat: int, ws) -> None:
        async with self.lock:
            s = self.seats[seat]
            s.conns.discard(ws)
            if not s.conns:
                s.gone_since = time.monotonic()
            self.changed.set()
            await self.broadcast()

    async def human_action(self, seat: int, text: str, seq: int | None, hand: int | None) -> None:
        """Apply a person's action; raises IllegalActionError (nothing changed) or ActionParseError."""
        async with self.lock:
            g = self.game
            if g is None or g.is_over:
                raise IllegalActionError("no hand is being played at this table now")
            if self.holding():
                raise IllegalActionError("the table is waiting for claims; look again")
            if (seq is not None and seq != view_seq(g, seat)) or (hand is not None and hand != g.hand_no):
                raise IllegalActionError("the table has moved on since that state; look again")
            if g.phase in (Phase.CLAIM, Phase.ROB):
                opts = g.window_options().get(seat)
                if not opts or seat in self.answers:
                    raise IllegalActionError("not your decision: the table is waiting for claims")
                action = parse_action(text)
                if action not in opts:
                    raise IllegalActionError(f"{action} is not legal now; legal: {', '.join(map(str, opts))}")
                self.answers[seat] = action
                self._drain()
                self.changed.set()
                await self.broadcast()
                return
            if g.current_seat != seat:
                raise IllegalActionError("not your turn")
            action = parse_action(text)
            self._apply(action, seat)
            await self.broadcast()

    def _drain(self) -> None:
        """Apply the held window answers while the engine asks a seat that has answered (in the
        engine's order; an answer that an earlier declaration made illegal becomes 过)."""
        g = self.game
        while g is not None and g.phase in (Phase.CLAIM, Phase.ROB) and g.current_seat in self.answers:
            seat = g.current_seat
            action = self.answers.pop(seat)
            legal = g.legal_actions()
            if action not in legal:
                action = next(a for a in legal if a.type is ActionType.PASS)
            self._apply(action, seat)
            g = self.game

    async def pong(self, ws) -> None:
        """Answer a ping after every state change in progress has been sent (a barrier for clients)."""
        async with self.lock:
            await ws.send_json({"type": "pong"})

    async def set_ready(self, seat: int) -> None:
        async with self.lock:
            self.seats[seat].ready = True
            self.changed.set()
            await self.broadcast()

    async def request_fill_bots(self) -> None:
        async with self.lock:
            self.fill_bots()
            await self.broadcast()

    # ------------------------------------------------------------------ the runner
    def start(self) -> None:
        if self.task is None and not self.finished:
            self.task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.id}")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
            self.task = None

    async def _wait(self, timeout: float | None) -> None:
        try:
            if timeout is None:
                await self.changed.wait()
            else:
                await asyncio.wait_for(self.changed.wait(), max(0.0, timeout))
        except TimeoutError:
            pass

    async def _run(self) -> None:
        while True:
            self.changed.clear()  # a change from now on wakes the wait below
            try:
                timeout = await self._step()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: runner step failed", self.id)
                timeout = 1.0
            if timeout == "done":
                return
            if timeout == 0:
                await asyncio.sleep(0)
                continue
            await self._wait(timeout)

    def _arm(self) -> None:
        """Start the clock of the decision now due (once per decision)."""
        g = self.game
        if g is None or g.is_over:
            self.decision_key = self.decision_deadline = None
            return
        key = (g.hand_no, len(g.events))
        if self.decision_key == key:
            return
        st = self.settings
        assert g.current_seat is not None  # the hand is not over
        s = self.seats[g.current_seat]
        n_legal = len(g.legal_actions())
        if g.phase in (Phase.CLAIM, Phase.ROB) and (s.is_bot or n_legal == 1):
            d = min(st.bot_delay, st.claim_pause) / 2  # inside the window everyone waits for anyway
        elif s.is_bot or n_legal == 1:
            d = st.bot_delay if n_legal > 1 else min(st.bot_delay, 0.05)
        else:
            d = st.claim_timeout if g.phase in (Phase.CLAIM, Phase.ROB) else st.turn_timeout
        self.decision_key = key
        self.decision_started = time.monotonic()
        self.decision_deadline = self.decision_started + d

    async def _step(self):
        """Do what is due now; return how long to wait for a change (None: until one), or 'done'."""
        st = self.settings
        async with self.lock:
            now = time.monotonic()
            if self.hold_game is not None:
                if self.holding():
                    return max(0.005, self.hold_until - now)
                # the pause is over: show the real table; a turn's clock starts now
                self.hold_game = None
                if self.game is not None and self.game.phase not in ("claim", "rob"):
                    self.decision_key = None
                    self._arm()
                await self.broadcast()
            if self.finished:
                return "done"
            if self.status == "waiting":
                return None
            if self.game is None or self.game.is_over:
                humans = [s for s in self.seats if s.player == "human"]
                all_ready = all(s.ready or not s.conns for s in humans)
                since = self.between_since if self.between_since is not None else now - st.next_hand_timeout
                if self.game is None or all_ready or now - since >= st.next_hand_timeout:
                    self._start_hand()
                    await self.broadcast()
                    return 0
                return max(0.01, since + st.next_hand_timeout - now)
            if self.game.phase in (Phase.CLAIM, Phase.ROB):
                return await self._window_step(now)
            self._arm()
            g = self.game
            seat = g.current_seat
            assert seat is not None  # the hand is not over
            s = self.seats[seat]
            legal = g.legal_actions()
            person = s.player == "human" and len(legal) > 1
            due = self.decision_deadline
            assert due is not None  # _arm() set it
            if person and self._absent(s, now):
                due = min(due, max(self.decision_started, s.gone_since + st.absent_timeout) + st.bot_delay)
            if now < due:
                waits = [due - now]
                if person and not s.conns:
                    waits.append(s.gone_since + st.absent_timeout - now)
                return max(0.005, min(waits))
            if len(legal) == 1:
                action = legal[0]
            elif s.is_bot:
                assert s.bot is not None  # a bot seat has its bot
                action = s.bot.choose(g.observation(seat), legal)
            elif g.phase in (Phase.CLAIM, Phase.ROB) and not self._absent(s, now):
                action = next(a for a in legal if a.type is ActionType.PASS)  # the countdown ran out: 过
            else:
                assert s.standin is not None  # every seat has a stand-in bot
                action = s.standin.choose(g.observation(seat), legal)
            self._apply(action, seat)
            await self.broadcast()
            return 0


    async def _window_step(self, now: float):
        """A claim/rob window: bots answer at once, absent players' stand-ins after a bot delay,
        people until the window's countdown (then 过); answers are applied in the engine's order."""
        st = self.settings
        g = self.game
        assert g is not None
        if self.window_deadline is None:  # e.g. after a restart in a window
            self.window_started = now
            self.window_deadline = now + st.claim_timeout
        waits = [self.window_deadline - now]
        for seat, opts in g.window_options().items():
            if seat in self.answers:
                continue
            s = self.seats[seat]
            if s.is_bot:
                assert s.bot is not None  # a bot seat has its bot
                self.answers[seat] = s.bot.choose(g.observation(seat), opts)
            elif s.player == "human" and self._absent(s, now):
                if now >= self.window_started + st.bot_delay:
                    assert s.standin is not None  # every seat has a stand-in bot
                    self.answers[seat] = s.standin.choose(g.observation(seat), opts)
                else:
                    waits.append(self.window_started + st.bot_delay - now)
            elif now >= self.window_deadline:
                self.answers[seat] = next(a for a in opts if a.type is ActionType.PASS)  # countdown over: 过
            elif not s.conns:
                waits.append(s.gone_since + st.absent_timeout - now)
        n = len(g.events)
        self._drain()
        if self.game is not g or len(g.events) != n:
            await self.broadcast()
            return 0
        return max(0.005, min(waits))


class TableManager:
    """All live tables of a server, over one :class:`Store`."""

    def __init__(self, store: Store, settings: Settings | None = None) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.tables: dict[int, Table] = {}
        self._load_lock = asyncio.Lock()

    # -- creating and loading -------------------------------------------------------
    async def create(self, name: str, hands: int, seats: list[str], rules: dict) -> tuple[Table, str]:
        """A new table; seat 0 is claimed by the creator.  Returns (table, seat-0 token)."""
        rs = RuleSet.from_dict({**rules, "hands_per_match": hands})
        kinds = ["human", *seats]
        seed = random.SystemRandom().randrange(2**62)
        name = name.strip() or "上饶麻将"
        st = [Seat(player=k) for k in kinds]
        meta = {"web": {"name": name, "seats": kinds, "claimed": [False] * 4, "token_hashes": [None] * 4}}
        gid = self.store.create_game(KIND, kinds, seed=seed, rules=rs, meta=meta)
        table = Table(self, gid, name, rs, seed, st)
        _, token = table.claim_seat(0)
        self.tables[gid] = table
        table.start()
        return table, token

    def _build(self, rec) -> Table:
        web = (rec.meta or {}).get("web")
        if rec.mode != KIND or not web:
            raise TableError(f"game {rec.id} is not a web table")
        seats = [Seat(player=k, claimed=bool(c), token_hash=h)
                 for k, c, h in zip(web["seats"], web["claimed"], web["token_hashes"])]
        table = Table(self, rec.id, web.get("name", ""), RuleSet.from_dict(rec.rules), int(rec.seed), seats)
        for h in rec.hands:
            g = replay(h.events)
            table.match.finish_hand(g)
            table.last_settlement = h.result
        pending = rec.pending.get(len(rec.hands))
        if pending:
            g = replay(pending)
            extra = g.events[len(pending):]
            table.game = g
            if g.is_over:  # stored up to the last action, the hand row was not written
                table._persist(len(pending))
            elif extra:
                append_events(self.store, rec.id, g.hand_no, extra)
        elif rec.hands:
            table.game = replay(rec.hands[-1].events)  # the last settlement stays on the table
            table.between_since = time.monotonic()
        table.finished = rec.status == "finished" or table.match.is_over
        return table

    async def get(self, game_id: int) -> Table:
        t = self.tables.get(game_id)
        if t is not None:
            return t
        async with self._load_lock:
            t = self.tables.get(game_id)
            if t is not None:
                return t
            try:
                rec = self.store.load_game(game_id)
            except GameNotFound:
                raise TableError(f"no table {game_id}") from None
            t = self._build(rec)
            self.tables[game_id] = t
            t.start()
            return t

    async def resume_all(self) -> list[int]:
        """Load every unfinished web table from the database and start its runner."""
        ids = [g.id for g in self.store.list_games(mode=KIND, status="unfinished")]
        out = []
        for gid in ids:
            try:
                await self.get(gid)
                out.append(gid)
            except (TableError, RecordError, ValueError):
                log.exception("cannot resume table %s", gid)
        return out

    async def close(self) -> None:
        for t in list(self.tables.values()):
            await t.stop()
        self.tables.clear()

    def open_tables(self) -> list[dict]:
        return [t.public_info() for t in sorted(self.tables.values(), key=lambda t: -t.id)
                if not t.finished and t.free_seats()]

    def live_tables(self) -> list[dict]:
        return [t.public_info() for t in sorted(self.tables.values(), key=lambda t: -t.id) if not t.finished]


__all__ += ["ActionParseError", "KIND"]
