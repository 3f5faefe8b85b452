"""What a player may type at ``shangrao play``: numbers, Chinese and English words, tiles, commands.

:func:`read_choice` turns one typed line into an :class:`~shangrao.game.Action` from the
legal list, or a :class:`Command` (quit, help, hint, undo), or raises :class:`ChoiceError`
whose message says what to type instead.  Accepted (the legal actions decide what fits):

* a number ``1``–``N`` of the numbered list (another number: "choose 1–N");
* a tile alone to discard it, in any notation: ``5m``, ``一万``, ``南风``, ``南``, ``🀇``;
* ``打 南`` / ``打南`` / ``discard 5m`` / ``出 南``;
* ``碰``, ``吃``, ``杠``, ``糊`` (``胡``, ``和``), ``过``, ``接宝``, ``暗杠``/``自摸杠``, ``补杠``/``加杠``,
  and the English words ``pung``, ``chow``, ``kong``, ``win``, ``pass``, ``catch_bao`` …;
  a tile after the word picks one when several fit (``吃 345m``, ``杠 南``);
* ``q`` / ``quit`` / ``退出``; ``help`` / ``?`` / ``帮助``; ``hint`` / ``提示``; ``undo`` / ``u`` / ``撤销``.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

from ..errors import quote
from ..game import Action, ActionType
from ..scoring import WinBy
from ..tiles import TileParseError, parse_tiles

__all__ = [
    "CONFIRM_TYPES",
    "HELP_LINES",
    "ChoiceError",
    "Command",
    "HintProvider",
    "hint_provider",
    "read_choice",
    "set_hint_provider",
]


class ChoiceError(ValueError):
    """A typed line that is no legal choice now; the message says what to type."""


class Command(str, Enum):
    QUIT = "quit"
    HELP = "help"
    HINT = "hint"
    UNDO = "undo"


_COMMANDS = {
    "q": Command.QUIT,
    "quit": Command.QUIT,
    "exit": Command.QUIT,
    "退出": Command.QUIT,
    "help": Command.HELP,
    "?": Command.HELP,
    "？": Command.HELP,
    "h": Command.HELP,
    "帮助": Command.HELP,
    "hint": Command.HINT,
    "提示": Command.HINT,
    "undo": Command.UNDO,
    "u": Command.UNDO,
    "撤销": Command.UNDO,
    "悔": Command.UNDO,
    "back": Command.UNDO,
}

#: words for each action type; a word may name several types (杠).  The seed's names and the action
#: words come from ActionType (碰杠 names both a kong on a discard and an added kong); the rest are what
#: players also type.
_WORDS: dict[str, tuple[ActionType, ...]] = {}
for _t in ActionType:
    _WORDS[_t.chinese] = (*_WORDS.get(_t.chinese, ()), _t)
    _WORDS[_t.value] = (_t,)
_KONGS = (ActionType.KONG, ActionType.ADDED_KONG, ActionType.CONCEALED_KONG)
_WORDS.update(
    {
        "出": (ActionType.DISCARD,),
        "杠": _KONGS,
        "kong": _KONGS,
        "明杠": (ActionType.KONG,),
        "补杠": (ActionType.ADDED_KONG,),
        "加杠": (ActionType.ADDED_KONG,),
        "暗杠": (ActionType.CONCEALED_KONG,),
        "胡": (ActionType.WIN,),
        "和": (ActionType.WIN,),
        WinBy.SELF_DRAW.chinese: (ActionType.WIN,),
        "不要": (ActionType.PASS,),
        "p": (ActionType.PASS,),
    }
)

#: claims that are confirmed before they are sent (a mistyped one can be taken back)
CONFIRM_TYPES = frozenset({ActionType.CHOW, ActionType.PUNG, ActionType.KONG, ActionType.WIN, ActionType.CATCH_BAO})

HELP_LINES = (
    "怎么输入 how to type (the numbered list shows what is legal now):",
    "  1-N           the number of a choice",
    # 🀇 is one column in some terminals and two in others: it stays out of the aligned column
    "  南 一万 5m    discard that tile (🀇 too; 打 南, 打南, discard 5m)",
    "  碰 吃 杠      pung, chow, kong,",
    "  糊 过         win, pass (English words too);",
    "                add a tile when several fit: 吃 345m, 杠 南",
    "  接宝          catch the 宝 (a player who drew three 宝)",
    "  撤销 / undo   take back a claim before it is sent (claims ask Enter to confirm)",
    "  提示 / hint   the expert's top choices for this decision",
    "  q / 退出      leave (the game is saved); help / ? / 帮助 shows this",
)

#: a hint provider: (observation, legal actions) -> one line of advice, or None
HintProvider = Callable[[object, list[Action]], "str | None"]
_hint_provider: HintProvider | None = None


def set_hint_provider(provider: HintProvider | None) -> None:
    """Install the advisor that answers ``hint``/``提示`` in ``play`` (None removes it).

    The provider gets the player's :class:`~shangrao.game.Observation` and the legal
    actions and returns one line (e.g. ``"打 南: keeps 2 waits"``) or None.
    """
    global _hint_provider
    _hint_provider = provider


def hint_provider() -> HintProvider | None:
    return _hint_provider


def _normalise(text: str) -> str:
    return " ".join(text.replace("\u3000", " ").split()).lower().replace("-", "_")


def _split_word(text: str) -> tuple[str, str]:
    """``("打", "南")`` from ``打 南`` or ``打南``; ``("pung", "")`` from ``pung``."""
    if " " in text:
        word, rest = text.split(" ", 1)
        return word, rest
    for word in sorted(_WORDS, key=len, reverse=True):
        if text.startswith(word) and len(text) > len(word) and not word.isascii():
            return word, text[len(word) :]
    return text, ""


def _numbered(actions: list[Action], fits: list[Action]) -> str:
    return ", ".join(f"{actions.index(a) + 1} ({a})" for a in fits)


def read_choice(text: str, actions: list[Action]) -> Action | Command:
    """The action or command a typed line means, given the numbered ``actions``.

    Raises :class:`ChoiceError` with a message naming what can be typed.
    """
    n = len(actions)
    line = _normalise(text or "")
    if not line:
        raise ChoiceError(f"type a number 1–{n}, a tile or a word (help or ? lists them)")
    if line in _COMMANDS:
        return _COMMANDS[line]
    if line.isdigit():  # also ² ① and other Unicode digits, which int() refuses
        number = int(line) if line.isascii() and len(line) <= 6 else 0
        if 1 <= number <= n:
            return actions[number - 1]
        raise ChoiceError(f"no choice {line if len(line) <= 12 else quote(line, 12)}: choose 1–{n}")
    word, rest = _split_word(line)
    if word in _WORDS:
        types = _WORDS[word]
        fits = [a for a in actions if a.type in types]
        if not fits:
            names = "/".join(t.value for t in types)
            raise ChoiceError(f"{word} ({names}) is not possible now; choose 1–{n}")
        if rest:
            try:
                kinds = parse_tiles(rest)
            except TileParseError as err:
                raise ChoiceError(f"{word}: {err.reason} in {rest!r}") from None
            fits = [
                a
                for a in fits
                if a.tile is not None
                and (
                    a.tile in kinds if a.type is not ActionType.CHOW else set(kinds) <= {a.tile, a.tile + 1, a.tile + 2}
                )
            ]
            if not fits:
                raise ChoiceError(f"{word} {rest} is not possible now; choose 1–{n}")
        if len(fits) == 1:
            return fits[0]
        raise ChoiceError(f"{word} fits several: type one of {_numbered(actions, fits)}")
    # a tile alone: discard it
    try:
        kinds = parse_tiles(line)
    except TileParseError:
        raise ChoiceError(f"not understood: {text.strip()!r}; choose 1–{n}, or type help (?) for the words") from None
    if len(kinds) == 1:
        fits = [a for a in actions if a.type is ActionType.DISCARD and a.tile == kinds[0]]
        if fits:
            return fits[0]
        if any(a.type is ActionType.DISCARD for a in actions):
            raise ChoiceError(f"no {text.strip()} in your hand; choose 1–{n}")
        raise ChoiceError(f"no discard now ({text.strip()}); choose 1–{n}")
    raise ChoiceError(f"one tile at a time ({text.strip()!r}); choose 1–{n}")
