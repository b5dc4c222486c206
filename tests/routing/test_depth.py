"""Depth (issue 28, item 3): a route never sails an edge shallower than its vessel's draft plus the
under-keel clearance, outside the charted fairways; the known shallow-water shortcuts are gone."""

from __future__ import annotations

import csv
import math
from itertools import pairwise, permutations
from pathlib import Path

import numpy as np
import pytest

import sealane
from sealane.routing.depth import BAND_NAMES, band_below, band_closed, band_mask, needed_depth_m
from sealane.routing.graph import default_graph
from sealane.routing.passages import names_from_mask
from sealane.routing.port_limits import port_limits

TOP100 = Path(__file__).parent / "data" / "top100_container_ports.csv"

#: (lon_min, lat_min, lon_max, lat_max) of water the issue names as too shallow for 12 m.
NANTUCKET_AND_VINEYARD_SOUNDS = (-70.95, 41.25, -69.95, 41.65)
#: The Riau islands and the Durian Strait, south of the Singapore Strait.
RIAU_AND_DURIAN = (103.3, 0.3, 104.6, 1.05)


#: The engine tests below need a graph file built with the bands, as the shipped one is (a build
#: with ``SEALANE_DEPTH_BANDS=0`` writes none).
BANDED = pytest.mark.skipif(
    BAND_NAMES[0] not in default_graph().passage_names,
    reason="this marnet.npz was built without depth bands (data/README.md, 'Depth')",
)


def top100() -> list[str]:
    """LOCODEs of the 100 busiest container ports."""
    with TOP100.open(encoding="utf-8") as handle:
        return [row["locode"] for row in csv.DictReader(handle)]


def inside(route: sealane.Route, box: tuple[float, float, float, float]) -> bool:
    """Whether any vertex of ``route`` lies in ``box``."""
    lon, lat = route.coordinates[:, 0], route.coordinates[:, 1]
    return bool(((lon >= box[0]) & (lat >= box[1]) & (lon <= box[2]) & (lat <= box[3])).any())


def test_needed_depth__ten_percent_clearance_at_least_one_and_a_half_metres() -> None:
    assert needed_depth_m(8.0) == 9.5
    assert needed_depth_m(12.0) == 13.5
    assert math.isclose(needed_depth_m(20.0), 22.0)


def test_band_closed__the_shallowest_band_at_or_above_the_need() -> None:
    assert band_closed(None) == band_closed(7.7) == "depth<9.2m"
    assert band_closed(7.8) == band_closed(12.0) == "depth<13.5m"
    assert band_closed(12.1) == band_closed(16.0) == "depth<17.6m"
    assert band_closed(16.1) == band_closed(30.0) == "depth<25m"


@BANDED
def test_shipped_graph__carries_the_bands_and_edge_depths() -> None:
    graph = default_graph()
    names = graph.passage_names
    assert names[-len(BAND_NAMES) :] == BAND_NAMES
    assert len(names) <= 32
    assert graph.edge_depth_m.size == graph.edge_u.size
    bits = graph.edge_passages
    carried = [(bits & np.uint32(1 << names.index(name))) != 0 for name in BAND_NAMES]
    assert all(band.any() for band in carried)
    # Cumulative: an edge in a band is in every deeper band too.
    for shallower, deeper in pairwise(carried):
        assert not (shallower & ~deeper).any()
    # The bands are the measured depths'.
    measured = graph.edge_depth_m
    assert not (carried[1] & ~(measured < 13.5)).any()
    assert not ((measured < 13.5) & ~carried[1]).any()


@BANDED
def test_band_names__never_listed_as_passages() -> None:
    names = default_graph().passage_names
    assert names_from_mask(band_mask(12.0, names) | band_mask(None, names), names) == []


@BANDED
def test_route__antwerp_rotterdam_at_12m_keeps_off_the_voordelta_banks() -> None:
    deep = sealane.route("BEANR", "NLRTM", draft_m=12.0)
    assert deep.distance_nm > sealane.route("BEANR", "NLRTM", draft_m=7.0).distance_nm
    assert abs(deep.distance_nm / 121.0 - 1.0) <= 0.05  # NGA Pub. 151


@BANDED
@pytest.mark.parametrize("origin", ["CAHAL", "FRBES"])
def test_route__to_new_york_at_12m_passes_south_of_the_nantucket_shoals(origin: str) -> None:
    assert not inside(sealane.route(origin, "USNYC", draft_m=12.0), NANTUCKET_AND_VINEYARD_SOUNDS)


@pytest.mark.parametrize("origin", ["CAHAL", "FRBES"])
def test_route__default_vessel_to_new_york_passes_south_of_the_nantucket_shoals(
    origin: str,
) -> None:
    # Closed waters (passages.json): no route passes through Nantucket or Vineyard Sound.
    assert not inside(sealane.route(origin, "USNYC"), NANTUCKET_AND_VINEYARD_SOUNDS)


