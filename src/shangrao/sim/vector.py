"""A batched environment on the compiled core: N tables stepped together, observations and masks as arrays.

:class:`VectorEnv` plays ``num_envs`` hands at once inside :mod:`shangrao.sim.core`: the seats named
``"learner"`` stop the core at their decisions and the whole batch is handed over as arrays
(observation planes, action masks, the deciding seat, game ids); :meth:`VectorEnv.step` takes one
flat action per game back, and the core plays on — its own bots (``random``, ``greedy``, ``ukeire``)
at the other seats — to every game's next learner decision.  One Python call a batch, none a game.

Convention: pgx's batched ``init``/``step`` API for multi-player games (`pgx
<https://github.com/sotetsuk/pgx>`_, ``pgx.State``) — every field has the batch first and is named
as pgx names it: ``observation``, ``legal_action_mask``, ``current_player``, ``rewards`` (one
column per seat), ``terminated`` — on NumPy arrays and stepped in place (``reset(seed)`` /
``step(actions)`` as Gymnasium's ``VectorEnv``) rather than on immutable JAX states.  Autoreset
as Gymnasium's ``AutoresetMode.SAME_STEP``: the step that ends a game's hand returns that hand's
rewards with ``terminated[i] = True`` *and* the next hand's first learner decision as the
observation, so the acting seat's mask is never all zeros.

>>> from shangrao.sim.vector import VectorEnv
>>> env = VectorEnv(num_envs=4, seats=("learner", "random", "random", "random"))
>>> b = env.reset(seed=0)
>>> b.observation.shape, b.legal_action_mask.shape, b.current_player.tolist()
((4, 20, 34), (4, 110), [0, 0, 0, 0])
>>> b = env.step(b.legal_action_mask.argmax(axis=1))   # the lowest legal flat action of each game
>>> bool(b.legal_action_mask.any(axis=1).all())
True

Spec
====

==================  ==============================================================================
Import              ``from shangrao.sim.vector import VectorEnv`` (NumPy and numba only; no ``rl`` extra)
Batch               ``num_envs`` games; one episode of a game = one hand (dealer drawn per hand, scores 0)
Seats               ``seats``: 4 names, each ``"learner"`` or a core bot (``random``, ``greedy``, ``ukeire``);
                    at least one learner; ``("learner",) * 4`` (default) is self-play
Actions             ``step(actions)``: int ``[N]``, flat actions 0..109 (the table of :mod:`shangrao.env`)
observation         int8 ``[N, 20, 34]``: the deciding seat's planes, exactly
                    ``encode_observation(game.observation(seat))`` (:mod:`shangrao.encoding`; ``hands_left`` 1)
legal_action_mask   bool ``[N, 110]``: exactly the deciding seat's legal flat actions (never all False)
current_player      int32 ``[N]``: the deciding seat, 0..3 (always a learner seat)
rewards             float32 ``[N, 4]``: per seat, the points of the hand that ended in this step
                    (``HandResult.deltas``; ``reward="normalized"``: divided by 10), else 0; the core
                    adds them up in int64 (never wraps), float32 is exact up to 2**24 points and
                    rounds beyond (huge ``base_points``/``robbing_kong_factor``)
terminated          bool ``[N]``: a hand of the game ended in this step; the observation is then the
                    next hand's first learner decision (autoreset, ``SAME_STEP``)
hand_seed, dealer   int64 / int32 ``[N]``: the hand now played; ``Game(rules, seed=hand_seed,
                    dealer=dealer)`` deals it, and :meth:`VectorEnv.decisions` replays it
Seeds               ``reset(seed=S)``: game ``i`` draws its hands' seeds and dealers from MT19937 seeded
                    as ``random.Random(f"{S}:{i}")``, and its bot at seat ``p`` as
                    ``random.Random(f"{S}:{i}:{p}")``; a sequence of ``N`` seeds seeds the games one by one
Forced decisions    a learner with a single legal action takes it without being asked (as ``play_hand``)
Skipped hands       a hand that ends before any learner seat decides (a bot's 天糊) is played but is not an
                    episode: no reward, no termination; :attr:`VectorEnv.skipped_hands` counts them
Errors              :class:`~shangrao.sim.batch.BatchError` (a ValueError) naming the field and the game:
                    a wrong shape or dtype, an out-of-range or illegal action of one game (then *no* game
                    is stepped, and a corrected call goes on), a bad seed, seats or size
==================  ==============================================================================

The identity with the engine is tested at every decision (``tests/sim/test_vector.py``: each
game's hand replayed by :class:`~shangrao.game.Game` from :meth:`VectorEnv.decisions` gives the
same planes, mask, seat and, at its end, rewards).  Speed, against pgx's ``sparrow_mahjong`` and
this project's PettingZoo environment in one process: ``benchmarks/bench_sim.py --section
"batched env"``, recorded in docs/performance.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from ..encoding import action_name
from ..game.actions import Action
from ..game.state import EngineError
from ..rules import DEFAULT_RULES, RuleSet
from . import core as C
from . import kernels as K
from .batch import BatchError
from .events import code_action
from .play import _BOT_RULES, CORE_BOTS, STEP_BOTS
from .rules import encode_rules

__all__ = ["Batch", "MAX_ENVS", "NORMALIZE_POINTS", "VectorEnv"]

#: ``reward="normalized"`` divides the points by this (as the PettingZoo environment's ``NORMALIZE_POINTS``)
NORMALIZE_POINTS = 10
#: the largest batch :class:`VectorEnv` takes (each game holds about 70 kB of state and buffers)
MAX_ENVS = 1 << 16

# ------------------------------------------------------------------------------------- flat actions
N_ACTIONS = 110
N_PLANES = 20
_SC = 19  # the scalars row
_S_TILES_LEFT, _S_DEALER, _S_FLOWN, _S_SIZE, _S_BAO_DRAWN, _S_PHASE = 0, 1, 5, 9, 13, 14
_S_DISCARDER, _S_KONG_MAKER, _S_CHAIN, _S_FIRST, _S_SEAT, _S_HANDS_LEFT = 19, 23, 27, 28, 29, 33


@njit(cache=True)
def _flat_of(st, code):
    """The flat index (:mod:`shangrao.encoding`) of a core action code of the deciding seat."""
    t = code // 34
    k = code - t * 34
    if t == C.T_DISCARD:
        return k
    if t == C.T_CHOW:
        return 34 + st[C._O_CL_KIND] - k
    if t == C.T_PUNG:
        return 37
    if t == C.T_KONG:
        return 38
    if t == C.T_ADDED:
        return 39 + k
    if t == C.T_CONCEALED:
        return 73 + k
    if t == C.T_WIN:
        return 107
    if t == C.T_PASS:
        return 108
    return 109


@njit(cache=True)
def _observe(st, rules, tb, buf, obs, mask, codes):
    """Planes (``obs``, int8[20, 34], as ``encode_observation``) and mask (bool[110]) of the deciding
    seat; ``codes[f]``: the core code of legal flat action ``f`` (-1: not legal).  Returns the seat."""
    n = C.legal(st, rules, tb, buf)
    for f in range(N_ACTIONS):
        mask[f] = False
        codes[f] = -1
    for j in range(n):
        f = _flat_of(st, buf[j])
        mask[f] = True
        codes[f] = buf[j]
    me = st[C._O_CUR]
    obs[:, :] = 0
    seen = np.zeros(34, dtype=np.int32)
    co = C._O_COUNTS + me * 34
    for k in range(34):
        c = st[co + k]
        obs[0, k] = c
        seen[k] = c
    ph = st[C._O_PHASE]
    if ph == C.P_ACT:
        ld = st[C._O_LASTDRAW + me]
        if ld >= 0:
            obs[1, ld >> 2] = 1
    for s in range(4):
        r = (s - me) % 4
        for i in range(st[C._O_NMELD + s]):
            mo = C._O_MELD + (s * 4 + i) * C.MELD_W
            for j in range(4):
                tid = st[mo + 4 + j]
                if tid >= 0:
                    obs[2 + r, tid >> 2] += 1
                    seen[tid >> 2] += 1
            t = st[mo]
            if t == C.M_KONG:
                obs[6 + r, st[mo + 1]] = 1
            elif t == C.M_CONCEALED:
                obs[6 + r, st[mo + 1]] = 2
        do = C._O_DISC + s * C.DISC_MAX
        for i in range(st[C._O_NDISC + s]):
            tid = st[do + i]
            if tid >= 0:
                obs[10 + r, tid >> 2] += 1
                seen[tid >> 2] += 1
        fl = st[C._O_FLOWN + s]
        obs[_SC, _S_FLOWN + r] = fl if fl < 4 else 4
        size = 0
        so = C._O_COUNTS + s * 34
        for k in range(34):
            size += st[so + k]
        obs[_SC, _S_SIZE + r] = size
    obs[14, st[C._O_BAO]] = 1
    ind = st[C._O_IND] >> 2
    obs[15, ind] = 1
    seen[ind] += 1
    if ph == C.P_CLAIM:
        obs[16, st[C._O_CL_KIND]] = 1
        obs[_SC, _S_DISCARDER + (st[C._O_CL_DISC] - me) % 4] = 1
    if st[C._O_PK_ACTIVE]:
        kk = st[C._O_PK_KIND]
        obs[17, kk] = 1
        obs[_SC, _S_KONG_MAKER + (st[C._O_PK_SEAT] - me) % 4] = 1
        seen[kk] = 4
    for k in range(34):
        obs[18, k] = seen[k] if seen[k] < 4 else 4
    tl = st[C._O_TAIL] - st[C._O_HEAD] + 1
    obs[_SC, _S_TILES_LEFT] = tl if tl < 127 else 127
    obs[_SC, _S_DEALER + (st[C._O_DEALER] - me) % 4] = 1
    obs[_SC, _S_BAO_DRAWN] = st[C._O_BAODRAWN + me]
    obs[_SC, _S_PHASE + ph] = 1
    ch = st[C._O_CHAIN]
    obs[_SC, _S_CHAIN] = ch if ch < 4 else 4
    obs[_SC, _S_FIRST] = 1 if st[C._O_FIRST] else 0
    obs[_SC, _S_SEAT + me] = 1
    obs[_SC, _S_HANDS_LEFT] = 1
    return me


@njit(cache=True)
def _hand_key(hmt, key):
    """Draw the next hand's seed (an int < 2**63) from the game's stream; its seed key into ``key``
    (uint32[2]); returns (seed, key length)."""
    lo = C.mt_next(hmt)
    hi = C.mt_next(hmt) & 0x7FFFFFFF
    key[0] = lo
    key[1] = hi
    return (hi << 32) | lo, 2 if hi else 1


@njit(cache=True)
def _new_hand(st, ev, rules, tb, hmt, seeds, dealers, i, key, no_wall, no_dice, zero4):
    s, klen = _hand_key(hmt, key)
    d = C.mt_below(hmt, 4)
    seeds[i] = s
    dealers[i] = d
    C.new_hand(st, ev, rules, tb, key[:klen], d, zero4, 0, no_wall, no_dice)


@njit(cache=True)
def _play_on(st, ev, dec, rules, tb, bots, mts, hmt, bot_rules, seeds, dealers, asked, i, rewards, term,
             last_seed, last_dealer, last_dec, last_ndec, skipped, key, no_wall, no_dice, zero4, script):
    """Play game ``i`` on (core bots) to its next learner decision, starting new hands as hands end.
    A hand with a learner decision that ends adds its deltas to ``rewards[i]`` and sets ``term[i]``;
    one that ends before any learner seat decided (a bot's 天糊, say) is counted in ``skipped[i]``."""
    while True:
        C.play_to_end(st, ev, dec, rules, tb, bots, mts, script, 0, bot_rules)
        if st[C._O_ERROR]:
            return st[C._O_ERROR]
        if st[C._O_PHASE] != C.P_OVER:
            return 0
        if asked[i]:
            for s in range(4):
                rewards[i, s] += st[C._O_SCORES + s] - st[C._O_START + s]
            term[i] = True
            last_seed[i] = seeds[i]
            last_dealer[i] = dealers[i]
            nd = st[C._O_NDEC]
            last_ndec[i] = nd
            last_dec[:nd] = dec[:nd]
        else:
            skipped[i] += 1
        asked[i] = 0
        _new_hand(st, ev, rules, tb, hmt, seeds, dealers, i, key, no_wall, no_dice, zero4)


@njit(cache=True)
def _scratch():
    """The work arrays of a batch call: the legal-action buffer, a hand's seed key, "no scripted wall",
    "no dice", four zero scores, an empty script."""
    return (np.zeros(48, dtype=np.int32), np.zeros(2, dtype=np.uint32), np.full(136, -1, dtype=np.int32),
            np.zeros(2, dtype=np.int32), np.zeros(4, dtype=np.int64), np.zeros(1, dtype=np.int32))


@njit(cache=True)
def reset_batch(st, ev, dec, rules, tb, bots, mts, hmt, bot_rules, seeds, dealers, asked, rewards, term,
                last_seed, last_dealer, last_dec, last_ndec, skipped, obs, mask, codes, cur, err):
    """Start a hand in every game (the streams ``hmt``/``mts`` already seeded) and play each to its
    first learner decision; write the observations.  Returns 0, or ``1 + i`` for an internal error
    of game ``i`` (its code in ``err``)."""
    n = st.shape[0]
    buf, key, no_wall, no_dice, zero4, script = _scratch()
    for i in range(n):
        asked[i] = 0
        skipped[i] = 0
        term[i] = False
        for s in range(4):
            rewards[i, s] = 0
        _new_hand(st[i], ev[i], rules, tb, hmt[i], seeds, dealers, i, key, no_wall, no_dice, zero4)
        e = _play_on(st[i], ev[i], dec[i], rules, tb, bots, mts[i], hmt[i], bot_rules, seeds, dealers, asked, i,
                     rewards, term, last_seed, last_dealer, last_dec[i], last_ndec, skipped, key, no_wall, no_dice,
                     zero4, script)
        if e:
            err[0] = e
            return 1 + i
        cur[i] = _observe(st[i], rules, tb, buf, obs[i], mask[i], codes[i])
        term[i] = False
    return 0


@njit(cache=True)
def check_actions(codes, actions):
    """The first game whose action is not legal (``codes[i, a] < 0``), or -1."""
    for i in range(actions.shape[0]):
        if codes[i, actions[i]] < 0:
            return i
    return -1


@njit(cache=True)
def step_batch(st, ev, dec, rules, tb, bots, mts, hmt, bot_rules, seeds, dealers, asked, rewards, term,
               last_seed, last_dealer, last_dec, last_ndec, skipped, obs, mask, codes, cur, actions, err):
    """Apply ``actions[i]`` (a legal flat action, checked by :func:`check_actions`) in every game,
    play on to the next learner decision (autoreset), write rewards, terminations and observations.
    Returns 0, or ``1 + i`` for an internal error of game ``i``."""
    n = st.shape[0]
    buf, key, no_wall, no_dice, zero4, script = _scratch()
    for i in range(n):
        term[i] = False
        for s in range(4):
            rewards[i, s] = 0
        g = st[i]
        code = codes[i, actions[i]]
        offered = g[C._O_PHASE] == C.P_ACT and codes[i, 107] >= 0
        nd = g[C._O_NDEC]
        dec[i, nd] = code
        g[C._O_NDEC] = nd + 1
        asked[i] += 1
        C.push(g, ev[i], rules, tb, code, offered)
        e = _play_on(g, ev[i], dec[i], rules, tb, bots, mts[i], hmt[i], bot_rules, seeds, dealers, asked, i,
                     rewards, term, last_seed, last_dealer, last_dec[i], last_ndec, skipped, key, no_wall, no_dice,
                     zero4, script)
        if e:
            err[0] = e
            return 1 + i
        cur[i] = _observe(g, rules, tb, buf, obs[i], mask[i], codes[i])
    return 0


# ------------------------------------------------------------------------------------- the Python side
@dataclass(frozen=True)
class Batch:
    """What :meth:`VectorEnv.reset` and :meth:`VectorEnv.step` return (fresh arrays, batch first).

    observation: int8 ``[N, 20, 34]``, the deciding seat's planes.  legal_action_mask: bool ``[N, 110]``.
    current_player: int32 ``[N]``, the deciding seat (0..3).  rewards: float32 ``[N, 4]``, points per
    seat of the hand that ended in this step (else 0).  terminated: bool ``[N]``, a hand ended in
    this step (the observation is then already the next hand's first decision).  hand_seed: int64
    ``[N]`` and dealer: int32 ``[N]`` of the hand being played (``Game(seed=hand_seed, dealer=dealer)``
    deals it).
    """

    observation: np.ndarray
    legal_action_mask: np.ndarray
    current_player: np.ndarray
    rewards: np.ndarray
    terminated: np.ndarray
    hand_seed: np.ndarray
    dealer: np.ndarray


class VectorEnv:
    """``num_envs`` Shangrao tables stepped together in the compiled core (the module docstring is
    its documentation: spec, seeds, autoreset, errors).

    num_envs: the batch size N (a positive int).  seats: 4 names, ``"learner"`` or a core bot
    (``random``, ``greedy``, ``ukeire``), at least one learner.  rules: a
    :class:`~shangrao.rules.RuleSet` (default :data:`~shangrao.rules.DEFAULT_RULES`; the core's
    ``greedy``/``ukeire`` bots score their 偷机 choices under the default rules, as ``GreedyBot``
    does).  reward: ``"points"`` (hand deltas, points) or ``"normalized"`` (divided by
    ``NORMALIZE_POINTS`` = 10).  Raises :class:`~shangrao.sim.batch.BatchError` for a bad argument.
    """

    def __init__(self, num_envs: int = 256, seats: Sequence[str] = ("learner",) * 4,
                 rules: RuleSet = DEFAULT_RULES, reward: str = "points") -> None:
        if (isinstance(num_envs, (bool, np.bool_)) or not isinstance(num_envs, (int, np.integer))
                or not 1 <= num_envs <= MAX_ENVS):
            raise BatchError(f"num_envs: an int 1..{MAX_ENVS} (a game holds about 70 kB), got {num_envs!r}")
        if not isinstance(rules, RuleSet):
            raise BatchError(f"rules: a RuleSet, got {type(rules).__name__}")
        if not isinstance(reward, str) or reward not in ("points", "normalized"):
            raise BatchError(f"reward: 'points' or 'normalized', got {reward!r}")
        if (isinstance(seats, (str, bytes)) or not isinstance(seats, (Sequence, np.ndarray))
                or np.ndim(seats) != 1 or len(seats) != 4):
            raise BatchError(f"seats: a sequence of 4 names in seat order ('learner' or a core bot: random, greedy, "
                             f"ukeire), got {seats!r}")
        codes = []
        for s, name in enumerate(seats):
            key = str(name).strip().lower()
            if key == "learner":
                codes.append(C.BOT_EXTERNAL)
            elif key in STEP_BOTS:
                codes.append(CORE_BOTS[key])
            else:
                raise BatchError(f"seats[{s}]: {name!r} is neither 'learner' nor a core bot (random, greedy, ukeire)")
        if C.BOT_EXTERNAL not in codes:
            raise BatchError(f"seats: at least one seat must be 'learner', got {tuple(seats)!r}")
        n = int(num_envs)
        self.num_envs = n
        self.seats = tuple(str(s).strip().lower() for s in seats)
        self.rules = rules
        self.reward = reward
        self._scale = np.float32(1.0 if reward == "points" else 1.0 / NORMALIZE_POINTS)
        self._rules = encode_rules(rules)
        self._bots = np.array(codes, dtype=np.int32)
        self._tb = K.tables()
        self._st = np.zeros((n, C.STATE_SIZE), dtype=C.ST_DTYPE)
        self._ev = np.zeros((n, C.MAX_EVENTS, C.EV_WIDTH), dtype=C.ST_DTYPE)
        self._dec = np.zeros((n, C.MAX_DECISIONS), dtype=np.int32)
        self._mts = np.zeros((n, 4, 625), dtype=np.uint32)
        self._hmt = np.zeros((n, 625), dtype=np.uint32)
        self._seeds = np.zeros(n, dtype=np.int64)
        self._dealers = np.zeros(n, dtype=np.int32)
        self._asked = np.zeros(n, dtype=np.int32)
        self._rewards = np.zeros((n, 4), dtype=np.float32)
        self._term = np.zeros(n, dtype=np.bool_)
        self._last_seed = np.zeros(n, dtype=np.int64)
        self._last_dealer = np.zeros(n, dtype=np.int32)
        self._last_dec = np.zeros((n, C.MAX_DECISIONS), dtype=np.int32)
        self._last_ndec = np.zeros(n, dtype=np.int32)
        self._skipped = np.zeros(n, dtype=np.int64)
        self._obs = np.zeros((n, N_PLANES, 34), dtype=np.int8)
        self._mask = np.zeros((n, N_ACTIONS), dtype=np.bool_)
        self._codes = np.full((n, N_ACTIONS), -1, dtype=np.int32)
        self._cur = np.zeros(n, dtype=np.int32)
        self._err = np.zeros(1, dtype=np.int32)
        self._ready = False

    def __repr__(self) -> str:
        return (f"VectorEnv(num_envs={self.num_envs}, seats={self.seats!r}, rules={self.rules!r}, "
                f"reward={self.reward!r})")

    @property
    def skipped_hands(self) -> np.ndarray:
        """int64 ``[N]``: hands of each game since ``reset`` that ended before any learner seat decided."""
        return self._skipped.copy()

    def _args(self) -> tuple:
        return (self._st, self._ev, self._dec, self._rules, self._tb, self._bots, self._mts, self._hmt,
                _BOT_RULES, self._seeds, self._dealers, self._asked, self._rewards, self._term,
                self._last_seed, self._last_dealer, self._last_dec, self._last_ndec, self._skipped,
                self._obs, self._mask, self._codes, self._cur)

    def _batch(self) -> Batch:
        rewards = self._rewards * self._scale if self.reward != "points" else self._rewards.copy()
        return Batch(self._obs.copy(), self._mask.copy(), self._cur.copy(), rewards, self._term.copy(),
                     self._seeds.copy(), self._dealers.copy())

    def _internal(self, bad: int) -> EngineError:
        self._ready = False  # a game's state is not trusted any more: reset() before stepping again
        return EngineError(f"game {bad - 1} (hand seed {int(self._seeds[bad - 1])}): internal error "
                           f"{int(self._err[0])} of the core; reset() the environment")

    def reset(self, seed: int | str | Sequence[int | str] | None = None) -> Batch:
        """Seed every game and play each to its first learner decision.

        seed: an int or a str (game ``i`` then plays from ``f"{seed}:{i}"``), a sequence of one int or
        str per game, or None (fresh randomness).  Returns the first :class:`Batch`; raises
        :class:`~shangrao.sim.batch.BatchError` naming a bad seed.
        """
        n = self.num_envs
        if seed is None:
            import secrets

            seed = secrets.randbits(63)
        if isinstance(seed, np.ndarray) and seed.ndim == 0:
            seed = seed.item()
        if isinstance(seed, (bool, np.bool_, bytes, bytearray, memoryview)):
            raise BatchError(f"seed: an int, a str, one per game, or None, got {seed!r}")
        if isinstance(seed, (str, int, np.integer)):
            per: list[int | str] = [f"{seed}:{i}" for i in range(n)]
            where = ["seed"] * n
        elif isinstance(seed, (Sequence, np.ndarray)):
            items = list(seed)
            if len(items) != n:
                raise BatchError(f"seed: one seed or one per game ({n}), got {len(items)}")
            per = []
            for i, x in enumerate(items):
                if isinstance(x, (bool, np.bool_)) or not isinstance(x, (str, int, np.integer)):
                    raise BatchError(f"seed[{i}]: a seed of game {i} is an int or a str, got {x!r}")
                per.append(x if isinstance(x, str) else int(x))
            where = [f"seed[{i}]" for i in range(n)]
        else:
            raise BatchError(f"seed: an int, a str, one per game, or None, got {seed!r}")
        # every key first, so that a seed refused here leaves the games as they were
        keys = []
        for i, x in enumerate(per):
            try:
                keys.append((C.seed_key(x), [C.seed_key(f"{x}:{p}") for p in range(4)]))
            except (UnicodeError, TypeError) as err:
                raise BatchError(f"{where[i]}: the seed of game {i} cannot be used ({err})") from None
        self._ready = False
        for i, (k, bot_keys) in enumerate(keys):
            C.mt_seed(self._hmt[i], k)
            for p in range(4):
                C.mt_seed(self._mts[i, p], bot_keys[p])
        self._last_ndec[:] = 0
        kernel: Any = reset_batch  # (numba's Dispatcher is typed for fixed arguments)
        bad = kernel(*self._args(), self._err)
        if bad:
            raise self._internal(bad)
        self._ready = True
        return self._batch()

    def step(self, actions: Any) -> Batch:
        """Apply ``actions`` (int ``[N]``: one legal flat action per game, for its deciding seat) and
        play every game on to its next learner decision.  Returns the next :class:`Batch`.

        Raises :class:`~shangrao.sim.batch.BatchError` naming the field and the game — ``actions`` of
        another shape, not integers, out of 0..109, or not legal in one game — and then steps *no*
        game (call again with corrected actions); ``BatchError`` also before the first ``reset``.
        """
        if not self._ready:
            raise BatchError("step: call reset() first")
        n = self.num_envs
        if isinstance(actions, np.ma.MaskedArray):
            raise BatchError("actions: a masked array; give one flat action per game, unmasked")
        if isinstance(actions, (list, tuple)) and any(isinstance(x, (bool, np.bool_)) for x in actions):
            i = next(i for i, x in enumerate(actions) if isinstance(x, (bool, np.bool_)))
            raise BatchError(f"actions[{i}]: {actions[i]!r} of game {i} is a bool, not a flat action")
        try:
            a = np.asarray(actions)
        except (ValueError, TypeError) as err:
            raise BatchError(f"actions: one flat action per game, shape ({n},), not {type(actions).__name__} "
                             f"({err})") from None
        if a.shape != (n,):
            raise BatchError(f"actions: one flat action per game, shape ({n},), got {a.shape}")
        if a.dtype.kind not in "iu":
            raise BatchError(f"actions: integer flat actions 0..{N_ACTIONS - 1}, got dtype {a.dtype}")
        bad = np.flatnonzero((a < 0) | (a >= N_ACTIONS))
        if bad.size:
            i = int(bad[0])
            raise BatchError(f"actions[{i}]: flat action {int(a[i])} of game {i} is out of range 0..{N_ACTIONS - 1}; "
                             f"no game was stepped")
        a = a.astype(np.int64)
        i = check_actions(self._codes, a)
        if i >= 0:
            legal = ", ".join(f"{f} ({action_name(int(f))})" for f in np.flatnonzero(self._mask[i]))
            raise BatchError(f"actions[{i}]: flat action {int(a[i])} ({action_name(int(a[i]))}) is not legal in game "
                             f"{i} (seat {int(self._cur[i])}, hand seed {int(self._seeds[i])}); legal: {legal}; "
                             f"no game was stepped")
        kernel: Any = step_batch
        bad = kernel(*self._args(), a, self._err)
        if bad:
            raise self._internal(bad)
        return self._batch()

    def decisions(self, i: int, last: bool = False) -> tuple[int, int, list[Action]]:
        """``(hand_seed, dealer, actions)`` of game ``i``'s hand now played — or, ``last=True``, of its
        last hand that ended with a learner decision: every decision so far, forced ones and the
        bots' included, so that ``Game(rules, seed=hand_seed, dealer=dealer)`` with each action
        applied is the core's hand.  Raises :class:`~shangrao.sim.batch.BatchError` for a bad ``i``, before
        ``reset``, or with ``last`` before the game ended such a hand."""
        if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)) or not 0 <= i < self.num_envs:
            raise BatchError(f"i: a game index 0..{self.num_envs - 1}, got {i!r}")
        if not self._ready:
            raise BatchError("decisions: call reset() first")
        if last:
            nd = int(self._last_ndec[i])
            if nd == 0:
                raise BatchError(f"decisions: game {i} has not ended a hand with a learner decision since reset()")
            return (int(self._last_seed[i]), int(self._last_dealer[i]),
                    [code_action(int(c)) for c in self._last_dec[i, :nd]])
        nd = int(self._st[i, C._O_NDEC])
        return int(self._seeds[i]), int(self._dealers[i]), [code_action(int(c)) for c in self._dec[i, :nd]]
