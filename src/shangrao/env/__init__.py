"""Reinforcement-learning environments for Shangrao Mahjong (上饶麻将): PettingZoo AEC and parallel, Gymnasium.

Install with ``pip install '.[rl]'`` (pettingzoo, gymnasium, numpy).  The
game engine (:mod:`shangrao.game`) is the only source of rules: the
environments translate its legal actions to a flat action space and its
per-seat :class:`~shangrao.game.Observation` to fixed-shape arrays.

Quick start::

    import numpy as np
    import shangrao.env

    env = shangrao.env.env()                         # PettingZoo AEC, 4 agents
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

    penv = shangrao.env.parallel_env()               # PettingZoo parallel: claims answered at once
    obs, infos = penv.reset(seed=1)
    while penv.agents:
        actions = {a: penv.action_space(a).sample(o["action_mask"]) for a, o in obs.items()}
        obs, rewards, terms, truncs, infos = penv.step(actions)

    import gymnasium
    genv = gymnasium.make("Shangrao-v1", opponents=("greedy", "random", "random"))
    obs, info = genv.reset(seed=1)
    obs, reward, terminated, truncated, info = genv.step(int(np.flatnonzero(obs["action_mask"])[0]))

Spec
====

=====================  =============================================================
Import                 ``from shangrao.env import raw_env, env, parallel_env`` / ``gymnasium.make("Shangrao-v1")``
Version                v1 (PettingZoo name ``shangrao_v1``; see "Version history")
Actions                Discrete(110), masked (``obs["action_mask"]``)
Agents                 ``player_0`` .. ``player_3`` (= engine seats 0..3)
Parallel API           yes: :func:`parallel_env` — every seat of a claim/rob window answers in one step
Vector API             ``shangrao.env.vector_env.ShangraoVectorEnv`` (``gymnasium.make_vec("Shangrao-v1",
                       vectorization_mode="vector_entry_point")``): N tables in the compiled core, one learner
                       seat each, ``SAME_STEP`` autoreset
Observation            ``Dict(observation=Box(0, high, (20, 34), int8), action_mask=Box(0, 1, (110,), int8))``
State                  ``state()``: perfect information, ``Box(0, high, (82, 34), int8)`` (``state_space``)
Episode                one hand (``hands=1``) or a match of ``hands=N`` hands
Rewards                ``reward="points"`` (default), ``"normalized"`` or ``"rank"`` (see "Rewards")
Deterministic          yes: ``reset(seed=S)`` fixes the match seed and the dealer
=====================  =============================================================

Options of ``raw_env(...)`` / ``env(...)`` (:class:`ShangraoAECEnv`):

* ``hands=1``: hands per episode (played as a :class:`~shangrao.game.Match`: the dealer
  rotates, scores carry over); the episode terminates after the last hand.
* ``rules=DEFAULT_RULES``: a :class:`~shangrao.rules.RuleSet` (``hands_per_match`` is set to ``hands``).
* ``dealer=None``: the dealer of the first hand; None draws it from the seed.
* ``reward=None``: ``"points"``, ``"normalized"`` or ``"rank"`` (see "Rewards"); None means
  ``"points"``, or ``"normalized"`` with ``normalize=True`` (the v0 option, kept).
* ``render_mode``: ``"ansi"`` (``render()`` returns the text) or ``"human"`` (``render()`` prints it
  and returns None; also printed after each step).  The render shows every hand: it is a debugging
  view, not an observation.
* Actions must be integers (Python or NumPy) in 0..109: a float (also ``3.0``), a bool, None for an
  agent that is not done, or an out-of-range integer raises
  :class:`~shangrao.env.encoding.InvalidActionError` (an ``IllegalActionError``, a ValueError)
  naming the action — in every environment, whatever ``illegal_action`` says.
* ``env(illegal_reward=-1.0)`` only: the wrapped env ends the episode on an illegal action,
  the offender gets ``illegal_reward`` (PettingZoo's TerminateIllegalWrapper); the raw env raises
  :class:`~shangrao.game.IllegalActionError` instead.

``reset(seed=S)`` seeds a ``random.Random(S)`` from which each episode draws its match seed
(and dealer); ``reset()`` without a seed draws the next episode from the same stream.  The
engine objects are on the unwrapped env: ``env.unwrapped.match``, ``.game`` (the current
:class:`~shangrao.game.Game`), ``.hand_results`` (the :class:`~shangrao.game.HandResult` of
each finished hand), ``.legal_actions()`` (``{flat index: Action}``).  When a hand ends,
``infos[agent]`` gets ``{"hand_no", "deltas"}``.

Action table
============

The flat index of an engine :class:`~shangrao.game.Action` (:func:`action_to_index`,
:func:`index_to_action`; ``claimed`` = kind of the discard on the table):

=========  ===================================  =============================================
Index      Engine action                        Meaning
=========  ===================================  =============================================
0 - 33     ``discard k``                        打: discard a tile of kind k (0-8 万, 9-17 筒,
                                                18-26 条, 27-33 东南西北白发中)
34         ``chow`` claimed..claimed+2          吃 with the claimed tile as the lowest
35         ``chow`` claimed-1..claimed+1        吃 with the claimed tile in the middle
36         ``chow`` claimed-2..claimed          吃 with the claimed tile as the highest
37         ``pung claimed``                     碰
38         ``kong claimed``                     杠 on the discard (碰杠 with a concealed triplet)
39 - 72    ``added_kong k`` (k = index - 39)    碰杠: add a held tile to the declared pung of k
73 - 106   ``concealed_kong k`` (k = index-73)  自摸杠: four of kind k in hand
107        ``win``                              糊 (self-draw, 杠开, 抢杠, 地糊, 天糊)
108        ``pass``                             过; passing when 107 is legal is 偷机 (declining a win)
109        ``catch_bao``                        接宝 on a discarded 宝 (the same seat decides again)
=========  ===================================  =============================================

Every legal engine action maps to exactly one index and ``action_mask`` is exactly the set
of legal indices (tested over thousands of random hands).  Only the agent to act has a
non-zero mask.

Observation planes
==================

``obs["observation"]`` is an int8 array of shape ``(20, 34)``: one row per plane, one
column per tile kind.  "Relative seat" r = (seat - observer) mod 4: 0 = self, 1 = 下家
(next, who may chow your discards), 2 = 对家 (opposite), 3 = 上家 (previous).  It is built
only from :meth:`Game.observation(seat) <shangrao.game.Game.observation>`, so it never holds
another seat's concealed tiles or the wall order.

=====  =================  ====  ===========================================================
Row    Name               Max   Content
=====  =================  ====  ===========================================================
0      hand               4     own concealed tiles, counts per kind (the drawn tile included)
1      drawn              1     one-hot of the tile just drawn (phase act), else zeros
2-5    melds_{r}          4     tiles in each relative seat's declared melds, counts per kind
6-9    kongs_{r}          2     kongs of each relative seat: 1 = exposed (on a discard or
                                added), 2 = concealed (自摸杠)
10-13  discards_{r}       4     each relative seat's discards still in front of it (claimed
                                removed), counts per kind
14     bao                1     one-hot of the 宝 kind
15     indicator          1     one-hot of the indicator kind (its tile is out of play)
16     claim_tile         1     one-hot of the discard on the table (phase claim)
17     rob_tile           1     one-hot of the kong tile that may be robbed (phase rob)
18     seen               4     copies of each kind the observer can account for (own hand,
                                all melds and discards, the indicator, a kong being declared)
19     scalars            -     the columns below
=====  =================  ====  ===========================================================

Columns of row 19 (``SCALAR``):

======  ===============  ==================================================================
Column  Name             Content
======  ===============  ==================================================================
0       tiles_left       live wall tiles left (≤ 83)
1-4     dealer           one-hot, relative seat of the dealer
5-8     flown            飞宝 (宝 discarded) per relative seat
9-12    hand_size        concealed tile count per relative seat
13      bao_drawn        宝 the observer has drawn this hand (3 allow 接宝, 4 = 四个宝)
14-18   phase            one-hot: act (just drew), discard (after 吃/碰), claim, rob, over
19-22   discarder        one-hot, relative seat of the discard on the table
23-26   kong_maker       one-hot, relative seat of the kong in the rob window
27      kong_chain       kongs in a row this turn (杠开 doubling), capped at 4
28      first_discard    1 if the discard on the table is the dealer's first (地糊 possible)
29-32   seat             one-hot, the observer's absolute seat
33      hands_left       hands of the episode left, the current one included
======  ===============  ==================================================================

Not encoded: cumulative scores (see ``infos`` / ``env.unwrapped.match.scores``) and the order
of discards (not measured yet whether it helps; the encoding is unchanged in v1).  A learner that needs more can build its own encoding from
``env.unwrapped.game.observation(seat)``.

Rewards
=======

``reward="points"`` (default): when a hand ends, every agent receives its ``HandResult.deltas[seat]``:
all points that moved in that hand (kong bonuses when a kong stands, 四个宝, 接宝, and the win
itself), so the rewards of a hand sum to zero and equal the engine's settlement.  All other steps
give 0 (a kong bonus is rewarded with the hand, not when it is paid).

``reward="normalized"`` (or ``normalize=True``): the same divided by ``NORMALIZE_POINTS`` (10 points,
about two standard deviations of a hand's delta between random bots).

``reward="rank"``: 0 until the match (the episode of ``hands`` hands) ends, then the match rank by
final score: 1st +1, 2nd +1/3, 3rd −1/3, 4th −1, tied seats sharing the mean of their places
(:data:`~shangrao.env.aec.RANK_REWARDS`; the rewards sum to 0).

Episodes never truncate (a hand ends by a win or with the wall).

Parallel API
============

:func:`parallel_env` (:class:`ShangraoParallelEnv`, a PettingZoo ``ParallelEnv``, same options and
spaces).  Outside a window one agent has a non-zero mask; in a claim window (a discard on the
table) or a rob window (an added kong), **every seat the engine would ask has its mask at once**
(:meth:`Game.window_options() <shangrao.game.Game.window_options>`) and answers in the same step;
the engine then applies the answers in its own order and priority (win over kong/pung over chow;
seat order from the discarder), so no seat learns from waiting that another could claim.  An
answer that a higher claim made moot is dropped (played as pass).  After 接宝 the same seat decides
again in the next step.  ``step(actions)`` ignores the actions of agents with an all-zero mask
(PettingZoo's sampler gives them 0); a deciding agent's action must be present, an integer and
legal, else ``IllegalActionError`` names it.  All agents stay in ``agents`` until the episode ends.
``parallel_api_test`` and ``parallel_seed_test`` pass (tests/env/test_parallel_env.py).

State
=====

``state()`` (AEC and parallel; ``state_space``) is the perfect-information view for centralized
critics and oracle guiding (:func:`~shangrao.env.encoding.encode_state`): int8 ``(82, 34)``; rows
``20*s .. 20*s+19`` are seat ``s``'s own observation planes (absolute seat order, so every
concealed hand is there), row 80 the live wall's tiles per kind, row 81 one-hot of the next tile
drawn from the wall's head.  Never give it to a policy that plays.

Gymnasium single-agent environment
==================================

``gymnasium.make("Shangrao-v1", **options)`` (registered when :mod:`shangrao.env` is
imported; ``Shangrao-v0`` stays registered, and Gymnasium warns that it is out of date)
or :class:`ShangraoGymEnv`: the learner plays one seat, three project bots play
the others.  Same observation and action spaces; the mask is also in ``info["action_mask"]``
and ``env.action_masks()``.

* ``opponents=("random", "random", "random")``: three bot names (:func:`shangrao.bots.get_bot`,
  seeded from the episode seed) or objects with ``choose(observation, legal_actions)``; one
  name fills all three seats.
* ``seat=None``: the learner's seat; None draws it per episode.  ``dealer=None`` likewise.
* ``hands``, ``rules``, ``normalize``: as above.  Reward of a step: the learner's deltas of
  the hands that ended during it.
* ``illegal_action="fallback"``: what an unmasked (illegal) action does.  ``"fallback"`` plays
  the most passive legal action instead (pass; else discard the drawn tile; else the
  highest-kind discard) and sets ``info["illegal_action"] = True``; ``"terminate"`` ends
  the episode with ``illegal_reward``; ``"raise"`` raises ``IllegalActionError``.
* An episode whose hands all end before the learner's first decision (a bot's 天糊 in a
  one-hand episode) is redrawn at ``reset``; ``info["skipped_episodes"]`` counts them.
* The observation returned with ``terminated=True`` has the mask ``PASS`` alone (never all zeros).

Vector environments and autoreset
---------------------------------

``gymnasium.make_vec("Shangrao-v1", num_envs=N, vectorization_mode="sync")`` (or
``SyncVectorEnv``/``AsyncVectorEnv``) works with every ``gymnasium.vector.AutoresetMode``:

* ``NEXT_STEP`` (Gymnasium's default): the step that ends an episode returns its terminal
  observation; the *next* ``step`` resets that sub-environment and ignores its action.  Because
  the terminal mask is ``PASS`` alone, a masked sampler always has a legal action to give there —
  before v1 that mask was all zeros and masked samplers failed once per episode.  Learners should
  drop the transition out of a terminal observation (CleanRL: ``next_done``).
* ``SAME_STEP``: the step that ends an episode resets at once and returns the first observation of
  the next episode (the terminal one is in ``info["final_obs"]``).
* ``DISABLED``: reset sub-environments yourself (``reset(options={"reset_mask": done})``).

tests/env/test_vector_autoreset.py checks, under each mode, that no observation handed to the
learner has an all-zero mask.

Batched environment on the compiled core
----------------------------------------

For many games at once without a Python call per game, :class:`shangrao.sim.vector.VectorEnv`
steps ``num_envs`` tables inside the compiled core (numba): the same observation planes and action
table as here (each game's planes are exactly ``encode_observation`` of its deciding seat), fields
named as pgx's batched ``State``, ``SAME_STEP`` autoreset, the core's ``random``/``greedy``/``ukeire``
bots at the other seats or self-play.  It needs NumPy and numba only (not this extra); its
docstring is its documentation page.

Version history
===============

* v1 (unreleased, after shangrao 0.1.0): PettingZoo ``shangrao_v1``, Gymnasium ``Shangrao-v1``.  Added the parallel
  environment (simultaneous claims), ``state()`` / ``state_space`` (perfect information),
  ``reward="points" | "normalized" | "rank"``.  Changed: ``render()`` in ``"human"`` mode prints and
  returns None (PettingZoo's ``render_test``); non-integer (float, bool, NumPy float) and
  out-of-range actions raise ``InvalidActionError`` instead of being truncated by ``int()``; the
  Gymnasium env's terminal observation has the mask ``PASS`` alone instead of all zeros.  Renamed
  after 0.1.0, before this version (old names importable with a ``DeprecationWarning``): the action
  constants ``DISCARD``, ``CHOW``, ``PUNG``, ``KONG``, ``ADDED_KONG``, ``CONCEALED_KONG``, ``WIN``,
  ``PASS``, ``CATCH_BAO`` → ``*_INDEX``; the planes ``pond_self`` … ``pond_previous`` →
  ``discards_self`` … (``PLANE_NAMES.index("pond_self")`` still answers 10).  Observation planes and
  the action table are unchanged from v0.

* v0 (shangrao 0.1): first release — 110 flat actions, 20×34 int8 planes, rewards from
  ``HandResult.deltas``; PettingZoo ``shangrao_v0``, Gymnasium ``Shangrao-v0``.
  Claim/rob windows: the planes never encoded who is deciding, and an agent's observation does
  not change while other seats pass or call in a window (tests/env/test_fair_observations.py);
  :meth:`Game.observation` now also hides the deciding seat from the others (issue 12), which
  leaves every encoded plane as it was — so no version bump.
"""

