"""Multi-leg container itineraries: port calls -> sea-lane legs with distances, durations and times.

A container sails from its port of lading (POL) through transshipment ports (TS1, TS2, ...) to its
port of discharge (POD), on one vessel per leg. Each leg is a :func:`~.routes.route` between two
port calls; at a speed it takes the route's length at that speed, and the container stays
``dwell_h`` hours at each transshipment port between two legs (default ``DEFAULT_DWELL_H``).
Given a departure time from the POL, every call gets an estimated arrival and departure.
Where the vessel of a leg is at sea, :meth:`Itinerary.at_sea` splits that leg at its position
(see :mod:`.progress`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from .frames import legs_frame
from .itinerary_inputs import InvalidItineraryError as InvalidItineraryError
from .itinerary_inputs import as_utc, dwell_hours, ports_called, speeds_per_leg
from .itinerary_parts import Leg, PortCall, scheduled
from .passages import NOT_FOR_CONTAINER_SHIPS, Passage, closed_passages
from .ports import Port
from .progress import Progress, at_port, at_sea
from .routes import route
from .vessel import UNKNOWN, Vessel, as_vessel
from .voyage import OFF_PATH_NM

if TYPE_CHECKING:
    import geopandas

    from .locations import LocationLike

#: Hours a container stays at a transshipment port between two legs when none is given: about
#: one day, a container vessel's usual stay at berth for cargo operations.
DEFAULT_DWELL_H = 24.0


@dataclass(frozen=True, slots=True)
class Itinerary:
    """Port calls in order and the legs between them, with estimated times when departed_at
    was given. ``dwell_h`` holds the stay at each call (0 at the POL and the POD); ``vessel``
    the dimensions every leg was routed for."""

    calls: tuple[PortCall, ...]
    legs: tuple[Leg, ...]
    dwell_h: tuple[float, ...]
    avoid: tuple[str, ...]
    allow_arctic: bool
    vessel: Vessel = UNKNOWN

    @property
    def distance_m(self) -> float:
        """Sum of the legs' lengths, metres."""
        return sum(leg.route.distance_m for leg in self.legs)

    @property
    def distance_nm(self) -> float:
        """Sum of the legs' lengths, nautical miles."""
        return sum(leg.distance_nm for leg in self.legs)

    @property
    def duration_h(self) -> float:
        """Hours from the POL's departure to the POD's arrival: legs at sea plus port stays."""
        return sum(leg.duration_h for leg in self.legs) + sum(self.dwell_h)

    @property
    def departed_at(self) -> datetime | None:
        """Departure from the POL (UTC), or None for an untimed itinerary."""
        return self.calls[0].departure_at

    @property
    def eta(self) -> datetime | None:
        """Estimated arrival at the POD (UTC), or None for an untimed itinerary."""
        return self.calls[-1].arrival_at

    def at_port(self, call: int, *, departs_at: datetime | None = None) -> Progress:
        """The container at port call ``call`` (index into ``calls``): the legs before it sailed,
        the rest to come, leaving at ``departs_at`` (default: the call's estimated departure)."""
        return at_port(self, call, departs_at=departs_at)

    def at_sea(
        self,
        leg: int,
        position: LocationLike,
        at: datetime,
        *,
        speed_kn: float | None = None,
        step_s: float = 60.0,
        off_path_nm: float = OFF_PATH_NM,
    ) -> Progress:
        """The container on leg ``leg`` (index into ``legs``), its vessel at ``position`` (lon,
        lat) at time ``at``, sailing on at ``speed_kn`` (default: the leg's speed)."""
        return at_sea(
            self, leg, position, at, speed_kn=speed_kn, step_s=step_s, off_path_nm=off_path_nm
        )

    def to_geojson(self) -> dict[str, Any]:
        """The itinerary before departure as an RFC 7946 FeatureCollection (see
        :meth:`.progress.Progress.to_geojson`)."""
        return self.at_port(0).to_geojson()

    def to_geodataframe(self) -> geopandas.GeoDataFrame:
        """One row per leg with its route as geometry (needs the ``geo`` extra)."""
        return legs_frame(self.legs)


def itinerary(
    port_calls: Sequence[str | Port],
    *,
    speed_kn: float | Sequence[float | None] | None = None,
    dwell_h: float | Sequence[float] = DEFAULT_DWELL_H,
    avoid: Iterable[str | Passage] = (),
    allow_arctic: bool = False,
    departed_at: datetime | None = None,
    vessel: Vessel | None = None,
    draft_m: float | None = None,
    beam_m: float | None = None,
    length_m: float | None = None,
    air_draft_m: float | None = None,
) -> Itinerary:
    """The itinerary through ``port_calls`` (LOCODEs, port ids or :class:`Port`), in order.

    ``speed_kn`` is one speed or one per leg (``None`` or below 1 kn: the service speed);
    ``dwell_h`` one stay or one per transshipment port; ``departed_at`` (naive means UTC) times
    every call. ``avoid``, ``allow_arctic`` and the ``vessel`` (or its dimensions in metres as
    keywords, ``draft_m``, ``beam_m``, ``length_m``, ``air_draft_m``, each optional) apply to
    every leg as in :func:`~.routes.route`.

    >>> from datetime import UTC
    >>> trip = itinerary(["CNSHA", "SGSIN", "NLRTM"], speed_kn=18,
    ...                  departed_at=datetime(2026, 3, 1, tzinfo=UTC))
    >>> [call.label for call in trip.calls], round(trip.distance_nm)
    (['POL', 'TS1', 'POD'], 10504)
    >>> trip.calls[1].arrival_at.isoformat(timespec="minutes")
    '2026-03-06T02:01+00:00'
    >>> [leg.route.passages for leg in itinerary(["DEHAM", "DKAAR", "PLGDN"], draft_m=10.5).legs]
    [('elbe',), ('great_belt',)]
    """
    ship = as_vessel(vessel, draft_m, beam_m, length_m, air_draft_m)
    ports = ports_called(port_calls)
    speeds = speeds_per_leg(speed_kn, len(ports) - 1)
    stays = dwell_hours(dwell_h, len(ports))
    # The passages asked to be avoided; each leg's route adds the default-closed ones itself.
    asked = closed_passages(avoid, allow_arctic=True, allow=NOT_FOR_CONTAINER_SHIPS)
    closed = tuple(sorted(p.value for p in asked))
    legs = tuple(
        Leg(
            i + 1,
            origin,
            destination,
            route(
                origin,
                destination,
                avoid=closed,
                allow_arctic=allow_arctic,
                vessel=ship,
            ),
            speeds[i],
            None,
            None,
        )
        for i, (origin, destination) in enumerate(pairwise(ports))
    )
    calls = tuple(
        PortCall(i + 1, port, _label(i, len(ports)), None, None) for i, port in enumerate(ports)
    )
    calls, legs = scheduled(calls, legs, stays, 0, departure_at=as_utc(departed_at, "departed_at"))
    return Itinerary(calls, legs, stays, closed, allow_arctic, ship)


def _label(index: int, calls: int) -> str:
    """POL, TS1, TS2, ..., POD."""
    if index == 0:
        return "POL"
    return "POD" if index == calls - 1 else f"TS{index}"
