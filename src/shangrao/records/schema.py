"""Tables of the game records (SQLAlchemy 2.x ORM; SQLite and PostgreSQL).

* ``games``: one row per game (a ``simulate`` match or a ``play`` session).
* ``hands``: one row per *completed* hand, written with the game's running
  scores in one transaction: a hand row is complete or absent.
* ``events``: the live log of a hand in progress, one row per event
  (:meth:`Store.append_event`, for a server that stores every action before
  broadcasting it).  When the hand completes, its events move into the hand
  row and these rows are deleted in the same transaction.  A *compact* hand (revision 0004, issue 23:
  ``shangrao simulate`` with the fast engine) holds its decisions in ``hands.decisions`` instead of
  its events (``hands.events`` NULL); reading it replays them (:mod:`shangrao.records.compact`).
* ``rooms``, ``room_members``, ``room_games`` (revision 0003, issue 24): a group's room — its
  6-digit code (unique among live rooms), its members with their chosen names and seats, and the
  games (matches) played in it, in order.  A room's 战绩 is computed from its games' stored hands.
* ``reviews`` (revision 0005, issue 37): a hand's review (牌谱分析, :mod:`shangrao.review`), stored once
  per hand and evaluator version (:mod:`shangrao.records.reviews`).

The tables change only through a migration (:mod:`shangrao.records.migrations`, Alembic): a change
here comes with a revision in ``migrations/versions/`` that brings older databases to it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

__all__ = [
    "Base",
    "GameRow",
    "HandRow",
    "EventRow",
    "ReviewRow",
    "RoomRow",
    "RoomMemberRow",
    "RoomGameRow",
    "SCHEMA_VERSION",
    "utcnow",
]

#: the schema a new game is written with (``games.meta['schema']``, informative); what a database holds
#: is its Alembic revision (``alembic_version``, :mod:`shangrao.records.migrations`), which is read
SCHEMA_VERSION = 2


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: 'simulate' | 'play' (a server may add its own kinds)
    kind: Mapped[str] = mapped_column(String(32), index=True)
    #: seat 0..3 names: bot names ('greedy', 'random') or 'human'
    players: Mapped[list[Any]] = mapped_column(JSON)
    seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    #: RuleSet.to_dict()
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: 'unfinished' | 'finished'
    status: Mapped[str] = mapped_column(String(16), default="unfinished", index=True)
    #: hands completed so far (= rows in ``hands``)
    hands_played: Mapped[int] = mapped_column(Integer, default=0)
    #: cumulative scores per seat after the last stored hand; the final scores once finished
    scores: Mapped[list[Any]] = mapped_column(JSON)
    #: free-form: engine version, match number, schema version
    meta: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)

    hands: Mapped[list[HandRow]] = relationship(
        back_populates="game", order_by="HandRow.hand_index", cascade="all, delete-orphan"
    )


class HandRow(Base):
    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("game_id", "hand_index", name="uq_hand_game_index"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    #: 0-based position of the hand in the game
    hand_index: Mapped[int] = mapped_column(Integer)
    dealer: Mapped[int] = mapped_column(Integer)
    #: the hand's event log as JSON lines (one event object per line); NULL for a compact hand
    events: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: a compact hand (revision 0004): its decisions and what replays them on its deal
    #: (:mod:`shangrao.records.compact`); NULL for a hand stored with its events
    decisions: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)
    #: summary: winners, pattern names, deltas, drawn, ...
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: cumulative scores after this hand
    scores_after: Mapped[list[Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    game: Mapped[GameRow] = relationship(back_populates="hands")


class EventRow(Base):
    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("game_id", "hand_index", "seq", name="uq_event_game_hand_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    hand_index: Mapped[int] = mapped_column(Integer)
    #: 0-based position of the event in its hand
    seq: Mapped[int] = mapped_column(Integer)
    #: the event as JSON text (encoded once; revision 0002 — a JSON column before)
    event: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ReviewRow(Base):
    """One hand's review by one evaluator version: every seat's decisions (``HandReview.to_dict()``)."""

    __tablename__ = "reviews"
    __table_args__ = (UniqueConstraint("game_id", "hand_index", "evaluator", "version", name="uq_review_hand"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    hand_index: Mapped[int] = mapped_column(Integer)
    #: the evaluator's name and version (:class:`shangrao.bots.evaluator.Evaluator`)
    evaluator: Mapped[str] = mapped_column(String(64))
    version: Mapped[str] = mapped_column(String(32))
    #: :meth:`shangrao.review.HandReview.to_dict` (all four seats)
    review: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


#: a room's code is unique among the live rooms (a partial unique index: a closed room's code may be
#: drawn again)
LIVE_ROOM = "status = 'live'"


class RoomRow(Base):
    """A group's room (revision 0003): ``code`` six digits, ``status`` 'live' | 'closed', ``hands`` the
    hands of each match played in it, ``rules`` its matches' rule options (``RuleSet.to_dict`` without
    ``hands_per_match``)."""

    __tablename__ = "rooms"
    __table_args__ = (
        Index(
            "uq_rooms_live_code", "code", unique=True, sqlite_where=text(LIVE_ROOM), postgresql_where=text(LIVE_ROOM)
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    code: Mapped[str] = mapped_column(String(6))
    name: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(16), default="live")
    hands: Mapped[int] = mapped_column(Integer)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RoomMemberRow(Base):
    """A member of a room: the seat (0..3) they keep across its matches, the name they chose, and the
    hash of their member token (the token itself is only in their browser)."""

    __tablename__ = "room_members"
    __table_args__ = (UniqueConstraint("room_id", "seat", name="uq_room_member_seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(200))
    token_hash: Mapped[str] = mapped_column(String(64))
    joined: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RoomGameRow(Base):
    """A match (a web table, a row of ``games``) played in a room: ``match_no`` 1, 2, … in order."""

    __tablename__ = "room_games"
    __table_args__ = (UniqueConstraint("room_id", "match_no", name="uq_room_game_match"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), unique=True)
    match_no: Mapped[int] = mapped_column(Integer)