from __future__ import annotations

from typing import Any

try:
    import gymnasium
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as _err:  # pragma: no cover - depends on the installation
    raise ImportError(
        f"shangrao.env needs the rl extra (pettingzoo, gymnasium, numpy): "
        f"pip install '.[rl]' in the shangrao checkout ({_err})"
    ) from None

from .aec import (
    AGENTS,
    NORMALIZE_POINTS,
    RANK_REWARDS,
    REWARD_MODES,
    ShangraoAECEnv,
    env,
    raw_env,
)
from .encoding import (
    ADDED_KONG_INDEX,
    CATCH_BAO_INDEX,
    CHOW_INDEX,
    CONCEALED_KONG_INDEX,
    DISCARD_INDEX,
    KONG_INDEX,
    N_ACTIONS,
    N_PLANES,
    OBS_HIGH,
    OBS_SHAPE,
    PASS_INDEX,
    PLANE_NAMES,
    PUNG_INDEX,
    SCALAR,
    STATE_SHAPE,
    WIN_INDEX,
    InvalidActionError,
    action_mask,
    action_name,
    action_to_index,
    check_action,
    encode_observation,
    encode_state,
    index_to_action,
    legal_index_map,
)
from .gym_env import ShangraoGymEnv
from .parallel import ShangraoParallelEnv, parallel_env

