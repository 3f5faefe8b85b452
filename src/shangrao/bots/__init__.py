"""Bots: policies for the game engine (see :class:`shangrao.game.Bot`).

``get_bot(name, seed)`` for ``random``, ``greedy`` and ``ukeire``.  Bots see only
their :class:`~shangrao.game.Observation` and the legal actions.

* ``random`` — uniform over the legal actions;
* ``greedy`` — lowest shanten, ties by connectivity (fast: the default opponent);
* ``expert`` — plays for expected points (win chance × value over the unseen tiles;
  :mod:`shangrao.bots.expert`);
* ``ukeire`` — ``greedy`` whose ties go to the discard leaving the most unseen useful tiles
  (several times slower; over 320 hands against ``greedy`` it won about +0.5 points a hand).

>>> from shangrao.bots import get_bot
>>> from shangrao.game import play_match
>>> result = play_match([get_bot("greedy", seed=i) for i in range(4)], seed=1)
"""

from __future__ import annotations

from .expert import ExpertBot
from .greedy import GreedyBot
from .random_bot import RandomBot

__all__ = ["RandomBot", "GreedyBot", "ExpertBot", "get_bot", "BOT_NAMES", "UnknownBotError"]

BOT_NAMES = ("random", "greedy", "ukeire", "expert")


class UnknownBotError(ValueError):
    """No bot of that name."""


def get_bot(name: str, seed: int | str | None = None):
    """A new bot by name (``random``, ``greedy``, ``ukeire`` or ``expert``) with its own seeded rng.

    Raises :class:`UnknownBotError` (a ValueError) naming the known bots.
    """
    key = name.strip().lower()
    if key == "random":
        return RandomBot(seed)
    if key == "greedy":
        return GreedyBot(seed)
    if key == "expert":
        return ExpertBot(seed)
    if key == "ukeire":
        bot = GreedyBot(seed, ukeire=True)
        bot.name = "ukeire"
        return bot
    raise UnknownBotError(f"unknown bot {name!r}; known: {', '.join(BOT_NAMES)}")
