"""Alembic environment: uses the engine handed over by ``sealane.store.migrate``.

On SQLite, a migration that changes a table the batch way copies it into a new table and drops
the old one; with foreign keys enforced, dropping a parent table deletes every row that points
at it (``ON DELETE CASCADE``). So foreign keys are off while migrations run, as Alembic's batch
documentation advises, and the database is checked for dangling references before they are
switched back on.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Engine

from sealane.store.models import Base

engine: Engine = context.config.attributes["engine"]
with engine.connect() as connection:
    sqlite = connection.dialect.name == "sqlite"
    if sqlite:  # outside a transaction, where SQLite honours it
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=sqlite,
    )
    try:
        with context.begin_transaction():
            context.run_migrations()
        connection.commit()
        if sqlite:
            dangling = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
            if dangling:
                raise RuntimeError(f"migrations left dangling references: {dangling[:5]}")
    finally:
        if sqlite:
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
