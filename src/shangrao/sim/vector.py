"""A batched environment on the compiled core: N tables stepped together, observations and masks as arrays.

:class:`VectorEnv` plays ``num_envs`` hands at once inside :mod:`shangrao.sim.core`: the seats named
``"learner"`` stop the core at their decisions and the whole batch is handed over as arrays
(observation planes, action masks, the deciding seat, game ids); :meth:`VectorEnv.step` takes one
flat action per game back, and the core plays on — its own bots (``random``, ``greedy``, ``ukeire``)
at the other seats — to every game's next learner decision.  One Python call a batch, none a game;
frozen ``policy:`` opponents are asked once per batch and policy (below).

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
Seats               ``seats``: 4 entries, each ``"learner"``, a core bot (``random``, ``greedy``, ``ukeire``,
                    ``search`` / ``search:OPT...`` — played inside the core), ``"policy:PATH"`` or a policy
                    callable (a frozen opponent: batched NumPy inference, below); at least one learner;
                    ``("learner",) * 4`` (default) is self-play, several learners share the batch
Policy seats        the games whose next decision is a ``policy:`` seat's are gathered per policy, asked
                    in one call (an ``mlp-features`` checkpoint gets its per-action features from the core,
                    :mod:`shangrao.sim.features`) and stepped in one core call, until every game waits for
                    a learner: no Python per decision or per game; the legal action of the highest logit
Features            ``features=1`` or ``2``: ``action_features`` float32 ``[N, 110, F]``, the per-action features
                    of :mod:`shangrao.bots.features` of each decision, computed in the core
state()             int8 ``[N, 82, 34]``: exactly ``encode_state`` (every seat's planes, the live wall, the next
                    draw) — the perfect-information planes of the parallel environment's ``state()``
Actions             ``step(actions)``: int ``[N]``, flat actions 0..109 (the table of :mod:`shangrao.env`)
observation         int8 ``[N, 20, 34]``: the deciding seat's planes, exactly
                    ``encode_observation(game.observation(seat))`` (:mod:`shangrao.encoding`; ``hands_left`` 1)
legal_action_mask   bool ``[N, 110]``: exactly the deciding seat's legal flat actions (never all False)
current_player      int32 ``[N]``: the deciding seat, 0..3 (always a learner seat)
action_features     float32 ``[N, 110, F]`` with ``features=`` set, else None
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
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from ..encoding import action_name
from ..game.actions import Action
from ..game.state import EngineError
from ..rules import DEFAULT_RULES, RuleSet
from . import core as C
from . import features as SF
from . import kernels as K
from . import schema as S
from . import search as SR
from .batch import BatchError
from .core import Codes, Rules, Setup, State, Stream, Tables
from .events import code_action
from .rules import encode_rules
from .schema import OFS, HandView

__all__ = ["Batch", "MAX_ENVS", "NORMALIZE_POINTS", "N_STATE_ROWS", "VectorEnv"]

#: ``reward="normalized"`` divides the points by this (as the PettingZoo environment's ``NORMALIZE_POINTS``)
NORMALIZE_POINTS = 10
#: the largest batch :class:`VectorEnv` takes (each game holds about 70 kB of state and buffers)
MAX_ENVS = 1 << 16

# ------------------------------------------------------------------------------------- flat actions
N_ACTIONS = 110
N_PLANES = 20
#: rows of :meth:`VectorEnv.state`: every seat's planes, the live wall, the next draw (``encode_state``)
N_STATE_ROWS = 4 * N_PLANES + 2
_SC = 19  # the scalars row
_S_TILES_LEFT, _S_DEALER, _S_FLOWN, _S_SIZE, _S_BAO_DRAWN, _S_PHASE = 0, 1, 5, 9, 13, 14
_S_DISCARDER, _S_KONG_MAKER, _S_CHAIN, _S_FIRST, _S_SEAT, _S_HANDS_LEFT = 19, 23, 27, 28, 29, 33


@njit(cache=True)
def _flat_of(st: State, code: int) -> int:
    """The flat index (:mod:`shangrao.encoding`) of a core action code of the deciding seat."""
    t = code // 34
    k = code - t * 34
    if t == C.T_DISCARD:
        return k
    if t == C.T_CHOW:
        return 34 + st[OFS.cl_kind] - k
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
def _observe(
    st: State,
    rules: Rules,
    tb: Tables,
    buf: Codes,
    obs: npt.NDArray[np.int8],
    mask: npt.NDArray[np.bool_],
    codes: Codes,
) -> int:
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
    me = st[OFS.cur]
    _planes(st, me, obs)
    return me


@njit(cache=True)
def _planes(st: State, me: int, obs: npt.NDArray[np.int8]) -> None:
    """The planes (int8[20, 34]) of seat ``me`` as ``encode_observation(game.observation(me), 1)``: the
    drawn tile only for the seat to act."""
    obs[:, :] = 0
    seen = np.zeros(34, dtype=np.int32)
    co = OFS.counts + me * 34
    for k in range(34):
        c = st[co + k]
        obs[0, k] = c
        seen[k] = c
    ph = st[OFS.phase]
    if ph == C.P_ACT and me == st[OFS.cur]:
        ld = st[OFS.last_draw + me]
        if ld >= 0:
            obs[1, ld >> 2] = 1
    for s in range(4):
        r = (s - me) % 4
        for i in range(st[OFS.n_melds + s]):
            mo = OFS.melds + (s * 4 + i) * S.MELD_W
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
        do = OFS.discards + s * S.DISC_MAX
        for i in range(st[OFS.n_discards + s]):
            tid = st[do + i]
            if tid >= 0:
                obs[10 + r, tid >> 2] += 1
                seen[tid >> 2] += 1
        fl = st[OFS.flown + s]
        obs[_SC, _S_FLOWN + r] = fl if fl < 4 else 4
        size = 0
        so = OFS.counts + s * 34
        for k in range(34):
            size += st[so + k]
        obs[_SC, _S_SIZE + r] = size
    obs[14, st[OFS.bao]] = 1
    ind = st[OFS.indicator] >> 2
    obs[15, ind] = 1
    seen[ind] += 1
    if ph == C.P_CLAIM:
        obs[16, st[OFS.cl_kind]] = 1
        obs[_SC, _S_DISCARDER + (st[OFS.cl_discarder] - me) % 4] = 1
    if st[OFS.pk_active]:
        kk = st[OFS.pk_kind]
        obs[17, kk] = 1
        obs[_SC, _S_KONG_MAKER + (st[OFS.pk_seat] - me) % 4] = 1
        seen[kk] = 4
    for k in range(34):
        obs[18, k] = seen[k] if seen[k] < 4 else 4
    tl = st[OFS.tail] - st[OFS.head] + 1
    obs[_SC, _S_TILES_LEFT] = tl if tl < 127 else 127
    obs[_SC, _S_DEALER + (st[OFS.dealer] - me) % 4] = 1
    obs[_SC, _S_BAO_DRAWN] = st[OFS.bao_drawn + me]
    obs[_SC, _S_PHASE + ph] = 1
    ch = st[OFS.kong_chain]
    obs[_SC, _S_CHAIN] = ch if ch < 4 else 4
    obs[_SC, _S_FIRST] = 1 if st[OFS.first_discard] else 0
    obs[_SC, _S_SEAT + me] = 1
    obs[_SC, _S_HANDS_LEFT] = 1


@njit(cache=True)
def state_batch(g: Games, out: npt.NDArray[np.int8]) -> None:
    """``out[i]`` (int8[N_STATE_ROWS, 34]) = ``encode_state`` of game ``i``: each seat's planes in seat
    order, the live wall's kinds, the kind of the next draw from the head."""
    for i in range(g.st.shape[0]):
        st = g.st[i]
        o = out[i]
        for s in range(4):
            _planes(st, s, o[s * N_PLANES : (s + 1) * N_PLANES])
        w = 4 * N_PLANES
        o[w, :] = 0
        o[w + 1, :] = 0
        head = st[OFS.head]
        tail = st[OFS.tail]
        for j in range(head, tail + 1):
            o[w, st[OFS.live + j] >> 2] += 1
        if tail >= head:
            o[w + 1, st[OFS.live + head] >> 2] = 1


