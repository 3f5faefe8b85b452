"""Rooms for a group (issue 24): a room's row, its members and matches, and its 战绩 (standings).

A room (``rooms``, revision 0003) has a 6-digit ``code`` unique among the live rooms, members
(``room_members``: a seat 0..3 each, kept across the room's matches, the name they chose, the hash of
their member token) and matches (``room_games``: web tables, rows of ``games``, numbered 1, 2, …).
Its 战绩 is computed from the stored hands of its matches (:func:`standings`), so it always equals
their sum.

>>> from shangrao.records import Store
>>> store = Store("sqlite://")
>>> room = create_room(store, "123456", "周三局", 1, {}, "老王", "h" * 64)
>>> [(m.seat, m.name) for m in room.members]
[(0, '老王')]
>>> add_member(store, "123456", "小李", "k" * 64).seat
1
>>> standings(store, load_room(store, "123456"))["totals"]
[0, 0, 0, 0]

Every function raises :class:`RoomNotFound` (no live room has the code), :class:`RoomFull`,
:class:`CodeTaken`, or :class:`~shangrao.records.RecordError` when the database cannot be read or
written (a database read-only before its upgrade to 0003 has no rooms: :class:`RoomNotFound`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import func, inspect, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .schema import GameRow, HandRow, RoomGameRow, RoomMemberRow, RoomRow, utcnow
from .store import RecordError, Store, _aware

__all__ = [
    "CodeTaken",
    "Room",
    "RoomError",
    "RoomFull",
    "RoomMember",
    "RoomNotFound",
    "SEATS",
    "add_member",
    "add_room_game",
    "create_room",
    "is_code",
    "load_room",
    "match_setup",
    "room_of_game",
    "room_setup",
    "set_room_setup",
    "standings",
    "stored_setup",
]

#: the seats of a room: one member each
SEATS = 4


class RoomError(RecordError):
    """A room operation refused (its subclasses say why)."""


class RoomNotFound(RoomError, LookupError):
    """No live room has this code."""


class RoomFull(RoomError):
    """Every seat of the room has a member."""


class CodeTaken(RoomError):
    """A live room has this code already (draw another)."""


def is_code(code: object) -> bool:
    """Whether ``code`` is a room code in form: six ASCII digits (``"012345"`` is one).

    >>> is_code("012345"), is_code("12345"), is_code("abcdef"), is_code("１２３４５６")
    (True, False, False, False)
    """
    return isinstance(code, str) and len(code) == 6 and code.isascii() and code.isdigit()


@dataclass
class RoomMember:
    """A member: seat 0..3 (the same in every match of the room), name, token hash, when they joined."""

    seat: int
    name: str
    token_hash: str
    joined: datetime | None = None


@dataclass
class Room:
    """A live room as stored: ``games`` are its matches' game ids in order (match 1 first)."""

    id: int
    code: str
    name: str
    status: str
    hands: int
    rules: dict[str, Any]
    created: datetime | None
    members: list[RoomMember] = field(default_factory=list)
    games: list[int] = field(default_factory=list)

    def member(self, seat: int) -> RoomMember | None:
        return next((m for m in self.members if m.seat == seat), None)

    @property
    def setup(self) -> dict[str, Any]:
        """The room's match settings (issue 38): :func:`room_setup` of its stored ``rules``."""
        return room_setup(self.rules)


def room_setup(stored: object) -> dict[str, Any]:
    """A room's match settings from its ``rooms.rules`` JSON (issue 38): ``{"rules": rule options
    (``RuleSet.to_dict`` names, without ``hands_per_match``), "hints": 允许提示, "bot": the bot of the
    empty seats (None: the strongest)}``.  Stored as that object; a room written before issue 38 stored
    its rule options alone (``{}``): read as those rules, 提示 on, the strongest bot.

    >>> room_setup({})
    {'rules': {}, 'hints': True, 'bot': None}
    >>> room_setup({"rules": {"kong_after_pung": True}, "hints": False, "bot": "greedy"})
    {'rules': {'kong_after_pung': True}, 'hints': False, 'bot': 'greedy'}
    """
    data = stored if isinstance(stored, dict) else {}
    if isinstance(data.get("rules"), dict):
        bot = data.get("bot")
        return {
            "rules": dict(data["rules"]),
            "hints": data.get("hints") is not False,
            "bot": bot if isinstance(bot, str) else None,
        }
    return {"rules": dict(data), "hints": True, "bot": None}


def stored_setup(rules: dict[str, Any], hints: bool, bot: str | None) -> dict[str, Any]:
    """The ``rooms.rules`` JSON of a room's settings (read back by :func:`room_setup`)."""
    return {"rules": dict(rules), "hints": bool(hints), "bot": bot}


