"""The ``meta.web`` part of a stored web table: one typed object, :class:`WebMeta`, read and written
here only (issues 21, 22).

A web table's row holds, in ``meta``: ``{"web": {"name", "seats", "claimed", "token_hashes",
"rematch", "hints", "clock"}}`` (and, since issue 24, ``manners`` / ``manners_wall`` where a table
has manners to keep: 托管, a 解散 vote) — :meth:`WebMeta.to_meta`, written by
:class:`~shangrao.web.tables.Table` and the table manager.  A record of an older version may lack
``name``, ``rematch``, ``hints`` or ``clock`` (read as ``""``, None, True, None) — and a table of no room
``room`` and ``names`` (issue 24: a room's match, its code and the members' names by seat) —, and keys this
version does not know are let be.  A record edited by hand may hold anything there; every web
route that reads it (the table page and socket, joining, the lobby's lists, loading and resuming a
table, the rematch) reads it through :func:`web_meta`, so a damaged one is :class:`DamagedRecord` —
a clear error page (``/error/damaged``) and a log line — never a ``KeyError`` or ``TypeError`` out
of a route.  A ``clock`` that cannot be read counts as none (the wall clock is used).
"""

from __future__ import annotations

import hmac
import math
import re
from typing import Annotated, Any, Literal

import msgspec

from ..bots import BOTS, web_bot_labels, web_bot_specs
from ..errors import InputError
from .clock import ClockRecord
from .errors import BadLink, hash_token

__all__ = ["DamagedRecord", "WebMeta", "read_web_meta", "stored_name", "stored_names", "web_meta"]

Four = msgspec.Meta(min_length=4, max_length=4)
Digest = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]  # SHA-256 of a seat link's token
TableId = Annotated[int, msgspec.Meta(gt=0, le=2**63 - 1)]
RoomCode = Annotated[str, msgspec.Meta(pattern="^[0-9]{6}$")]  # a room's code (web/rooms.py)


class WebMeta(msgspec.Struct, kw_only=True):
    """A stored web table's ``meta.web``.

    seats: four of "human" or a bot name, seat 0 "human".  claimed: per seat, a person has taken it.
    token_hashes: per seat, the SHA-256 hex digest of its link's token, or None.  name: the table's
    name.  rematch: the table of the next match with the same players, or None.  hints: the 提示
    button is on.  clock: the record of the server that writes the table's rows
    (:meth:`~shangrao.web.clock.ServerClock.record`), or None.  room: the code of the room whose
    match this is, or None; names: per seat, the name the room's member chose (None: no member), or
    None at a table of no room."""

    seats: Annotated[list[str], Four]
    claimed: Annotated[list[bool], Four]
    token_hashes: Annotated[list[Digest | None], Four]
    name: str = ""
    rematch: TableId | None = None
    hints: bool = True
    clock: ClockRecord | None = None
    room: RoomCode | None = None
    names: Annotated[list[str | None], Four] | None = None
    #: the table manners (issue 24: 托管, an open 解散 vote; :meth:`shangrao.game.manners.Manners.to_data`)
    #: and the wall time (seconds since the epoch) they were written; unreadable ones count as none
    manners: dict[str, Any] | None = None
    manners_wall: float | None = None
    #: the table's pace (issue 38, :data:`~shangrao.web.settings.PACES`); "normal" is not written
    pace: Literal["slow", "normal", "fast"] = "normal"

    def to_meta(self) -> dict[str, Any]:
        """The ``meta`` patch that stores it (``{"web": {...}}``, JSON values; ``room`` and ``names``
        only at a room's match, ``manners`` and ``manners_wall`` only when there are manners to keep,
        so a table without them is written as before)."""
        web = msgspec.to_builtins(self)
        if self.room is None:
            web.pop("room", None)
            web.pop("names", None)
        if self.pace == "normal":
            web.pop("pace", None)
        if web.get("manners") is None:
            web.pop("manners", None)
            web.pop("manners_wall", None)
        return {"web": web}

    def seated(self) -> tuple[bool, bool]:
        """(a person holds a seat, a human seat is free)."""
        pairs = list(zip(self.seats, self.claimed))
        return any(k == "human" and c for k, c in pairs), any(k == "human" and not c for k, c in pairs)

    def seat_of(self, token: str) -> int:
        """The seat whose link ``token`` is; raises BadLink."""
        h = hash_token(token)
        for i, x in enumerate(self.token_hashes):
            if x is not None and hmac.compare_digest(x, h):
                return i
        raise BadLink()


