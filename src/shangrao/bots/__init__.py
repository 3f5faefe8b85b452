"""Bots: policies for the game engine (see :class:`shangrao.game.Bot`).

``get_bot(name, seed)`` for ``random``, ``greedy``, ``ukeire`` and ``expert``.  Bots see only
their :class:`~shangrao.game.Observation` and the legal actions.

* ``random`` — uniform over the legal actions;
* ``greedy`` — lowest shanten, ties by connectivity (fast: the default opponent);
* ``ukeire`` — ``greedy`` whose ties go to the discard leaving the most unseen useful tiles
  (several times slower; over 320 hands against ``greedy`` it won about +0.5 points a hand);
* ``expert`` — plays for expected points under the scoring (:mod:`.expert`; the strongest,
  measured in ``docs/bots.md``);
* ``search`` — plays every worthwhile option of a decision to the end of the hand in the compiled
  core, on hidden hands dealt from what it has seen (:mod:`.search`; docs/bots.md "The search bot");
* ``learned`` — a small network trained by behaviour cloning, shipped with its weights
  (:mod:`.learned`; NumPy inference; docs/rl.md gives how it was trained and how strong it is).

Bot *specs*: everywhere a bot name is taken (``get_bot``, ``arena``, ``simulate``, ``play --bot``,
``dataset``, the web lobby when the server allows it) a spec is taken too:

* a registered name (above, case-insensitive);
* ``policy:PATH`` — a saved policy (:mod:`.policy`: ``.npz`` NumPy checkpoint, ``.onnx`` through
  onnxruntime, ``.pt`` TorchScript if torch is installed), played by :class:`~.policy.PolicyBot`;
* ``ext:COMMAND`` — an outside program speaking the line protocol of docs/bot-protocol.md
  (:mod:`.external`);
* the name of a plugin: an entry point in the group ``shangrao.bots`` (``[project.entry-points."shangrao.bots"]
  mybot = "mypkg.bots:make_bot"``) whose object is called with ``seed`` and returns a bot.

A spec is a string, so it travels to worker processes (``--workers``, spawn) and Ray tasks and
is resolved there; :func:`check_bot_spec` validates one without building the bot.

>>> from shangrao.bots import get_bot
>>> from shangrao.game import play_match
>>> result = play_match([get_bot("greedy", seed=i) for i in range(4)], seed=1)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any, NamedTuple

from ..errors import InputError
from ..game.match import Bot
from .errors import UnknownBotError
from .expert import ExpertBot
from .greedy import GreedyBot
from .random_bot import RandomBot

__all__ = [
    "RandomBot",
    "GreedyBot",
    "ExpertBot",
    "STRONGEST",
    "get_bot",
    "BOTS",
    "BOT_NAMES",
    "BotEntry",
    "UnknownBotError",
    "PLUGIN_GROUP",
    "WEB_BOTS_ENV",
    "check_bot_spec",
    "close_bot",
    "plugin_names",
    "web_bot_labels",
    "web_bot_spec",
    "web_bot_specs",
]


class BotEntry(NamedTuple):
    """A registered bot: ``factory(seed)`` makes one; ``label`` names it for people (CLI help, web lobby)."""

    factory: Callable[[int | str | None], Bot]
    label: str


def _ukeire(seed: int | str | None) -> Bot:
    bot = GreedyBot(seed, ukeire=True)
    bot.name = "ukeire"
    return bot


def _search(seed: int | str | None) -> Bot:
    from .search import SearchBot

    return SearchBot(seed)


def _learned(seed: int | str | None) -> Bot:
    from .learned import LearnedBot

    return LearnedBot(seed)


#: the one list of bots, weakest first: name -> (factory, label).  CLI, web and RL environments take their lists from here.
BOTS: dict[str, BotEntry] = {
    "random": BotEntry(RandomBot, "随机 random: uniform over the legal actions"),
    "greedy": BotEntry(GreedyBot, "贪心 greedy: lowest shanten, ties by connectivity"),
    "ukeire": BotEntry(_ukeire, "进张 ukeire: greedy, ties to the most useful tiles left"),
    "learned": BotEntry(_learned, "学习 learned: a small network cloned from expert self-play"),
    "expert": BotEntry(ExpertBot, "专家 expert: plays for expected points under the scoring"),
    "search": BotEntry(_search, "搜索 search: plays each option out on hands dealt from what it has seen"),
}

#: the strongest registered bot (arena results in docs/bots.md): the web lobby's default opponent
STRONGEST = "expert"

BOT_NAMES: tuple[str, ...] = tuple(BOTS)  # kept for callers of the first version; the same names as BOTS


#: the entry-point group of bot plugins
PLUGIN_GROUP = "shangrao.bots"
_plugin_cache: dict[str, Any] | None = None


def _plugins() -> dict[str, Any]:
    global _plugin_cache
    if _plugin_cache is None:
        from importlib.metadata import entry_points

        _plugin_cache = {
            ep.name.strip().lower(): ep
            for ep in entry_points(group=PLUGIN_GROUP)
            if ep.name.strip().lower() not in BOTS
        }
    return _plugin_cache


def plugin_names() -> tuple[str, ...]:
    """Names of the installed bot plugins (entry points of :data:`PLUGIN_GROUP`)."""
    return tuple(_plugins())


def _known() -> str:
    return ", ".join([*BOTS, *plugin_names(), "policy:PATH", "ext:COMMAND"])


def check_bot_spec(spec: object) -> str:
    """The canonical form of a bot spec (module docstring), checked without building the bot.

    Names are lower-cased; a ``policy:`` path and an ``ext:`` command keep their case.  A policy file
    is loaded (and cached per process) so a bad checkpoint is reported here; an ``ext:`` command's
    program must exist.  Raises :class:`UnknownBotError` (a ValueError) naming the spec.
    """
    if not isinstance(spec, str):
        raise UnknownBotError(f"a bot spec is a string, got {spec!r}")
    text = spec.strip()
    low = text.lower()
    if low.startswith("policy:"):
        from .policy import load_policy

        path = text[len("policy:") :].strip()
        if not path:
            raise UnknownBotError(f"bot spec {spec!r}: give a file after policy:")
        load_policy(path)  # PolicyLoadError (an UnknownBotError) naming the file
        return "policy:" + path
    if low.startswith("ext:"):
        from .external import check_command

        command = text[len("ext:") :].strip()
        check_command(command)
        return "ext:" + command
    if low.startswith("search:"):  # search with options (shangrao.bots.search.parse_search_spec)
        from .search import parse_search_spec

        try:
            parse_search_spec(low)
        except InputError as e:
            raise UnknownBotError(str(e)) from None
        return low
    if low in BOTS or low in _plugins():
        return low
    raise UnknownBotError(f"unknown bot {spec!r}; known: {_known()}")


def get_bot(name: str, seed: int | str | None = None) -> Bot:
    """A new bot from a name or spec (module docstring) with its own seeded rng.

    Raises :class:`UnknownBotError` (a ValueError) naming the known bots.
    """
    spec = check_bot_spec(name)
    if spec.startswith("policy:"):
        from .policy import PolicyBot, load_policy

        return PolicyBot(load_policy(spec[len("policy:") :]), name=spec, seed=seed)
    if spec.startswith("ext:"):
        from .external import ExternalBot

        return ExternalBot(spec[len("ext:") :], name=spec, seed=seed)
    if spec.startswith("search:"):
        from .search import SearchBot, parse_search_spec

        searcher = SearchBot(seed, **parse_search_spec(spec))  # type: ignore[arg-type]
        searcher.name = spec
        return searcher
    entry = BOTS.get(spec)
    if entry is not None:
        return entry.factory(seed)
    factory = _plugins()[spec].load()
    bot: Bot = factory(seed)
    if not callable(getattr(bot, "choose", None)):
        raise UnknownBotError(f"bot plugin {spec!r}: {factory!r}(seed) returned {bot!r}, which has no choose()")
    return bot


#: the environment variable naming the bot specs a web server offers besides the registry
WEB_BOTS_ENV = "SHANGRAO_WEB_BOTS"


def web_bot_specs() -> tuple[str, ...]:
    """Bot specs (``policy:PATH``, ``ext:COMMAND``, plugins) the web lobby offers the host besides
    the registered names: ``$SHANGRAO_WEB_BOTS``, entries separated by ``;``, each ``SPEC`` or
    ``LABEL=SPEC`` (set by whoever runs the server — a browser can never name a file or a command
    itself).  Each is checked; a bad one raises :class:`UnknownBotError` naming it and the variable."""
    return tuple(web_bot_labels().values())


def web_bot_labels() -> dict[str, str]:
    """The offered specs of :func:`web_bot_specs` by their labels, which is all a browser is shown and
    sends (never a command line or a path): ``LABEL=SPEC`` names one (letters, digits, ``_``, ``-``; at
    most 32); a plugin without one is labelled by its name, any other spec ``bot1``, ``bot2``… by its
    place.  Raises :class:`UnknownBotError` (a bad spec, a label given twice or taken by a registered
    bot)."""
    import os

    return dict(_web_bot_labels(os.environ.get(WEB_BOTS_ENV, "")))


def web_bot_spec(player: str) -> str:
    """The spec of a seat's player: an offered label's spec, else ``player`` itself (a registered
    name, or a spec stored by an older server)."""
    return web_bot_labels().get(player, player)


_LABEL = re.compile(r"^\s*([A-Za-z0-9_-]{1,32})\s*=\s*(.+)$", re.S)


@functools.lru_cache(maxsize=8)
def _web_bot_labels(raw: str) -> tuple[tuple[str, str], ...]:  # cached: the tables ask on every decision
    out: dict[str, str] = {}
    n = 0
    for part in raw.split(";"):
        if not part.strip():
            continue
        m = _LABEL.match(part)
        label, text = (m.group(1), m.group(2)) if m else (None, part)
        eq, colon = part.find("="), part.find(":")
        if m is None and eq >= 0 and (colon < 0 or eq < colon):  # meant as LABEL=SPEC, but not one
            bad = part[:eq].strip()
            if not bad or not _LABEL.match(f"{bad}=x"):
                raise UnknownBotError(
                    f"${WEB_BOTS_ENV}: the label {bad!r} in {part.strip()[:80]!r}: a label is 1-32 "
                    "ASCII letters, digits, _ or - (the browser sends it back)"
                )
            raise UnknownBotError(f"${WEB_BOTS_ENV}: the label {bad!r} has no bot after '=' (write {bad}=SPEC)")
        try:
            spec = check_bot_spec(text)
        except UnknownBotError as err:
            raise UnknownBotError(f"${WEB_BOTS_ENV}: {err}") from None
        if label is None:
            n += 1
            label = spec if spec in _plugins() else f"bot{n}"
        if label in out or label.lower() in BOTS or label == "human":
            raise UnknownBotError(
                f"${WEB_BOTS_ENV}: the label {label!r} is given twice or names a registered bot; "
                f"write LABEL=SPEC with another label"
            )
        out[label] = spec
    return tuple(out.items())


def close_bot(bot: object) -> None:
    """Release what a bot holds (an outside bot's process); a no-op for bots without ``close()``."""
    close = getattr(bot, "close", None)
    if callable(close):
        close()
