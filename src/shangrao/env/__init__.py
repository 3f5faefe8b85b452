"""Reinforcement-learning environments for Shangrao Mahjong (上饶麻将): PettingZoo AEC and Gymnasium.

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

    import gymnasium
    genv = gymnasium.make("Shangrao-v0", opponents=("greedy", "random", "random"))
    obs, info = genv.reset(seed=1)
    obs, reward, terminated, truncated, info = genv.step(int(np.flatnonzero(obs["action_mask"])[0]))

Spec
====

=====================  =============================================================
Import                 ``from shangrao.env import raw_env, env`` / ``gymnasium.make("Shangrao-v0")``
Actions                Discrete(110), masked (``obs["action_mask"]``)
Agents                 ``player_0`` .. ``player_3`` (= engine seats 0..3)
Parallel API           no (turn-based: exactly one seat decides at a time)
Observation            ``Dict(observation=Box(0, high, (20, 34), int8), action_mask=Box(0, 1, (110,), int8))``
Episode                one hand (``hands=1``) or a match of ``hands=N`` hands
Rewards                each hand's settlement: ``HandResult.deltas`` per seat (points; sum 0)
Deterministic          yes: ``reset(seed=S)`` fixes the match seed and the dealer
=====================  =============================================================

Options of ``raw_env(...)`` / ``env(...)`` (:class:`ShangraoAECEnv`):

* ``hands=1``: hands per episode (played as a :class:`~shangrao.game.Match`: the dealer
  rotates, scores carry over); the episode terminates after the last hand.
* ``rules=DEFAULT_RULES``: a :class:`~shangrao.rules.RuleSet` (``hands_per_match`` is set to ``hands``).
* ``dealer=None``: the dealer of the first hand; None draws it from the seed.
* ``normalize=False``: True divides every reward by ``NORMALIZE_POINTS`` (10 points, about two
  standard deviations of a hand's delta between random bots).
* ``render_mode``: ``"ansi"`` (``render()`` returns text) or ``"human"`` (prints after each step).
  The render shows every hand: it is a debugging view, not an observation.
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
of discards.  A learner that needs more can build its own encoding from
``env.unwrapped.game.observation(seat)``.

Rewards
=======

When a hand ends, every agent receives its ``HandResult.deltas[seat]``: all points that moved
in that hand (kong bonuses when a kong stands, 四个宝, 接宝, and the win itself), so the
rewards of a hand sum to zero and equal the engine's settlement.  All other steps give 0
(a kong bonus is rewarded with the hand, not when it is paid).  With ``normalize=True``
rewards are divided by ``NORMALIZE_POINTS``.  Episodes never truncate (a hand ends by a win
or with the wall).

Gymnasium single-agent environment
==================================

``gymnasium.make("Shangrao-v0", **options)`` (registered when :mod:`shangrao.env` is
imported) or :class:`ShangraoGymEnv`: the learner plays one seat, three project bots play
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

Version history
===============

* v0 (shangrao 0.1): first release — 110 flat actions, 20×34 int8 planes, rewards from
  ``HandResult.deltas``; PettingZoo ``shangrao_v0``, Gymnasium ``Shangrao-v0``.
  Claim/rob windows: the planes never encoded who is deciding, and an agent's observation does
  not change while other seats pass or call in a window (tests/env/test_fair_observations.py);
  :meth:`Game.observation` now also hides the deciding seat from the others (issue 12), which
  leaves every encoded plane as it was — so no version bump.
"""

from __future__ import annotations

try:
    import gymnasium
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as _err:  # pragma: no cover - depends on the installation
    raise ImportError(
        f"shangrao.env needs the rl extra (pettingzoo, gymnasium, numpy): "
        f"pip install '.[rl]' in the shangrao checkout ({_err})"
    ) from None

from .aec import AGENTS, NORMALIZE_POINTS, ShangraoAECEnv, env, raw_env
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
    WIN_INDEX,
    action_mask,
    action_name,
    action_to_index,
    encode_observation,
    index_to_action,
    legal_index_map,
)
from .gym_env import ShangraoGymEnv

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
    "SCALAR",
    "WIN_INDEX",
    "ShangraoAECEnv",
    "ShangraoGymEnv",
    "action_mask",
    "action_name",
    "action_to_index",
    "encode_observation",
    "env",
    "index_to_action",
    "legal_index_map",
    "raw_env",
]

GYM_ID = "Shangrao-v0"

if GYM_ID not in gymnasium.registry:
    gymnasium.register(id=GYM_ID, entry_point="shangrao.env.gym_env:ShangraoGymEnv")
