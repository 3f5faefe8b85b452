"""What one seat is sent: built only from that seat's observation, its legal actions
and the log redacted for that seat (:func:`shangrao.game.redact`).

Nothing here reads another seat's concealed tiles, the wall or the seed: the
``state`` message is a function of :meth:`Game.observation`, :meth:`Game.legal_actions`
for the seat, the redacted events and public table facts.
"""

from __future__ import annotations

import dataclasses
import json
import operator
from collections.abc import Collection, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

import msgspec
from msgspec import Raw

from ..analysis import is_baodiao_state, waits_after_discards
from ..analysis import shanten as shanten_of
from ..analysis import waits as waits_of
from ..game import Action, ActionType, Event, EventType, Game, Observation, redact
from ..game.frames import payer_factors
from ..game.phase import Phase
from ..melds import Meld
from ..scoring.items import clause_english, seed_clause
from ..tiles import format_tile
from .outgoing import LegalAction, MeldView, SeatView, StateMessage, TableInfo, Wait, encode

__all__ = [
    "LOG_TAIL",
    "WINDS",
    "LogCache",
    "action_info",
    "discard_wait_kinds",
    "meld_info",
    "meld_view",
    "payer_factors",
    "reveal",
    "seat_message",
    "seat_texts",
    "seat_view",
    "state_message",
    "unseen_counts",
    "view_seq",
    "wait_kinds",
]

WINDS = "东南西北"
LOG_TAIL = 30  # redacted events sent with each state (the table's event log panel)


@lru_cache(maxsize=4096)
def meld_info(m: Meld) -> dict[str, Any]:
    """A meld in the 倒牌 reveal, as a dict (cached per meld: melds are immutable; do not change
    the dict); the same keys as :class:`~shangrao.web.outgoing.MeldView`."""
    return {"kind": m.type.value, "tiles": list(m.tiles), "claimed": m.claimed, "from": m.from_seat}


@lru_cache(maxsize=4096)
def meld_view(m: Meld) -> MeldView:
    """A meld of the seat view (cached per meld: melds and MeldViews are immutable)."""
    return MeldView(kind=m.type.value, tiles=m.tiles, claimed=m.claimed, from_=m.from_seat)


@lru_cache(maxsize=4096)
def action_info(a: Action, can_win: bool) -> LegalAction:
    """A legal action as the ``state`` message lists it: ``tiles`` for a chow, ``declines_win``
    (偷机) for a pass or discard when the seat could win; both left out otherwise (cached: actions
    are immutable, and the same few come back in every state; do not change the object)."""
    return LegalAction(
        action=str(a),
        type=a.type.value,
        tile=a.tile,
        tiles=(a.kind, a.kind + 1, a.kind + 2) if a.type is ActionType.CHOW else None,
        declines_win=True if can_win and a.type in (ActionType.PASS, ActionType.DISCARD) else None,
    )


def unseen_counts(obs: Observation) -> list[int]:
    """Per kind: copies the seat has not seen (:meth:`shangrao.game.Observation.unseen`)."""
    return obs.unseen()


@lru_cache(maxsize=8192)
def wait_kinds(hand_34: tuple[int, ...], bao: int, melds: tuple[Meld, ...]) -> tuple[int, ...]:
    """Kinds a hand one tile short waits on (cached: a seat's hand is asked about after every
    change of the table, and the same hands come back in every seat's view).

    hand_34: length-34 tuple of counts (3*(4-len(melds))+1 tiles).  A hand that is not ready
    (shanten > 0, one table lookup) skips the 34 trial draws.  () for a bad hand."""
    try:
        if shanten_of(hand_34, bao, list(melds)) > 0:
            return ()
        return tuple(waits_of(list(hand_34), bao, list(melds)))
    except ValueError:
        return ()


@lru_cache(maxsize=4096)
def discard_wait_kinds(
    hand_34: tuple[int, ...], bao: int, melds: tuple[Meld, ...], discards: tuple[int, ...]
) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """For a hand with one tile to discard: (discarded kind, its waits) for each of ``discards``
    that leaves the hand ready — :func:`shangrao.analysis.waits_after_discards`, cached (the same
    hands come back in every state of a seat).  Nothing is tried when the 14-tile hand is not within
    one tile of a win (shanten > 0): then no discard leaves it ready."""
    try:
        if shanten_of(hand_34, bao, list(melds)) > 0:
            return ()
        after = waits_after_discards(hand_34, bao, list(melds), discards=discards)
    except ValueError:
        return ()
    return tuple((k, tuple(w)) for k, w in after.items())