def _has_rooms(store: Store, s: Session) -> bool:
    """Whether the database has the room tables (a database opened read-only before 0003 has not)."""
    return not store.read_only or inspect(s.connection()).has_table("rooms")


def _room(s: Session, row: RoomRow) -> Room:
    members = [
        RoomMember(m.seat, m.name, m.token_hash, _aware(m.joined))
        for m in s.scalars(select(RoomMemberRow).where(RoomMemberRow.room_id == row.id).order_by(RoomMemberRow.seat))
    ]
    games = list(
        s.scalars(select(RoomGameRow.game_id).where(RoomGameRow.room_id == row.id).order_by(RoomGameRow.match_no))
    )
    return Room(
        row.id, row.code, row.name, row.status, row.hands, dict(row.rules or {}), _aware(row.created), members, games
    )


def _live(s: Session, code: str) -> RoomRow:
    if not is_code(code):
        raise RoomNotFound(f"a room code is six digits, got {code!r:.12}")
    row = s.scalars(select(RoomRow).where(RoomRow.code == code, RoomRow.status == "live")).first()
    if row is None:
        raise RoomNotFound(f"no room {code}")
    return row


def create_room(
    store: Store, code: str, name: str, hands: int, rules: dict[str, Any], member_name: str, token_hash: str
) -> Room:
    """A new live room ``code`` whose first member (seat 0) is ``member_name``; one transaction.
    hands: hands per match (1..32); rules: the matches' settings as stored (:func:`stored_setup`; a
    plain dict of rule options is read as those rules).  Raises :class:`CodeTaken`
    when a live room has the code (the caller draws another), RecordError else."""
    if not is_code(code):
        raise RoomError(f"a room code is six digits, got {code!r:.12}")
    now = utcnow()
    try:
        with store._write() as s:
            row = RoomRow(code=code, name=name, status="live", hands=hands, rules=dict(rules), created=now, updated=now)
            s.add(row)
            s.flush()
            s.add(RoomMemberRow(room_id=row.id, seat=0, name=member_name, token_hash=token_hash, joined=now))
            s.flush()
            return _room(s, row)
    except IntegrityError:
        raise CodeTaken(f"a live room has the code {code}") from None


def load_room(store: Store, code: str) -> Room:
    """The live room ``code`` with its members and matches; raises :class:`RoomNotFound`."""
    with store._read(f"room {code!r:.12}") as s:
        if not _has_rooms(store, s):
            raise RoomNotFound(f"no room {code!r:.12} (the database has no rooms yet)")
        return _room(s, _live(s, code))


def add_member(store: Store, code: str, name: str, token_hash: str) -> RoomMember:
    """A new member of room ``code`` at its lowest free seat (one transaction; two joining at once
    get two seats or one :class:`RoomFull`).  Raises :class:`RoomNotFound`, :class:`RoomFull`."""
    for _ in range(SEATS):
        try:
            with store._write() as s:
                row = _live(s, code)
                taken = set(s.scalars(select(RoomMemberRow.seat).where(RoomMemberRow.room_id == row.id)))
                free = [i for i in range(SEATS) if i not in taken]
                if not free:
                    raise RoomFull(f"room {code} has {SEATS} members")
                m = RoomMemberRow(room_id=row.id, seat=free[0], name=name, token_hash=token_hash, joined=utcnow())
                s.add(m)
                row.updated = utcnow()
                s.flush()
                return RoomMember(m.seat, m.name, m.token_hash, _aware(m.joined))
        except IntegrityError:  # another joined that seat in the meantime: the next free one
            continue
    raise RoomFull(f"room {code} has {SEATS} members")


def set_room_setup(store: Store, code: str, setup: dict[str, Any]) -> Room:
    """Store new match settings (:func:`stored_setup`) for room ``code``; the room as it is then.
    Raises :class:`RoomNotFound`."""
    with store._write() as s:
        row = _live(s, code)
        row.rules = dict(setup)
        row.updated = utcnow()
        s.flush()
        return _room(s, row)


def add_room_game(store: Store, room_id: int, game_id: int) -> int:
    """Record game ``game_id`` as the room's next match; returns its number (1, 2, …)."""
    with store._write() as s:
        n = s.scalar(select(func.max(RoomGameRow.match_no)).where(RoomGameRow.room_id == room_id)) or 0
        s.add(RoomGameRow(room_id=room_id, game_id=game_id, match_no=n + 1))
        room = s.get(RoomRow, room_id)
        if room is not None:
            room.updated = utcnow()
        return n + 1


