"""Ports approached by their fairway (issue 28, item 5): a short route between two of the
busiest container ports should leave its port on the side facing the other
(``scripts/port_detours.py`` lists the pairs that detour; ``data/README.md`` explains each)."""

from __future__ import annotations

import pytest

import sealane
from sealane.routing.geodesy import METRES_PER_NM, distance_m

#: Pairs whose join leaves a port on the wrong side, and the most their route may run over the
#: great circle between the berths once it is fixed.
FIXED = {("MYPKG", "MYTPP"): 1.3}
#: Port Klang's join is not fixed yet (data/README.md, "Short routes that detour"): a build that
#: placed it at Westports joined it to a lane of searoute's that stops 0.5 km short of the strait's
#: hub, so the build must first close that gap.
NOT_REBUILT = pytest.mark.xfail(
    reason="Port Klang still joined at Northport: Westports alone does not fix it (data/README.md)",
    strict=True,
)


def great_circle_nm(origin: str, destination: str) -> float:
    a, b = sealane.get_port(origin), sealane.get_port(destination)
    return distance_m(a.lon, a.lat, b.lon, b.lat) / METRES_PER_NM


@NOT_REBUILT
@pytest.mark.parametrize(("origin", "destination"), [*FIXED, *((d, o) for o, d in FIXED)])
def test_route__fixed_join_runs_close_to_the_great_circle(origin: str, destination: str) -> None:
    most = FIXED.get((origin, destination)) or FIXED[(destination, origin)]
    found = sealane.route(origin, destination)
    assert found.distance_nm <= most * great_circle_nm(origin, destination)


@NOT_REBUILT
def test_route__port_klang_to_the_south_leaves_southward() -> None:
    klang = sealane.get_port("MYPKG")
    route = sealane.route("MYPKG", "MYTPP", draft_m=12.0)
    lon, lat = route.coordinates[:, 0], route.coordinates[:, 1]
    away = [k for k in range(len(lon)) if distance_m(klang.lon, klang.lat, lon[k], lat[k]) > 20e3]
    assert lat[away[0]] < klang.lat  # the first point 20 km out lies south of the berth
