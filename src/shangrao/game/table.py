"""The table around one hand: seats, countdowns and the fair claim window, as a synchronous state
machine on an injected clock (issue 21).

:class:`TableState` knows nothing of sockets, threads or databases: every call takes ``now`` (any
monotonic clock, in seconds) and every countdown is data (:meth:`TableState.clocks`), so a server,
the CLI or a test with a fake clock drive the same rules:

- :meth:`TableState.act` — a person's action: applied in the seat's turn, held in a claim or rob
  window until the engine asks that seat (answers are applied in the engine's priority order,
  :meth:`Game.window_options`), refused while a window nobody can claim is held open.
- :meth:`TableState.advance_clock` — moves the table's clock to ``now`` (writes 过 for a person whose
  claim countdown ran out, starts the countdown of a turn that has just begun) and returns what the
  clock makes happen now, one move at a time, for the caller to apply: a bot's choice
  (after ``bot_delay``), the stand-in's for a seat absent ``absent_timeout`` seconds, 过 when a
  person's claim countdown ran out, the stand-in's when a person's turn countdown ran out, the
  release of a held window (:meth:`release_due`).  :meth:`step` applies them all.
- :meth:`TableState.next_wakeup` — when something becomes due without anyone acting.

The fair window (issue 12, issue 25): the game is played with :attr:`Game.hold_windows`, so every
discard and robbable kong opens a window even when nobody can claim it, and no answer — a bot's, or
a person's given early — is applied before ``claim_pause`` has passed.  A window therefore lasts
max(``claim_pause``, every answer in) whether or not anyone could claim: nobody learns it from its
length.

Bots as data (issue 34): the table never calls a bot.  Where a bot (or a person's stand-in) must
decide, :meth:`TableState.requests` hands out a :class:`BotRequest` once (the seat, the decision's
``key``, the bot to ask, its observation, the legal actions and the log to show it); the driver asks
the bot wherever it likes (:func:`decide`; the web server in a worker thread, with a deadline) and
gives the answer back with :meth:`TableState.answer`, taken only while that decision is still the
current one.  :meth:`step` (a driver without a server: the CLI, tests) answers them at once.

Table manners (issue 24, :mod:`shangrao.game.manners`): ``manners`` (one :class:`Manners` for the
whole match, passed to each hand's table) holds the seats in 托管 — played by their stand-in after
``bot_delay`` as an absent player's, until :meth:`TableState.set_managed` gives the next decision
back —, the 解散 vote with its countdown (:meth:`TableState.vote_due`) and the quick phrases' rate.

A table whose only player has left pauses (issue 38, :meth:`TableState.paused`): when one seat is a
person's and the other three are bots, and that person has been there (``SeatLike.was_here``) and is
not now, nothing is due — no bot moves, no stand-in, no countdown
runs, the window's pause neither — until the player is back; then every countdown goes on from
where it stood (:meth:`TableState.sync_pause` shifts them by the pause).  Where other people are
seated (friends, a room's members, whether they came or not), the stand-in plays for whoever is
away, as before.  A seat nobody has ever taken up (a table driven by a script) does not wait either.

Restart (:meth:`TableState.resume`): a table rebuilt from its log in a window or a turn gets its
countdown back from the time its last event was stored, not from full length.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .actions import Action, ActionType, IllegalActionError
from .manners import Manners
from .match import Bot
from .phase import Phase
from .protocol import Event
from .state import Game, Observation

__all__ = ["BotRequest", "Player", "SeatLike", "TableState", "Timing", "decide"]

_WINDOW = (Phase.CLAIM, Phase.ROB)


@dataclass(frozen=True)
class Timing:
    """The table's countdowns, in seconds.  bot_delay: pause before a bot (or a forced move) acts,
    so people can follow.  claim_timeout: a person's countdown in a claim/rob window (then 过).
    turn_timeout: a person's countdown in its own turn (then the stand-in plays).  absent_timeout:
    a seat without its player this long is played by its stand-in.  claim_pause: every window is
    open at least this long (0: windows nobody can claim are not held).  dissolve_timeout: a 解散
    vote's countdown.  phrase_interval: a seat's quick phrases at most one per this long."""

    bot_delay: float = 0.6
    claim_timeout: float = 15.0
    turn_timeout: float = 60.0
    absent_timeout: float = 30.0
    claim_pause: float = 0.8
    dissolve_timeout: float = 60.0
    phrase_interval: float = 3.0


class SeatLike(Protocol):
    """What the table reads of a seat: ``player`` ("human" or a bot's name), ``is_bot``, the seat's
    ``bot`` and ``standin`` (:class:`~shangrao.game.Bot`), ``present`` (its player is there) and
    ``gone_since`` (the clock time since when it is not); optionally ``was_here`` (its player has been
    present at some time: a table whose people have all left pauses, issue 38; missing: false)."""

    player: str
    bot: object | None
    standin: object | None
    gone_since: float

    @property
    def present(self) -> bool: ...

    @property
    def is_bot(self) -> bool: ...


@dataclass
class Player:
    """A seat of the table protocol outside a server: a person (``player="human"``) with an
    optional ``standin`` bot, or a bot (``bot``).  ``present``/``gone_since``: set by the caller."""

    player: str = "human"
    bot: Bot | None = None
    standin: Bot | None = None
    present: bool = True
    gone_since: float = 0.0
    was_here: bool = False

    @property
    def is_bot(self) -> bool:
        return self.player != "human"


@dataclass(frozen=True)
class BotRequest:
    """A decision a bot must make (:meth:`TableState.requests`).  seat: whose.  key: (hand_no, number
    of events, seat) — :meth:`TableState.answer` takes an answer only while it is current.  bot: the
    bot (``standin``: True when it is a person's stand-in).  observation, legal: what it decides on.
    events, n_events: the hand's log (append-only) and how much of it the decision follows."""

    seat: int
    key: tuple[int, int, int]
    bot: object
    observation: Observation
    legal: tuple[Action, ...]
    events: Sequence[Event]
    n_events: int
    standin: bool = False


def decide(req: BotRequest) -> Action:
    """Ask ``req.bot`` (safe in a worker thread: it reads only the request): a bot that follows the
    log (``see_log``: an outside bot) is shown it first, redacted for its seat."""
    bot = req.bot
    assert isinstance(bot, Bot), bot
    see = getattr(bot, "see_log", None)
    if see is not None:
        try:
            see(req.events, req.seat, upto=req.n_events)
        except TypeError:  # a see_log(events, seat) of a plugin
            see(list(req.events[: req.n_events]), req.seat)
    return bot.choose(req.observation, list(req.legal))


def _pass(legal: Sequence[Action]) -> Action:
    return next(a for a in legal if a.type is ActionType.PASS)


class TableState:
    """One hand at a table on an injected clock (see the module docstring).

    game: the hand (its :attr:`Game.hold_windows` is set from ``timing.claim_pause``).  seats: four
    :class:`SeatLike`.  now: the clock when the hand is taken up (the first countdown starts then,
    or at :meth:`resume`'s time).  manners: the match's :class:`~shangrao.game.manners.Manners`
    (托管, the 解散 vote, the phrases; default: a new one from ``timing``).

    Clocks (data, all on the caller's clock): ``answers`` (window answers held for the engine's
    order), ``pause_until`` (no answer is applied before it), ``window_started`` /
    ``window_deadline`` (the window's one countdown), ``decision_started`` / ``decision_deadline``
    (the turn's countdown, per decision ``decision_key``).
    """

    def __init__(
        self, game: Game, seats: Sequence[SeatLike], timing: Timing, now: float, manners: Manners | None = None
    ) -> None:
        self.game = game
        self.seats = seats
        self.timing = timing
        self.manners = (
            manners
            if manners is not None
            else Manners(dissolve_timeout=timing.dissolve_timeout, phrase_interval=timing.phrase_interval)
        )
        game.hold_windows = timing.claim_pause > 0
        self.answers: dict[int, Action] = {}
        self.pause_until = 0.0
        self.window_started = 0.0
        self.window_deadline: float | None = None
        self.decision_key: tuple[int, int] | None = None
        self.decision_started = 0.0
        self.decision_deadline: float | None = None
        self.resume_started: float | None = None
        self.version = 0  # bumped whenever a countdown shown changes
        self.asked: set[tuple[int, int, int]] = set()  # BotRequest keys handed out, not answered yet
        self.decided: dict[tuple[int, int, int], Action] = {}  # a turn's bot answer, by key
        self.paused_since: float | None = None  # every person has left (issue 38): nothing runs
        self.arm(now)

    # ------------------------------------------------------------------ restart
    def resume(self, started: float | None, now: float) -> None:
        """A hand rebuilt from its log: the countdown in progress (a window's, with its pause, or a
        turn's) started at ``started`` (the time its last event was stored, on this clock; None:
        now), never later than ``now``."""
        started = now if started is None else min(started, now)
        g = self.game
        if g.phase in _WINDOW:
            self.window_started = started
            self.window_deadline = started + self.timing.claim_timeout
            self.pause_until = started + self.timing.claim_pause
        else:
            self.decision_key = None
            self.resume_started = started
            self.arm(now)
        self.version += 1

    def clocks(self) -> dict[str, object]:
        """Every countdown as data (what :meth:`resume` needs, and more): the open window's start,
        deadline and pause end, the turn's start and deadline, on the caller's clock."""
        return {
            "window_started": self.window_started if self.game.phase in _WINDOW else None,
            "window_deadline": self.window_deadline,
            "pause_until": self.pause_until,
            "decision_started": self.decision_started if self.decision_deadline is not None else None,
            "decision_deadline": self.decision_deadline,
            "answered": sorted(self.answers),
        }

    _CLOCKS = (
        "pause_until",
        "window_started",
        "window_deadline",
        "decision_key",
        "decision_started",
        "decision_deadline",
        "resume_started",
    )

    def snapshot(self) -> tuple[object, ...]:
        """The table's own state (not the game's) as data, for :meth:`restore`."""
        return (dict(self.answers), *(getattr(self, k) for k in self._CLOCKS))

    def restore(self, saved: tuple[object, ...], game: Game) -> None:
        """Back to a :meth:`snapshot` with ``game`` (e.g. the hand replayed up to that moment, after a
        change could not be stored)."""
        game.hold_windows = self.game.hold_windows
        self.game = game
        answers = saved[0]
        assert isinstance(answers, dict)
        self.answers = dict(answers)
        for k, v in zip(self._CLOCKS, saved[1:]):
            setattr(self, k, v)
        self.asked.clear()  # asked again (an answer already taken was for the position undone)
        self.version += 1

    def shift(self, since: float, now: float) -> None:
        """The countdowns started at ``since`` start at ``now`` instead (e.g. after the change that
        started them took that long to be stored: a window is shown from now)."""
        d = now - since
        if d <= 0:
            return
        if self.game.phase in _WINDOW and self.window_started == since:
            self.window_started = now
            if self.window_deadline is not None:
                self.window_deadline += d
            self.pause_until += d
        if self.decision_deadline is not None and self.decision_started == since:
            self.decision_started = now
            self.decision_deadline += d
        self.version += 1

    # ------------------------------------------------------------------ the pause (issue 38)
    def deserted(self) -> bool:
        """The table's only player has left: one seat is a person's (the other three bots), its player
        has been there (``was_here``) and is not now.  The table waits for them; where other people
        are seated (friends), the stand-in plays for whoever left, as before."""
        people = [s for s in self.seats if not s.is_bot]
        return len(people) == 1 and not people[0].present and bool(getattr(people[0], "was_here", False))

    def sync_pause(self, now: float) -> bool:
        """Pause a table whose people have all left, or take it up again when one is back (every
        countdown, the window's pause and the other absent people's clocks shifted by the pause, so
        each goes on where it stood).  Returns whether it is paused now."""
        if self.deserted():
            if self.paused_since is None:
                self.paused_since = now
                self.version += 1
            return True
        if self.paused_since is not None:
            d = max(0.0, now - self.paused_since)
            self.paused_since = None
            self.window_started += d
            self.pause_until += d
            if self.window_deadline is not None:
                self.window_deadline += d
            self.decision_started += d
            if self.decision_deadline is not None:
                self.decision_deadline += d
            for seat in self.seats:
                if not seat.is_bot and not seat.present:
                    seat.gone_since += d
            self.version += 1
        return False

    @property
    def paused(self) -> bool:
        """The table waits for its people (as of the last :meth:`sync_pause`)."""
        return self.paused_since is not None

    # ------------------------------------------------------------------ facts
    def pausing(self, now: float) -> bool:
        """The open window's pause (``claim_pause`` from its discard or kong) is still running."""
        return now < self.pause_until

    def absent(self, seat: int, now: float) -> bool:
        """The seat's stand-in plays for it: its person is in 托管, or gone ``absent_timeout``."""
        if seat in self.manners.managed:
            return True
        s = self.seats[seat]
        return not s.present and now - s.gone_since >= self.timing.absent_timeout

    def _standin_from(self, seat: int, start: float) -> float:
        """When an absent seat's stand-in may act in a decision that began at ``start``: ``bot_delay``
        after it (after the seat was handed over, for 托管)."""
        since = self.manners.managed.get(seat)
        return max(start, since if since is not None else start) + self.timing.bot_delay

    # ------------------------------------------------------------------ manners
    def set_managed(self, seat: int, on: bool, now: float) -> bool:
        """托管 on or off for a person's ``seat`` (False: nothing changed).  Off in the seat's own turn,
        the decision is the person's again with its whole ``turn_timeout`` from ``now``.  Raises
        IllegalActionError for a bot's seat."""
        if self.seats[seat].is_bot:
            raise IllegalActionError("a bot's seat has no 托管")
        if not self.manners.set_managed(seat, on, now):
            return False
        g = self.game
        if (
            not on
            and not g.is_over
            and not g.held
            and g.phase not in _WINDOW
            and g.current_seat == seat
            and self.decision_deadline is not None
            and len(g.legal_actions()) > 1
        ):
            self.decision_started = now
            self.decision_deadline = now + self.timing.turn_timeout
        self.version += 1
        return True

    def vote_due(self, now: float) -> str | None:
        """The 解散 vote's countdown ran out or it is decided: its outcome ("passed"/"failed"), else None."""
        return self.manners.settle(now)

    def options(self, seat: int) -> list[Action]:
        """What ``seat`` may do now: its window options (none once its answer is held), or its
        turn's legal actions."""
        g = self.game
        if g.phase in _WINDOW:
            return [] if seat in self.answers else g.window_options().get(seat, [])
        return g.legal_actions() if not g.is_over and g.current_seat == seat else []

    def deadline_for(self, seat: int, now: float) -> float | None:
        """Seconds left of ``seat``'s countdown (one decimal), None when it has none."""
        g = self.game
        if g.phase in _WINDOW:
            if self.window_deadline is None or seat in self.answers or seat not in g.window_options():
                return None
            return round(max(0.0, self.window_deadline - now), 1)
        if self.decision_deadline is None or g.current_seat != seat:
            return None
        return round(max(0.0, self.decision_deadline - now), 1)

    # ------------------------------------------------------------------ moves
    def arm(self, now: float) -> None:
        """Start the clock of the turn now due (once per decision)."""
        g = self.game
        if g.is_over or g.held:  # a held window: nobody decides until it is released
            self.decision_key = self.decision_deadline = None
            return
        key = (g.hand_no, len(g.events))
        if self.decision_key == key:
            return
        t = self.timing
        assert g.current_seat is not None  # a hand not over has a seat to decide
        s = self.seats[g.current_seat]
        n_legal = len(g.legal_actions())
        if g.phase in _WINDOW and (s.is_bot or n_legal == 1):
            d = min(t.bot_delay, t.claim_pause) / 2  # inside the window everyone waits for anyway
        elif s.is_bot or n_legal == 1:
            d = t.bot_delay if n_legal > 1 else min(t.bot_delay, 0.05)
        else:
            d = t.claim_timeout if g.phase in _WINDOW else t.turn_timeout
        self.decision_key = key
        started = self.resume_started if self.resume_started is not None else now
        self.resume_started = None
        self.decision_started = min(started, now)
        self.decision_deadline = self.decision_started + d
        self.version += 1

    def apply(self, seat: int | None, action: Action | None, now: float) -> list[Event]:
        """Apply ``action`` of ``seat`` (None, None: release the held window), follow the windows (a
        new one starts its pause and countdown, a closed one drops the held answers) and start the
        next turn's clock.  Returns the new events.  Raises IllegalActionError (nothing changed)."""
        g = self.game
        n = len(g.events)
        before = g.window
        if action is None:
            g.release()
        else:
            g.apply(action, seat=seat)
        if seat is not None:
            self.answers.pop(seat, None)
        after = g.window
        if after is None or after != before:
            self.answers.clear()
            self.window_deadline = None
            if after is not None:
                self.pause_until = now + self.timing.claim_pause
                self.window_started = now
                self.window_deadline = now + self.timing.claim_timeout
        self.arm(now)
        self.version += 1
        return g.events[n:]

    def hold(self, seat: int, action: Action, now: float) -> None:
        """Hold a person's window answer for the engine's order.  Raises IllegalActionError (not the
        seat's decision, already answered, or not among its options)."""
        g = self.game
        if g.held:
            raise IllegalActionError("the table is waiting for claims; look again")
        opts = g.window_options().get(seat)
        if g.phase not in _WINDOW or not opts or seat in self.answers:
            raise IllegalActionError("not your decision: the table is waiting for claims")
        if action not in opts:
            raise IllegalActionError(f"{action} is not legal now; legal: {', '.join(map(str, opts))}")
        self.answers[seat] = action
        self.version += 1

    def act(self, seat: int, action: Action, now: float) -> list[Event]:
        """A person's action (see the module docstring); returns the events it led to now (none
        while its window answer is held).  Raises IllegalActionError (nothing changed)."""
        g = self.game
        if g.is_over:
            raise IllegalActionError("no hand is being played at this table now")
        self.sync_pause(now)  # a person acts: the table's clocks go on where they stood
        if g.phase in _WINDOW:
            self.hold(seat, action, now)
            return self.step(now)
        if g.current_seat != seat:
            raise IllegalActionError("not your turn")
        return self.apply(seat, action, now)

    def release_due(self, now: float) -> bool:
        """A held window's pause is over: :meth:`apply` (None, None) releases it (never while the
        table waits for its people)."""
        return self.game.held and not self.sync_pause(now) and not self.pausing(now)

    def collect(self, now: float) -> bool:
        """In a window: a person whose countdown ran out says 过 (bots and stand-ins answer through
        :meth:`requests` / :meth:`answer`).  True when a person's prompt went (its view changed)."""
        g = self.game
        if g.phase not in _WINDOW or g.held or self.sync_pause(now):
            return False
        t = self.timing
        if self.window_deadline is None:  # a window taken up without resume(): its countdown from now
            self.window_started = now
            self.window_deadline = now + t.claim_timeout
            self.version += 1
        changed = False
        for seat, opts in g.window_options().items():
            if seat in self.answers:
                continue
            s = self.seats[seat]
            if s.is_bot or self.absent(seat, now):
                continue  # its bot's or stand-in's answer comes through answer()
            if now >= self.window_deadline:
                self.answers[seat] = _pass(opts)  # the countdown ran out: 过
                changed = True
        if changed:
            self.version += 1
        return changed

    def advance_clock(self, now: float) -> list[tuple[int, Action]]:
        """Move the table's clock to ``now`` and return the next move it makes, as ``[(seat, action)]``
        for the caller to apply (``[]``: nothing now; a held
        window's release is :meth:`release_due`).  In a window: the held answer of the seat the
        engine asks (an answer an earlier declaration made illegal becomes 过), once the pause is over.
        In a turn: a bot's choice after its delay, the stand-in's for an absent person, the
        stand-in's when the person's countdown ran out.  Nothing while the table waits for its people.

        Not a query (issue 39: it was ``due``): it writes the 过 of a person whose window countdown
        ran out (:meth:`collect`) and starts the countdown of a turn that has just begun (:meth:`arm`);
        asked twice at the same ``now`` it returns the same move."""
        g = self.game
        if g.is_over or g.held or self.sync_pause(now):
            return []
        if g.phase in _WINDOW:
            self.collect(now)
            seat = g.current_seat
            if self.pausing(now) or seat not in self.answers:
                return []
            held = self.answers[seat]
            legal = g.legal_actions()
            return [(seat, held if held in legal else _pass(legal))]
        self.arm(now)
        seat = g.current_seat
        assert seat is not None and self.decision_deadline is not None
        legal = g.legal_actions()
        if now < self._turn_due(seat, now):
            return []
        if len(legal) == 1:
            return [(seat, legal[0])]
        key = (g.hand_no, len(g.events), seat)
        if key in self.decided:
            return [(seat, self.decided[key])]
        return []  # its bot's (or stand-in's) answer is asked for: requests()

    # ------------------------------------------------------------------ bots as data
    def requests(self, now: float) -> list[BotRequest]:
        """The bots' and stand-ins' decisions due now and not handed out yet (each key once): in a
        window every bot seat at once and an absent person's stand-in after ``bot_delay``; in a turn
        a bot after its delay, the stand-in of an absent person or of one whose countdown ran out.
        Answer each with :meth:`answer`.  None while the table waits for its people."""
        g = self.game
        if g.is_over or g.held or self.sync_pause(now):
            return []
        out: list[BotRequest] = []
        if g.phase in _WINDOW:
            for seat, opts in g.window_options().items():
                if seat in self.answers:
                    continue
                s = self.seats[seat]
                if s.is_bot:
                    out.append(self._request(seat, s.bot, opts, False))
                elif self.absent(seat, now) and now >= self._standin_from(seat, self.window_started):
                    out.append(self._request(seat, s.standin, opts, True))
        else:
            self.arm(now)
            cur = g.current_seat
            assert cur is not None
            legal = g.legal_actions()
            if len(legal) > 1 and now >= self._turn_due(cur, now):
                s = self.seats[cur]
                out.append(self._request(cur, s.bot if s.is_bot else s.standin, legal, not s.is_bot))
        out = [r for r in out if r.key not in self.asked]
        self.asked.update(r.key for r in out)
        return out

    def _request(self, seat: int, bot: object, legal: Sequence[Action], standin: bool) -> BotRequest:
        g = self.game
        return BotRequest(
            seat,
            (g.hand_no, len(g.events), seat),
            bot,
            g.observation(seat),
            tuple(legal),
            g.events,
            len(g.events),
            standin,
        )

    def current(self, key: tuple[int, int, int]) -> bool:
        """The decision ``key`` is still to be made (its answer would be taken)."""
        g = self.game
        hand, n, seat = key
        if g.is_over or g.held or hand != g.hand_no or n != len(g.events):
            return False
        if g.phase in _WINDOW:
            return seat not in self.answers and seat in g.window_options()
        return g.current_seat == seat and key not in self.decided

    def answer(self, key: tuple[int, int, int], action: Action) -> bool:
        """The answer to the :class:`BotRequest` ``key``: held (a window) or kept for :meth:`due` (a
        turn); False (and nothing changed) when that decision is no longer current or ``action`` is
        not among its options."""
        self.asked.discard(key)
        if not self.current(key):
            return False
        g = self.game
        seat = key[2]
        if g.phase in _WINDOW:
            if action not in g.window_options().get(seat, []):
                return False
            self.answers[seat] = action
        else:
            if action not in g.legal_actions():
                return False
            self.decided = {key: action}  # older keys are gone with their positions
        self.version += 1
        return True

    def _turn_due(self, seat: int, now: float) -> float:
        assert self.decision_deadline is not None
        due = self.decision_deadline
        s = self.seats[seat]
        if s.player == "human" and len(self.game.legal_actions()) > 1 and self.absent(seat, now):
            t = self.timing
            if seat in self.manners.managed:
                due = min(due, self._standin_from(seat, self.decision_started))
            else:
                due = min(due, max(self.decision_started, s.gone_since + t.absent_timeout) + t.bot_delay)
        return due

    def next_wakeup(self, now: float) -> float | None:
        """The clock time at which something may become due without anyone acting (None: never —
        the hand is over or waits for a person with no countdown, or the table waits for its people —
        and no 解散 vote is open)."""
        move = None if self.sync_pause(now) else self._next_move(now)
        times = [x for x in (move, self.manners.next_wakeup()) if x is not None]
        return min(times) if times else None

    def _next_move(self, now: float) -> float | None:
        """The next time something is due; a decision whose bot was asked (:meth:`requests`) and has
        not answered makes nothing due (its :meth:`answer` is a change the driver acts on)."""
        g = self.game
        if g.is_over:
            return None
        t = self.timing
        if g.held:
            return self.pause_until
        if g.phase in _WINDOW:
            times: list[float] = []
            if self.window_deadline is None:
                times.append(now)
            if self.pausing(now):
                times.append(self.pause_until)
            for seat in g.window_options():
                if seat in self.answers:
                    continue
                s = self.seats[seat]
                key = (g.hand_no, len(g.events), seat)
                if s.is_bot:
                    if key not in self.asked:
                        times.append(now)
                elif self.absent(seat, now):
                    due = self._standin_from(seat, self.window_started)
                    if due > now or key not in self.asked:
                        times.append(due)
                else:
                    if self.window_deadline is not None:
                        times.append(self.window_deadline)  # its countdown (then 过)
                    if not s.present:  # absent from then on
                        times.append(s.gone_since + t.absent_timeout)
            if g.current_seat in self.answers and not self.pausing(now):
                times.append(now)
            return min(times) if times else None
        self.arm(now)
        turn = g.current_seat
        assert turn is not None
        key = (g.hand_no, len(g.events), turn)
        due = self._turn_due(turn, now)
        times = []
        if len(g.legal_actions()) == 1 or key in self.decided or due > now or key not in self.asked:
            times.append(due)
        s = self.seats[turn]
        if s.player == "human" and len(g.legal_actions()) > 1 and not s.present and not self.absent(turn, now):
            times.append(s.gone_since + t.absent_timeout)  # absent from then on: the stand-in's delay starts
        return min(times) if times else None

    def step(self, now: float) -> list[Event]:
        """Apply everything due at ``now`` (releases, bots, stand-ins, countdowns, held answers in
        the engine's order) and return the events (a driver without a store: the CLI, tests)."""
        out: list[Event] = []
        while not self.game.is_over:
            if self.release_due(now):
                out += self.apply(None, None, now)
                continue
            for req in self.requests(now):  # asked here and now: no deadline outside a server
                self.answer(req.key, decide(req))
            moves = self.advance_clock(now)
            if not moves:
                break
            seat, action = moves[0]
            out += self.apply(seat, action, now)
        return out