def room_of_game(store: Store, game_id: int) -> Room | None:
    """The live room game ``game_id`` was played in, or None (a table of no room)."""
    with store._read(f"the room of game {game_id}") as s:
        if not _has_rooms(store, s):
            return None
        row = s.scalars(
            select(RoomRow)
            .join(RoomGameRow, RoomGameRow.room_id == RoomRow.id)
            .where(RoomGameRow.game_id == game_id, RoomRow.status == "live")
        ).first()
        return None if row is None else _room(s, row)


def match_setup(rules: object, players: object, meta: object) -> dict[str, Any]:
    """What a room's match was played with, from its stored game row (issue 38): ``{"rules": the rule
    options that differ from the defaults (``hands_per_match`` aside), "hints": 允许提示, "bots": the
    bots of its seats by seat (None: a person's seat)}``.

    >>> match_setup({"kong_after_pung": True, "base_points": 1, "hands_per_match": 4},
    ...             ["human", "human", "greedy", "greedy"], {"web": {"hints": False}})
    {'rules': {'kong_after_pung': True}, 'hints': False, 'bots': [None, None, 'greedy', 'greedy']}
    """
    from ..rules import DEFAULT_RULES

    defaults = DEFAULT_RULES.to_dict()
    changed = {
        k: v
        for k, v in (rules if isinstance(rules, dict) else {}).items()
        if k != "hands_per_match" and k in defaults and defaults[k] != v
    }
    web = meta.get("web") if isinstance(meta, dict) else None
    hints = not (isinstance(web, dict) and web.get("hints") is False)
    seats = web.get("seats") if isinstance(web, dict) else None  # the seats' kinds (players may hold names)
    kinds = next((list(x) for x in (seats, players) if isinstance(x, list) and len(x) == SEATS), ["human"] * SEATS)
    return {
        "rules": changed,
        "hints": hints,
        "bots": [None if k == "human" or not isinstance(k, str) else k for k in kinds],
    }


def standings(store: Store, room: Room) -> dict[str, Any]:
    """The room's 战绩, from the stored hands of its matches (a hand still being played counts once
    it is stored).  Returns ``{"players": [{"seat", "name"}] (name None: no member, a bot played),
    "matches": [{"match", "game", "status", "hands": [{"hand" (1-based), "deltas" [4], "at" (ISO
    time, UTC)}], "totals" [4], "setup": (:func:`match_setup`)}], "totals" [4] (points per seat over every match), "hands" (count)}``.
    Points are the engine's (``hands.result['deltas']``).  Two queries, the hands' results only (not
    their event logs).  Raises RecordError when a stored result has no four integer deltas."""
    by_game: dict[int, list[tuple[int, dict[str, Any], datetime | None]]] = {gid: [] for gid in room.games}
    status: dict[int, str] = {}
    setups: dict[int, dict[str, Any]] = {}
    with store._read(f"the standings of room {room.code}") as s:
        if room.games:
            for gid, st, rules, players, meta in s.execute(
                select(GameRow.id, GameRow.status, GameRow.rules, GameRow.players, GameRow.meta).where(
                    GameRow.id.in_(room.games)
                )
            ):
                status[gid] = st
                setups[gid] = match_setup(rules, players, meta)
            q = (
                select(HandRow.game_id, HandRow.hand_index, HandRow.result, HandRow.created)
                .where(HandRow.game_id.in_(room.games))
                .order_by(HandRow.game_id, HandRow.hand_index)
            )
            for gid, index, result, created in s.execute(q):
                by_game[gid].append((index, result, _aware(created)))
    out_matches = []
    totals = [0] * SEATS
    count = 0
    for n, gid in enumerate(room.games, 1):
        m_tot = [0] * SEATS
        hands = []
        for index, result, created in by_game[gid]:
            deltas = result.get("deltas") if isinstance(result, dict) else None
            if not (
                isinstance(deltas, list)
                and len(deltas) == SEATS
                and all(isinstance(x, int) and not isinstance(x, bool) for x in deltas)
            ):
                raise RecordError(f"game {gid} hand {index}: the stored deltas are not 4 integers")
            hands.append({"hand": index + 1, "deltas": list(deltas), "at": created.isoformat() if created else None})
            m_tot = [a + b for a, b in zip(m_tot, deltas)]
        count += len(hands)
        totals = [a + b for a, b in zip(totals, m_tot)]
        out_matches.append(
            {
                "match": n,
                "game": gid,
                "status": status.get(gid, "unfinished"),
                "hands": hands,
                "totals": m_tot,
                "setup": setups.get(gid, match_setup({}, [], {})),
            }
        )
    players = [{"seat": i, "name": (m.name if (m := room.member(i)) is not None else None)} for i in range(SEATS)]
    return {"players": players, "matches": out_matches, "totals": totals, "hands": count}
