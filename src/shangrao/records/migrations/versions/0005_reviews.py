"""Game reviews (issue 37): ``reviews``, one row per hand and evaluator version.

A hand's review (牌谱分析: every seat's decisions with each option's value in points,
:mod:`shangrao.review`) is computed once and kept beside the game, with the evaluator's name and
version (a newer evaluator's review is a new row).  A new table only: the same on SQLite and
PostgreSQL; the downgrade drops it (reviews can be computed again).

Revision ID: 0005
Revises: 0004 (re-chained after 0005/0006 when those land)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("hand_index", sa.Integer, nullable=False),
        sa.Column("evaluator", sa.String(64), nullable=False),
        sa.Column("version", sa.String(32), nullable=False),
        sa.Column("review", sa.JSON, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "hand_index", "evaluator", "version", name="uq_review_hand"),
    )
    op.create_index("ix_reviews_game_id", "reviews", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_reviews_game_id", table_name="reviews")
    op.drop_table("reviews")
