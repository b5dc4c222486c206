"""Schema migrations with Alembic, run programmatically (no alembic.ini needed)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine

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
