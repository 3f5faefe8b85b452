"""One hand of Shangrao Mahjong as a pure state machine (seed 行牌, 开杠, 糊牌的规定).

:class:`Game` holds the whole state of one hand.  Exactly one seat decides at
a time (:attr:`Game.current_seat`); it picks one of :meth:`Game.legal_actions`
and the game :meth:`Game.apply`\\ s it.  Phases:

* ``act`` — the seat has just drawn (or drawn a kong replacement): WIN
  (self-draw, 杠开, 天糊), CONCEALED_KONG, ADDED_KONG, or DISCARD.
* ``discard`` — after a 吃 or 碰: DISCARD only (no kong, no win: R6).
* ``claim`` — after a discard: the seats that can do something (碰, kong,
  吃 for the next seat only and never on honors, 地糊, 接宝) are asked one at
  a time in turn order from the discarder; each says PASS or what it wants.
  Then the window resolves: win > kong/碰 > 吃.  A seat that cannot beat what
  an earlier seat declared is not asked.  CATCH_BAO is settled at once and the
  same seat is asked again for a claim.
* ``rob`` — after a kong that may be robbed (added kong; kong on a discard if
  ``rules.rob_exposed_kong``; concealed kong if ``rules.rob_concealed_kong``):
  the seats that can win with the kong tile are asked WIN or PASS, in turn
  order from the kong maker; every seat that says WIN wins.  Otherwise the
  kong stands, its bonus is paid, and the kong maker draws a replacement.
* ``over`` — :attr:`Game.result` holds the :class:`HandResult`.

Every transfer of points is settled when it happens (kong bonus when the kong
stands, 四个宝 on the fourth 宝 drawn, 接宝 when declared) and listed in
:attr:`Game.transfers` with its reason; a win adds only
:attr:`ScoreResult.win_payments`.  All state changes are recorded in
:attr:`Game.events` (see :mod:`shangrao.game.events`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import compress
from typing import Any

from ..analysis.hand import is_baodiao_state
from ..analysis.tables import POW5, HandKey
from ..errors import InputError, InternalError
from ..melds import Meld, MeldType
from ..rules import DEFAULT_RULES, RuleSet
from ..scoring import ScoreResult, WinBy, WinSituation, score
from ..scoring.items import BONUS_NAMES
from ..tiles import TERMINALS_AND_HONORS, TileId, TileKind, bao_from_indicator, check_int, format_tile
from .actions import Action, ActionType, IllegalActionError, as_action
from .phase import Phase
from .protocol import Event, EventType
from .wall import check_dice, normalize_wall, roll_dice, shuffled_wall, split_wall

__all__ = ["Game", "Observation", "HandResult", "Transfer", "WinRecord", "PendingClaim", "PendingKong", "EngineError"]

A = ActionType
PASS = Action(A.PASS)
WIN = Action(A.WIN)
CATCH = Action(A.CATCH_BAO)
# shared instances: legal-action lists are built from these, not allocated per call
_ACTIONS = {
    t: tuple(Action(t, k) for k in range(34))
    for t in (A.DISCARD, A.CHOW, A.PUNG, A.KONG, A.ADDED_KONG, A.CONCEALED_KONG)
}
_DISCARDS = _ACTIONS[A.DISCARD]
_NO_OPTIONS: list[Action] = []  # shared and never mutated
_MPSZ = tuple(format_tile(k) for k in range(34))

_PRIO = {A.WIN: 3, A.KONG: 2, A.PUNG: 2, A.CHOW: 1, A.PASS: 0, A.CATCH_BAO: 0}

#: the Chinese name of each transfer reason (bonuses from scoring.items; a win is named by its pattern)
REASON_NAMES = {**BONUS_NAMES, "win": ActionType.WIN.chinese}


@dataclass(slots=True)
class PendingClaim:
    """The claim window on a discard (:attr:`Game.claim`, phase ``claim``).

    discarder: the seat that discarded.  tile: the discard's id; kind: its kind.
    queue: seats still to be asked, in turn order.  options: each asked seat's legal actions.
    declared: the best declaration so far (seat -> action; at most one).  best: its priority
    (win 3 > kong/pung 2 > chow 1 > none 0).
    """

    discarder: int
    tile: TileId
    kind: TileKind
    queue: list[int]
    options: dict[int, list[Action]]
    declared: dict[int, Action] = field(default_factory=dict)
    best: int = 0


@dataclass(slots=True)
class PendingKong:
    """A kong waiting in the rob window (:attr:`Game.pending_kong`, phase ``rob``).

    seat: the kong maker.  meld: the kong as it will stand.  ids: its tile ids.  tile: the id that
    can be robbed.  added: an added kong (碰杠 on a declared pung; ``index`` is that pung's place
    in the seat's melds).  queue: seats still to be asked.  robbers: seats that said WIN.
    """

    seat: int
    meld: Meld
    ids: tuple[TileId, ...]
    tile: TileId
    added: bool
    index: int | None = None
    queue: list[int] = field(default_factory=list)
    robbers: list[int] = field(default_factory=list)


class EngineError(InternalError):
    """An internal inconsistency (e.g. analysis and scoring disagree on a win)."""


@dataclass(frozen=True)
class Transfer:
    """One payment: ``payer`` gives ``points`` to ``payee`` (absolute seats).

    reason: id (``pung_kong``, ``concealed_kong``, ``four_bao``, ``caught_bao``, ``win``);
    name: Chinese name (碰杠, 自摸杠, 四个宝, 接宝, or for a win the pattern's name, e.g. 平糊自摸).
    """

    payer: int
    payee: int
    points: int
    reason: str
    name: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "payer": self.payer,
            "payee": self.payee,
            "points": self.points,
            "reason": self.reason,
            "name": self.name,
        }


@dataclass(frozen=True)
class WinRecord:
    """One win: the winner, the scored situation and its :class:`ScoreResult`.

    ``payers``: absolute seats in the order of ``score.win_payments``.
    """

    seat: int
    situation: WinSituation
    score: ScoreResult
    payers: tuple[int, int, int]

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "payers": list(self.payers),
            "situation": self.situation.to_dict(),
            "score": self.score.to_dict(),
            "breakdown": self.score.breakdown(),
        }


@dataclass(frozen=True)
class HandResult:
    """End of a hand.

    winners: seats that won (several only for 抢杠), in turn order from the robbed/discarding seat.
    wins: a :class:`WinRecord` per winner.  transfers: every payment of the hand.
    deltas: points won (+) / lost (-) per seat in this hand (sum 0).
    scores: cumulative scores after the hand.  drawn: 荒牌.  next_dealer: who deals next.
    """

    winners: tuple[int, ...]
    wins: tuple[WinRecord, ...]
    transfers: tuple[Transfer, ...]
    deltas: tuple[int, int, int, int]
    scores: tuple[int, int, int, int]
    drawn: bool
    dealer: int
    next_dealer: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "wins": [w.to_dict() for w in self.wins],
            "transfers": [t.to_dict() for t in self.transfers],
            "deltas": list(self.deltas),
            "scores": list(self.scores),
            "drawn": self.drawn,
            "dealer": self.dealer,
            "next_dealer": self.next_dealer,
        }


@dataclass(frozen=True)
class Observation:
    """What one seat may see (no other seat's concealed tiles, no wall order).

    seat: the observer.  phase: act | discard | claim | rob | over.  current_seat: who decides —
    except in a claim or rob window, where only the deciding seat sees itself named; every other
    seat sees None (the table shows that a window is open, not who may claim or rob: seed 行牌).
    hand: the observer's concealed kinds, sorted.  hand_34: the same as counts.
    drawn: the kind the observer just drew (in phase act), else None.
    hand_sizes: concealed tile count per seat.  melds: per seat.  discards: per seat,
    the kinds still in front of it (claimed tiles left out), in order.
    bao, indicator: kinds.  tiles_left: live wall.  dealer.  scores: cumulative.
    flown: 宝 discarded per seat (飞宝).  bao_drawn: 宝 the observer drew this hand.
    last_discard: (seat, kind) of the discard on the table, or None.
    kong: (seat, kind, meld kind) of a kong waiting in the rob window, or None.
    kong_chain: kongs in a row in the current turn.  first_discard: the discard on the table
    is the dealer's first action (地糊 possible).
    """

    seat: int
    phase: Phase
    current_seat: int | None
    hand: tuple[int, ...]
    hand_34: tuple[int, ...]
    drawn: int | None
    hand_sizes: tuple[int, int, int, int]
    melds: tuple[tuple[Meld, ...], ...]
    discards: tuple[tuple[int, ...], ...]
    bao: int
    indicator: int
    tiles_left: int
    dealer: int
    scores: tuple[int, int, int, int]
    flown: tuple[int, int, int, int]
    bao_drawn: int
    last_discard: tuple[int, int] | None
    kong: tuple[int, int, str] | None
    kong_chain: int
    first_discard: bool

    def seen(self) -> list[int]:
        """Per kind (length 34): copies in this seat's sight — its hand, every meld and discard, and the
        indicator (more than 4 only in an observation no table can reach)."""
        seen = list(self.hand_34)
        for ms in self.melds:
            for m in ms:
                for k in m.tiles:
                    seen[k] += 1
        for ds in self.discards:
            for k in ds:
                seen[k] += 1
        seen[self.indicator] += 1
        return seen

    def unseen(self) -> list[int]:
        """Per kind (length 34): copies this seat has not seen — not in its hand, any meld or discards,
        nor the indicator.  What waits and draw odds are counted against."""
        return [max(0, 4 - n) for n in self.seen()]

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "phase": self.phase,
            "current_seat": self.current_seat,
            "hand": list(self.hand),
            "drawn": self.drawn,
            "hand_sizes": list(self.hand_sizes),
            "melds": [[str(m) for m in ms] for ms in self.melds],
            "discards": [list(d) for d in self.discards],
            "bao": self.bao,
            "indicator": self.indicator,
            "tiles_left": self.tiles_left,
            "dealer": self.dealer,
            "scores": list(self.scores),
            "flown": list(self.flown),
            "bao_drawn": self.bao_drawn,
            "last_discard": None if self.last_discard is None else list(self.last_discard),
            "kong": None if self.kong is None else list(self.kong),
            "kong_chain": self.kong_chain,
            "first_discard": self.first_discard,
        }


def _check_seat(seat: object) -> int:
    """A seat argument: an int 0..3 (``ValueError``/``TypeError`` naming it otherwise)."""
    if isinstance(seat, bool) or not hasattr(seat, "__index__"):
        raise TypeError(f"seat must be an int 0..3, got {seat!r}")
    index: int = seat.__index__()  # numpy integers too
    if not 0 <= index < 4:
        raise InputError(f"seat must be 0..3, got {index}")
    return index


class Game:
    """One hand.  See the module docstring for phases and flow.

    Game(rules=DEFAULT_RULES, seed=None, dealer=0, scores=(0,0,0,0), wall=None, dice=None, hand_no=0)

    seed: int or str for ``random.Random`` (shuffle, then dice).  wall: the full
    136-tile order as ids or kinds (see :func:`shangrao.game.wall.normalize_wall`);
    dice: two ints 1..6 (rolled from the seed when not given).
    scores: cumulative scores before the hand (points).

    Raises :class:`~shangrao.game.wall.WallError` (ValueError) for a bad wall or dice.

    :attr:`hold_windows` (default False): every discard and every robbable kong opens its claim
    or rob window even when nobody can claim or rob it — the game stops *held* there
    (:attr:`held`: phase ``claim``/``rob``, no seat to decide, no legal action) until
    :meth:`release` goes on exactly as the engine would have gone on at once.  The events are the
    same in both modes (only their moment differs); a table uses it to show every seat the same
    open window for its whole pause, whether or not anyone could claim (issue 12, seed 注 on
    claims: the others must not learn it from the timing).
    """

    def __init__(
        self,
        rules: RuleSet = DEFAULT_RULES,
        seed: int | str | None = None,
        dealer: int = 0,
        scores: Sequence[int] = (0, 0, 0, 0),
        wall: Sequence[int] | str | None = None,
        dice: Sequence[int] | None = None,
        hand_no: int = 0,
    ) -> None:
        dealer = check_int(dealer, "dealer (a seat)", 0, 3)
        hand_no = check_int(hand_no, "hand_no", 0)
        if isinstance(scores, (str, bytes, dict)) or not isinstance(scores, Iterable):
            raise InputError(f"scores must hold 4 ints, got {scores!r}")
        scores = tuple(scores)
        if len(scores) != 4:
            raise InputError(f"scores must hold 4 ints, got {scores!r}")
        scores = tuple(check_int(v, f"scores must hold 4 ints, got {scores!r}: each") for v in scores)
        if seed is not None and not isinstance(seed, str):
            seed = check_int(seed, "seed (an int, a string or None)")
        if isinstance(rules, dict):
            rules = RuleSet.from_dict(rules)
        elif not isinstance(rules, RuleSet):
            raise TypeError(f"rules must be a RuleSet or its dict, got {type(rules).__name__}")
        self.rules = rules
        self.seed = seed
        self.dealer = dealer
        self.hand_no = hand_no
        self.start_scores = scores
        self.scores = list(scores)
        rng = random.Random(seed if seed is not None else 0)
        self.wall = normalize_wall(wall) if wall is not None else shuffled_wall(rng)
        self.dice = check_dice(dice) if dice is not None else roll_dice(rng)
        self.indicator_id, self.live = split_wall(self.wall, self.dice)
        self.indicator = self.indicator_id // 4
        self.bao = bao_from_indicator(self.indicator)
        self.head = 0
        self.tail = len(self.live) - 1

        self.hand_ids: list[list[list[int]]] = [[[] for _ in range(34)] for _ in range(4)]
        self.counts: list[list[int]] = [[0] * 34 for _ in range(4)]
        # incremental hand keys (analysis.tables.HandKey): per seat, real-tile codes and 宝 count
        self.keys: list[HandKey] = [HandKey(bao=self.bao) for _ in range(4)]
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.meld_ids: list[list[tuple[int, ...]]] = [[] for _ in range(4)]
        self.discard_ids: list[list[int]] = [[] for _ in range(4)]  # every discard's id, claimed ones too
        self.claimed_ids: set[int] = set()
        self.discards: list[list[int]] = [[] for _ in range(4)]  # kinds still in front of each seat
        self.flown = [0, 0, 0, 0]
        self.bao_drawn = [0, 0, 0, 0]
        self.caught = [False] * 4
        self.touji = [0, 0, 0, 0]  # 宝吊 wins each seat declined (偷机)
        self._after_pung: int | None = None  # the seat that just made a 碰 (kong_after_pung)
        self.transfers: list[Transfer] = []
        self.events: list[Event] = []
        self.actions_taken = 0
        self.last_draw: list[int | None] = [None] * 4
        self.kong_chain = 0
        self.first_discard = False  # the discard on the table is the dealer's first action
        self._dealer_acted = False
        self.phase = Phase.ACT
        self.turn = dealer
        self.current_seat: int | None = dealer
        self.claim: PendingClaim | None = None
        self.pending_kong: PendingKong | None = None
        self.won_tile: int | None = None
        self.result: HandResult | None = None
        self._legal: list[Action] | None = None
        self.hold_windows = False  # stop in every window, also one nobody can claim (see release())

        self._deal()

    # ------------------------------------------------------------------ basics
    @property
    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    @property
    def held(self) -> bool:
        """A window nobody can claim (or rob) held open (:attr:`hold_windows`): phase ``claim`` or
        ``rob``, no seat to decide; :meth:`release` goes on."""
        return self.current_seat is None and (self.phase == Phase.CLAIM or self.phase == Phase.ROB)

    def release(self) -> None:
        """Close the held window (:attr:`held`): the next draw (or the end of a drawn hand) after a
        discard nobody could claim, the kong standing and its replacement draw after a kong nobody
        could rob — the same events the engine emits at once when :attr:`hold_windows` is off.
        Raises :class:`IllegalActionError` when no window is held."""
        if not self.held:
            raise IllegalActionError(
                f"no window is held open now (phase {self.phase}, seat {self.current_seat} to decide)"
            )
        self._legal = None
        if self.phase == Phase.CLAIM:
            self._resolve_claim()  # nothing declared: the next seat draws (or the wall is empty)
        else:
            self._advance_rob()  # nobody in the queue: the kong stands

    @property
    def window(self) -> tuple[str, int, int] | None:
        """The open window: ``("claim", discarder, tile id)`` or ``("rob", kong seat, tile id)``, None
        outside one.  Two moments show the same window exactly when these are equal."""
        if self.phase == Phase.CLAIM and self.claim is not None:
            return ("claim", self.claim.discarder, self.claim.tile)
        if self.phase == Phase.ROB and self.pending_kong is not None:
            return ("rob", self.pending_kong.seat, self.pending_kong.tile)
        return None

    def window_after(self, action: Action | str) -> bool:
        """Whether ``action`` of :attr:`current_seat` can open a new claim or rob window: a discard, a
        kong declared in one's turn, or any decision in a claim window (it may resolve into a kong
        on the discard, which may be robbed).  Nothing is applied."""
        if self.phase == Phase.CLAIM:
            return True
        t = as_action(action).type
        return t is A.DISCARD or t is A.ADDED_KONG or t is A.CONCEALED_KONG

    @property
    def tiles_left(self) -> int:
        return self.tail - self.head + 1

    def hand_kinds(self, seat: int) -> list[int]:
        """The concealed kinds of ``seat``, sorted."""
        c = self.counts[seat]
        return [k for k in range(34) for _ in range(c[k])]

    def _emit(self, ev: Event) -> None:
        self.events.append(ev)

    def _add(self, seat: int, tid: int) -> None:
        k = tid >> 2
        self.hand_ids[seat][k].append(tid)
        self.counts[seat][k] += 1
        key = self.keys[seat]  # HandKey.add, inlined: the engine's hottest path
        if k == key.bao:
            key.bao_count += 1
        else:
            key.codes[k // 9] += POW5[k % 9]

    def _remove(self, seat: int, kind: int, prefer: int | None = None) -> int:
        ids = self.hand_ids[seat][kind]
        if prefer is not None and prefer in ids:
            ids.remove(prefer)
            tid = prefer
        else:
            ids.sort()
            tid = ids.pop(0)
        self.counts[seat][kind] -= 1
        key = self.keys[seat]  # HandKey.remove, inlined
        if kind == key.bao:
            key.bao_count -= 1
        else:
            key.codes[kind // 9] -= POW5[kind % 9]
        return tid

    def _is_win(self, seat: int, extra: int | None = None) -> bool:
        """Whether ``seat``'s concealed hand (plus the kind ``extra``) wins, from its incremental key."""
        melds = self.melds[seat]
        if self.rules.jiuyao_melds:
            jiuyao_ok = all(t in TERMINALS_AND_HONORS for m in melds for t in m.tiles)
        else:
            jiuyao_ok = not melds
        return self.keys[seat].is_win(4 - len(melds), jiuyao_ok, extra)

    def _transfer(self, payer: int, payee: int, points: int, reason: str, name: str | None = None) -> None:
        if points <= 0:
            return
        t = Transfer(payer, payee, points, reason, name or REASON_NAMES[reason])
        self.transfers.append(t)
        self.scores[payer] -= points
        self.scores[payee] += points
        self._emit(
            {
                "type": EventType.TRANSFER,
                "payer": payer,
                "payee": payee,
                "points": points,
                "reason": reason,
                "name": t.name,
            }
        )

    def _bonus_all(self, seat: int, points: int, reason: str) -> None:
        for i in range(1, 4):
            self._transfer((seat + i) % 4, seat, points, reason)

    # ------------------------------------------------------------------ deal / draw
    def _deal(self) -> None:
        hands = []
        for i in range(4):
            seat = (self.dealer + i) % 4
            ids = self.live[self.head : self.head + 13]
            self.head += 13
            for t in ids:
                self._add(seat, t)
            hands.append((seat, ids))
        self._emit(
            {
                "type": EventType.DEAL,
                "hand_no": self.hand_no,
                "rules": self.rules.to_dict(house_defaults=False),
                "seed": self.seed,
                "dealer": self.dealer,
                "scores": list(self.start_scores),
                "wall": list(self.wall),
                "dice": list(self.dice),
                "indicator": self.indicator_id,
                "indicator_kind": format_tile(self.indicator),
                "bao": format_tile(self.bao),
                "hands": [sorted(ids) for _, ids in sorted(hands)],
            }
        )
        for seat, ids in sorted(hands):
            n = sum(1 for t in ids if t >> 2 == self.bao)
            self.bao_drawn[seat] = n
            if n == 4:
                self._four_bao(seat)
        self._draw(self.dealer, from_tail=False)

    def _four_bao(self, seat: int) -> None:
        self._emit({"type": EventType.FOUR_BAO, "seat": seat})
        self._bonus_all(seat, self.rules.four_bao_bonus, "four_bao")

    def _draw(self, seat: int, from_tail: bool) -> None:
        if from_tail:
            tid = self.live[self.tail]
            self.tail -= 1
        else:
            tid = self.live[self.head]
            self.head += 1
            self.kong_chain = 0
        self._add(seat, tid)
        self.last_draw[seat] = tid
        self._emit(
            {
                "type": EventType.DRAW,
                "seat": seat,
                "tile": tid,
                "kind": _MPSZ[tid >> 2],
                "source": "tail" if from_tail else "head",
            }
        )
        if tid >> 2 == self.bao:
            self.bao_drawn[seat] += 1
            if self.bao_drawn[seat] == 4:
                self._four_bao(seat)
        self.turn = seat
        self.current_seat = seat
        self.phase = Phase.ACT
        self.first_discard = False

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Legal actions of ``seat`` (default: :attr:`current_seat`); [] for a seat that is not asked."""
        if seat is not None and seat.__class__ is not int:
            seat = _check_seat(seat)
        if self.phase == Phase.OVER:
            return []
        if seat is not None and seat != self.current_seat:
            if not 0 <= seat < 4:
                _check_seat(seat)
            return []
        if self._legal is None:
            self._legal = self._compute_legal() if self.current_seat is not None else []  # held: none
        return list(self._legal)

    def _compute_legal(self) -> list[Action]:
        seat = self.current_seat
        assert seat is not None
        c = self.counts[seat]
        if self.phase == Phase.ACT:
            out: list[Action] = []
            if self._is_win(seat):
                out.append(WIN)
            if self.tail >= self.head:  # a replacement tile is left
                if 4 in c:
                    for k in range(34):
                        if c[k] == 4:
                            out.append(_ACTIONS[A.CONCEALED_KONG][k])
                drawn = self.last_draw[seat]
                for m in self.melds[seat]:
                    if (
                        m.type is MeldType.PUNG
                        and c[m.tiles[0]]
                        and (not self.rules.added_kong_drawn_only or (drawn is not None and drawn >> 2 == m.tiles[0]))
                    ):
                        out.append(_ACTIONS[A.ADDED_KONG][m.tiles[0]])
                if len(out) > 1:
                    out.sort(key=Action.sort_key)
            out += compress(_DISCARDS, c)
            return out
        if self.phase == Phase.DISCARD:
            if self._after_pung == seat and self.rules.kong_after_pung and self.tail >= self.head:
                kongs = [_ACTIONS[A.CONCEALED_KONG][k] for k in range(34) if c[k] == 4]
                kongs += [
                    _ACTIONS[A.ADDED_KONG][m.tiles[0]]
                    for m in self.melds[seat]
                    if m.type is MeldType.PUNG and c[m.tiles[0]]
                ]
                return sorted(kongs, key=Action.sort_key) + list(compress(_DISCARDS, c))
            return list(compress(_DISCARDS, c))
        if self.phase == Phase.CLAIM:
            assert self.claim is not None
            return list(self.claim.options[seat])
        if self.phase == Phase.ROB:
            return [WIN, PASS]
        return []

    def window_options(self) -> dict[int, list[Action]]:
        """In a claim or rob window: ``{seat: legal actions}`` for every seat still to be asked, in
        the order the engine asks them (the deciding seat first), as they stand now — a later
        seat's options shrink (or vanish) when an earlier seat declares something it cannot beat.
        ``{}`` outside a window.  Lets a table ask every seat of a window at once (no seat learns
        from waiting for its turn that another seat could claim) and then apply the answers in
        the engine's order; ``legal_actions()`` is still the only authority.
        """
        if self.phase == Phase.CLAIM and self.claim is not None:
            cl = self.claim
            out: dict[int, list[Action]] = {}
            for s in cl.queue:
                opts = [
                    a for a in cl.options[s] if _PRIO[a.type] > cl.best or a.type is A.CATCH_BAO or a.type is A.PASS
                ]
                if len(opts) > 1:
                    out[s] = opts
            return out
        if self.phase == Phase.ROB and self.pending_kong is not None:
            return {s: [WIN, PASS] for s in self.pending_kong.queue}
        return {}

    def _claim_options(self, seat: int, discarder: int, k: int) -> list[Action]:
        c = self.counts[seat]
        if c[k] < 2 and not self.first_discard and k != self.bao and (k >= 27 or seat != (discarder + 1) % 4):
            return _NO_OPTIONS  # no pung, kong, chow, 接宝 or 地糊 possible
        out: list[Action] = []
        if (
            self.first_discard
            and self.rules.earthly_win
            and seat != self.dealer
            and discarder == self.dealer
            and (k != self.bao or self.rules.win_on_bao_tile)
            and self._is_win(seat, k)
        ):
            out.append(WIN)
        if c[k] >= 2:
            out.append(_ACTIONS[A.PUNG][k])
            if c[k] >= 3 and self.tiles_left > 0:
                out.append(_ACTIONS[A.KONG][k])
        if k < 27 and seat == (discarder + 1) % 4:
            r = k % 9
            chows = _ACTIONS[A.CHOW]
            if r >= 2 and c[k - 2] and c[k - 1]:
                out.append(chows[k - 2])
            if 1 <= r <= 7 and c[k - 1] and c[k + 1]:
                out.append(chows[k - 1])
            if r <= 6 and c[k + 1] and c[k + 2]:
                out.append(chows[k])
        if k == self.bao and self.bao_drawn[seat] >= 3 and not self.caught[seat]:
            out.append(CATCH)
        if out:
            if len(out) > 1:
                out.sort(key=Action.sort_key)
            out.append(PASS)
        return out

    # ------------------------------------------------------------------ apply
    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Apply a legal action of :attr:`current_seat` (``seat``, if given, must be it).

        ``action``: an :class:`Action` or its string form.  Raises
        :class:`IllegalActionError` (a ValueError) naming the problem and the legal
        actions; the state is then unchanged.
        """
        try:
            action = as_action(action)
        except ValueError as err:
            raise IllegalActionError(str(err)) from None
        if self.phase == Phase.OVER:
            raise IllegalActionError(f"the hand is over; {action} is not possible")
        if self.current_seat is None:
            raise IllegalActionError(f"a {self.phase} window is held open and nobody is to decide; release() it first")
        if seat is not None and seat != self.current_seat:
            raise IllegalActionError(f"seat {seat} may not act now: seat {self.current_seat} is to decide")
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(
                f"{action} is not legal for seat {self.current_seat} in phase {self.phase}; "
                f"legal: {', '.join(str(a) for a in legal)}"
            )
        self.push(action)

    def push(self, action: Action) -> None:
        """Apply ``action`` for :attr:`current_seat` without checking it (fast path)."""
        seat = self.current_seat
        assert seat is not None
        legal = self._legal
        self._legal = None
        self.actions_taken += 1
        t = action.type
        if t is not A.WIN and self.phase == Phase.ACT and self._offered_win(seat, legal):
            self._count_touji(seat)
        if self.phase in (Phase.ACT, Phase.DISCARD):
            if t is A.DISCARD:
                tile = action.tile
                assert tile is not None  # a DISCARD always has its tile (Action.kind, without the call)
                self._do_discard(seat, tile)
            elif t is A.WIN:
                self._self_draw_win(seat)
            elif t is A.CONCEALED_KONG:
                self._declare_kong(seat, action.kind, MeldType.CONCEALED_KONG, action)
            elif t is A.ADDED_KONG:
                self._declare_kong(seat, action.kind, MeldType.KONG, action)
            else:
                raise IllegalActionError(f"{action} is not possible in phase {self.phase}")
        elif self.phase == Phase.CLAIM:
            self._claim_decision(seat, action)
        elif self.phase == Phase.ROB:
            self._rob_decision(seat, action)
        else:
            raise IllegalActionError(f"{action} is not possible in phase {self.phase}")

    def _offered_win(self, seat: int, legal: list[Action] | None) -> bool:
        if legal is not None:
            return WIN in legal
        return self._is_win(seat)

    def _count_touji(self, seat: int) -> None:
        """偷机: the seat declines a self-drawn win in the 宝吊 state (before the draw, less one 宝,
        its hand was complete melds) and draws on."""
        drawn = self.last_draw[seat]
        if drawn is None or not self.counts[seat][self.bao]:
            return
        before = list(self.counts[seat])
        before[drawn >> 2] -= 1
        if is_baodiao_state(before, self.bao, self.melds[seat]):
            self.touji[seat] += 1

    # ------------------------------------------------------------------ discard & claims
    def _do_discard(self, seat: int, k: int) -> None:
        self._after_pung = None
        tid = self._remove(seat, k, prefer=self.last_draw[seat])
        self.last_draw[seat] = None
        self.discard_ids[seat].append(tid)
        self.discards[seat].append(k)
        first = seat == self.dealer and not self._dealer_acted
        self._dealer_acted = self._dealer_acted or seat == self.dealer
        if k == self.bao:
            self.flown[seat] += 1
        self._emit(
            {"type": EventType.DISCARD, "seat": seat, "tile": tid, "kind": _MPSZ[k], "action": "discard " + _MPSZ[k]}
        )
        self.kong_chain = 0
        self.first_discard = first
        options = {}
        queue = []
        for i in range(1, 4):
            s = (seat + i) % 4
            opts = self._claim_options(s, seat, k)
            if opts:
                options[s] = opts
                queue.append(s)
        if not queue and self.hold_windows:  # nobody can claim: the window held open until release()
            self.claim = PendingClaim(discarder=seat, tile=tid, kind=k, queue=[], options={})
            self.phase = Phase.CLAIM
            self.current_seat = None
            return
        if not queue:  # nobody can claim: straight on to the next draw (as _resolve_claim would)
            self.first_discard = False
            if self.tail < self.head:
                self._finish_drawn()
            else:
                self._draw((seat + 1) % 4, from_tail=False)
            return
        self.claim = PendingClaim(discarder=seat, tile=tid, kind=k, queue=queue, options=options)
        self.phase = Phase.CLAIM
        self._advance_claim()

    def _advance_claim(self) -> None:
        cl = self.claim
        assert cl is not None
        queue = cl.queue
        # drop what cannot beat the best declaration so far; a seat left with only PASS is not asked
        best = cl.best
        while queue:
            s = queue[0]
            opts = [a for a in cl.options[s] if _PRIO[a.type] > best or a.type is A.CATCH_BAO or a.type is A.PASS]
            if len(opts) > 1:
                cl.options[s] = opts
                break
            queue.pop(0)
        if queue:
            self.current_seat = queue[0]
            self.phase = Phase.CLAIM
            return
        self._resolve_claim()

    def _claim_decision(self, seat: int, action: Action) -> None:
        cl = self.claim
        assert cl is not None
        if action.type is A.PASS:
            self._emit({"type": EventType.PASS, "seat": seat, "action": str(action)})
        else:
            self._emit({"type": EventType.CALL, "seat": seat, "action": str(action)})
        if action.type is A.CATCH_BAO:
            self.caught[seat] = True
            self._emit({"type": EventType.CATCH_BAO, "seat": seat, "tile": cl.tile})
            self._bonus_all(seat, self.rules.caught_bao_bonus, "caught_bao")
            cl.options[seat] = [a for a in cl.options[seat] if a.type is not A.CATCH_BAO]
            self._advance_claim()
            return
        cl.queue.pop(0)
        if action.type is not A.PASS:
            p = _PRIO[action.type]
            if p > cl.best:
                cl.best = p
                cl.declared = {seat: action}
        self._advance_claim()

    def _resolve_claim(self) -> None:
        cl = self.claim
        assert cl is not None
        self.claim = None
        discarder, tid, k = cl.discarder, cl.tile, cl.kind
        if cl.declared:
            ((seat, action),) = cl.declared.items()
            t = action.type
            self.discards[discarder].pop()
            if t is A.WIN:
                self.claimed_ids.add(tid)
                self.won_tile = tid
                self._finish_wins([seat], k, WinBy.DEALER_FIRST_DISCARD, discarder)
                return
            self.claimed_ids.add(tid)
            self.first_discard = False
            if t is A.CHOW:
                low = action.kind
                ids = [self._remove(seat, x) for x in (low, low + 1, low + 2) if x != k] + [tid]
                meld = Meld(MeldType.CHOW, (low, low + 1, low + 2), claimed=k, from_seat=discarder)
            elif t is A.PUNG:
                ids = [self._remove(seat, k) for _ in range(2)] + [tid]
                meld = Meld(MeldType.PUNG, (k, k, k), claimed=k, from_seat=discarder)
            else:  # KONG on the discard
                ids = [self._remove(seat, k) for _ in range(3)] + [tid]
                meld = Meld(MeldType.KONG, (k, k, k, k), claimed=k, from_seat=discarder)
                self._emit({"type": EventType.KONG, "seat": seat, "from": discarder, "meld": str(meld), "tiles": ids})
                self.turn = seat
                self.kong_chain = 0
                self._kong_window(seat, meld, tuple(ids), tid, added=False)
                return
            self.melds[seat].append(meld)
            self.meld_ids[seat].append(tuple(ids))
            self._emit(
                {
                    "type": EventType.CHOW if t is A.CHOW else EventType.PUNG,
                    "seat": seat,
                    "from": discarder,
                    "meld": str(meld),
                    "tiles": ids,
                }
            )
            self.turn = seat
            self.current_seat = seat
            self.kong_chain = 0
            self.phase = Phase.DISCARD
            self._after_pung = seat if t is A.PUNG else None
            return
        self.first_discard = False
        if self.tiles_left == 0:
            self._finish_drawn()
            return
        self._draw((discarder + 1) % 4, from_tail=False)

    # ------------------------------------------------------------------ kongs
    def _declare_kong(self, seat: int, k: int, kind: MeldType, action: Action) -> None:
        # a concealed kong and its replacement draw do not change whose first discard it is
        # (地糊 clause (3): "在第一轮庄家出牌时"); an added kong needs a pung, so a claim, before it
        if kind is not MeldType.CONCEALED_KONG:
            self._dealer_acted = self._dealer_acted or seat == self.dealer
        self._after_pung = None
        self._emit(
            {
                "type": EventType.CONCEALED_KONG if kind is MeldType.CONCEALED_KONG else EventType.ADDED_KONG,
                "seat": seat,
                "kind": format_tile(k),
                "action": str(action),
            }
        )
        if kind is MeldType.CONCEALED_KONG:
            ids = tuple(self._remove(seat, k) for _ in range(4))
            meld = Meld(MeldType.CONCEALED_KONG, (k, k, k, k))
            self._kong_window(seat, meld, ids, ids[-1], added=False)
        else:
            tid = self._remove(seat, k, prefer=self.last_draw[seat])
            i = next(i for i, m in enumerate(self.melds[seat]) if m.type is MeldType.PUNG and m.tiles[0] == k)
            old = self.melds[seat][i]
            meld = Meld(MeldType.KONG, (k, k, k, k), claimed=old.claimed, from_seat=old.from_seat)
            ids = self.meld_ids[seat][i] + (tid,)
            self._kong_window(seat, meld, ids, tid, added=True, index=i)

    def _kong_window(
        self, seat: int, meld: Meld, ids: tuple[int, ...], robbed_tile: int, added: bool, index: int | None = None
    ) -> None:
        k = meld.tiles[0]
        concealed = meld.type is MeldType.CONCEALED_KONG
        robbable = added or (self.rules.rob_concealed_kong if concealed else self.rules.rob_exposed_kong)
        self.pending_kong = PendingKong(seat=seat, meld=meld, ids=ids, tile=robbed_tile, added=added, index=index)
        if robbable and (k != self.bao or self.rules.win_on_bao_tile):
            for i in range(1, 4):
                s = (seat + i) % 4
                if self._is_win(s, k):
                    self.pending_kong.queue.append(s)
        if robbable and not self.pending_kong.queue and self.hold_windows:  # held open until release()
            self.phase = Phase.ROB
            self.current_seat = None
            return
        self._advance_rob()

    def _advance_rob(self) -> None:
        pk = self.pending_kong
        assert pk is not None
        if pk.queue:
            self.phase = Phase.ROB
            self.current_seat = pk.queue[0]
            return
        self.pending_kong = None
        seat, meld, ids = pk.seat, pk.meld, pk.ids
        k = meld.tiles[0]
        if pk.robbers:
            # the kong does not stand: its tiles go back, the robbed tile goes to the winner(s)
            tid = pk.tile
            if pk.added:
                pass  # the pung stays as it was; the added tile is robbed
            else:
                for x in ids:  # for a kong on a discard the robbed tile is the (claimed) discard
                    if x != tid:
                        self._add(seat, x)
            self.won_tile = tid
            self._finish_wins(pk.robbers, k, WinBy.ROBBING_KONG, seat)
            return
        if pk.added:
            assert pk.index is not None  # an added kong replaces the pung at this place
            self.melds[seat][pk.index] = meld
            self.meld_ids[seat][pk.index] = ids
        else:
            self.melds[seat].append(meld)
            self.meld_ids[seat].append(ids)
        self._emit({"type": EventType.KONG_STANDS, "seat": seat, "meld": str(meld), "tiles": list(ids)})
        if meld.type is MeldType.CONCEALED_KONG:
            self._bonus_all(seat, self.rules.concealed_kong_bonus, "concealed_kong")
        else:
            self._bonus_all(seat, self.rules.pung_kong_bonus, "pung_kong")
        self._draw(seat, from_tail=True)
        self.kong_chain += 1

    def _rob_decision(self, seat: int, action: Action) -> None:
        pk = self.pending_kong
        assert pk is not None
        if action.type is A.WIN:
            self._emit({"type": EventType.CALL, "seat": seat, "action": str(action)})
        else:
            self._emit({"type": EventType.PASS, "seat": seat, "action": str(action)})
        pk.queue.pop(0)
        if action.type is A.WIN:
            pk.robbers.append(seat)
        self._advance_rob()

    # ------------------------------------------------------------------ wins and the end
    def _self_draw_win(self, seat: int) -> None:
        tid = self.last_draw[seat]
        assert tid is not None
        k = tid >> 2
        heavenly = seat == self.dealer and self.actions_taken == 1  # the dealer's initial 14 tiles
        self._emit({"type": EventType.DECLARE_WIN, "seat": seat, "action": "win"})
        self._remove(seat, k, prefer=tid)
        self.won_tile = tid
        self._finish_wins([seat], k, WinBy.SELF_DRAW, None, heavenly=heavenly)

    def _finish_wins(
        self, winners: list[int], k: int, win_by: WinBy, source: int | None, heavenly: bool = False
    ) -> None:
        records = []
        for w in winners:
            payers = ((w + 1) % 4, (w + 2) % 4, (w + 3) % 4)
            hand = tuple(self.hand_kinds(w))
            held = self.bao_drawn[w] > 0 or k == self.bao
            sit = WinSituation(
                hand=hand,
                win_tile=k,
                melds=tuple(self.melds[w]),
                bao=self.bao,
                win_by=win_by,
                heavenly=heavenly,
                kong_chain=self.kong_chain if win_by is WinBy.SELF_DRAW else 0,
                winner_flown=self.flown[w],
                payers_flown=(self.flown[payers[0]], self.flown[payers[1]], self.flown[payers[2]]),
                winner_held_bao=held,
                four_bao=self.bao_drawn[w] == 4,
                caught_bao=self.caught[w],
                robbed=payers.index(source) if win_by is WinBy.ROBBING_KONG else None,
                touji=self.touji[w],
            )
            res = score(sit, self.rules)
            pattern = res.pattern
            if not res.winning or pattern is None:
                raise EngineError(f"seat {w}: analysis says win but scoring says no win: {sit.to_dict()}")
            records.append(WinRecord(w, sit, res, payers))
            self._emit(
                {
                    "type": EventType.WIN,
                    "seat": w,
                    "win_by": win_by.value,
                    "tile": self.won_tile,
                    "kind": format_tile(k),
                    "from": source,
                    "hand": list(hand),
                    "melds": [str(m) for m in self.melds[w]],
                    "pattern": pattern.name,
                    "pattern_id": pattern.id,
                    "hand_value": res.hand_value,
                    "win_payments": list(res.win_payments),
                    "breakdown": res.breakdown(),
                }
            )
            for p, pts in zip(payers, res.win_payments):
                self._transfer(p, w, pts, "win", pattern.name)
        if win_by is WinBy.ROBBING_KONG:
            robbed = source
            assert robbed is not None
            order = sorted(winners, key=lambda s: (s - robbed) % 4)
        else:
            order = list(winners)
        self._end(tuple(order), tuple(records), drawn=False, next_dealer=order[0])

    def _finish_drawn(self) -> None:
        self._end((), (), drawn=True, next_dealer=(self.dealer + 1) % 4)

    def _end(self, winners: tuple[int, ...], records: tuple[WinRecord, ...], drawn: bool, next_dealer: int) -> None:
        s, s0 = self.scores, self.start_scores
        deltas = (s[0] - s0[0], s[1] - s0[1], s[2] - s0[2], s[3] - s0[3])
        self.result = HandResult(
            winners, records, tuple(self.transfers), deltas, (s[0], s[1], s[2], s[3]), drawn, self.dealer, next_dealer
        )
        self.phase = Phase.OVER
        self.current_seat = None
        self._legal = None
        self._emit(
            {
                "type": EventType.END,
                "drawn": drawn,
                "winners": list(winners),
                "deltas": list(deltas),
                "scores": list(self.scores),
                "next_dealer": next_dealer,
            }
        )

    # ------------------------------------------------------------------ views
    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see now (see :class:`Observation`): in a claim/rob window
        ``current_seat`` is None unless ``seat`` is the one deciding."""
        if seat.__class__ is not int or not 0 <= seat < 4:
            seat = _check_seat(seat)
        c = self.counts[seat]
        last = None
        if self.claim is not None:
            last = (self.claim.discarder, self.claim.kind)
        kong = None
        if self.pending_kong is not None:
            pk = self.pending_kong
            kong = (pk.seat, pk.meld.tiles[0], pk.meld.type.value)
        drawn = None
        last_draw = self.last_draw[seat]
        if self.phase == Phase.ACT and self.current_seat == seat and last_draw is not None:
            drawn = last_draw >> 2
        current = self.current_seat
        if current != seat and (self.phase == Phase.CLAIM or self.phase == Phase.ROB):
            current = None  # a window is open; who may claim or rob is not shown to the others
        return Observation(
            seat=seat,
            phase=self.phase,
            current_seat=current,
            hand=tuple(self.hand_kinds(seat)),
            hand_34=tuple(c),
            drawn=drawn,
            hand_sizes=tuple(sum(x) for x in self.counts),  # type: ignore[arg-type]
            melds=tuple(tuple(m) for m in self.melds),
            discards=tuple(tuple(p) for p in self.discards),
            bao=self.bao,
            indicator=self.indicator,
            tiles_left=self.tiles_left,
            dealer=self.dealer,
            scores=tuple(self.scores),  # type: ignore[arg-type]
            flown=tuple(self.flown),  # type: ignore[arg-type]
            bao_drawn=self.bao_drawn[seat],
            last_discard=last,
            kong=kong,
            kong_chain=self.kong_chain,
            first_discard=self.first_discard,
        )

    def tile_locations(self) -> dict[str, list[int]]:
        """Every tile id by place (wall, indicator, hands, melds, discards, pending kong, won tile).

        The lists together hold each id 0..135 exactly once (checked by the tests).
        """
        out: dict[str, list[int]] = {
            "wall": list(self.live[self.head : self.tail + 1]),
            "indicator": [self.indicator_id],
        }
        for s in range(4):
            out[f"hand{s}"] = [t for ids in self.hand_ids[s] for t in ids]
            out[f"melds{s}"] = [t for ids in self.meld_ids[s] for t in ids]
            out[f"discards{s}"] = [t for t in self.discard_ids[s] if t not in self.claimed_ids]
        pend: list[int] = []
        if self.pending_kong is not None:
            pend = list(self.pending_kong.ids)
            if self.pending_kong.added:
                pend = [self.pending_kong.tile]  # the pung's three are still in melds
        out["pending"] = pend
        won = [] if self.won_tile is None else [self.won_tile]
        # a 地糊 / robbed tile may also sit among the claimed discards; list it once
        out["won"] = won
        return out

    def state_key(self) -> str:
        """A canonical JSON of the full state (for replay checks)."""
        import json

        return json.dumps(
            {
                "phase": self.phase,
                "current": self.current_seat,
                "head": self.head,
                "tail": self.tail,
                "hands": [sorted(t for ids in h for t in ids) for h in self.hand_ids],
                "melds": [[str(m) for m in ms] for ms in self.melds],
                "meld_ids": [list(map(list, x)) for x in self.meld_ids],
                # "river": the key of 0.1.0 (the canonical form is compared across versions)
                "river": self.discard_ids,
                "claimed": sorted(self.claimed_ids),
                "scores": self.scores,
                "flown": self.flown,
                "bao_drawn": self.bao_drawn,
                "caught": self.caught,
                "transfers": [t.to_dict() for t in self.transfers],
                "result": None if self.result is None else self.result.to_dict(),
                "events": self.events,
            },
            sort_keys=True,
            ensure_ascii=False,
        )
