"""A Gymnasium ``VectorEnv`` over the compiled batched environment (:class:`shangrao.sim.vector.VectorEnv`).

``ShangraoVectorEnv(num_envs, opponents=..., seat=0)`` is a :class:`gymnasium.vector.VectorEnv` with one
learner seat per table and the other three seats played inside the core (``random``, ``greedy``,
``ukeire``, ``search[:OPT]``) or by frozen policies (``policy:PATH`` or a callable), so that
Gymnasium's vector tooling (wrappers, ``RecordEpisodeStatistics``, learners written against the
vector API) drives ``num_envs`` tables in one call a step::

    from shangrao.env.vector_env import ShangraoVectorEnv
    envs = ShangraoVectorEnv(num_envs=64, opponents=("greedy", "policy:bc.npz", "ukeire"))
    obs, info = envs.reset(seed=0)
    obs, rewards, terminated, truncated, info = envs.step(actions)   # actions: int [64]

``gymnasium.make_vec("Shangrao-v1", num_envs=N, vectorization_mode="vector_entry_point",
opponents=..., seat=...)`` builds the same object.

==================  ==============================================================================
Spaces              ``single_observation_space`` = ``Dict(observation=Box(0, high, (20, 34), int8),
                    action_mask=Box(0, 1, (110,), int8))`` (the :mod:`shangrao.env` tables),
                    ``single_action_space`` = ``Discrete(110)``; batched: ``observation`` int8
                    ``[N, 20, 34]``, ``action_mask`` int8 ``[N, 110]``, ``action_space`` ``MultiDiscrete``
Reward              float32 ``[N]``: the learner seat's points of a hand ended in this step (``reward=
                    "normalized"``: / 10), else 0
terminated          bool ``[N]``: the learner's hand ended in this step; ``truncated`` is always False
Autoreset           ``AutoresetMode.SAME_STEP`` (``metadata["autoreset_mode"]``): the step that ends a hand
                    returns already the next hand's first learner decision; there is no ``final_obs``
                    (a hand ends on another seat's or the engine's move, not at a learner decision:
                    bootstrap a terminated step with 0)
info                ``current_player`` (the seat, always ``seat``), ``hand_seed``, ``dealer`` and, with
                    ``features=1|2``, ``action_features`` float32 ``[N, 110, F]``
Actions             integer flat actions ``[N]``; an illegal one raises ``BatchError`` naming the game
                    and steps no game
==================  ==============================================================================

**Why one learner seat.**  A Gymnasium vector environment gives one reward and one done flag per
sub-environment and step; with several learner seats at one table a step's reward belongs to
whichever seat acted, and the other learner seats' rewards of the same hand would have no step to
arrive in.  Self-play and several learner seats are :class:`~shangrao.sim.vector.VectorEnv` itself
(rewards with one column per seat, ``current_player``), in pgx's convention.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ..encoding import N_ACTIONS, OBS_HIGH, OBS_SHAPE
from ..rules import DEFAULT_RULES, RuleSet
from ..sim.batch import BatchError
from ..sim.vector import VectorEnv

__all__ = ["ShangraoVectorEnv"]


class ShangraoVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` tables, one learner seat each (``seat``), the three ``opponents`` in seat order after it
    (module docstring).  Raises :class:`~shangrao.sim.batch.BatchError` for a bad argument."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (gymnasium declares it so)

    def __init__(
        self,
        num_envs: int = 8,
        opponents: Sequence[Any] | str = ("greedy", "greedy", "greedy"),
        seat: int = 0,
        rules: RuleSet = DEFAULT_RULES,
        reward: str = "points",
        features: int | None = None,
    ) -> None:
        if isinstance(opponents, str):
            opponents = [opponents] * 3
        opponents = list(opponents)
        if len(opponents) != 3:
            raise BatchError(f"opponents: 3 seats (bots, policy:PATH or policies), got {len(opponents)}")
        if any(isinstance(o, str) and o.strip().lower() == "learner" for o in opponents):
            raise BatchError(
                "opponents: one learner seat per table (a Gymnasium vector env has one reward per table); "
                "use shangrao.sim.vector.VectorEnv for several learner seats"
            )
        if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < 4:
            raise BatchError(f"seat: the learner's seat 0..3, got {seat!r}")
        seats: list[Any] = [None] * 4
        seats[seat] = "learner"
        for i, o in enumerate(opponents):
            seats[(seat + 1 + i) % 4] = o
        self.env = VectorEnv(num_envs, seats, rules=rules, reward=reward, features=features)
        self.seat = int(seat)
        self.num_envs = self.env.num_envs
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0, OBS_HIGH, OBS_SHAPE, np.int8),
                "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(N_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def _out(self, b: Any) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        obs = {"observation": b.observation, "action_mask": b.legal_action_mask.astype(np.int8)}
        info: dict[str, Any] = {"current_player": b.current_player, "hand_seed": b.hand_seed, "dealer": b.dealer}
        if b.action_features is not None:
            info["action_features"] = b.action_features
        return obs, info

    def reset(
        self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Seed every table (``seed``: an int, one per table, or None) and return the first learner decisions."""
        return self._out(self.env.reset(seed=seed))

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Apply one flat action per table; (obs, reward float32 [N], terminated, truncated, info)."""
        b = self.env.step(actions)
        obs, info = self._out(b)
        reward = b.rewards[:, self.seat].astype(np.float32)
        return obs, reward, b.terminated, np.zeros(self.num_envs, dtype=np.bool_), info

    def state(self) -> np.ndarray:
        """int8 ``[N, 82, 34]``: the perfect-information planes (:meth:`VectorEnv.state`), for critics only."""
        return self.env.state()
