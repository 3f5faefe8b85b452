"""Python entry points of the compiled core: one hand (:func:`play_hand`) with the core's bots or a
scripted list of decisions, and its result as the engine's types.

>>> from shangrao.sim.play import play_hand
>>> h = play_hand(seed="1:0", bots=("random",) * 4, bot_seeds=("1:0", "1:1", "1:2", "1:3"))
>>> sum(h.deltas)
0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..game.actions import Action, IllegalActionError
from ..game.protocol import Event
from ..rules import DEFAULT_RULES, RuleSet
from . import core as C
from .events import action_code, code_action, to_events
from .kernels import tables
from .rules import encode_rules

_BOT_RULES = encode_rules(DEFAULT_RULES)  # GreedyBot scores its 偷机 choices under the default rules

__all__ = ["CORE_BOTS", "CoreHand", "play_hand", "decisions_of"]

#: the bots the core plays itself: name -> its code in the core
CORE_BOTS = {"random": C.BOT_RANDOM, "greedy": C.BOT_GREEDY, "ukeire": C.BOT_UKEIRE, "external": C.BOT_EXTERNAL}


@dataclass(frozen=True)
class CoreHand:
    """One hand played by the core.

    rules, seed, dealer, scores (before), hand_no: as given to :class:`~shangrao.game.Game`.
    wall (136 ids, head first) and dice: the deal.  decisions: every decision's action code in
    order (forced ones too; :func:`~shangrao.sim.events.code_action` reads one).  rows: the event
    rows (``(n, EV_WIDTH)`` int32).  deltas / final scores per seat, winners (turn order from the
    robbed or discarding seat), drawn (荒牌), next_dealer; over: False when play stopped at an
    ``external`` seat's decision (the last four fields then mean nothing yet).
    """

    rules: RuleSet
    seed: int | str | None
    dealer: int
    scores: tuple[int, int, int, int]
    hand_no: int
    wall: tuple[int, ...]
    dice: tuple[int, int]
    decisions: tuple[int, ...]
    rows: np.ndarray
    deltas: tuple[int, int, int, int]
    final_scores: tuple[int, int, int, int]
    winners: tuple[int, ...]
    drawn: bool
    next_dealer: int
    over: bool

    def actions(self) -> list[Action]:
        """The decisions as :class:`Action`\\ s."""
        return [code_action(c) for c in self.decisions]

    def events(self, check: bool = True) -> list[Event]:
        """The engine's typed events of this hand (the Python engine replays the decisions on the
        same deal; ``check``: and its log must equal the core's rows, else
        :class:`~shangrao.sim.events.CoreMismatchError`)."""
        return to_events(self.rules, self.seed, self.dealer, self.scores, self.hand_no, self.wall, self.dice,
                         self.decisions, self.rows if check else None)


def decisions_of(events: Sequence[Event]) -> list[int]:
    """The decision codes of a Python event log: every event that records a decision carries its
    ``action`` (discard, call, pass, concealed/added kong, declare_win), one per decision."""
    return [action_code(Action.parse(ev["action"])) for ev in events if "action" in ev]  # type: ignore[typeddict-item]


def _bot_codes(bots: Sequence[str]) -> np.ndarray:
    if isinstance(bots, str) or len(bots) != 4:
        raise InputError(f"bots: give 4 core bot names, got {bots!r}")
    out = []
    for i, b in enumerate(bots):
        code = CORE_BOTS.get(str(b).strip().lower())
        if code is None:
            raise InputError(f"bots[{i}]: {b!r} is not a core bot; core bots: {', '.join(CORE_BOTS)}")
        out.append(code)
    return np.array(out, dtype=np.int32)


def play_hand(seed: int | str | None = None, bots: Sequence[str] = ("random",) * 4,
              bot_seeds: Sequence[int | str | None] = (None, None, None, None), rules: RuleSet = DEFAULT_RULES,
              dealer: int = 0, scores: Sequence[int] = (0, 0, 0, 0), hand_no: int = 0,
              wall: Sequence[int] | None = None, dice: Sequence[int] | None = None,
              script: Sequence[Action | str | int] = ()) -> CoreHand:
    """Play one hand in the core, as ``play_hand(Game(rules, seed, dealer, scores, wall, dice, hand_no),
    [get_bot(bots[i], bot_seeds[i]) ...])`` would: the deal from ``seed`` (or ``wall``/``dice``,
    checked as the engine checks them), then ``script`` (actions, their strings or codes) decides
    first and the core bots go on.  Raises :class:`~shangrao.game.actions.IllegalActionError`
    naming the decision's index for a scripted action that is not legal, ``InputError`` (ValueError)
    for a bad argument.
    """
    from ..game.wall import check_dice, normalize_wall
    from ..tiles import check_int

    if not isinstance(rules, RuleSet):
        raise InputError(f"rules must be a RuleSet, got {type(rules).__name__}")
    dealer = check_int(dealer, "dealer (a seat)", 0, 3)
    hand_no = check_int(hand_no, "hand_no", 0)
    sc = tuple(check_int(v, "scores: each") for v in scores)
    if len(sc) != 4:
        raise InputError(f"scores must hold 4 ints, got {scores!r}")
    codes = _bot_codes(bots)
    if len(bot_seeds) != 4:
        raise InputError(f"bot_seeds: give 4 seeds, got {bot_seeds!r}")
    wall_in = np.full(136, -1, dtype=np.int32)
    dice_in = np.zeros(2, dtype=np.int32)
    if wall is not None:
        wall_in[:] = normalize_wall(wall)
        dice_in[:] = check_dice(dice) if dice is not None else (1, 1)
        if dice is None:  # the engine rolls the dice from the seed after its (skipped) shuffle
            import random

            from ..game.wall import roll_dice
            dice_in[:] = roll_dice(random.Random(seed if seed is not None else 0))
    elif dice is not None:
        raise InputError("dice: give a wall with them (the dice of a shuffled wall come from the seed)")
    mts = np.zeros((4, 625), dtype=np.uint32)
    for i, s in enumerate(bot_seeds):
        C.mt_seed(mts[i], C.seed_key(s))
    scr = np.array([s if isinstance(s, int) else action_code(Action.parse(s) if isinstance(s, str) else s)
                    for s in script], dtype=np.int32)
    st = np.zeros(C.STATE_SIZE, dtype=np.int32)
    ev = np.zeros((C.MAX_EVENTS, C.EV_WIDTH), dtype=np.int32)
    dec = np.zeros(C.MAX_DECISIONS, dtype=np.int32)
    rs = encode_rules(rules)
    tb = tables()
    C.new_hand(st, ev, rs, tb, C.seed_key(seed), dealer, np.array(sc, dtype=np.int32), hand_no, wall_in, dice_in)
    nd = C.play_to_end(st, ev, dec, rs, tb, codes, mts, scr, len(scr), _BOT_RULES)
    if nd < 0:
        i = -1 - nd
        raise IllegalActionError(f"script[{i}]: {code_action(scr[i])} is not legal for seat {st[C._O_CUR]} "
                                 f"in that position")
    if st[C._O_ERROR]:
        from ..game.state import EngineError

        raise EngineError(f"core hand {seed!r}: analysis says win but scoring says no win")
    n = st[C._O_NEV]
    winners = tuple(int(x) for x in st[C._O_WINNERS:C._O_WINNERS + st[C._O_NWIN]])
    final = tuple(int(x) for x in st[C._O_SCORES:C._O_SCORES + 4])
    return CoreHand(
        rules=rules, seed=seed, dealer=dealer, scores=sc, hand_no=hand_no,
        wall=tuple(int(x) for x in st[C._O_WALL:C._O_WALL + 136]),
        dice=(int(st[C._O_DICE]), int(st[C._O_DICE + 1])),
        decisions=tuple(int(x) for x in dec[:nd]), rows=ev[:n].copy(),
        deltas=tuple(f - s for f, s in zip(final, sc)),  # type: ignore[arg-type]
        final_scores=final, winners=winners,  # type: ignore[arg-type]
        drawn=bool(st[C._O_DRAWN]), next_dealer=int(st[C._O_NEXT_DEALER]), over=bool(st[C._O_PHASE] == C.P_OVER),
    )
