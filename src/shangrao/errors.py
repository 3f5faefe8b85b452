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

__all__ = ["ShangraoError", "InputError", "InternalError"]


class ShangraoError(Exception):
    """Base of the errors ``shangrao`` raises on purpose."""


class InputError(ShangraoError, ValueError):
    """Bad input; the message quotes it and says where."""


class InternalError(ShangraoError, RuntimeError):
    """An internal inconsistency: a bug in ``shangrao``, not in the input."""
