"""Rooms for a group (issue 24): ``rooms``, ``room_members``, ``room_games``.

A room has a 6-digit code (unique among the live rooms: a partial unique index), members who keep
their seats and names across its matches, and its matches (web tables, rows of ``games``) in order.
New tables only: nothing existing changes, so the upgrade is the same on SQLite and PostgreSQL.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

LIVE_ROOM = "status = 'live'"


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(6), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "uq_rooms_live_code",
        "rooms",
        ["code"],
        unique=True,
        sqlite_where=sa.text(LIVE_ROOM),
        postgresql_where=sa.text(LIVE_ROOM),
    )
    op.create_table(
        "room_members",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("joined", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("room_id", "seat", name="uq_room_member_seat"),
    )
    op.create_index("ix_room_members_room_id", "room_members", ["room_id"])
    op.create_table(
        "room_games",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False, unique=True),
        sa.Column("match_no", sa.Integer, nullable=False),
        sa.UniqueConstraint("room_id", "match_no", name="uq_room_game_match"),
    )
    op.create_index("ix_room_games_room_id", "room_games", ["room_id"])


def downgrade() -> None:
    op.drop_table("room_games")
    op.drop_table("room_members")
    op.drop_index("uq_rooms_live_code", table_name="rooms")
    op.drop_table("rooms")
