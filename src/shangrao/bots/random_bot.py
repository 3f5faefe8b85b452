"""The ``random`` bot: uniform over the legal actions, with its own seeded rng."""

from __future__ import annotations

import random

from ..game.actions import Action
from ..game.state import Observation

__all__ = ["RandomBot"]


class RandomBot:
    name = "random"
    needs_observation = False  # uniform over legal actions: the observation is not looked at

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: Observation | None, legal_actions: list[Action]) -> Action:
        return legal_actions[self.rng.randrange(len(legal_actions))]
