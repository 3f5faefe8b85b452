"""Bots: policies for the game engine (see :class:`shangrao.game.Bot`).

``get_bot(name, seed)`` for ``random``, ``greedy``, ``ukeire`` and ``expert``.  Bots see only
their :class:`~shangrao.game.Observation` and the legal actions.

* ``random`` — uniform over the legal actions;
* ``greedy`` — lowest shanten, ties by connectivity (fast: the default opponent);
* ``ukeire`` — ``greedy`` whose ties go to the discard leaving the most unseen useful tiles
  (several times slower; over 320 hands against ``greedy`` it won about +0.5 points a hand);
* ``expert`` — plays for expected points under the scoring (:mod:`.expert`; the strongest,
  measured in ``docs/bots.md``).

>>> from shangrao.bots import get_bot
>>> from shangrao.game import play_match
>>> result = play_match([get_bot("greedy", seed=i) for i in range(4)], seed=1)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from ..errors import InputError
from ..game.match import Bot
from .expert import ExpertBot
from .greedy import GreedyBot
from .random_bot import RandomBot

__all__ = ["RandomBot", "GreedyBot", "ExpertBot", "STRONGEST", "get_bot", "BOTS", "BOT_NAMES", "BotEntry", "UnknownBotError"]


class BotEntry(NamedTuple):
    """A registered bot: ``factory(seed)`` makes one; ``label`` names it for people (CLI help, web lobby)."""

    factory: Callable[[int | str | None], Bot]
    label: str


def _ukeire(seed: int | str | None) -> Bot:
    bot = GreedyBot(seed, ukeire=True)
    bot.name = "ukeire"
    return bot


#: the one list of bots: name -> (factory, label).  CLI, web and RL environments take their lists from here.
BOTS: dict[str, BotEntry] = {
    "random": BotEntry(RandomBot, "随机 random: uniform over the legal actions"),
    "greedy": BotEntry(GreedyBot, "贪心 greedy: lowest shanten, ties by connectivity"),
    "ukeire": BotEntry(_ukeire, "进张 ukeire: greedy, ties to the most useful tiles left"),
    "expert": BotEntry(ExpertBot, "专家 expert: plays for expected points under the scoring"),
}

#: the strongest registered bot (arena results in docs/bots.md): the web lobby's default opponent
STRONGEST = "expert"

BOT_NAMES: tuple[str, ...] = tuple(BOTS)  # kept for callers of the first version; the same names as BOTS


class UnknownBotError(InputError):
    """No bot of that name."""


def get_bot(name: str, seed: int | str | None = None) -> Bot:
    """A new bot by name (a key of :data:`BOTS`, case-insensitive) with its own seeded rng.

    Raises :class:`UnknownBotError` (a ValueError) naming the known bots.
    """
    entry = BOTS.get(name.strip().lower()) if isinstance(name, str) else None
    if entry is None:
        raise UnknownBotError(f"unknown bot {name!r}; known: {', '.join(BOTS)}")
    return entry.factory(seed)
