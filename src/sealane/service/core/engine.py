"""The one place where the routing engine's errors become the application layer's.

A use case that calls the engine with what a caller gave (ports, points, a speed, a vessel's
dimensions) runs the call inside :func:`engine_errors`: a bad dimension
(:class:`~sealane.routing.InvalidVesselError`) leaves it as :class:`~.errors.InvalidInput` naming
the dimension, any other :class:`~sealane.routing.RoutingError` as a
:class:`~.errors.CannotRoute`, so each shell maps one error tree, the application layer's.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ...routing import InvalidVesselError, RoutingError
from ...routing.vessel import BOUNDS_M, Dimensions, vessel_of
from .errors import CannotRoute, InvalidInput

#: The largest value the engine accepts for each dimension, metres, by name (``draft_m``, ...).
DIMENSION_BOUNDS_M: dict[str, float] = dict(BOUNDS_M)


@contextmanager
def engine_errors(field: str | None = None) -> Iterator[None]:
    """Run engine calls; a :class:`~sealane.routing.RoutingError` is raised again as
    :class:`~.errors.CannotRoute` with the engine's message and ``code``, naming the input
    ``field`` when one input is to blame; a bad vessel dimension as :class:`~.errors.InvalidInput`
    naming the dimension (``draft_m``, ``beam_m``, ``length_m`` or ``air_draft_m``).

    >>> from sealane.routing import get_port
    >>> with engine_errors("port_id"):
    ...     get_port("XXXXX")
    Traceback (most recent call last):
    ...
    sealane.service.core.errors.CannotRoute: unknown port 'XXXXX': not a known UN/LOCODE or port id
    """
    try:
        yield
    except InvalidVesselError as error:
        raise InvalidInput(str(error), field=error.parameter or field) from error
    except RoutingError as error:
        raise CannotRoute(str(error), code=error.code, field=field) from error


@dataclass(frozen=True, slots=True)
class VesselSize:
    """The dimensions in metres a caller gave for a vessel (None: not given); the engine's
    default vessel is routed when none is given.

    >>> VesselSize(draft_m=12.5).meta()
    {'source': 'given', 'draft_m': 12.5, 'beam_m': None, 'length_m': None, 'air_draft_m': None}
    """

    draft_m: float | None = None
    beam_m: float | None = None
    length_m: float | None = None
    air_draft_m: float | None = None

    @property
    def given(self) -> bool:
        """Whether any dimension was given."""
        return any(
            v is not None for v in (self.draft_m, self.beam_m, self.length_m, self.air_draft_m)
        )

    def checked(self) -> Dimensions:
        """The dimensions as the engine's keyword arguments, each checked by the engine first
        (:class:`~.errors.InvalidInput` naming the first bad one)."""
        with engine_errors():
            vessel = vessel_of(self.draft_m, self.beam_m, self.length_m, self.air_draft_m)
        return vessel.dimensions()

    def values(self) -> dict[str, float | None]:
        """The four dimensions as given, by name (``draft_m``, ...), unchecked."""
        return {
            "draft_m": self.draft_m,
            "beam_m": self.beam_m,
            "length_m": self.length_m,
            "air_draft_m": self.air_draft_m,
        }

    def meta(self) -> dict[str, Any]:
        """Which dimensions the route was computed for: ``given`` by the caller, or the
        engine's ``default`` vessel (dimensions reported by AIS are not stored yet)."""
        return {"source": "given" if self.given else "default", **self.values()}


#: No dimension given: the engine's default vessel.
NO_SIZE = VesselSize()