@lru_cache(maxsize=4096)
def baodiao_after(
    hand_34: tuple[int, ...], bao: int, melds: tuple[Meld, ...], discards: tuple[int, ...]
) -> tuple[int, ...]:
    """The kinds of ``discards`` whose discard leaves the hand in the 宝吊 state (宝吊头, D5: any drawn
    tile wins), for a hand with one tile to discard; the web shows "任意牌（宝吊）" for them instead of
    ~33 wait kinds (issue 24).  Cached like :func:`discard_wait_kinds`."""
    out = []
    for k in discards:
        if not hand_34[k]:
            continue
        after = list(hand_34)
        after[k] -= 1
        try:
            if is_baodiao_state(after, bao, list(melds)):
                out.append(k)
        except ValueError:
            continue
    return tuple(out)


def _waits(kinds: Iterable[int], unseen: Sequence[int]) -> list[Wait]:
    # tiles left only (issue 10): a wait with no copy out of sight is no wait
    return [Wait(kind=k, unseen=unseen[k]) for k in kinds if unseen[k]]


def view_seq(game: Game, seat: int) -> int:
    """The seat's own counter of what it has seen: the length of its redacted log.

    Not ``len(game.events)``: that would grow with other seats' hidden passes in a window."""
    return len(redact(game.events, seat))


def reveal(game: Game) -> dict[str, Any] | None:
    """倒牌: at the end of a hand every hand is laid down (what the table shows then).

    hands_down: per seat the concealed kinds.  wins: per winner the scored reading — groups (``kind``,
    ``tiles`` as read, ``wild`` True where a 宝 stands for that face), its declared melds, the
    winning tile and where it is in the groups, how it came (``win_by``, ``heavenly``,
    ``kong_chain`` > 0 = 杠开, ``from`` = the robbed or discarding seat), the pattern with its
    factor and clause, every doubling (name, count, factor) and the hand value.  None before the end.
    """
    r = game.result
    if r is None:
        return None
    events: list[Mapping[str, Any]] = list(game.events)
    win_events = {e["seat"]: e for e in events if e.get("type") == EventType.WIN}
    wins = []
    for w in r.wins:
        sc, sit = w.score, w.situation
        groups = []
        mark = None
        if sc.reading is not None:
            for gi, g in enumerate(sc.reading.groups):
                groups.append({"kind": g.shape, "tiles": list(g.tiles), "wild": list(g.wild)})
                for ti, (t, wild) in enumerate(zip(g.tiles, g.wild)):
                    if mark is None and ((not wild and t == sit.win_tile) or (wild and sit.win_tile == sit.bao)):
                        mark = [gi, ti]
        ev: Mapping[str, Any] = win_events.get(w.seat, {})
        pat = sc.pattern
        assert pat is not None  # a recorded win always has its pattern
        wins.append(
            {
                "seat": w.seat,
                "win_tile": sit.win_tile,
                "win_by": sit.win_by.value,
                "heavenly": sit.heavenly,
                "kong_chain": sit.kong_chain,
                "from": ev.get("from"),
                "form": sc.reading.form.value if sc.reading else None,
                "groups": groups,
                "mark": mark,
                "melds": [meld_info(m) for m in sit.melds],
                "pattern": {
                    "id": pat.id,
                    "name": pat.name,
                    "factor": pat.factor,
                    "flat": pat.flat,
                    "clause": seed_clause(pat.clause),
                    "clause_en": clause_english(pat.clause),
                },
                "doublings": [{"id": d.id, "name": d.name, "count": d.count, "factor": d.factor} for d in sc.doublings],
                "hand_value": sc.hand_value,
                "payers": list(w.payers),
                "win_payments": list(sc.win_payments),
                **payer_factors(w),
            }
        )
    return {"hands_down": [game.hand_kinds(s) for s in range(4)], "wins": wins, "drawn": r.drawn}