#: what a damaged field is said to be (the message names the field, never its value)
_WHAT = {
    "seats": 'meta.web.seats is not four seats of "human" or a bot name',
    "claimed": "meta.web.claimed is not four true/false values",
    "token_hashes": "meta.web.token_hashes is not four SHA-256 digests or nulls",
    "name": "meta.web.name is not a string",
    "rematch": "meta.web.rematch is not a table id",
    "hints": "meta.web.hints is not true or false",
    "room": "meta.web.room is not a room code",
    "names": "meta.web.names is not four names or nulls",
    "pace": 'meta.web.pace is not "slow", "normal" or "fast"',
}
_FIELD = re.compile(r"at `\$\.(\w+)|required field `(\w+)`")


class DamagedRecord(InputError):
    """A stored web table whose ``meta`` is not what this server writes (edited by hand): it cannot be
    played or joined.  The message names the game and the field, never a value of it."""

    def __init__(self, game_id: int, what: str) -> None:
        super().__init__(f"the stored record of table {game_id} is damaged ({what}); it cannot be played")
        self.game_id = game_id
        self.what = what


def web_meta(meta: Any, game_id: int) -> WebMeta:
    """The checked ``meta.web`` of the stored web table ``game_id`` (``meta``: the row's whole
    ``meta``, as stored).  Raises DamagedRecord naming the first field that is wrong."""
    if not isinstance(meta, dict):
        raise DamagedRecord(game_id, "meta is not an object")
    web = meta.get("web")
    if not isinstance(web, dict):
        raise DamagedRecord(game_id, "meta.web is missing or not an object")
    clock = web.get("clock")
    if clock is not None:
        try:
            clock = msgspec.convert(clock, ClockRecord)
        except msgspec.ValidationError:
            clock = None  # unreadable: the wall clock is used (ServerClock.to_mono)
    manners = web.get("manners") if isinstance(web.get("manners"), dict) else None
    wall = web.get("manners_wall")
    wall = float(wall) if isinstance(wall, int | float) and not isinstance(wall, bool) and math.isfinite(wall) else None
    body = {k: v for k, v in web.items() if k in _WHAT}
    try:
        out = msgspec.convert(body, WebMeta)
    except msgspec.ValidationError as err:
        m = _FIELD.search(str(err))
        field = (m.group(1) or m.group(2)) if m else ""
        raise DamagedRecord(game_id, _WHAT.get(field, "meta.web is not what this server writes")) from None
    if out.seats[0] != "human" or not all(
        k == "human" or k in BOTS or k in web_bot_labels() or k in web_bot_specs() for k in out.seats
    ):
        raise DamagedRecord(game_id, _WHAT["seats"])
    out.clock = clock
    out.manners, out.manners_wall = manners, wall
    return out


def read_web_meta(meta: Any) -> WebMeta | None:
    """:func:`web_meta`, or None where the record is damaged (for what only looks: the order of
    resuming tables at start-up)."""
    try:
        return web_meta(meta, 0)
    except DamagedRecord:
        return None


def stored_name(meta: Any) -> str:
    """The table's name as stored (``""`` when there is none or it is not a string), for the history,
    which shows a game whatever its ``meta.web`` holds otherwise."""
    web = meta.get("web") if isinstance(meta, dict) else None
    name = web.get("name", "") if isinstance(web, dict) else ""
    return name if isinstance(name, str) else ""


def stored_names(meta: Any) -> list[str | None] | None:
    """A room's match's members' names by seat as stored (cleaned; None for a seat of no member or a
    name that is not a string), or None when the record holds no four names (the history's)."""
    from .messages import clean_name

    web = meta.get("web") if isinstance(meta, dict) else None
    names = web.get("names") if isinstance(web, dict) else None
    if not isinstance(names, list) or len(names) != 4:
        return None
    return [clean_name(n) if isinstance(n, str) else None for n in names]
