"""The ``meta.web`` part of a stored web table, read and checked in one place (issue 22).

A web table's row holds, in ``meta``: ``{"web": {"name", "seats", "claimed", "token_hashes",
"rematch", "hints"}}`` and, for a room's match (issue 24), ``"room"`` (its code) and ``"names"`` (the
members' names by seat) (written by :class:`~shangrao.web.tables.Table`).  A record edited by hand
may hold anything there; every web route that reads it (the table page and socket, joining, the
lobby's lists, loading and resuming a table, the rematch) reads it through :func:`web_meta`, so a
damaged one is :class:`DamagedRecord` — a clear error page (``/error/damaged``) and a log line —
never a ``KeyError`` or ``TypeError`` out of a route.
"""

from __future__ import annotations

import re
from typing import Any

from ..bots import BOTS, web_bot_specs
from ..errors import InputError

__all__ = ["DamagedRecord", "web_meta"]

_HASH = re.compile(r"[0-9a-f]{64}")


class DamagedRecord(InputError):
    """A stored web table whose ``meta`` is not what this server writes (edited by hand): it cannot be
    played or joined.  The message names the game and the field, never a value of it."""

    def __init__(self, game_id: int, what: str) -> None:
        super().__init__(f"the stored record of table {game_id} is damaged ({what}); it cannot be played")
        self.game_id = game_id


def web_meta(meta: Any, game_id: int) -> dict:
    """The checked ``meta.web`` of the stored web table ``game_id``: a new dict with ``name`` (str),
    ``seats`` (four of "human" or a bot name, seat 0 "human"), ``claimed`` (four bools),
    ``token_hashes`` (four SHA-256 hex digests or None), ``rematch`` (a table id or None),
    ``hints`` (bool), ``room`` (a room's 6-digit code or None) and ``names`` (four names or None).  A
    missing ``name`` is "", a missing ``hints`` True, a missing ``rematch`` or ``room`` None, missing
    ``names`` four None (records of older versions).  Raises DamagedRecord naming the first field that is wrong."""
    web = meta.get("web") if isinstance(meta, dict) else None
    if not isinstance(meta, dict):
        raise DamagedRecord(game_id, "meta is not an object")
    if not isinstance(web, dict):
        raise DamagedRecord(game_id, "meta.web is missing or not an object")
    seats = web.get("seats")
    if not (isinstance(seats, list) and len(seats) == 4 and all(isinstance(k, str) for k in seats)
            and seats[0] == "human" and all(k == "human" or k in BOTS or k in web_bot_specs() for k in seats)):
        raise DamagedRecord(game_id, 'meta.web.seats is not four seats of "human" or a bot name')
    claimed = web.get("claimed")
    if not (isinstance(claimed, list) and len(claimed) == 4 and all(isinstance(c, bool) for c in claimed)):
        raise DamagedRecord(game_id, "meta.web.claimed is not four true/false values")
    hashes = web.get("token_hashes")
    if not (isinstance(hashes, list) and len(hashes) == 4
            and all(h is None or (isinstance(h, str) and _HASH.fullmatch(h)) for h in hashes)):
        raise DamagedRecord(game_id, "meta.web.token_hashes is not four SHA-256 digests or nulls")
    name = web.get("name", "")
    if not isinstance(name, str):
        raise DamagedRecord(game_id, "meta.web.name is not a string")
    rematch = web.get("rematch")
    if rematch is not None and (type(rematch) is not int or not 0 < rematch < 2**63):
        raise DamagedRecord(game_id, "meta.web.rematch is not a table id")
    hints = web.get("hints", True)
    if not isinstance(hints, bool):
        raise DamagedRecord(game_id, "meta.web.hints is not true or false")
    room = web.get("room")  # a room's match (issue 24): its code and the members' names by seat
    if room is not None and not (isinstance(room, str) and len(room) == 6 and room.isascii() and room.isdigit()):
        raise DamagedRecord(game_id, "meta.web.room is not a room code")
    names = web.get("names", [None] * 4)
    if not (isinstance(names, list) and len(names) == 4 and all(n is None or isinstance(n, str) for n in names)):
        raise DamagedRecord(game_id, "meta.web.names is not four names or nulls")
    return {"name": name, "seats": list(seats), "claimed": list(claimed), "token_hashes": list(hashes),
            "rematch": rematch, "hints": hints, "room": room, "names": list(names)}