def _decision(
    game: Game, obs: Observation, answered: Collection[int]
) -> tuple[list[Action], bool, list[Wait] | None, dict[str, Sequence[Wait]] | None, list[str] | None]:
    """What ``obs.seat`` may do and what it waits on: (legal, can_win, waits, discard_waits,
    baodiao_discards) of the ``state`` message — the last: the discards (mpsz) among
    ``discard_waits`` that leave the hand in the 宝吊 state (any tile wins), else None.  The unseen
    counts (issue 10) are only needed for a hand that has waits."""
    seat = obs.seat
    if game.phase in (Phase.CLAIM, Phase.ROB):
        legal = [] if seat in answered else game.window_options().get(seat, [])
    else:
        legal = game.legal_actions(seat) if not game.is_over and game.current_seat is not None else []
    can_win = any(a.type is ActionType.WIN for a in legal)
    melds_me = obs.melds[seat]
    waits = None
    discard_waits: dict[str, Sequence[Wait]] | None = None
    baodiao = None
    n_concealed = len(obs.hand)
    if n_concealed == 13 - 3 * len(melds_me):
        kinds = wait_kinds(obs.hand_34, obs.bao, melds_me)
        waits = _waits(kinds, unseen_counts(obs)) if kinds else []
    elif n_concealed == 14 - 3 * len(melds_me) and legal and obs.current_seat == seat:
        kinds = tuple(sorted({a.tile for a in legal if a.type is ActionType.DISCARD and a.tile is not None}))
        after = discard_wait_kinds(obs.hand_34, obs.bao, melds_me, kinds)
        discard_waits = {}
        baodiao = []
        if after:
            unseen = unseen_counts(obs)
            discard_waits = {format_tile(k): _waits(w, unseen) for k, w in after if any(unseen[x] for x in w)}
            any_tile = baodiao_after(obs.hand_34, obs.bao, melds_me, tuple(k for k, _ in after))
            baodiao = [format_tile(k) for k in any_tile if format_tile(k) in discard_waits]
    return legal, can_win, waits, discard_waits, baodiao


class _SeatLog:
    __slots__ = ("ends", "raw", "texts", "trimmed")

    def __init__(self) -> None:
        self.raw: list[Event] = []  # the game's events read so far (the objects themselves)
        self.ends: list[int] = []  # per raw event: len(texts) after it
        self.texts: list[Raw] = []  # the seat's redacted log, each event encoded once (_GONE once trimmed)
        self.trimmed = 0  # texts before this position were let go (never shown again)


_GONE = Raw(b"")  # an encoded event let go of
_NULL = Raw(b"null")

#: encoded events kept beyond the tail (a game put back diverges only in its last few events)
_KEEP = 32