@njit(cache=True)
def _hand_key(hmt: Stream, key: npt.NDArray[np.uint32]) -> tuple[int, int]:
    """Draw the next hand's seed (an int < 2**63) from the game's stream; its seed key into ``key``
    (uint32[2]); returns (seed, key length)."""
    lo = C.mt_next(hmt)
    hi = C.mt_next(hmt) & 0x7FFFFFFF
    key[0] = lo
    key[1] = hi
    return (hi << 32) | lo, 2 if hi else 1


class Games(NamedTuple):
    """The state of a batch of N games, batch first: each hand's state (``int64[N, STATE_SIZE]``, fields
    in :mod:`shangrao.sim.schema`), event rows, decisions and random streams, and what the Python
    side reads after a call (rewards, terminations, the last ended hand's decisions, observations)."""

    st: npt.NDArray[np.int64]  #: [N, STATE_SIZE] the hands
    ev: npt.NDArray[np.int64]  #: [N, MAX_EVENTS, EV_WIDTH] their event rows
    dec: npt.NDArray[np.int32]  #: [N, MAX_DECISIONS] their decisions
    mts: npt.NDArray[np.uint32]  #: [N, 4, 625] each seat's bot stream
    hmt: npt.NDArray[np.uint32]  #: [N, 625] each game's hand-seed stream
    seeds: npt.NDArray[np.int64]  #: [N] the hand's seed
    dealers: npt.NDArray[np.int32]  #: [N] the hand's dealer
    asked: npt.NDArray[np.int32]  #: [N] learner decisions in the hand
    rewards: npt.NDArray[np.float32]  #: [N, 4] points of the hand ended in this step
    term: npt.NDArray[np.bool_]  #: [N] a hand ended in this step
    last_seed: npt.NDArray[np.int64]  #: [N] the last ended hand's seed
    last_dealer: npt.NDArray[np.int32]  #: [N] … its dealer
    last_dec: npt.NDArray[np.int32]  #: [N, MAX_DECISIONS] … its decisions
    last_ndec: npt.NDArray[np.int32]  #: [N] … how many
    skipped: npt.NDArray[np.int64]  #: [N] hands ended before a learner decided
    obs: npt.NDArray[np.int8]  #: [N, 20, 34] the deciding seat's planes
    mask: npt.NDArray[np.bool_]  #: [N, 110] its legal flat actions
    codes: npt.NDArray[np.int32]  #: [N, 110] the core code of each legal flat action (-1: none)
    cur: npt.NDArray[np.int32]  #: [N] the deciding seat
    err: npt.NDArray[np.int32]  #: [1] the internal error code of the game that failed


