"""Rooms for a group (issue 24): a 6-digit code to come back to, members who keep their seats, their
matches one after another, and the room's 战绩 (:mod:`shangrao.records.rooms` stores them).

This module is the rooms' core (:class:`RoomService`, over the table manager);
:mod:`shangrao.web.api_rooms` is their pages and API:

* ``POST /api/rooms`` ``{"player": name, "name": room name, "hands": 1..32, "rules": {option: value},
  "hints": bool, "bot": an offered bot or null}``: a new room, the asker its first member (seat 0); its
  matches are played with those rules (the 开桌 card's house rules, checked as a table's), 提示 allowed
  or not, and ``bot`` in its empty seats (null: the strongest).  ``POST /api/rooms/{code}/setup`` (the
  same three, each optional): the creator changes them between matches (403 ``not_creator``, 409
  ``match_running``).  ``POST /api/rooms/{code}/join`` ``{"player": name}``: a member at the lowest
  free seat (409 ``room_full`` when four are in).  Both set the member cookie ``shangrao_room_<code>``
  (the member token; only its hash is stored) and answer ``{"code", "seat", "url"}``.
* ``GET /api/rooms/{code}``: the room — ``{"code", "name", "hands", "setup": {"rules", "hints", "bot"},
  "members": [{"seat", "name"}],
  "me": seat or null, "current": {"id", "match", "status", "hands_played", "hands_total", "end_reason"} or null,
  "standings": (records.rooms.standings)}``.
* ``POST /api/rooms/{code}/matches``: a member starts the room's next match (409 ``match_running``
  while one is being played).  Each member's seat at it is claimed at once with a token derived from
  their member token (:func:`seat_token`), empty seats get bots; ``POST /api/tables/{id}/rematch`` at a
  room's table (再来一局) does the same and answers the asker's own seat link.
* ``GET /room/{code}`` the room page (``static/room.html``); ``GET /room/{code}/play`` a member's seat
  at the current match (a redirect), ``GET /room/{code}/standings.csv`` the 战绩 as CSV.

Codes are drawn with :mod:`secrets` (not guessable by counting) and are unique among live rooms.
Refusals, in words (``{"detail", "code"}``; the pages in Chinese): a code not in form or unknown
(404 ``no_room``), more than ``room_guesses`` unknown codes from one address group (429
``guessing``: every code is refused for that minute, so guessing learns nothing), more than
``rooms_per_minute`` new rooms (429 ``too_many_rooms``), a name refused by the table-name checks (422).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import secrets
from collections.abc import Callable
from typing import Any

from ..records.live import game_head
from ..records.rooms import (
    SEATS,
    CodeTaken,
    Room,
    RoomFull,
    RoomMember,
    RoomNotFound,
    add_member,
    add_room_game,
    create_room,
    is_code,
    load_room,
    room_of_game,
    set_room_setup,
    stored_setup,
)
from ..rules import RuleSet
from .errors import BadLink, NotFinished, ReadOnlyStore, SaveError, TableError, hash_token
from .manager import TableManager
from .messages import default_bot

__all__ = ["RoomRefused", "RoomService", "offered_bot", "seat_token"]


def offered_bot(name: object) -> bool:
    """Whether ``name`` is a bot this server offers (the registry's, or an outside bot's label)."""
    from ..bots import BOT_NAMES, web_bot_labels

    return isinstance(name, str) and (name in BOT_NAMES or name in web_bot_labels())


def seat_token(member_hash: str, game_id: int) -> str:
    """A member's seat token at the room's table ``game_id``: derived from the hash of their member
    token (HMAC-SHA-256, 24 URL-safe characters like a random one), so the server claims every
    member's seat when the match starts and gives each member their link later, while storing only
    hashes."""
    digest = hmac.new(member_hash.encode(), f"shangrao room seat at {game_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


class RoomRefused(Exception):
    """A room request refused: HTTP status, a code the page says in its words, English detail."""

    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail = status, code, detail


class RoomService:
    """The rooms of one server over its table manager: one lock per room (one match started at a
    time).  Its methods raise :class:`RoomRefused` (in words, with a code), ``ReadOnlyStore``, or
    what :meth:`TableManager.create` raises."""

    def __init__(self, manager: TableManager) -> None:
        self.manager, self.store, self.settings = manager, manager.store, manager.settings
        self._locks: dict[str, asyncio.Lock] = {}

    def lock(self, code: str) -> asyncio.Lock:
        if len(self._locks) > 10_000:
            for k in [k for k, v in self._locks.items() if not v.locked()]:
                del self._locks[k]
        return self._locks.setdefault(code, asyncio.Lock())

    # -- finding ----------------------------------------------------------------------------
    async def find(self, code: str) -> Room:
        """The live room ``code``; a code not in form or unknown is ``RoomRefused(404, "no_room")``."""
        try:
            if not is_code(code):
                raise RoomNotFound("a room code is six digits")
            room: Room = await self.manager.read(load_room, self.store, code)
            return room
        except RoomNotFound:
            raise RoomRefused(404, "no_room", "there is no room with this code (six digits)") from None

    @staticmethod
    def member(room: Room, token: str | None) -> RoomMember | None:
        """The member whose member token is ``token``, or None."""
        if not token or len(token) > 100:
            return None
        h = hash_token(token)
        return next((m for m in room.members if hmac.compare_digest(m.token_hash, h)), None)

    def _writable(self) -> None:
        if self.manager.read_only is not None:
            raise ReadOnlyStore(self.manager.read_only)

    def _name(self, name: str, what: str) -> str:
        name = name.strip()
        if not name:
            raise RoomRefused(422, "bad_name", f"{what}: a name is needed")
        if len(name) > self.settings.max_name:
            raise RoomRefused(422, "bad_name", f"{what}: at most {self.settings.max_name} characters, got {len(name)}")
        return name

    # -- changing ---------------------------------------------------------------------------
    @staticmethod
    def _setup(hands: int, rules: dict[str, Any], hints: bool, bot: str | None) -> dict[str, Any]:
        """The stored settings (:func:`~shangrao.records.rooms.stored_setup`) after checking the rule
        options as a table's (``RoomRefused(422, "bad_rules")`` naming the bad one)."""
        try:
            RuleSet.from_dict({**rules, "hands_per_match": hands})
        except ValueError as err:
            raise RoomRefused(422, "bad_rules", str(err)[:300]) from None
        return stored_setup(rules, hints, bot)

    async def create(
        self,
        player: str,
        name: str,
        hands: int,
        count_new: Callable[[], None],
        rules: dict[str, Any] | None = None,
        hints: bool = True,
        bot: str | None = None,
    ) -> tuple[Room, str]:
        """A new room with the asker (``player``, the name they chose) as its first member, ``hands``
        hands per match, its matches' ``rules`` (rule options), ``hints`` (允许提示) and ``bot`` for
        the empty seats (None: the strongest): (room, member token).  count_new(): the new-rooms
        limit (raises)."""
        self._writable()
        setup = self._setup(hands, rules or {}, hints, bot)
        player = self._name(player, "player")
        name = name.strip()
        if len(name) > self.settings.max_name:
            raise RoomRefused(422, "bad_name", f"name: at most {self.settings.max_name} characters, got {len(name)}")
        count_new()
        token = secrets.token_urlsafe(18)
        for _ in range(20):
            code = f"{secrets.randbelow(10**6):06d}"
            try:
                room = await self.manager.read(
                    create_room, self.store, code, name or player, hands, setup, player, hash_token(token)
                )
                return room, token
            except CodeTaken:
                continue
        raise RoomRefused(503, "busy", "no free room code was found; try again")

    async def change_setup(
        self,
        room: Room,
        me: RoomMember,
        rules: dict[str, Any] | None,
        hints: bool | None,
        bot: str | None,
        default_bot: bool = False,
    ) -> Room:
        """The room's creator (seat 0) changes its matches' settings between matches (what is None
        stays; ``default_bot``: the empty seats get the strongest bot again).  Refused: another member
        (403 ``not_creator``), while a match is being played (409 ``match_running``), bad rules (422)."""
        self._writable()
        if me.seat != 0:
            raise RoomRefused(403, "not_creator", "only the room's creator (seat 0) may change its rules")
        async with self.lock(room.code):
            room = await self.manager.read(load_room, self.store, room.code)
            cur = await self.current(room)
            if cur is not None and cur["status"] != "finished":
                raise RoomRefused(409, "match_running", "the room's match is still being played")
            old = room.setup
            setup = self._setup(
                room.hands,
                old["rules"] if rules is None else rules,
                old["hints"] if hints is None else hints,
                None if default_bot else (old["bot"] if bot is None else bot),
            )
            changed: Room = await self.manager.read(set_room_setup, self.store, room.code, setup)
            return changed

    async def join(self, room: Room, player: str, token: str | None) -> tuple[RoomMember, str | None]:
        """The asker (member token ``token`` if any) as a member of ``room`` at its lowest free seat:
        (member, new member token); a member already gets their seat and no new token."""
        me = self.member(room, token)
        if me is not None:
            return me, None
        self._writable()
        player = self._name(player, "player")
        new = secrets.token_urlsafe(18)
        try:
            m = await self.manager.read(add_member, self.store, room.code, player, hash_token(new))
        except RoomFull:
            raise RoomRefused(409, "room_full", f"the room is full: {SEATS} members have joined it") from None
        return m, new

    async def current(self, room: Room) -> dict[str, Any] | None:
        """The room's latest match: ``{"id", "match", "status", "hands_played", "hands_total",
        "end_reason"}`` (from its table in memory, or its stored row; ``end_reason`` "dissolved" for a
        match ended by a 解散 vote, else None), None before the first."""
        if not room.games:
            return None
        gid = room.games[-1]
        t = self.manager.tables.get(gid)
        if t is not None:
            status, played, total = t.status, len(t.match.hands), t.rules.hands_per_match
            end = t.end_reason
        else:
            head = await self.manager.read(game_head, self.store, gid)
            status, played = ("finished" if head.status == "finished" else "between"), head.hands_played
            total = int(head.rules.get("hands_per_match", room.hands))
            end = head.meta.get("end_reason") if isinstance(head.meta, dict) else None
        return {
            "id": gid,
            "match": len(room.games),
            "status": status,
            "hands_played": played,
            "hands_total": total,
            "end_reason": end if end == "dissolved" else None,
        }

    async def start_match(self, room: Room, me: RoomMember, count_new: Callable[[], None]) -> tuple[int, str]:
        """The room's next match, every member at their seat, claimed at once (:func:`seat_token`;
        empty seats: the room's bot, else the strongest; the room's rules and 提示): (game id, the asker's seat token).  Refused
        (``match_running``) while the latest match is being played.  count_new(): the new-tables
        limit (a match is a new table)."""
        self._writable()
        async with self.lock(room.code):
            room = await self.manager.read(load_room, self.store, room.code)  # as it is now
            cur = await self.current(room)
            if cur is not None and cur["status"] != "finished":
                raise RoomRefused(409, "match_running", "the room's match is still being played")
            count_new()
            members = {m.seat: m for m in room.members}
            setup = room.setup  # the rules, 提示 and empty seats' bot the room plays with (issue 38)
            bot = setup["bot"] if offered_bot(setup["bot"]) else default_bot()  # one no longer offered: the strongest
            kinds = ["human" if i in members else bot for i in range(1, SEATS)]
            table, _ = await self.manager.create(
                room.name,
                room.hands,
                kinds,
                setup["rules"],
                hints=setup["hints"],
                seat_tokens=lambda gid: {i: seat_token(m.token_hash, gid) for i, m in members.items()},
                room=(room.code, [members[i].name if i in members else None for i in range(SEATS)]),
            )
            await self.manager.read(add_room_game, self.store, room.id, table.id)
            before = self.manager.tables.get(room.games[-1]) if room.games else None
            if before is not None:  # who still looks at the last match's end is shown the new one
                async with before.lock:
                    if before.rematch is None:
                        with contextlib.suppress(SaveError):
                            await before.set_rematch(table.id)
            return table.id, seat_token(me.token_hash, table.id)

    async def rematch(self, table_id: int, token: str, count_new: Callable[[], None]) -> dict[str, Any] | None:
        """再来一局 at a room's table (asked with the seat token ``token``): the room's next match, or
        the one already started, and the asker's own seat link ``{"id", "seat", "token", "url",
        "room"}``; None when the table is no room's.  Raises BadLink, NotFinished, TableError."""
        room = await self.manager.read(room_of_game, self.store, table_id)
        if room is None:
            return None
        t = await self.manager.get(table_id, token)  # the token is checked before loading
        me = room.member(t.check_token(token))
        if me is None:  # (a seat no member holds has no token)
            raise BadLink()
        if room.games and room.games[-1] != table_id:
            gid = room.games[-1]  # the room's next match was started already (here or on the room page)
        else:
            if not t.finished:
                raise NotFinished(f"table {table_id} has not finished")
            try:
                gid, _ = await self.start_match(room, me, count_new)
            except RoomRefused as err:
                if err.code != "match_running":
                    raise TableError(err.detail) from None
                gid = (await self.manager.read(load_room, self.store, room.code)).games[-1]  # another asked first
        tok = seat_token(me.token_hash, gid)
        return {"id": gid, "seat": me.seat, "token": tok, "url": f"/t/{gid}/{tok}", "room": room.code}