class LogCache:
    """Each seat's redacted log (:func:`shangrao.game.redact`) with every event redacted once per
    seat and encoded once (:func:`~shangrao.web.outgoing.encode`) for the seats that see it alike, not
    once per message: ``seq`` (its length, :func:`view_seq`) and the ``log`` tail of the state
    messages, as :data:`~shangrao.web.outgoing.Encoded` objects.

    ``redact`` works event by event and may drop one (another seat's ``pass`` / ``call`` in a
    window), so a seat's log is a filter of the game's events: the cache keeps, per seat, the
    game's events it has read and how many shown events they gave.  The engine only appends
    events and never changes one; a game that is not a continuation of what was read — a new
    hand, or a game put back after a failed write (replayed: new event objects) — is
    recognised by the identity of its events, and only the events after the shared start are
    read again.

    It also keeps the part of the view that every seat sees alike at one moment
    (:func:`_public_view`) and the 倒牌 reveal, so that they are built (the reveal encoded) once for
    the four seats, not once per seat.
    """

    def __init__(self) -> None:
        self.seats: dict[int, _SeatLog] = {}
        self.encoded: dict[
            int, tuple[Event, list[tuple[dict[str, Any], Raw]]]
        ] = {}  # id(event) -> its redactions, encoded
        self.public: tuple[tuple[Any, ...], SeatView] | None = None  # (the public fields' values, their view)
        self.revealed: tuple[object, Raw] | None = None  # (the hand's result, reveal() encoded)

    def _read(self, game: Game, seat: int) -> _SeatLog:
        c = self.seats.get(seat)
        if c is None:
            c = self.seats[seat] = _SeatLog()
        evs = game.events
        raw = c.raw
        k = min(len(raw), len(evs))
        if k and raw[k - 1] is not evs[k - 1]:  # not a continuation: find the shared start
            if raw[0] is not evs[0]:
                k = 0
            else:
                while raw[k - 1] is not evs[k - 1]:
                    k -= 1
        if k and c.trimmed and c.ends[k - 1] - LOG_TAIL < c.trimmed:  # the tail would reach trimmed texts: read anew
            k = 0
        if k < len(raw):
            del raw[k:]
            del c.ends[k:]
            del c.texts[c.ends[-1] if c.ends else 0 :]
            if not k:
                c.trimmed = 0
        texts = c.texts
        for ev in evs[k:]:
            raw.append(ev)
            shown = redact((ev,), seat)
            if shown:
                texts.append(self._encoded(ev, shown[0]))
            c.ends.append(len(texts))
        keep_from = len(texts) - LOG_TAIL - _KEEP
        if keep_from - c.trimmed >= _KEEP:  # let go of texts no tail will show (memory per table)
            texts[c.trimmed : keep_from] = [_GONE] * (keep_from - c.trimmed)
            c.trimmed = keep_from
        return c

    def _encoded(self, ev: Event, shown: dict[str, Any]) -> Raw:
        """``shown`` (``ev`` redacted for a seat) encoded: the seats that see an event alike
        (a discard, another seat's draw) share one encoding."""
        seen = self.encoded.get(id(ev))
        if seen is None or seen[0] is not ev:
            if len(self.encoded) >= 16:  # only the events just read are asked for again
                self.encoded.clear()
            seen = self.encoded[id(ev)] = (ev, [])
        for d, text in seen[1]:
            if d == shown:
                return text
        text = Raw(encode(shown))
        seen[1].append((shown, text))
        return text

    def seq(self, game: Game, seat: int) -> int:
        """The length of ``seat``'s redacted log of ``game`` (= :func:`view_seq`)."""
        return len(self._read(game, seat).texts)

    def tail(self, game: Game, seat: int) -> str:
        """The last :data:`LOG_TAIL` events of ``seat``'s redacted log as a JSON array."""
        return "[" + b",".join(self._read(game, seat).texts[-LOG_TAIL:]).decode() + "]"

    def clear(self) -> None:
        self.seats.clear()
        self.encoded.clear()
        self.public = self.revealed = None

    def public_view(self, obs: Observation) -> SeatView:
        """:func:`_public_view` of ``obs``, computed again only when one of the fields it is made of
        differs from the last call (the same for the four seats of one moment; do not change it)."""
        key = _public_fields(obs)
        if self.public is None or self.public[0] != key:
            self.public = (key, _public_view(obs))
        return self.public[1]

    def reveal(self, game: Game) -> Raw:
        """:func:`reveal` of ``game`` encoded (``null`` before the end), once per hand result."""
        if game.result is None:
            return _NULL
        if self.revealed is None or self.revealed[0] is not game.result:
            self.revealed = (game.result, Raw(encode(reveal(game))))
        return self.revealed[1]


#: Observation fields that differ from seat to seat; the others are the same for every seat at one
#: moment, so their part of the view is built once for all seats (:meth:`LogCache.public_view`)
_SEAT_FIELDS = frozenset({"seat", "current_seat", "hand", "hand_34", "drawn", "bao_drawn"})
_PUBLIC_FIELDS = tuple(f.name for f in dataclasses.fields(Observation) if f.name not in _SEAT_FIELDS)
_public_fields = operator.attrgetter(*_PUBLIC_FIELDS)


def _public_view(obs: Observation) -> SeatView:
    """A :class:`~shangrao.web.outgoing.SeatView` of ``obs``'s public fields (``_PUBLIC_FIELDS``;
    tuples are JSON arrays too; the melds as :func:`meld_view`, the seat winds), the seat's own
    fields still to be filled in (:func:`_with_seat`, a copy per seat)."""
    public: dict[str, Any] = dict(zip(_PUBLIC_FIELDS, _public_fields(obs)))
    public["phase"] = obs.phase.value
    public["melds"] = [[meld_view(m) for m in ms] for ms in obs.melds]
    public["winds"] = [WINDS[(s - obs.dealer) % 4] for s in range(4)]
    return SeatView(**public, seat=-1, current_seat=None, hand=(), drawn=None, bao_drawn=0, bao_count=0)


_with_seat = msgspec.structs.replace