class Search(NamedTuple):
    """The ``search`` seats' parameters (:func:`shangrao.sim.search.default_params`; ``params[P_WORLDS]``
    0: no search seat, the core's loop plays) and the behaviour model's table (:func:`~shangrao.sim.search.weights_for`)."""

    params: npt.NDArray[np.int64]
    lr: npt.NDArray[np.float64]


class Scratch(NamedTuple):
    """The work arrays of a batch call: the legal-action buffer, a hand's seed key, "no scripted wall",
    "no dice", four zero scores, an empty script."""

    buf: npt.NDArray[np.int32]
    key: npt.NDArray[np.uint32]
    no_wall: npt.NDArray[np.int32]
    no_dice: npt.NDArray[np.int32]
    zero4: npt.NDArray[np.int64]
    script: npt.NDArray[np.int32]


@njit(cache=True)
def _new_hand(g: Games, cfg: Setup, i: int, sc: Scratch) -> None:
    """Deal game ``i``'s next hand: its seed and dealer drawn from the game's stream."""
    hmt = g.hmt[i]
    s, klen = _hand_key(hmt, sc.key)
    d = C.mt_below(hmt, 4)
    g.seeds[i] = s
    g.dealers[i] = d
    C.new_hand(g.st[i], g.ev[i], cfg.rules, cfg.tb, sc.key[:klen], d, sc.zero4, 0, sc.no_wall, sc.no_dice)


