"""The errors of ``shangrao``: one base, input errors kept apart from internal ones.

* :class:`ShangraoError` — the base of every error the library raises on purpose.
* :class:`InputError` — bad input (a tile string, a meld, a situation, an action, a record, a rule
  option …).  Also a ``ValueError``, as before; its message quotes the bad input and says where.
  The CLI prints it as one line and exits 2.  Subclasses: ``TileParseError`` (tiles),
  ``MeldError`` (melds), ``SituationError`` (scoring), ``ActionParseError``, ``IllegalActionError``,
  ``WallError``, ``ReplayError`` (game), ``RuleSetError`` (rules), ``RecordError`` (records),
  ``UnknownBotError`` (bots).
* :class:`InternalError` — an inconsistency inside the library (a bug; also a ``RuntimeError``),
  e.g. ``game.EngineError``.  The CLI reports it, and any other unexpected exception, as a bug to file.
"""

from __future__ import annotations

__all__ = ["ShangraoError", "InputError", "InternalError", "quote"]


class ShangraoError(Exception):
    """Base of the errors ``shangrao`` raises on purpose."""


class InputError(ShangraoError, ValueError):
    """Bad input; the message quotes it and says where."""


class InternalError(ShangraoError, RuntimeError):
    """An internal inconsistency: a bug in ``shangrao``, not in the input."""


def quote(value: object, limit: int = 60) -> str:
    """``repr(value)`` for a one-line error message, cut to ``limit`` characters: a huge key or value
    sent by someone is never echoed whole (``'kkkkkk…' (5000 characters)``; an int too long to print
    is named by its number of digits)."""
    try:
        text = repr(value)
    except ValueError:  # an int of more than 4300 digits
        return (
            f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
            if isinstance(value, int)
            else f"a {type(value).__name__}"
        )
    if len(text) <= limit:
        return text
    size = f" ({len(value)} characters)" if isinstance(value, str) else ""
    return text[:limit] + "…" + size
