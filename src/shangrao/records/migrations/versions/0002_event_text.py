"""A live event is stored as its JSON text (``events.event``: JSON -> TEXT), encoded once.

The event was JSON-encoded twice before (once to check it, once by the JSON column); now the Store
encodes it once and stores that text, and a completed hand joins the stored lines as they are.
SQLite held the JSON as text already (the table is rebuilt in batch mode, the values copied); on
PostgreSQL the ``json`` values are cast to their text.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.alter_column(
            "event", type_=sa.Text, existing_type=sa.JSON, existing_nullable=False, postgresql_using="event::text"
        )


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.alter_column(
            "event", type_=sa.JSON, existing_type=sa.Text, existing_nullable=False, postgresql_using="event::json"
        )
