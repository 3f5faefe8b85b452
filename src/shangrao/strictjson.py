"""JSON read strictly: a key given twice in one object is an error.

``json.loads`` (and FastAPI, pydantic) keep the last of two equal keys silently, so
``{"hand": A, "hand": B}`` would be read as B.  The CLI's inputs (:func:`shangrao.cli.common.parse_json`)
and the web server's requests and WebSocket messages (:mod:`shangrao.web`) are read with
:func:`no_duplicate_keys` instead and refuse such an object with :class:`DuplicateKeyError`.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import InputError

__all__ = ["DuplicateKeyError", "error_words", "loads", "no_duplicate_keys"]


class DuplicateKeyError(InputError):
    """A key is given twice in one JSON object; the message quotes it (cut to 40 characters)."""


def no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` for :func:`json.loads`: the object as a dict; raises
    :class:`DuplicateKeyError` naming a key given twice."""
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise DuplicateKeyError(f"the key {k[:40]!r} is given twice in one object")
        out[k] = v
    return out


def loads(text: str | bytes) -> Any:
    """``json.loads`` refusing duplicate keys.  Raises ``json.JSONDecodeError``, :class:`DuplicateKeyError`
    (both ValueErrors), ``ValueError`` (an integer of more than 4300 digits) or ``RecursionError``
    (nesting deeper than Python's recursion limit)."""
    return json.loads(text, object_pairs_hook=no_duplicate_keys)


def error_words(err: json.JSONDecodeError) -> str:
    """The reason of a JSON decode error in words: the standard library's message less the dangling
    " at" of some (``"Invalid control character at"``), the position being said apart."""
    msg = err.msg
    return msg[:-3] if msg.endswith(" at") else msg
