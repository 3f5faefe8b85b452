"""Baseline: the tables of shangrao 0.1 – 0.x (``SCHEMA_VERSION`` 1), before migrations existed.

A database written by those releases has these tables and no ``alembic_version``; it is stamped at
this revision and upgraded from here.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=True),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("hands_played", sa.Integer, nullable=False),
        sa.Column("scores", sa.JSON, nullable=False),
        sa.Column("meta", sa.JSON, nullable=False),
    )
    op.create_index("ix_games_kind", "games", ["kind"])
    op.create_index("ix_games_status", "games", ["status"])
    op.create_table(
        "hands",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("hand_index", sa.Integer, nullable=False),
        sa.Column("dealer", sa.Integer, nullable=False),
        sa.Column("events", sa.Text, nullable=False),
        sa.Column("result", sa.JSON, nullable=False),
        sa.Column("scores_after", sa.JSON, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "hand_index", name="uq_hand_game_index"),
    )
    op.create_index("ix_hands_game_id", "hands", ["game_id"])
    op.create_table(
        "events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("hand_index", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("event", sa.JSON, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "hand_index", "seq", name="uq_event_game_hand_seq"),
    )
    op.create_index("ix_events_game_id", "events", ["game_id"])


def downgrade() -> None:
    op.drop_table("events")
    op.drop_table("hands")
    op.drop_table("games")
