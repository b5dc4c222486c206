"""Where water is: canals, rivers and port basins are afloat; far inland is OnLandError in every
engine call (route ends, future positions, an itinerary's vessel; the fleet's in test_fleet)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

import sealane
from sealane.routing.data.formats import CORRIDORS, DataFormatError
from sealane.routing.geodesy import GEOD, distance_m
from sealane.routing.graph import default_graph
from sealane.routing.landmask import default_landmask
from sealane.routing.locations import Location
from sealane.routing.water import (
    ASHORE_TOLERANCE_M,
    LANE_HALF_WIDTH_M,
    PORT_TOLERANCE_M,
    afloat,
    corridors,
    on_own_water,
)

T0 = datetime(2026, 3, 1, tzinfo=UTC)

#: Places far inland, each more than the tolerances from water: (lon, lat).
INLAND = {
    "kansas": (-100.0, 40.0),
    "madrid": (-3.7, 40.4),  # 2 km from ESMAD, flagged inland
    "sahara": (10.0, 23.0),
    "prague": (14.42, 50.08),  # 20 km from CZWJJ (Rudna), a port flagged inland
    "duisburg": (6.76, 51.43),  # beside DEDUI, flagged inland: the Rhine is no sea approach
    "central-india": (78.0, 22.0),
}

#: Real water the 1-minute land mask calls land: canals, rivers and basins (lon, lat, what).
AFLOAT = {
    "suez-el-ferdan": (32.3244, 30.657),
    "suez-ismailia": (32.30, 30.60),
    "suez-el-qantara": (32.317, 30.855),
    "suez-port-said-basin": (32.31, 31.255),
    "suez-great-bitter-lake": (32.38, 30.32),  # 1.5 km off the lane, ships at anchor
    "panama-gatun-lake": (-79.85, 9.2),
    "kiel-canal-rendsburg": (9.67, 54.30),
    "panama-canal-gamboa": (-79.69, 9.115),
    "elbe-hamburg": (9.93, 53.54),
    "st-lawrence-montreal": (-73.55, 45.50),
}


@pytest.mark.parametrize("where", list(INLAND.values()), ids=list(INLAND))
def test_afloat__far_inland_is_on_land(where: tuple[float, float]) -> None:
    assert default_landmask().is_land(*where)
    with pytest.raises(sealane.OnLandError, match=rf"start \({where[0]}, {where[1]}\) is on land"):
        afloat(Location(*where), "start", default_graph())


@pytest.mark.parametrize("where", list(AFLOAT.values()), ids=list(AFLOAT))
def test_afloat__canals_rivers_and_basins_stay_where_they_are(where: tuple[float, float]) -> None:
    assert default_landmask().is_land(*where)  # what the mask alone would refuse or move
    assert afloat(Location(*where), "start", default_graph()) == Location(*where)


def test_afloat__at_sea_is_itself() -> None:
    assert afloat(Location(-40.0, 40.0), "start", default_graph()) == Location(-40.0, 40.0)


def test_afloat__a_port_is_water_even_if_flagged_inland() -> None:
    madrid = sealane.get_port("ESMAD")
    assert madrid.inland  # route() refuses it as a port with no sea approach, not as a position
    assert (
        afloat(Location(madrid.lon, madrid.lat, madrid), "origin", default_graph()).port == madrid
    )


def test_afloat__just_ashore_is_moved_to_the_nearest_sea() -> None:
    start = Location(14.5, -24.0)  # Namib coast, 4 km inland, no port or lane near
    moved = afloat(start, "start", default_graph())
    assert not default_landmask().is_land(moved.lon, moved.lat)
    assert 0 < distance_m(start.lon, start.lat, moved.lon, moved.lat) <= ASHORE_TOLERANCE_M


@pytest.mark.parametrize("name", ["Suez Canal", "Kiel Canal", "Panama Canal", "Savannah River"])
def test_afloat__anywhere_within_a_corridors_half_width(name: str) -> None:
    corridor = next(c for c in _corridor_lines() if c[0] == name)
    _, half_width, line = corridor
    graph = default_graph()
    for (lon1, lat1), (lon2, lat2) in zip(line[:-1:5], line[1::5], strict=False):
        azimuth, _, _ = GEOD.inv(lon1, lat1, lon2, lat2)
        lon, lat, _ = GEOD.fwd(lon1, lat1, azimuth + 90.0, 0.9 * half_width)
        assert on_own_water(graph, float(lon), float(lat)), (name, lon, lat)


def test_on_own_water__inland_ports_count_for_nothing() -> None:
    duisburg = sealane.get_port("DEDUI")
    assert duisburg.inland
    near = (duisburg.lon + 0.01, duisburg.lat)
    assert distance_m(*near, duisburg.lon, duisburg.lat) < PORT_TOLERANCE_M
    assert not on_own_water(default_graph(), *near)


def test_on_own_water__beside_a_lane() -> None:
    graph = default_graph()
    lane = graph.snap(32.0, 31.6)  # off Port Said, on the lane into the canal
    assert lane.distance_m > 0
    assert on_own_water(graph, lane.lon, lane.lat)
    assert LANE_HALF_WIDTH_M == 1_000.0


def test_corridors__every_shipped_corridor_is_read() -> None:
    found = corridors()
    assert len(found) == len(_corridor_lines()) > 0
    assert all(c.half_width_m > 0 for c in found)


def test_corridor_lines__a_feature_without_a_half_width_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "corridors.geojson"
    path.write_text(
        '{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {},'
        ' "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}}]}'
    )
    with pytest.raises(DataFormatError, match="half_width_m"):
        CORRIDORS.read(path)


# --- every engine call refuses a position on land -------------------------------------------------


@pytest.mark.parametrize("where", list(INLAND.values()), ids=list(INLAND))
def test_route__an_end_on_land_is_refused_either_way(where: tuple[float, float]) -> None:
    with pytest.raises(sealane.OnLandError, match="origin"):
        sealane.route(where, "NLRTM")
    with pytest.raises(sealane.OnLandError, match="destination"):
        sealane.route("NLRTM", where)
    with pytest.raises(sealane.OnLandError, match=r"via\[0\]"):
        sealane.route("NLRTM", "USNYC", via=[where])


@pytest.mark.parametrize("where", list(AFLOAT.values()), ids=list(AFLOAT))
def test_route__from_a_canal_or_river(where: tuple[float, float]) -> None:
    route = sealane.route(where, "NLRTM")
    assert tuple(route.coordinates[0]) == where
    assert route.distance_m > 0


@pytest.mark.parametrize("where", list(INLAND.values()), ids=list(INLAND))
def test_future_positions__start_on_land_is_refused(where: tuple[float, float]) -> None:
    with pytest.raises(sealane.OnLandError) as raised:
        sealane.future_positions(where, "DEHAM", "NLRTM", start_time=T0)
    assert raised.value.code == "on_land"


def test_future_positions__in_the_suez_canal() -> None:
    where = AFLOAT["suez-el-ferdan"]
    positions = sealane.future_positions(where, "EGPSD", "NLRTM", start_time=T0)
    assert (positions.lons[0], positions.lats[0]) == where
    assert (positions.lons[-1], positions.lats[-1]) == sealane.get_port("NLRTM").coordinates
    assert positions.route.passages[0] == "suez"


def test_itinerary__vessel_on_land_is_refused() -> None:
    trip = sealane.itinerary(["CNSHA", "SGSIN", "NLRTM"])
    with pytest.raises(sealane.OnLandError):
        trip.at_sea(1, INLAND["madrid"], T0)


def _corridor_lines() -> list[tuple[str, float, list[list[float]]]]:
    from sealane.routing.data import data_dir

    return CORRIDORS.read(data_dir() / CORRIDORS.name)
