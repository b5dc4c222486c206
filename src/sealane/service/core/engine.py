"""The one place where the routing engine's errors become the application layer's.

A use case that calls the engine with what a caller gave (ports, points, a speed, a vessel's
dimensions) runs the call inside :func:`engine_errors`: a bad dimension
(:class:`~sealane.routing.InvalidVesselError`) leaves it as :class:`~.errors.InvalidInput` naming
the dimension, any other :class:`~sealane.routing.RoutingError` as a
:class:`~.errors.CannotRoute`, so each shell maps one error tree, the application layer's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from ...routing import InvalidVesselError, RoutingError
from ...routing.vessel import BOUNDS_M, UNKNOWN, Vessel, as_vessel
from .errors import CannotRoute, InvalidInput

T = TypeVar("T")

#: Fastest speed a caller may give, knots (no merchant ship sails faster).
MAX_SPEED_KN = 60.0
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


#: No dimension given: the engine's default vessel.
NO_VESSEL: Vessel = UNKNOWN


def given_vessel(
    draft_m: float | None = None,
    beam_m: float | None = None,
    length_m: float | None = None,
    air_draft_m: float | None = None,
) -> Vessel:
    """The vessel a caller describes (metres, None where not given), checked by the engine: the
    one value each shell builds from its parameters and passes down. A bad dimension is an
    :class:`~.errors.InvalidInput` naming it.

    >>> given_vessel(draft_m=12.5).draft_m
    12.5
    >>> given_vessel(beam_m=0)
    Traceback (most recent call last):
    ...
    sealane.service.core.errors.InvalidInput: beam_m must be above 0 m, got 0
    """
    with engine_errors():
        return as_vessel(None, draft_m, beam_m, length_m, air_draft_m)


#: Where a dimension of :class:`VesselSize` came from: a query parameter or tool argument, what
#: the vessel reported (AIS static data, the position feed), or none (the engine's default).
GIVEN, REPORTED, DEFAULT = "given", "reported", "default"


@dataclass(frozen=True, slots=True)
class VesselSize:
    """The dimensions in metres a route is computed for (None: not known): those a caller gave,
    and those the vessel reported where the caller gave none; the engine's default vessel is
    routed when none is known.

    >>> VesselSize(draft_m=12.5).meta()["sources"]
    {'draft_m': 'given', 'beam_m': 'default', 'length_m': 'default', 'air_draft_m': 'default'}
    >>> size = VesselSize(draft_m=12.5).filled(draft_m=14.0, beam_m=48.2)
    >>> size.draft_m, size.beam_m, size.meta()["source"]
    (12.5, 48.2, 'mixed')
    """

    draft_m: float | None = None
    beam_m: float | None = None
    length_m: float | None = None
    air_draft_m: float | None = None
    #: The names of the dimensions taken from the vessel's reports, not from the caller.
    reported: frozenset[str] = frozenset()
    #: Who reported them (``ais``, ``position_feed``), when known.
    reported_by: str | None = None
    #: Why the reported dimensions were set aside (the engine found no route for them), if so.
    set_aside: str | None = None

    @classmethod
    def given(cls, vessel: Vessel = NO_VESSEL) -> VesselSize:
        """The dimensions a caller gave as ``vessel`` (none reported yet)."""
        return cls(vessel.draft_m, vessel.beam_m, vessel.length_m, vessel.air_draft_m)

    def filled(
        self,
        *,
        draft_m: float | None = None,
        beam_m: float | None = None,
        length_m: float | None = None,
        by: str | None = None,
    ) -> VesselSize:
        """These dimensions, with the vessel's reported ones where the caller gave none (the
        caller's win), reported ``by`` a source. A reported value outside the engine's bounds
        is not used."""
        reported = {"draft_m": draft_m, "beam_m": beam_m, "length_m": length_m}
        values = self.values()
        taken = {
            name: value
            for name, value in reported.items()
            if values[name] is None
            and value is not None
            and 0.0 < value <= DIMENSION_BOUNDS_M[name]  # NaN fails too
        }
        changes: dict[str, Any] = {**taken, "reported": self.reported | taken.keys()}
        if taken:
            changes["reported_by"] = by
        return replace(self, **changes)

    def caller_only(self, reason: str) -> VesselSize:
        """These dimensions without the reported ones, which the engine could not route for
        (``reason``: its message)."""
        dropped = dict.fromkeys(self.reported)
        return replace(self, **dropped, reported=frozenset(), reported_by=None, set_aside=reason)

    def vessel(self) -> Vessel:
        """The engine's one :class:`~sealane.routing.Vessel` of these dimensions, checked by
        the engine (:class:`~.errors.InvalidInput` naming the first bad one)."""
        with engine_errors():
            return as_vessel(None, self.draft_m, self.beam_m, self.length_m, self.air_draft_m)

    def values(self) -> dict[str, float | None]:
        """The four dimensions used, by name (``draft_m``, ...), unchecked."""
        return {
            "draft_m": self.draft_m,
            "beam_m": self.beam_m,
            "length_m": self.length_m,
            "air_draft_m": self.air_draft_m,
        }

    def sources(self) -> dict[str, str]:
        """Where each dimension came from: :data:`GIVEN`, :data:`REPORTED` or :data:`DEFAULT`."""
        return {
            name: REPORTED if name in self.reported else GIVEN if value is not None else DEFAULT
            for name, value in self.values().items()
        }

    def meta(self) -> dict[str, Any]:
        """Which dimensions the route was computed for: ``source`` says where the known ones
        came from (``given``, ``reported``, ``mixed``; ``default`` when none is known, the
        engine's default vessel), ``sources`` each one's, ``reported_by`` who reported those
        used (``ais``, ``position_feed``), and ``reported_set_aside`` why the vessel's reported
        dimensions were not used when they could not be routed."""
        sources = self.sources()
        known = {source for source in sources.values() if source != DEFAULT}
        summary = DEFAULT if not known else known.pop() if len(known) == 1 else "mixed"
        meta: dict[str, Any] = {"source": summary, **self.values(), "sources": sources}
        if self.reported:
            meta["reported_by"] = self.reported_by
        if self.set_aside is not None:
            meta["reported_set_aside"] = self.set_aside
        return meta


#: No dimension given: the engine's default vessel.
NO_SIZE = VesselSize()


def sized_call(call: Callable[..., T], size: VesselSize) -> tuple[T, VesselSize]:
    """``call`` with ``size``'s vessel (``vessel=``), and the size it was made for.

    When the engine finds no way for a size with reported dimensions (an AIS draught deeper
    than the destination's channel, say), the call is made again with the caller's dimensions
    only: a vessel's report, unlike a caller's parameter, does not make the answer fail; the
    size returned says why the reported ones were set aside.
    """
    try:
        with engine_errors():
            return call(vessel=size.vessel()), size
    except CannotRoute as error:
        if not size.reported:
            raise
        size = size.caller_only(str(error))
    with engine_errors():
        return call(vessel=size.vessel()), size
