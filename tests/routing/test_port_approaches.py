"""Ports approached by their fairway (issue 28, item 5): a short route between two of the
busiest container ports should leave its port on the side facing the other
(``scripts/port_detours.py`` lists the pairs that detour; ``data/README.md`` explains each)."""

from __future__ import annotations

import pytest

import sealane
from sealane.routing.geodesy import METRES_PER_NM, distance_m

#: Pairs whose route left a port on the wrong side until a build fixed its way out, and the most
#: their route may run over the great circle between the berths. Port Klang (berth at Northport)
#: left only by the North Klang Strait until the build closed the gap at the south end of
#: searoute's lane past Westports (data/README.md, "Short routes that detour").
FIXED = {("MYPKG", "MYTPP"): 1.3, ("MYPKG", "SGSIN"): 1.2}


def great_circle_nm(origin: str, destination: str) -> float:
    a, b = sealane.get_port(origin), sealane.get_port(destination)
    return distance_m(a.lon, a.lat, b.lon, b.lat) / METRES_PER_NM


@pytest.mark.parametrize(("origin", "destination"), [*FIXED, *((d, o) for o, d in FIXED)])
def test_route__fixed_join_runs_close_to_the_great_circle(origin: str, destination: str) -> None:
    most = FIXED.get((origin, destination)) or FIXED[(destination, origin)]
    found = sealane.route(origin, destination)
    assert found.distance_nm <= most * great_circle_nm(origin, destination)


def test_route__port_klang_to_the_south_leaves_southward() -> None:
    klang = sealane.get_port("MYPKG")
    route = sealane.route("MYPKG", "MYTPP", draft_m=12.0)
    lon, lat = route.coordinates[:, 0], route.coordinates[:, 1]
    away = [k for k in range(len(lon)) if distance_m(klang.lon, klang.lat, lon[k], lat[k]) > 20e3]
    assert lat[away[0]] < klang.lat  # the first point 20 km out lies south of the berth
