"""The one place where the routing engine's errors become the application layer's.

A use case that calls the engine with what a caller gave (ports, points, a speed) runs the call
inside :func:`engine_errors`; a :class:`~sealane.routing.RoutingError` leaves it as a
:class:`~.errors.CannotRoute`, so each shell maps one error tree, the application layer's.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ...routing import RoutingError
from .errors import CannotRoute


@contextmanager
def engine_errors(field: str | None = None) -> Iterator[None]:
    """Run engine calls; a :class:`~sealane.routing.RoutingError` is raised again as
    :class:`~.errors.CannotRoute` with the engine's message and ``code``, naming the input
    ``field`` when one input is to blame.

    >>> from sealane.routing import get_port
    >>> with engine_errors("port_id"):
    ...     get_port("XXXXX")
    Traceback (most recent call last):
    ...
    sealane.service.core.errors.CannotRoute: unknown port 'XXXXX': not a known UN/LOCODE or port id
    """
    try:
        yield
    except RoutingError as error:
        raise CannotRoute(str(error), code=error.code, field=field) from error
