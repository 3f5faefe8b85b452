"""Compact hands (issue 23): ``hands.decisions`` (bytes, NULL) is added and ``hands.events`` may be NULL.

A hand played by the compiled core is stored by its decisions and what replays them
(:mod:`shangrao.records.compact`) instead of its 6–10 kB event log; readers replay it when they ask
for its events.  Existing hands are unchanged (their ``decisions`` NULL).  SQLite rebuilds ``hands``
in batch mode (events' NOT NULL dropped, rows copied); PostgreSQL adds the column and drops the
constraint in place.  The downgrade writes every compact hand's replayed events into ``events``
first (a hand that does not replay stops it: nothing is changed then).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("hands") as batch:
        batch.add_column(sa.Column("decisions", sa.LargeBinary, nullable=True))
        batch.alter_column("events", existing_type=sa.Text, nullable=True)


def downgrade() -> None:
    from shangrao.records.codec import _dumps
    from shangrao.records.compact import expand_hand

    conn = op.get_bind()
    hands = sa.table(
        "hands",
        sa.column("id", sa.Integer),
        sa.column("game_id", sa.Integer),
        sa.column("hand_index", sa.Integer),
        sa.column("dealer", sa.Integer),
        sa.column("events", sa.Text),
        sa.column("decisions", sa.LargeBinary),
        sa.column("result", sa.JSON),
    )
    games = sa.table(
        "games", sa.column("id", sa.Integer), sa.column("seed", sa.BigInteger), sa.column("rules", sa.JSON)
    )
    q = (
        sa.select(
            hands.c.id,
            hands.c.game_id,
            hands.c.hand_index,
            hands.c.dealer,
            hands.c.decisions,
            hands.c.result,
            games.c.seed,
            games.c.rules,
        )
        .join(games, games.c.id == hands.c.game_id)
        .where(hands.c.decisions.is_not(None))
    )
    for r in conn.execute(q).all():
        events = expand_hand(r.game_id, r.hand_index, r.dealer, r.decisions, r.seed, r.rules, r.result)
        conn.execute(
            sa.update(hands)
            .where(hands.c.id == r.id)
            .values(events="\n".join(_dumps(e) for e in events), decisions=None)
        )
    with op.batch_alter_table("hands") as batch:
        batch.alter_column("events", existing_type=sa.Text, nullable=False)
        batch.drop_column("decisions")
