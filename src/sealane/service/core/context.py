"""What every use case needs from its surroundings: settings, database, clock, carriers."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from ...clock import Clock
from ...config import Settings
from ...store.database import transaction
from ...tracking.carriers.base import CarrierAdapter
from .metrics import Metrics
from .ratelimit import RateLimiter

#: Container refreshes (an immediate carrier sync) each account may ask for per minute.
REFRESH_PER_MINUTE = 10


@dataclass(frozen=True, slots=True)
class ServiceContext:
    """Settings, database, clock and carrier adapters of one running service; built once,
    passed to every call. ``refresh_limiter`` admits container refreshes (their own limit)."""

    settings: Settings
    engine: Engine
    sessions: sessionmaker[Session]
    clock: Clock
    carriers: Mapping[str, CarrierAdapter] = field(default_factory=dict)
    refresh_limiter: RateLimiter | None = None
    #: When this service was built from its settings.
    started_at: datetime | None = None
    #: What this service counts for ``GET /metrics``.
    metrics: Metrics = field(default_factory=Metrics)

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
