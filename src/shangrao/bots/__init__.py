"""Bots: policies for the game engine (see :class:`shangrao.game.Bot`).

``get_bot(name, seed)`` for ``random`` and ``greedy``.  Bots see only their
:class:`~shangrao.game.Observation` and the legal actions.

>>> from shangrao.bots import get_bot
>>> from shangrao.game import play_match
>>> result = play_match([get_bot("greedy", seed=i) for i in range(4)], seed=1)
"""

from __future__ import annotations

from .greedy import GreedyBot
from .random_bot import RandomBot

__all__ = ["RandomBot", "GreedyBot", "get_bot", "BOT_NAMES", "UnknownBotError"]

BOT_NAMES = ("random", "greedy")


class UnknownBotError(ValueError):
    """No bot of that name."""


def get_bot(name: str, seed: int | str | None = None):
    """A new bot by name (``random`` or ``greedy``) with its own seeded rng."""
    key = name.strip().lower()
    if key == "random":
        return RandomBot(seed)
    if key == "greedy":
        return GreedyBot(seed)
    raise UnknownBotError(f"unknown bot {name!r}; known: {', '.join(BOT_NAMES)}")