@njit(cache=True)
def _play_on(g: Games, cfg: Setup, i: int, sc: Scratch, sr: Search) -> int:
    """Play game ``i`` on (core bots, ``search`` seats) to its next outside decision — a learner's or a
    ``policy:`` seat's (both ``BOT_EXTERNAL`` in the core) — starting new hands as hands end.
    A hand with a learner decision that ends adds its deltas to ``rewards[i]`` and sets ``term[i]``;
    one that ends before any learner seat decided (a bot's 天糊, say) is counted in ``skipped[i]``.
    Returns 0, or the core's internal error code."""
    st = g.st[i]
    dec = g.dec[i]
    while True:
        if sr.params[SR.P_WORLDS] > 0:
            SR.play_to_end(
                st, g.ev[i], dec, cfg.rules, cfg.tb, cfg.bots, g.mts[i], sc.script, 0, cfg.bot_rules, sr.params, sr.lr
            )
        else:
            C.play_to_end(st, g.ev[i], dec, cfg.rules, cfg.tb, cfg.bots, g.mts[i], sc.script, 0, cfg.bot_rules)
        if st[OFS.error]:
            return st[OFS.error]
        if st[OFS.phase] != C.P_OVER:
            return 0
        if g.asked[i]:
            for s in range(4):
                g.rewards[i, s] += st[OFS.scores + s] - st[OFS.start + s]
            g.term[i] = True
            g.last_seed[i] = g.seeds[i]
            g.last_dealer[i] = g.dealers[i]
            nd = st[OFS.n_decisions]
            g.last_ndec[i] = nd
            for j in range(nd):  # not a slice assignment: see core.play_matches
                g.last_dec[i, j] = dec[j]
        else:
            g.skipped[i] += 1
        g.asked[i] = 0
        _new_hand(g, cfg, i, sc)


@njit(cache=True)
def _scratch() -> Scratch:
    """A fresh :class:`Scratch`."""
    return Scratch(
        np.zeros(48, dtype=np.int32),
        np.zeros(2, dtype=np.uint32),
        np.full(136, -1, dtype=np.int32),
        np.zeros(2, dtype=np.int32),
        np.zeros(4, dtype=np.int64),
        np.zeros(1, dtype=np.int32),
    )


@njit(cache=True)
def reset_batch(g: Games, cfg: Setup, sr: Search) -> int:
    """Start a hand in every game (the streams ``hmt``/``mts`` already seeded) and play each to its
    first outside decision (a learner's or a policy seat's: :meth:`VectorEnv.reset` serves the
    policy seats); write the observations.  Returns 0, or ``1 + i`` for an internal error
    of game ``i`` (its code in ``err``)."""
    n = g.st.shape[0]
    sc = _scratch()
    for i in range(n):
        g.asked[i] = 0
        g.skipped[i] = 0
        g.term[i] = False
        for s in range(4):
            g.rewards[i, s] = 0
        _new_hand(g, cfg, i, sc)
        e = _play_on(g, cfg, i, sc, sr)
        if e:
            g.err[0] = e
            return 1 + i
        g.cur[i] = _observe(g.st[i], cfg.rules, cfg.tb, sc.buf, g.obs[i], g.mask[i], g.codes[i])
        g.term[i] = False
    return 0


@njit(cache=True)
def check_actions(codes: npt.NDArray[np.int32], actions: npt.NDArray[np.int64]) -> int:
    """The first game whose action is not legal (``codes[i, a] < 0``), or -1."""
    for i in range(actions.shape[0]):
        if codes[i, actions[i]] < 0:
            return i
    return -1


@njit(cache=True)
def _apply(g: Games, cfg: Setup, i: int, code: int, sc: Scratch, sr: Search) -> int:
    """Apply the core ``code`` for game ``i``'s deciding seat, play on to its next outside decision
    (autoreset) and write its observation.  Returns 0, or the core's internal error code."""
    st = g.st[i]
    offered = st[OFS.phase] == C.P_ACT and g.codes[i, 107] >= 0
    nd = st[OFS.n_decisions]
    g.dec[i, nd] = code
    st[OFS.n_decisions] = nd + 1
    C.push(st, g.ev[i], cfg.rules, cfg.tb, code, offered)
    e = _play_on(g, cfg, i, sc, sr)
    if e:
        return e
    g.cur[i] = _observe(st, cfg.rules, cfg.tb, sc.buf, g.obs[i], g.mask[i], g.codes[i])
    return 0


