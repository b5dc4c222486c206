"""Port limits: the deepest draft a port's dredged channel takes, and the refusal of a port a
vessel draws too much for.

The depth grid cannot tell a dredged channel from the banks beside it, so the network leaves a
port's last 10 km unmeasured and keeps a fairway open to each port a depth band would cut off
(``data/README.md``, "Depth"): without more, any draft its passages allow reaches the port.
``data/port_limits.csv`` gives, for a few ports, the deepest draft their channel can take: the
channel's charted depth at high water (its project depth at low water plus the mean tidal
range), or the port's published maximum draft (sources in ``data/README.md``). It bounds what
no ship can do, not what a pilot allows (no under-keel clearance, no tide windows), so it never
refuses a ship that sails there. ``data/river_limits.csv`` gives the same for the ports up the
network's river corridors (New Orleans on the Mississippi, Kolkata on the Hooghly ...): the
river's controlling depth to each port it serves, as its authority publishes it, the river
named. A vessel drawing more is refused that port as an origin, a via point or a destination,
with the figure that refused it. The tables are read on the first route with a draft, so a cold
start without one never reads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .data import data_dir
from .errors import NoRouteError
from .locations import Location


@dataclass(frozen=True, slots=True)
class PortLimit:
    """The deepest draft, metres, that a port's channel takes, and where the figure is from."""

    locode: str
    #: What the figure is (``Savannah Harbor's channel at high water (47 ft at MLLW, ...)``).
    name: str
    draft_m: float
    source: str


@cache
def port_limits() -> dict[str, PortLimit]:
    """Every row of the shipped port and river limits tables, by LOCODE (the shallower figure
    where a port has both)."""
    from .data.formats import PORT_LIMITS, RIVER_LIMITS  # on first use, off the cold start

    rows = PORT_LIMITS.read(data_dir() / PORT_LIMITS.name)
    rows += RIVER_LIMITS.read(data_dir() / RIVER_LIMITS.name)
    out: dict[str, PortLimit] = {}
    for row in rows:
        limit = PortLimit(row["locode"], row["name"], float(row["draft_m"]), row["source"])
        if row["locode"] not in out or limit.draft_m < out[row["locode"]].draft_m:
            out[row["locode"]] = limit
    return out


def check_port_draft(stop: Location, draft_m: float | None, what: str) -> None:
    """Refuse ``stop`` (the route's ``what``: origin, destination ...) when it is a port whose
    channel takes less than ``draft_m`` (a checked draft, or None when unknown).

    >>> from .locations import resolve_location
    >>> check_port_draft(resolve_location("USSAV"), 17.0, "destination")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sealane.routing.errors.NoRouteError: destination USSAV (...): draft 17 m exceeds the 16.73 m ...
    >>> check_port_draft(resolve_location("USSAV"), 16.0, "destination")  # it fits
    """
    if draft_m is None or stop.port is None:
        return
    limit = port_limits().get(stop.port.locode)
    if limit is not None and draft_m > limit.draft_m:
        raise NoRouteError(
            f"{what} {stop.port.locode} ({stop.port.name}): draft {float(draft_m):g} m exceeds the "
            f"{limit.draft_m:g} m of {limit.name}"
        )
