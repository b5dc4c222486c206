"""The shipped network never puts a route between the 100 busiest container ports, or up a river
to the ports the river corridors serve, on land.

Every route between the ports of ``data/top100_container_ports.csv`` (all 9,900 ordered pairs,
default passages) is cut into its distinct legs, and each leg is sampled every 100 m along its
WGS84 geodesic against the GSHHG full-resolution coastline (roaring-landmask): five times denser
than the 500 m asked for, and so independent of where along a route a 500 m sampling starts. A
sample on land counts unless it lies in a named corridor (``data/corridors.geojson``).
"""

from __future__ import annotations

import csv
from itertools import permutations
from pathlib import Path

import numpy as np
import pytest

import sealane
from sealane.routing.data import data_dir

pytest.importorskip("roaring_landmask")

from sealane.routing.build.coast import coastline, sample_geodesics
from sealane.routing.build.corridors import CorridorIndex, read_geojson

TOP100 = Path(__file__).parents[1] / "data" / "top100_container_ports.csv"
SPACING_M = 100.0


def top100() -> list[str]:
    """LOCODEs of the 100 busiest container ports, busiest first."""
    with TOP100.open(encoding="utf-8") as handle:
        return [row["locode"] for row in csv.DictReader(handle)]


def distinct_legs(codes: list[str]) -> np.ndarray:
    """(N, 4) lon1, lat1, lon2, lat2 of every distinct leg of every route between the ports."""
    legs: set[tuple[float, float, float, float]] = set()
    for origin, destination in permutations(codes, 2):
        c = sealane.route(origin, destination).coordinates
        legs.update(map(tuple, np.hstack([c[:-1], c[1:]]).tolist()))
    return np.array(sorted(legs))


@pytest.mark.slow
def test_top100_routes__no_sample_on_land_outside_corridors() -> None:
    assert len(set(top100())) == 100
    # Ports flagged inland have no route at all; the approach test below says there are none.
    codes = [code for code in top100() if not sealane.get_port(code).inland]
    legs = distinct_legs(codes)
    lon, lat, leg, _ = sample_geodesics(legs[:, 0], legs[:, 1], legs[:, 2], legs[:, 3], SPACING_M)
    land = np.flatnonzero(coastline().is_land(lon, lat))
    corridors = CorridorIndex(read_geojson(data_dir() / "corridors.geojson"))
    outside = land[~corridors.contains(lon[land], lat[land])]
    where = sorted({tuple(np.round(legs[k], 4)) for k in leg[outside].tolist()})
    assert outside.size == 0, f"{outside.size} samples on land on {len(where)} legs: {where[:10]}"


def test_top100__every_port_has_a_water_approach() -> None:
    inland = [code for code in top100() if sealane.get_port(code).inland]
    assert inland == []


#: The ports the river corridors of ``passages.json`` serve (their sea ends aside).
RIVER_PORTS = (
    *("USMSY", "USNEW", "USBTR", "USPHL", "USJAX", "USPDX", "USVAN", "CNHUA", "CNCAN", "CNNKG"),
    *("INCCU", "ARROS", "ARSLO", "DEBRE", "FRURO", "GBLON", "FRBOD", "ESSVQ", "CAMTR", "THBKK"),
)


def test_river_ports__routes_follow_the_river_no_sample_on_land_outside_it() -> None:
    spec = read_geojson(data_dir() / "corridors.geojson")
    served = {port for corridor in spec for port in corridor.ports}
    assert set(RIVER_PORTS) <= served
    legs = np.array(
        sorted(
            {
                tuple(leg)
                for code in RIVER_PORTS
                for c in [sealane.route("NLRTM", code).coordinates]
                for leg in np.hstack([c[:-1], c[1:]]).tolist()
            }
        )
    )
    lon, lat, leg, _ = sample_geodesics(legs[:, 0], legs[:, 1], legs[:, 2], legs[:, 3], SPACING_M)
    land = np.flatnonzero(coastline().is_land(lon, lat))
    assert land.size > 0  # the rivers are land to GSHHG: the routes do go up them
    outside = land[~CorridorIndex(spec).contains(lon[land], lat[land])]
    where = sorted({tuple(np.round(legs[k], 4)) for k in leg[outside].tolist()})
    assert outside.size == 0, f"{outside.size} samples on land on {len(where)} legs: {where[:10]}"
