"""Schema migrations with Alembic, run programmatically (no alembic.ini needed)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config(engine: Engine) -> Config:
    """An Alembic config bound to ``engine`` and this package's migration scripts."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    # No sqlalchemy.url: env.py uses the engine itself (a URL with % would also break the parser).
    config.attributes["engine"] = engine
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database schema up to ``revision`` (idempotent)."""
    command.upgrade(alembic_config(engine), revision)


def downgrade(engine: Engine, revision: str) -> None:
    """Take the database schema back to ``revision``."""
    command.downgrade(alembic_config(engine), revision)


@cache
def head_revisions() -> frozenset[str]:
    """The revision ids at the head of this install's migration chain (read once)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return frozenset(ScriptDirectory.from_config(config).get_heads())


def stored_revisions(connection: Connection) -> frozenset[str]:
    """The revision ids the database says it is at, none for a database Alembic never migrated;
    reads only."""
    return frozenset(MigrationContext.configure(connection).get_current_heads())
