"""Python entry points of the compiled core: one hand (:func:`play_hand`) with the core's bots or a
scripted list of decisions, and its result as the engine's types.

>>> from shangrao.sim.play import play_hand
>>> h = play_hand(seed="1:0", bots=("random",) * 4, bot_seeds=("1:0", "1:1", "1:2", "1:3"))
>>> sum(h.deltas)
0
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError, quote
from ..game.actions import Action, IllegalActionError
from ..game.protocol import Event
from ..rules import DEFAULT_RULES, RuleSet
from . import core as C
from ._cache import is_compiled
from .events import action_code, code_action, to_events
from .kernels import N_OUT, tables
from .rules import encode_rules
from .schema import HandView
from .vector import VectorEnv

_BOT_RULES = C.BOT_RULES  # GreedyBot scores its 偷机 choices under the default rules

__all__ = [
    "AmountRangeError",
    "check_core_scores",
    "CORE_BOTS",
    "is_core_bot",
    "CoreHand",
    "CoreMatchHand",
    "FIRST_COMPILE_CPU_S",
    "core_compiled",
    "play_hand",
    "warm_up",
    "decisions_of",
    "iter_match_hands",
]

#: CPU-seconds of the game loop's first compile (:func:`~.core.play_matches`, what ``simulate --engine
#: fast`` runs, an empty numba cache) on the shared 2-core development machine, rounded up:
#: ``benchmarks/bench_compile.py --entry "game loop"`` (docs/performance.md, "Compile time")
FIRST_COMPILE_CPU_S = 50

#: the bots the core plays: name -> its code in the core (``search``: :data:`shangrao.sim.search.BOT_SEARCH`,
#: played by that module's loop, never by the batched environment)
CORE_BOTS = {**C.CORE_BOTS, "search": 4}


def is_core_bot(name: str) -> bool:
    """``name`` is a bot the core plays itself (:data:`CORE_BOTS`, or a ``search:OPTS`` spec; not ``external``)."""
    low = str(name).strip().lower()
    return low != "external" and (low in CORE_BOTS or low.startswith("search:"))


#: the core bots the batched environment (shangrao.sim.vector) may seat
STEP_BOTS = tuple(n for n in C.CORE_BOTS if n != "external")


class AmountRangeError(InputError):
    """A score the compiled core cannot carry: beyond ±:data:`~shangrao.sim.core.SCORE_LIMIT` (2**62).

    The core's amounts are int64 and one hand moves a seat by far less than 2**62, so scores within
    that range never wrap; beyond it the core refuses (the Python engine takes any int)."""


def check_core_scores(scores: Sequence[int], what: str = "scores") -> None:
    """Raise :class:`AmountRangeError` naming ``what[i]`` for a score beyond ±2**62 (the core's range)."""
    for i, v in enumerate(scores):
        if abs(int(v)) > C.SCORE_LIMIT:
            raise AmountRangeError(
                f"{what}[{i}]: {quote(v)} is beyond ±2**62, the compiled core's range "
                f"(its amounts are 64-bit); use the Python engine for such scores"
            )


@dataclass(frozen=True)
class CoreHand:
    """One hand played by the core.

    rules, seed, dealer, scores (before), hand_no: as given to :class:`~shangrao.game.Game`.
    wall (136 ids, head first) and dice: the deal.  decisions: every decision's action code in
    order (forced ones too; :func:`~shangrao.sim.events.code_action` reads one).  rows: the event
    rows (``(n, EV_WIDTH)`` int64).  deltas / final scores per seat, winners (turn order from the
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
        return to_events(
            self.rules,
            self.seed,
            self.dealer,
            self.scores,
            self.hand_no,
            self.wall,
            self.dice,
            self.decisions,
            self.rows if check else None,
        )


def core_compiled() -> bool:
    """Whether the game loop is in numba's on-disk cache already (a first call then takes about a
    second, not the :data:`FIRST_COMPILE_CPU_S` CPU-seconds of compiling it): see :mod:`shangrao.sim`'s
    warm-up."""
    return is_compiled(C.play_matches)


def warm_up() -> float:
    """Compile (or load from numba's cache) what the core runs: one short match of each core bot, a
    scripted hand, the checked batch entry points, a step of the batched
    environment.  Returns the seconds (wall clock) it took: the first time on a machine, or after an
    edit of the package, the compile of all of it (docs/performance.md, "Compile time", per entry
    point), about a second from the cache.  ``.ci/run`` calls it once before the test suite."""
    import time

    from .batch import is_winning_many, shanten_many

    t0 = time.perf_counter()
    for bot in (b for b in CORE_BOTS if b != "external"):
        for _ in iter_match_hands([0], [1], [bot] * 4):
            pass
    play_hand(0, ("random",) * 4)
    hand = np.zeros((1, 34), dtype=np.int64)
    hand[0, :4] = 3
    hand[0, 27] = 2
    is_winning_many(hand)
    shanten_many(hand)
    env = VectorEnv(2, ("learner", *STEP_BOTS), features=2)  # a learner and each core bot, the features
    env.step(env.reset(0).legal_action_mask.argmax(axis=1))
    env.state()

    def first_legal(planes: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.asarray(mask.argmax(axis=1), dtype=np.int64)

    env = VectorEnv(2, ("learner", first_legal, "learner", "random"), features=1)  # a policy seat
    env.step(env.reset(0).legal_action_mask.argmax(axis=1))
    from . import record  # dataset rows and labels (shangrao dataset's fast path, --tables)
    from . import search as S

    record.encode_hands(list(iter_match_hands([0], [1], ["random"] * 4)), label="ukeire")
    labels = np.zeros(env.num_envs, dtype=np.int64)
    params = S.default_params()
    kernel: Any = record.label_kernel
    mts = np.zeros((env.num_envs, 4, 625), dtype=np.uint32)
    kernel(
        env._g.st,
        env._setup.rules,
        env._setup.tb,
        C.BOT_RULES,
        C.BOT_GREEDY,
        mts,
        params,
        S.weights_for(params),
        labels,
    )
    return time.perf_counter() - t0


def decisions_of(events: Sequence[Event]) -> list[int]:
    """The decision codes of a Python event log: every event that records a decision carries its
    ``action`` (discard, call, pass, concealed/added kong, declare_win), one per decision."""
    return [action_code(Action.parse(ev["action"])) for ev in events if "action" in ev]  # type: ignore[typeddict-item]


def _key(seed: object, what: str) -> np.ndarray:
    """The MT19937 key of a seed argument; ``InputError`` naming ``what`` for one that is not an int,
    a str or None."""
    try:
        return C.seed_key(seed)  # type: ignore[arg-type]
    except TypeError:
        raise InputError(f"{what}: a seed is an int, a str or None, got {seed!r}") from None


def _bot_codes(bots: Sequence[str]) -> np.ndarray:
    if isinstance(bots, str) or len(bots) != 4:
        raise InputError(f"bots: give 4 core bot names, got {bots!r}")
    out = []
    for i, b in enumerate(bots):
        name = str(b).strip().lower()
        code = CORE_BOTS.get("search" if name.startswith("search:") else name)
        if code is None:
            raise InputError(f"bots[{i}]: {b!r} is not a core bot; core bots: {', '.join(CORE_BOTS)}")
        out.append(code)
    return np.array(out, dtype=np.int32)


def _search_params(bots: Sequence[str]) -> np.ndarray:
    """The params of the ``search`` seats' spec (``search``, ``search:256``: ``shangrao.bots.search``);
    the core takes one for all of them, so their specs must agree (InputError otherwise)."""
    from ..bots.search import search_params

    specs = {str(b).strip().lower() for b in bots if str(b).strip().lower().split(":")[0] == "search"}
    if len(specs) != 1:
        raise InputError(f"bots: the compiled core plays one search spec at a time, got {sorted(specs)}")
    return search_params(specs.pop())


def play_hand(
    seed: int | str | None = None,
    bots: Sequence[str] = ("random",) * 4,
    bot_seeds: Sequence[int | str | None] = (None, None, None, None),
    rules: RuleSet = DEFAULT_RULES,
    dealer: int = 0,
    scores: Sequence[int] = (0, 0, 0, 0),
    hand_no: int = 0,
    wall: Sequence[int] | None = None,
    dice: Sequence[int] | None = None,
    script: Sequence[Action | str | int] = (),
) -> CoreHand:
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
    check_core_scores(sc, "scores")
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
        C.mt_seed(mts[i], _key(s, f"bot_seeds[{i}]"))
    hand_key = _key(seed, "seed")
    scr = np.array(
        [s if isinstance(s, int) else action_code(Action.parse(s) if isinstance(s, str) else s) for s in script],
        dtype=np.int32,
    )
    st = np.zeros(C.STATE_SIZE, dtype=C.ST_DTYPE)
    ev = np.zeros((C.MAX_EVENTS, C.EV_WIDTH), dtype=C.ST_DTYPE)
    dec = np.zeros(C.MAX_DECISIONS, dtype=np.int32)
    rs = encode_rules(rules)
    tb = tables()
    C.new_hand(st, ev, rs, tb, hand_key, dealer, np.array(sc, dtype=C.ST_DTYPE), hand_no, wall_in, dice_in)
    if 4 in codes:
        from . import search as S

        sp = _search_params(bots)
        nd = S.play_to_end(st, ev, dec, rs, tb, codes, mts, scr, len(scr), _BOT_RULES, sp, S.weights_for(sp))
    else:
        nd = C.play_to_end(st, ev, dec, rs, tb, codes, mts, scr, len(scr), _BOT_RULES)
    view = HandView(st)
    if nd < 0:
        i = -1 - nd
        raise IllegalActionError(
            f"script[{i}]: {code_action(scr[i])} is not legal for seat {view.cur} in that position"
        )
    if view.error:
        from ..game.state import EngineError

        raise EngineError(f"core hand {seed!r}: analysis says win but scoring says no win")
    n = view.n_events
    winners = tuple(int(x) for x in view.winners[: view.n_winners])
    final = tuple(int(x) for x in view.scores)
    return CoreHand(
        rules=rules,
        seed=seed,
        dealer=dealer,
        scores=sc,
        hand_no=hand_no,
        wall=tuple(int(x) for x in view.wall),
        dice=(int(view.dice[0]), int(view.dice[1])),
        decisions=tuple(int(x) for x in dec[:nd]),
        rows=ev[:n].copy(),
        deltas=tuple(f - s for f, s in zip(final, sc)),  # type: ignore[arg-type]
        final_scores=final,  # type: ignore[arg-type]
        winners=winners,
        drawn=bool(view.drawn),
        next_dealer=view.next_dealer,
        over=view.phase == C.P_OVER,
    )


# ---------------------------------------------------------------------------------------------- matches
@dataclass(frozen=True)
class CoreMatchHand:
    """One hand of a match played by :func:`iter_match_hands`.

    match: the index of its match in the call; match_seed; hand_no; hand_seed (``f"{match_seed}:{hand_no}"``,
    as :class:`~shangrao.game.Match` seeds it); dealer; scores (before the hand); decisions; rows;
    info (the ``I_*`` columns of :func:`shangrao.sim.core.play_matches`); win_out (``(winners, N_OUT)``:
    each win's :func:`shangrao.sim.kernels.score_win` output); last: the match's last hand.
    """

    match: int
    match_seed: int | str
    hand_no: int
    hand_seed: str
    dealer: int
    scores: tuple[int, int, int, int]
    decisions: np.ndarray
    rows: np.ndarray
    info: np.ndarray
    win_out: np.ndarray
    last: bool

    @property
    def deltas(self) -> tuple[int, int, int, int]:
        i = self.info
        return (int(i[C.I_D0]), int(i[C.I_D1]), int(i[C.I_D2]), int(i[C.I_D3]))

    @property
    def final_scores(self) -> tuple[int, int, int, int]:
        i = self.info
        return (int(i[C.I_S0]), int(i[C.I_S1]), int(i[C.I_S2]), int(i[C.I_S3]))

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(int(self.info[C.I_W0 + k]) for k in range(int(self.info[C.I_NWIN])))

    def events(self, rules: RuleSet = DEFAULT_RULES, check: bool = True) -> list[Event]:
        """The engine's typed events (the Python engine replays the decisions on the hand seed's deal;
        ``check``: its rows must equal the core's)."""
        from ..game import Game

        game = Game(rules, seed=self.hand_seed, dealer=self.dealer, scores=self.scores, hand_no=self.hand_no)
        for code in self.decisions:
            game.apply(code_action(code))
        if check:
            from .events import CoreMismatchError, encode_events

            mine = encode_events(game.events)
            if mine.shape != self.rows.shape or not np.array_equal(mine, self.rows):
                raise CoreMismatchError(f"hand {self.hand_seed}: the engine's replay differs from the core's log")
        return game.events


def iter_match_hands(
    match_seeds: Sequence[int | str],
    limits: Sequence[int],
    bots: Sequence[str],
    rules: RuleSet = DEFAULT_RULES,
    chunk: int = 64,
) -> Iterator[CoreMatchHand]:
    """Play matches in the core as :class:`~shangrao.game.Match` plays them with
    ``get_bot(bots[i], seed=f"{match_seed}:{i}")`` at seat ``i`` (``shangrao.selfplay``): match ``m``
    has the seed ``match_seeds[m]`` and stops after ``limits[m]`` hands.  Yields
    :class:`CoreMatchHand`\\ s in match order, ``chunk`` matches per compiled call.  Raises
    ``InputError`` naming the bad argument."""
    codes = _bot_codes(bots)
    if len(match_seeds) != len(limits):
        raise InputError(f"match_seeds and limits: one limit per match, got {len(match_seeds)} and {len(limits)}")
    per = rules.hands_per_match
    for m, s in enumerate(match_seeds):
        if isinstance(s, bool) or not isinstance(s, (int, str)):
            raise InputError(f"match_seeds[{m}]: a seed is an int or a str, got {s!r}")
    for m, lim in enumerate(limits):
        if not isinstance(lim, int) or not 0 <= lim <= per:
            raise InputError(f"limits[{m}]: hands to play, 0..{per} (rules.hands_per_match), got {lim!r}")
    rs = encode_rules(rules)
    tb = tables()
    for start in range(0, len(match_seeds), chunk):
        seeds = list(match_seeds[start : start + chunk])
        lims = np.array(limits[start : start + chunk], dtype=np.int64)
        nm = len(seeds)
        bk, bl = C.seed_keys([f"{s}:{i}" for s in seeds for i in range(4)])
        hk, hl = C.seed_keys([f"{s}:{n}" for s in seeds for n in range(per)])
        bot_keys = bk.reshape(nm, 4, -1)
        hand_keys = hk.reshape(nm, per, -1)
        total = int(lims.sum())
        rows = np.zeros((total * 400 + C.MAX_EVENTS, C.EV_WIDTH), dtype=C.ST_DTYPE)
        row_off = np.zeros(total + 1, dtype=np.int64)
        decs = np.zeros(total * 200 + C.MAX_DECISIONS, dtype=np.int32)
        dec_off = np.zeros(total + 1, dtype=np.int64)
        info = np.zeros((total, C.N_INFO), dtype=np.int64)
        win_out = np.zeros((total, 3, N_OUT), dtype=np.int64)
        if 4 in codes:  # a search seat: shangrao.sim.search's loop, with its spec's params
            from . import search as S

            sp = _search_params(bots)
            S.play_matches(
                rs,
                tb,
                codes,
                _BOT_RULES,
                bot_keys,
                bl.reshape(nm, 4),
                hand_keys,
                hl.reshape(nm, per),
                lims,
                rows,
                row_off,
                decs,
                dec_off,
                info,
                win_out,
                sp,
                S.weights_for(sp),
            )
        else:
            C.play_matches(
                C.Setup(rs, tb, codes, _BOT_RULES),
                C.MatchSeeds(bot_keys, bl.reshape(nm, 4), hand_keys, hl.reshape(nm, per), lims),
                C.MatchOut(rows, row_off, decs, dec_off, info, win_out),
            )
        h = 0
        for j, mseed in enumerate(seeds):
            scores = (0, 0, 0, 0)
            dealer = 0
            for n in range(int(lims[j])):
                inf = info[h]
                if inf[C.I_ERROR] == C.ERR_SCORE_RANGE:
                    raise AmountRangeError(
                        f"match {mseed}, hand {n}: a score before the hand is beyond ±2**62, the "
                        f"compiled core's range; play it with the Python engine (--engine python)"
                    )
                if inf[C.I_ERROR]:
                    from ..game.state import EngineError

                    raise EngineError(f"core hand {mseed}:{n}: internal error {int(inf[C.I_ERROR])}")
                rec = CoreMatchHand(
                    start + j,
                    mseed,
                    n,
                    f"{mseed}:{n}",
                    dealer,
                    scores,
                    decs[dec_off[h] : dec_off[h + 1]],
                    rows[row_off[h] : row_off[h + 1]],
                    inf,
                    win_out[h, : int(inf[C.I_NWIN])],
                    n == int(lims[j]) - 1,
                )
                yield rec
                scores = rec.final_scores
                dealer = int(inf[C.I_NEXT_DEALER])
                h += 1


_REASON_IDS = C.TRANSFER_REASONS
_WIN_BY_IDS = ("self_draw", "robbing_kong", "dealer_first_discard")


def hand_summary(hand: CoreMatchHand, rules: RuleSet = DEFAULT_RULES) -> dict[str, Any]:
    """:func:`shangrao.records.summary.hand_summary` of a core hand, from its rows and win outputs
    (no replay): the same dict, key for key (``tests/sim/test_simulate_engine.py``)."""
    from ..scoring.items import BONUS_NAMES, DOUBLING_NAMES, PATTERNS
    from .convert import breakdown
    from .kernels import (
        O_DANDIAO,
        O_FACTOR,
        O_FEIBAO,
        O_GANGKAI,
        O_HAND_VALUE,
        O_JIUYAO,
        O_PATTERN,
        O_QIANGGANG,
        PATTERN_IDS,
    )

    info = hand.info
    dealer = hand.dealer
    wins = []
    names: dict[int, str] = {}
    transfers = []
    bonuses = []
    wi = 0
    heavenly = len(hand.decisions) == 1
    for r in hand.rows:
        t = int(r[0])
        if t == C.E_WIN:
            out = hand.win_out[wi]
            wi += 1
            seat = int(r[1])
            pdef = PATTERNS[PATTERN_IDS[int(out[O_PATTERN])]]
            names[seat] = pdef.name
            doublings = []
            if not pdef.flat:
                for did, n, factor in (
                    ("gangkai", int(out[O_GANGKAI]), 2 ** int(out[O_GANGKAI])),
                    ("dandiao", int(out[O_DANDIAO]), 2),
                    ("feibao", int(out[O_FEIBAO]), 2 ** int(out[O_FEIBAO])),
                    ("jiuyao", int(out[O_JIUYAO]), 2),
                    ("qianggang", int(out[O_QIANGGANG]), rules.robbing_kong_factor),
                ):
                    if n:
                        doublings.append({"id": did, "name": DOUBLING_NAMES[did], "count": n, "factor": factor})
            wins.append(
                {
                    "seat": seat,
                    "win_by": _WIN_BY_IDS[int(r[2])],
                    "heavenly": bool(heavenly and seat == dealer and int(r[2]) == C.W_SELF_DRAW),
                    "pattern": pdef.name,
                    "pattern_id": pdef.id,
                    "factor": int(out[O_FACTOR]),
                    "hand_value": int(out[O_HAND_VALUE]),
                    "doublings": doublings,
                    "payers": [(seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4],
                    "win_payments": [int(r[7]), int(r[8]), int(r[9])],
                    "breakdown": breakdown(out, rules),
                }
            )
        elif t == C.E_TRANSFER:
            reason = _REASON_IDS[int(r[4])]
            payee = int(r[2])
            transfers.append(
                {
                    "payer": int(r[1]),
                    "payee": payee,
                    "points": int(r[3]),
                    "reason": reason,
                    "name": names[payee] if reason == "win" else BONUS_NAMES[reason],
                }
            )
        elif t == C.E_KONG_STANDS:
            reason = "concealed_kong" if int(r[3]) == C.M_CONCEALED else "pung_kong"
            bonuses.append({"seat": int(r[1]), "reason": reason, "name": BONUS_NAMES[reason]})
        elif t in (C.E_FOUR_BAO, C.E_CATCH_BAO):
            reason = "four_bao" if t == C.E_FOUR_BAO else "caught_bao"
            bonuses.append({"seat": int(r[1]), "reason": reason, "name": BONUS_NAMES[reason]})
    return {
        "winners": list(hand.winners),
        "drawn": bool(info[C.I_DRAWN]),
        "dealer": dealer,
        "next_dealer": int(info[C.I_NEXT_DEALER]),
        "deltas": list(hand.deltas),
        "scores": list(hand.final_scores),
        "patterns": [w["pattern"] for w in wins],
        "wins": wins,
        "bonuses": bonuses,
        "transfers": transfers,
    }