@BANDED
def test_route__jakarta_at_12m_by_its_own_fairway_not_round_java() -> None:
    # The grid shows no channel into Jakarta Bay; the port's 13.5 m fairway leads north.
    assert (
        abs(sealane.route("SGSIN", "IDJKT", draft_m=12.0).distance_nm / 526.0 - 1.0) <= 0.05
    )  # NGA Pub. 151


@BANDED
def test_route__shanghai_singapore_at_22m_keeps_out_of_the_riau_islands() -> None:
    # Too deep for the Singapore Strait (20.5 m): refused, not let in from the south.
    try:
        found = sealane.route("CNSHA", "SGSIN", draft_m=22.0)
    except sealane.NoRouteError as error:
        assert "Singapore Strait" in str(error)
    else:
        assert not inside(found, RIAU_AND_DURIAN)


@BANDED
def test_route__a_vessel_over_shallow_water_sails_out_to_deep_water() -> None:
    # In the Voordelta, on searoute's lane over the banks: a 14 m ship there is routed, not refused.
    found = sealane.route((3.75, 51.85), "GBFXT", draft_m=14.0)
    assert found.distance_nm > 0


def edges_sailed(
    route: sealane.Route, node_of: dict[tuple[float, float], int]
) -> list[tuple[int, int]]:
    """The graph edges of the route's segments between two nodes (the snapped ends' are not)."""
    ids = [node_of.get((lon, lat), -1) for lon, lat in route.coordinates.tolist()]
    return [(a, b) for a, b in pairwise(ids) if a >= 0 and b >= 0]


@BANDED
@pytest.mark.slow
def test_top100_routes_at_12m__no_edge_shallower_than_the_clearance() -> None:
    graph = default_graph()
    node_of = {(lon, lat): k for k, (lon, lat) in enumerate(graph.node_lonlat.tolist())}
    edge_of = {
        (min(a, b), max(a, b)): k
        for k, (a, b) in enumerate(zip(graph.edge_u.tolist(), graph.edge_v.tolist(), strict=True))
    }
    need = needed_depth_m(12.0)
    shallow: set[int] = set()
    sailed = 0
    # Ports whose channel or river takes less than 12 m (Bangkok, Montreal, Ho Chi Minh City)
    # refuse the ship; the rest are sailed.
    limits = port_limits()
    ports = [code for code in top100() if code not in limits or limits[code].draft_m >= 12.0]
    for origin, destination in permutations(ports, 2):
        for a, b in edges_sailed(sealane.route(origin, destination, draft_m=12.0), node_of):
            edge = edge_of[(min(a, b), max(a, b))]
            sailed += 1
            if graph.edge_depth_m[edge] < need:  # NaN (a port's fairway) compares False
                shallow.add(edge)
    assert sailed > 100_000
    where = [
        (graph.node_lonlat[graph.edge_u[k]].tolist(), float(graph.edge_depth_m[k])) for k in shallow
    ]
    assert not shallow, f"{len(shallow)} edges under {need} m: {where[:10]}"


def test_route__qingdao_yantai_below_the_band_takes_its_13_m_leg_and_12_m_does_not() -> None:
    # The leg off Qingdao (121.0, 35.9 to 122.57, 36.76) measures 13.0 m: a vessel of 9 to 11.5
    # m needs at most 13.0 m and sails it, as the default vessel does; a 12 m one needs 13.5 m.
    default = sealane.route("CNTAO", "CNYNT").distance_nm
    for draft in (9.0, 10.5, 11.5):
        assert sealane.route("CNTAO", "CNYNT", draft_m=draft).distance_nm == pytest.approx(default)
    assert sealane.route("CNTAO", "CNYNT", draft_m=12.0).distance_nm > default + 100.0


@pytest.mark.parametrize("draft", [10.5, 14.0])
def test_top_routes_between_band_bounds__no_edge_shallower_than_the_need(draft: float) -> None:
    graph = default_graph()
    node_of = {(lon, lat): k for k, (lon, lat) in enumerate(graph.node_lonlat.tolist())}
    edge_of = {
        (min(a, b), max(a, b)): k
        for k, (a, b) in enumerate(zip(graph.edge_u.tolist(), graph.edge_v.tolist(), strict=True))
    }
    need = needed_depth_m(draft)
    limits = port_limits()
    ports = [c for c in top100() if c not in limits or limits[c].draft_m >= draft][:25]
    shallow: set[int] = set()
    for origin, destination in permutations(ports, 2):
        try:
            found = sealane.route(origin, destination, draft_m=draft)
        except sealane.NoRouteError:  # a river port whose channel takes less
            continue
        for a, b in edges_sailed(found, node_of):
            edge = edge_of[(min(a, b), max(a, b))]
            if graph.edge_depth_m[edge] < need - 1e-3:
                shallow.add(edge)
    assert not shallow, f"{len(shallow)} edges under {need} m"


def test_band_below__only_between_two_bounds() -> None:
    assert band_below(10.0) == band_closed(7.7)  # needs 11.5 m: 9.2 m is safe to close
    assert band_below(12.0) is None  # needs 13.5 m, a bound
    assert band_below(5.0) is None  # the default band is closed anyway
    assert band_below(16.5) == "depth<17.6m"  # needs 18.15 m, past 17.6 m
