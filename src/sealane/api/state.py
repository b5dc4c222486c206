"""The application's shared state, built once in ``create_app`` and reached from requests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from fastapi import Request
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from ..clock import Clock
from ..config import Settings
from ..tracking.service import TrackingService
from ..webhooks.delivery import DeliveryWorker
from .keycache import KeyCache
from .ratelimit import RateLimiter

if TYPE_CHECKING:
    from .auth import Caller


@dataclass(frozen=True, slots=True)
class AppState:
    """Settings, database, clock, rate limiter and key cache of one app."""

    settings: Settings
    engine: Engine
    sessions: sessionmaker[Session]
    clock: Clock
    limiter: RateLimiter
    keys: KeyCache[Caller]
    tracking: TrackingService
    webhooks: DeliveryWorker


def state_of(request: Request) -> AppState:
    """The :class:`AppState` of the app serving ``request``."""
    state: AppState = request.app.state.sealane
    return state
