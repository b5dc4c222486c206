"""Schema migrations with Alembic, run programmatically (no alembic.ini needed)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect, text

MIGRATIONS = Path(__file__).resolve().parent / "migrations"

#: Revision ids a database may still hold from before the migration files were numbered in the
#: order of their chain (0010, the feeds, came after 0005), and the id each revision has now.
#: From 0006 on, an id carries its name: a bare 0006, 0007 or 0008 meant another revision then,
#: so no new id equals an old one and a stored id is never read as the wrong revision.
RENUMBERED: Mapping[str, str] = MappingProxyType(
    {
        "0010": "0006_feeds",
        "0006": "0007_route_locations",
        "0007": "0008_web_sessions",
        "0008": "0009_rate_limit_counts",
    }
)


def alembic_config(engine: Engine) -> Config:
    """An Alembic config bound to ``engine`` and this package's migration scripts."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    # No sqlalchemy.url: env.py uses the engine itself (a URL with % would also break the parser).
    config.attributes["engine"] = engine
    return config


def renumber_stored_revision(connection: Connection) -> None:
    """Rewrite a revision id stored under the old numbering (``RENUMBERED``) to its new id.

    Idempotent; a database without Alembic's version table is left alone.
    """
    if not inspect(connection).has_table("alembic_version"):
        return
    rename = text("UPDATE alembic_version SET version_num = :new WHERE version_num = :old")
    for old, new in RENUMBERED.items():  # no new id is an old one: renames never chain
        connection.execute(rename, {"old": old, "new": new})


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database schema up to ``revision`` (idempotent)."""
    with engine.begin() as connection:
        renumber_stored_revision(connection)
    command.upgrade(alembic_config(engine), revision)


def downgrade(engine: Engine, revision: str) -> None:
    """Take the database schema back to ``revision``."""
    with engine.begin() as connection:
        renumber_stored_revision(connection)
    command.downgrade(alembic_config(engine), revision)


@cache
def head_revisions() -> frozenset[str]:
    """The revision ids at the head of this install's migration chain (read once)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return frozenset(ScriptDirectory.from_config(config).get_heads())


def stored_revisions(connection: Connection) -> frozenset[str]:
    """The revision ids the database says it is at (translated from the old numbering), none
    for a database Alembic never migrated; reads only."""
    stored = MigrationContext.configure(connection).get_current_heads()
    return frozenset(RENUMBERED.get(revision, revision) for revision in stored)
