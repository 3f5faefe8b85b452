"""Matches: several hands with cumulative scores, dealer rotation, and bots.

A bot is any object with ``choose(observation, legal_actions) -> Action``
(:class:`Bot`); it sees only the :class:`~shangrao.game.state.Observation`
of its seat.  A human front end implements the same protocol.

Dealer rotation (seed 糊牌的规定 1): the winner deals next; after several
robbers of one kong, the first in turn order from the robbed player; after a
drawn hand (荒牌), the next seat.

Hand seeds: hand ``i`` of a match with seed ``S`` is shuffled with
``random.Random(f"{S}:{i}")``, so a match is reproducible from its seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol, cast, runtime_checkable

from ..errors import InputError
from ..rules import DEFAULT_RULES, RuleSet
from .actions import Action
from .protocol import Event
from .state import Game, HandResult, Observation

__all__ = ["Bot", "HandRecord", "MatchResult", "Match", "play_hand", "play_match"]


@runtime_checkable
class Bot(Protocol):
    """A policy: picks one of ``legal_actions`` from what its seat observes.

    A bot class may set ``needs_observation = False`` (as ``random`` does) to be
    called with ``observation=None``, which spares building the observation.

    Optional hooks, looked up with ``getattr``: ``see_log(events, seat)`` is called before each
    of the bot's decisions and once when the hand ends, with the hand's full log (the bot must
    show its seat only :func:`~shangrao.game.redact` of it: outside bots do); ``close()``
    releases what the bot holds (called by ``arena``, ``simulate`` and the web when the bot is done).
    """

    def choose(self, observation: Observation, legal_actions: list[Action]) -> Action: ...


def play_hand(game: Game, bots: Sequence[Bot], check: bool = False) -> HandResult:
    """Drive ``game`` to its end asking ``bots[seat]`` at every decision.

    check: validate each choice (``apply``) instead of the fast ``push``; a bot
    returning an action not in ``legal_actions`` raises
    :class:`~shangrao.game.actions.IllegalActionError` either way.
    """
    watchers = [(s, b.see_log) for s, b in enumerate(bots) if hasattr(b, "see_log")]
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None  # the hand is not over
        legal = game.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        else:
            bot = bots[seat]
            if watchers:
                see = getattr(bot, "see_log", None)
                if see is not None:
                    see(game.events, seat)
            # a bot with needs_observation = False is called with None
            obs = game.observation(seat) if getattr(bot, "needs_observation", True) else cast(Observation, None)
            action = bot.choose(obs, legal)
        if check or action not in legal:
            game.apply(action)
        else:
            game.push(action)
    for s, see in watchers:  # the hand's last events (the win, the settlement) to bots that follow the log
        see(game.events, s)
    assert game.result is not None
    return game.result


@dataclass
class HandRecord:
    """One played hand: its number, seed, dealer, result and event log."""

    hand_no: int
    seed: str
    dealer: int
    result: HandResult
    events: list[Event]


@dataclass
class MatchResult:
    seed: int | str | None
    rules: RuleSet
    hands: list[HandRecord] = field(default_factory=list)
    scores: tuple[int, int, int, int] = (0, 0, 0, 0)


class Match:
    """A match of ``rules.hands_per_match`` hands.

    Match(rules=DEFAULT_RULES, seed=None, bots=None, dealer=0, scores=(0,0,0,0))

    With ``bots`` (four :class:`Bot`), :meth:`play` / iteration plays every hand.
    Without bots, drive hands yourself: ``g = m.new_hand()``, play ``g`` to its
    end, then ``m.finish_hand(g)``.  ``seed=None`` draws a seed (kept in ``m.seed``).
    """

    def __init__(
        self,
        rules: RuleSet = DEFAULT_RULES,
        seed: int | str | None = None,
        bots: Sequence[Bot] | None = None,
        dealer: int = 0,
        scores: Sequence[int] = (0, 0, 0, 0),
    ) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        if bots is not None and len(bots) != 4:
            raise InputError(f"a match needs 4 bots, got {len(bots)}")
        self.rules = rules
        self.seed = seed
        self.bots = list(bots) if bots is not None else None
        self.dealer = dealer
        self.scores = tuple(scores)
        self.hands: list[HandRecord] = []

    @property
    def is_over(self) -> bool:
        return len(self.hands) >= self.rules.hands_per_match

    def hand_seed(self, hand_no: int) -> str:
        return f"{self.seed}:{hand_no}"

    def new_hand(self) -> Game:
        """The next hand's :class:`Game` (dealer and scores carried over)."""
        if self.is_over:
            raise InputError("the match is over")
        n = len(self.hands)
        return Game(self.rules, seed=self.hand_seed(n), dealer=self.dealer, scores=self.scores, hand_no=n)

    def finish_hand(self, game: Game) -> HandRecord:
        """Record a finished hand; rotates the dealer and carries the scores."""
        if not game.is_over or game.result is None:
            raise InputError("the hand is not over")
        rec = HandRecord(game.hand_no, str(game.seed), game.dealer, game.result, game.events)
        self.hands.append(rec)
        self.dealer = game.result.next_dealer
        self.scores = game.result.scores
        return rec

    def __iter__(self) -> Iterator[HandRecord]:
        if self.bots is None:
            raise InputError("Match without bots: drive hands with new_hand()/finish_hand()")
        while not self.is_over:
            game = self.new_hand()
            play_hand(game, self.bots)
            yield self.finish_hand(game)

    def play(self, on_hand: Callable[[HandRecord], None] | None = None) -> MatchResult:
        for rec in self:
            if on_hand is not None:
                on_hand(rec)
        return MatchResult(self.seed, self.rules, list(self.hands), self.scores)  # type: ignore[arg-type]


def play_match(
    bots: Sequence[Bot],
    rules: RuleSet = DEFAULT_RULES,
    seed: int | str | None = None,
    on_hand: Callable[[HandRecord], None] | None = None,
    dealer: int = 0,
) -> MatchResult:
    """Play a whole match with four bots; ``on_hand(record)`` is called after each hand."""
    return Match(rules, seed, bots, dealer).play(on_hand)