__all__ = [
    "ADDED_KONG_INDEX",
    "AGENTS",
    "CATCH_BAO_INDEX",
    "CHOW_INDEX",
    "CONCEALED_KONG_INDEX",
    "DISCARD_INDEX",
    "GYM_ID",
    "KONG_INDEX",
    "NORMALIZE_POINTS",
    "N_ACTIONS",
    "N_PLANES",
    "OBS_HIGH",
    "OBS_SHAPE",
    "PASS_INDEX",
    "PLANE_NAMES",
    "PUNG_INDEX",
    "RANK_REWARDS",
    "REWARD_MODES",
    "SCALAR",
    "STATE_SHAPE",
    "WIN_INDEX",
    "InvalidActionError",
    "ShangraoAECEnv",
    "ShangraoGymEnv",
    "ShangraoParallelEnv",
    "action_mask",
    "action_name",
    "action_to_index",
    "check_action",
    "encode_observation",
    "encode_state",
    "env",
    "index_to_action",
    "legal_index_map",
    "parallel_env",
    "raw_env",
]

GYM_ID = "Shangrao-v1"

for _id in (GYM_ID, "Shangrao-v0"):  # v0: the same class; gymnasium.make warns that v1 exists
    if _id not in gymnasium.registry:
        gymnasium.register(
            id=_id,
            entry_point="shangrao.env.gym_env:ShangraoGymEnv",
            # gymnasium.make_vec(..., vectorization_mode="vector_entry_point"): the compiled batched env
            vector_entry_point="shangrao.env.vector_env:ShangraoVectorEnv" if _id == GYM_ID else None,
        )


def __getattr__(name: str) -> Any:
    from . import encoding

    return encoding.__getattr__(name)  # the names before v1 (DeprecationWarning), else AttributeError
