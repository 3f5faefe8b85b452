"""The bots' error, below every bot module (the registry and the bots it loads both raise it)."""

from __future__ import annotations

from ..errors import InputError

__all__ = ["UnknownBotError"]


class UnknownBotError(InputError):
    """No bot of that name, or a bad bot spec (``policy:`` file missing, ``ext:`` command not found)."""