def state_message(
    game: Game,
    seat: int,
    *,
    hand_no: int,
    table: TableInfo | Raw,
    deadline: float | None,
    settlement: dict[str, Any] | None,
    logs: LogCache,
    answered: Collection[int] = (),
) -> StateMessage:
    """The ``state`` message for ``seat``: its whole view after a change.

    In a claim or rob window every seat still to be asked gets its options at once
    (:meth:`Game.window_options`), not only the seat the engine asks first, and the view names
    the seat itself as deciding while it has options, else nobody.  ``answered``: seats whose
    answer the table holds until the engine reaches them (they wait like everyone else).
    ``seq`` is the seat's own counter (:func:`view_seq`).  ``table``: the table's facts (encoded once
    for the seats: ``Raw(encode(TableInfo(...)))``; a TableInfo is encoded here); ``deadline``:
    seconds left of the seat's countdown; ``logs``: the table's :class:`LogCache`, where the log,
    the view's public part and the reveal are built once."""
    obs = game.observation(seat)
    legal, can_win, waits, discard_waits, baodiao = _decision(game, obs, answered)
    me = obs.seat
    current = (me if legal else None) if game.phase in (Phase.CLAIM, Phase.ROB) else obs.current_seat
    view = _with_seat(
        logs.public_view(obs),
        seat=me,
        current_seat=current,
        hand=obs.hand,
        drawn=obs.drawn,
        bao_drawn=obs.bao_drawn,
        bao_count=obs.hand.count(obs.bao),
    )
    texts = logs._read(game, seat).texts
    if not isinstance(table, Raw):
        table = Raw(encode(table))
    return StateMessage(
        you=me,
        hand_no=hand_no,
        seq=len(texts),
        table=table,
        view=view,
        legal=[action_info(a, can_win) for a in legal],
        can_win=can_win,
        waits=waits,
        discard_waits=discard_waits,
        baodiao_discards=baodiao,
        settlement=settlement,
        reveal=logs.reveal(game),
        log=texts[-LOG_TAIL:],
        deadline=deadline,
    )


_DEADLINE = b',"deadline":'


def state_texts(msg: StateMessage) -> tuple[str, bytes]:
    """A ``state`` message as JSON text (:func:`~shangrao.web.outgoing.encode`, the one writer) and,
    as UTF-8 bytes, the same up to its ``deadline`` (what tells whether the seat's view changed: the
    countdown alone is no change; only compared, never sent).  ``deadline`` is the message's last
    field, so the second is the first cut before it."""
    text = encode(msg)
    return text.decode(), text[: text.rindex(_DEADLINE)]


def seat_texts(
    game: Game,
    seat: int,
    *,
    hand_no: int,
    table: TableInfo | Raw,
    deadline: float | None,
    settlement: dict[str, Any] | None,
    logs: LogCache,
    answered: Collection[int] = (),
) -> tuple[str, bytes]:
    """:func:`state_message` as JSON text, and the same without its ``deadline`` (:func:`state_texts`)."""
    return state_texts(
        state_message(
            game,
            seat,
            hand_no=hand_no,
            table=table,
            deadline=deadline,
            settlement=settlement,
            logs=logs,
            answered=answered,
        )
    )


def seat_message(
    game: Game,
    seat: int,
    *,
    hand_no: int,
    table: TableInfo | Raw,
    deadline: float | None,
    settlement: dict[str, Any] | None,
    logs: LogCache,
    answered: Collection[int] = (),
) -> str:
    """The ``state`` message for ``seat`` as JSON text (:func:`seat_texts`)."""
    return seat_texts(
        game, seat, hand_no=hand_no, table=table, deadline=deadline, settlement=settlement, logs=logs, answered=answered
    )[0]


def seat_view(
    game: Game,
    seat: int,
    *,
    hand_no: int,
    table: TableInfo | Raw,
    deadline: float | None,
    settlement: dict[str, Any] | None = None,
    answered: Collection[int] = (),
    with_log: bool = True,
) -> dict[str, Any]:
    """The ``state`` message for ``seat`` as the browser reads it (the JSON text decoded), built
    without a cache (a fresh :class:`LogCache`): what tests compare the table's cached messages
    with.  ``with_log=False``: without ``seq`` and ``log``."""
    out: dict[str, Any] = json.loads(
        seat_message(
            game,
            seat,
            hand_no=hand_no,
            table=table,
            deadline=deadline,
            settlement=settlement,
            logs=LogCache(),
            answered=answered,
        )
    )
    if not with_log:
        del out["seq"], out["log"]
    return out
