"""What every use case needs from its surroundings: settings, database, clock."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from ..clock import Clock
from ..config import Settings
from ..store.database import transaction


@dataclass(frozen=True, slots=True)
class ServiceContext:
    """Settings, database and clock of one running service; built once, passed to every call."""

    settings: Settings
    engine: Engine
    sessions: sessionmaker[Session]
    clock: Clock

    @contextmanager
    def reading(self) -> Iterator[Session]:
        """A session for queries (nothing it changes is committed)."""
        with self.sessions() as session:
            yield session

    @contextmanager
    def writing(self) -> Iterator[Session]:
        """A session whose work commits on success and rolls back entirely on any error."""
        with transaction(self.sessions) as session:
            yield session
