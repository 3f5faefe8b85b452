"""Alembic's environment for the records database (run through :mod:`shangrao.records.migrations`).

The connection comes from the caller (``config.attributes["connection"]``): migrations run on the
Store's own engine, in batch mode so SQLite's tables are rebuilt where it cannot ALTER them.
"""

from __future__ import annotations

from alembic import context

from shangrao.records.schema import Base


def run() -> None:
    connection = context.config.attributes["connection"]
    context.configure(
        connection=connection, target_metadata=Base.metadata, render_as_batch=True, transaction_per_migration=False
    )
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # run by Alembic (an import by anything else, e.g. doctest collection, does nothing)
    run()