@njit(cache=True)
def step_batch(g: Games, cfg: Setup, actions: npt.NDArray[np.int64], sr: Search) -> int:
    """Apply ``actions[i]`` (a legal flat action, checked by :func:`check_actions`) in every game,
    play on to the next outside decision (autoreset), write rewards, terminations and observations.
    Returns 0, or ``1 + i`` for an internal error of game ``i``."""
    n = g.st.shape[0]
    sc = _scratch()
    for i in range(n):
        g.term[i] = False
        for s in range(4):
            g.rewards[i, s] = 0
        g.asked[i] += 1
        e = _apply(g, cfg, i, g.codes[i, actions[i]], sc, sr)
        if e:
            g.err[0] = e
            return 1 + i
    return 0


@njit(cache=True)
def step_some(g: Games, cfg: Setup, games: npt.NDArray[np.int64], actions: npt.NDArray[np.int64], sr: Search) -> int:
    """The ``policy:`` seats' decisions: ``actions[j]`` (legal, checked) in game ``games[j]``; rewards and
    terminations add up (a learner's step is not over) and a learner's ``asked`` count stays.
    Returns 0, or ``1 + i`` for an internal error of game ``i``."""
    sc = _scratch()
    for j in range(games.shape[0]):
        i = games[j]
        e = _apply(g, cfg, i, g.codes[i, actions[j]], sc, sr)
        if e:
            g.err[0] = e
            return 1 + i
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
    deals it).  action_features: float32 ``[N, 110, F]`` (the environment's ``features`` version), or None.
    """

    observation: np.ndarray
    legal_action_mask: np.ndarray
    current_player: np.ndarray
    rewards: np.ndarray
    terminated: np.ndarray
    hand_seed: np.ndarray
    dealer: np.ndarray
    action_features: np.ndarray | None = None


#: the seats :class:`VectorEnv` takes besides ``"learner"``: the core's bots, ``search[:OPT]...`` and ``policy:PATH``
SEAT_HELP = (
    "a core bot (random, greedy, ukeire, search or search:OPT...), 'policy:PATH' (a saved policy), or a "
    "policy callable (planes, mask) -> logits or actions"
)


def _opponent_actions(policy: Any, planes: np.ndarray, mask: np.ndarray, who: str) -> np.ndarray:
    """One legal flat action per row from a frozen policy (the highest legal logit, as ``PolicyBot``
    plays): an ``mlp-features`` :class:`~shangrao.bots.policy.MLPPolicy` gets its per-action features
    from the core (:mod:`.features`), any other policy is called as ``policy(planes, mask)``."""
    from ..bots.policy import MLPPolicy

    mask8 = mask.astype(np.int8)
    if isinstance(policy, MLPPolicy) and policy.arch == "mlp-features":
        f = np.zeros((len(planes), N_ACTIONS, SF.n_features(policy.feature_version)), dtype=np.float32)
        kernel: Any = SF.batch_features
        kernel(planes, mask, policy.feature_version, K.tables(), SF.VALUE_RULES, f)
        out = np.asarray(policy.logits(planes, mask8, f))
    else:
        out = np.asarray(policy(planes, mask8))
    if out.ndim == 1 and out.shape[0] == len(planes) and out.dtype.kind in "iu":
        acts = out.astype(np.int64)
        bad = np.flatnonzero((acts < 0) | (acts >= N_ACTIONS))
        if not bad.size:
            bad = np.flatnonzero(~mask[np.arange(len(acts)), acts])
        if bad.size:
            raise EngineError(f"{who}: returned flat action {int(acts[bad[0]])}, not legal there")
        return acts
    if out.shape != (len(planes), N_ACTIONS):
        raise EngineError(
            f"{who}: the policy returned shape {out.shape}; expected ({len(planes)},) actions or "
            f"({len(planes)}, {N_ACTIONS}) logits"
        )
    return np.asarray(np.where(mask, out.astype(np.float64), -np.inf).argmax(axis=1), dtype=np.int64)


class VectorEnv:
    """``num_envs`` Shangrao tables stepped together in the compiled core (the module docstring is
    its documentation: spec, seeds, autoreset, errors).

    num_envs: the batch size N (a positive int).  seats: 4 entries, each ``"learner"``, a core bot
    (``random``, ``greedy``, ``ukeire``, ``search`` or ``search:OPT...`` as the bot spec — one search spec
    per environment), ``"policy:PATH"`` (a saved policy, :func:`~shangrao.bots.policy.load_policy`, played
    frozen with batched NumPy inference: the legal action of its highest logit) or a policy callable
    ``(planes, mask) -> logits or actions``; at least one learner.  rules: a
    :class:`~shangrao.rules.RuleSet` (default :data:`~shangrao.rules.DEFAULT_RULES`; the core's
    ``greedy``/``ukeire`` bots score their 偷机 choices under the default rules, as ``GreedyBot``
    does).  reward: ``"points"`` (hand deltas, points) or ``"normalized"`` (divided by
    ``NORMALIZE_POINTS`` = 10).  features: None, or a feature version (1 or 2,
    :mod:`shangrao.bots.features`): each :class:`Batch` then carries ``action_features`` float32
    ``[N, 110, F]`` of its decisions, computed in the core.  Raises
    :class:`~shangrao.sim.batch.BatchError` for a bad argument (a ``policy:`` file that does not load
    included).
    """

    def __init__(
        self,
        num_envs: int = 256,
        seats: Sequence[Any] = ("learner",) * 4,
        rules: RuleSet = DEFAULT_RULES,
        reward: str = "points",
        features: int | None = None,
    ) -> None:
        if (
            isinstance(num_envs, (bool, np.bool_))
            or not isinstance(num_envs, (int, np.integer))
            or not 1 <= num_envs <= MAX_ENVS
        ):
            raise BatchError(f"num_envs: an int 1..{MAX_ENVS} (a game holds about 70 kB), got {num_envs!r}")
        if not isinstance(rules, RuleSet):
            raise BatchError(f"rules: a RuleSet, got {type(rules).__name__}")
        if not isinstance(reward, str) or reward not in ("points", "normalized"):
            raise BatchError(f"reward: 'points' or 'normalized', got {reward!r}")
        if features is not None:
            try:
                SF.n_features(features)
            except ValueError as err:
                raise BatchError(f"features: None or a feature version; {err}") from None
        if (
            isinstance(seats, (str, bytes))
            or not isinstance(seats, (Sequence, np.ndarray))
            or np.ndim(np.asarray(seats, dtype=object)) != 1
            or len(seats) != 4
        ):
            raise BatchError(f"seats: a sequence of 4 names in seat order ('learner', {SEAT_HELP}), got {seats!r}")
        codes = []
        names: list[str] = []
        roles = np.zeros(4, dtype=np.int64)  # 0: learner or core bot; j > 0: the policy self._policies[j - 1]
        policies: list[Any] = []
        search_spec: str | None = None
        params = np.zeros(SR.N_PARAMS, dtype=np.int64)
        for s, entry in enumerate(seats):
            if callable(entry) and not isinstance(entry, str):
                policies.append(entry)
                roles[s] = len(policies)
                codes.append(C.BOT_EXTERNAL)
                names.append(f"policy:{getattr(entry, 'name', type(entry).__name__)}")
                continue
            if not isinstance(entry, str):
                raise BatchError(f"seats[{s}]: {entry!r} is neither 'learner' nor {SEAT_HELP}")
            key = entry.strip().lower()
            if key == "learner":
                codes.append(C.BOT_EXTERNAL)
            elif key in C.CORE_BOTS and key != "external":
                codes.append(C.CORE_BOTS[key])
            elif key == "search" or key.startswith("search:"):
                from ..bots.search import search_params
                from ..errors import InputError

                if search_spec is not None and key != search_spec:
                    raise BatchError(f"seats[{s}]: one search spec per environment, got {search_spec!r} and {key!r}")
                try:
                    params = search_params(key)
                except InputError as err:
                    raise BatchError(f"seats[{s}]: {err}") from None
                search_spec = key
                codes.append(SR.BOT_SEARCH)
            elif key.startswith("policy:"):
                from ..bots.policy import PolicyLoadError, load_policy

                path = entry.strip()[len("policy:") :].strip()
                try:
                    policies.append(load_policy(path))
                except PolicyLoadError as err:
                    raise BatchError(f"seats[{s}]: {err}") from None
                roles[s] = len(policies)
                codes.append(C.BOT_EXTERNAL)
                names.append(f"policy:{path}")
                continue
            else:
                raise BatchError(f"seats[{s}]: {entry!r} is neither 'learner' nor {SEAT_HELP}")
            names.append(key)
        if not any(c == C.BOT_EXTERNAL and not roles[s] for s, c in enumerate(codes)):
            raise BatchError(f"seats: at least one seat must be 'learner', got {tuple(names)!r}")
        n = int(num_envs)
        self.num_envs = n
        self.seats = tuple(names)
        self.rules = rules
        self.reward = reward
        self.features = features
        self._roles = roles
        self._policies = policies
        self._search = Search(params, SR.weights_for(params))
        self._scale = np.float32(1.0 if reward == "points" else 1.0 / NORMALIZE_POINTS)
        self._setup = Setup(encode_rules(rules), K.tables(), np.array(codes, dtype=np.int32), C.BOT_RULES)
        self._g = Games(
            st=np.zeros((n, C.STATE_SIZE), dtype=C.ST_DTYPE),
            ev=np.zeros((n, C.MAX_EVENTS, C.EV_WIDTH), dtype=C.ST_DTYPE),
            dec=np.zeros((n, C.MAX_DECISIONS), dtype=np.int32),
            mts=np.zeros((n, 4, 625), dtype=np.uint32),
            hmt=np.zeros((n, 625), dtype=np.uint32),
            seeds=np.zeros(n, dtype=np.int64),
            dealers=np.zeros(n, dtype=np.int32),
            asked=np.zeros(n, dtype=np.int32),
            rewards=np.zeros((n, 4), dtype=np.float32),
            term=np.zeros(n, dtype=np.bool_),
            last_seed=np.zeros(n, dtype=np.int64),
            last_dealer=np.zeros(n, dtype=np.int32),
            last_dec=np.zeros((n, C.MAX_DECISIONS), dtype=np.int32),
            last_ndec=np.zeros(n, dtype=np.int32),
            skipped=np.zeros(n, dtype=np.int64),
            obs=np.zeros((n, N_PLANES, 34), dtype=np.int8),
            mask=np.zeros((n, N_ACTIONS), dtype=np.bool_),
            codes=np.full((n, N_ACTIONS), -1, dtype=np.int32),
            cur=np.zeros(n, dtype=np.int32),
            err=np.zeros(1, dtype=np.int32),
        )
        g = self._g  # the arrays the tests and tools read by their former names (the same arrays)
        self._st, self._obs, self._mask, self._dec = g.st, g.obs, g.mask, g.dec
        self._ready = False
        #: decisions the ``policy:`` seats took since the environment was made (all games)
        self.opponent_decisions = 0

    def __repr__(self) -> str:
        return (
            f"VectorEnv(num_envs={self.num_envs}, seats={self.seats!r}, rules={self.rules!r}, reward={self.reward!r}"
            f"{'' if self.features is None else f', features={self.features}'})"
        )

    @property
    def skipped_hands(self) -> np.ndarray:
        """int64 ``[N]``: hands of each game since ``reset`` that ended before any learner seat decided."""
        return self._g.skipped.copy()

    def _batch(self) -> Batch:
        g = self._g
        rewards = g.rewards * self._scale if self.reward != "points" else g.rewards.copy()
        f = None
        if self.features is not None:
            f = np.zeros((self.num_envs, N_ACTIONS, SF.n_features(self.features)), dtype=np.float32)
            kernel: Any = SF.batch_features
            kernel(g.obs, g.mask, self.features, self._setup.tb, SF.VALUE_RULES, f)
        return Batch(
            g.obs.copy(), g.mask.copy(), g.cur.copy(), rewards, g.term.copy(), g.seeds.copy(), g.dealers.copy(), f
        )

    def _serve_opponents(self) -> None:
        """Let the ``policy:`` seats decide, batched per policy, until every game waits for a learner."""
        if not self._policies:
            return
        g = self._g
        while True:
            who = self._roles[g.cur]
            pend = np.flatnonzero(who)
            if not pend.size:
                return
            acts = np.empty(pend.size, dtype=np.int64)
            for j, policy in enumerate(self._policies, 1):
                sel = who[pend] == j
                if sel.any():
                    idx = pend[sel]
                    seat = int(np.flatnonzero(self._roles == j)[0])
                    try:
                        acts[sel] = _opponent_actions(
                            policy, g.obs[idx], g.mask[idx], f"seats[{seat}] {self.seats[seat]}"
                        )
                    except Exception:
                        self._ready = False  # some games moved on, others not: reset() before stepping again
                        raise
            self.opponent_decisions += int(pend.size)
            kernel: Any = step_some
            bad = kernel(g, self._setup, pend.astype(np.int64), acts, self._search)
            if bad:
                raise self._internal(bad)

    def state(self) -> np.ndarray:
        """int8 ``[N, 82, 34]``: the perfect-information planes of every game now (for centralized critics
        and oracles), exactly :func:`shangrao.encoding.encode_state` of its position (``hands_left`` 1):
        rows ``20*s .. 20*s+19`` seat ``s``'s planes (absolute seat order, every concealed hand), row 80
        the live wall's kinds, row 81 the kind of the next draw.  Never hand it to a policy that plays
        (it shows the other hands and the wall).  :class:`~shangrao.sim.batch.BatchError` before ``reset``."""
        if not self._ready:
            raise BatchError("state: call reset() first")
        out = np.zeros((self.num_envs, N_STATE_ROWS, 34), dtype=np.int8)
        kernel: Any = state_batch
        kernel(self._g, out)
        return out

    def _internal(self, bad: int) -> EngineError:
        self._ready = False  # a game's state is not trusted any more: reset() before stepping again
        return EngineError(
            f"game {bad - 1} (hand seed {int(self._g.seeds[bad - 1])}): internal error "
            f"{int(self._g.err[0])} of the core; reset() the environment"
        )

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
            C.mt_seed(self._g.hmt[i], k)
            for p in range(4):
                C.mt_seed(self._g.mts[i, p], bot_keys[p])
        self._g.last_ndec[:] = 0
        kernel: Any = reset_batch  # (numba's Dispatcher is typed for fixed arguments)
        bad = kernel(self._g, self._setup, self._search)
        if bad:
            raise self._internal(bad)
        self._serve_opponents()
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
            raise BatchError(
                f"actions: one flat action per game, shape ({n},), not {type(actions).__name__} ({err})"
            ) from None
        if a.shape != (n,):
            raise BatchError(f"actions: one flat action per game, shape ({n},), got {a.shape}")
        if a.dtype.kind not in "iu":
            raise BatchError(f"actions: integer flat actions 0..{N_ACTIONS - 1}, got dtype {a.dtype}")
        bad = np.flatnonzero((a < 0) | (a >= N_ACTIONS))
        if bad.size:
            i = int(bad[0])
            raise BatchError(
                f"actions[{i}]: flat action {int(a[i])} of game {i} is out of range 0..{N_ACTIONS - 1}; "
                f"no game was stepped"
            )
        a = a.astype(np.int64)
        i = check_actions(self._g.codes, a)
        if i >= 0:
            legal = ", ".join(f"{f} ({action_name(int(f))})" for f in np.flatnonzero(self._g.mask[i]))
            raise BatchError(
                f"actions[{i}]: flat action {int(a[i])} ({action_name(int(a[i]))}) is not legal in game "
                f"{i} (seat {int(self._g.cur[i])}, hand seed {int(self._g.seeds[i])}); legal: {legal}; "
                f"no game was stepped"
            )
        kernel: Any = step_batch
        bad = kernel(self._g, self._setup, a, self._search)
        if bad:
            raise self._internal(bad)
        self._serve_opponents()
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
            nd = int(self._g.last_ndec[i])
            if nd == 0:
                raise BatchError(f"decisions: game {i} has not ended a hand with a learner decision since reset()")
            return (
                int(self._g.last_seed[i]),
                int(self._g.last_dealer[i]),
                [code_action(int(c)) for c in self._g.last_dec[i, :nd]],
            )
        nd = HandView(self._g.st[i]).n_decisions
        return int(self._g.seeds[i]), int(self._g.dealers[i]), [code_action(int(c)) for c in self._g.dec[i, :nd]]
