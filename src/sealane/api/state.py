"""The application's shared state, built once in ``create_app`` and reached from requests."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from ..clock import Clock
from ..config import Settings
from ..tracking.service import TrackingService
from ..webhooks.delivery import DeliveryWorker
from .ratelimit import RateLimiter


@dataclass(frozen=True, slots=True)
class AppState:
    """Settings, database, clock and rate limiter of one app."""

    settings: Settings
    engine: Engine
    sessions: sessionmaker[Session]
    clock: Clock
    limiter: RateLimiter
    tracking: TrackingService
    webhooks: DeliveryWorker


def state_of(request: Request) -> AppState:
    """The :class:`AppState` of the app serving ``request``."""
    state: AppState = request.app.state.sealane
    return state
