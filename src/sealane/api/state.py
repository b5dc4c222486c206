"""The running service behind the app, reached from a request."""

from __future__ import annotations

from fastapi import Request

from ..runtime import Runtime
from ..service.core.context import ServiceContext


def state_of(request: Request) -> Runtime:
    """The :class:`Runtime` of the app serving ``request``."""
    runtime: Runtime = request.app.state.sealane
    return runtime


def context_of(request: Request) -> ServiceContext:
    """What the application layer's use cases need, for the app serving ``request``."""
    return state_of(request).context
