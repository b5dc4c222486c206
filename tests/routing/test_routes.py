"""Tests of ``sealane.route`` and ``Route``: published distances, passages, antimeridian, inputs."""

from __future__ import annotations

import math
import statistics
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st
from pyproj import Geod

import sealane
from sealane.routing import registry
from sealane.routing.geodesy import METRES_PER_NM, segment_lengths_m
from sealane.routing.passages import names_from_mask

GEOD = Geod(ellps="WGS84")
PROPERTY_SETTINGS = settings(max_examples=60, deadline=None)
#: Route ends match the requested points to this many degrees (about 0.1 mm).
END_TOL_DEG = 1e-9

# Published port-to-port distances in nautical miles, rounded as published.
# (origin, destination, avoid, published_nm, relative tolerance, source)
GOLDEN_NM = [
    ("CNSHA", "NLRTM", (), 10_600, 0.03, "Port Economics, via Suez"),
    ("CNSHA", "NLRTM", ("suez", "panama"), 13_800, 0.03, "Port Economics, via the Cape"),
    ("NLRTM", "BEANR", (), 117, 0.10, "NGA Pub. 151 (Scheldt river approach)"),
    ("GBFXT", "NLRTM", (), 121, 0.10, "NGA Pub. 151"),
    ("SGSIN", "NLRTM", (), 8_290, 0.03, "published distance tables"),
    ("CNSHA", "USLAX", (), 5_710, 0.03, "published distance tables"),
    ("JPYOK", "USLGB", (), 4_830, 0.03, "published distance tables"),
    ("HKHKG", "SGSIN", (), 1_460, 0.03, "published distance tables"),
    ("CNSHA", "SGSIN", (), 2_190, 0.03, "published distance tables"),
    ("KRPUS", "USLGB", (), 5_250, 0.03, "published distance tables"),
    ("BRSSZ", "NLRTM", (), 5_430, 0.03, "published distance tables"),
    ("CNSHA", "USNYC", (), 10_570, 0.03, "published distance tables"),
]
GOLDEN_IDS = [f"{o}-{d}" + ("-avoid-" + "-".join(a) if a else "") for o, d, a, *_ in GOLDEN_NM]


def relative_error(
    origin: str, destination: str, avoid: tuple[str, ...], published: float
) -> float:
    return sealane.route(origin, destination, avoid=avoid).distance_nm / published - 1.0


# --- golden distances ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("origin", "destination", "avoid", "published_nm", "rel_tol", "source"),
    GOLDEN_NM,
    ids=GOLDEN_IDS,
)
def test_route__published_distance(
    origin: str,
    destination: str,
    avoid: tuple[str, ...],
    published_nm: float,
    rel_tol: float,
    source: str,
) -> None:
    error = relative_error(origin, destination, avoid, published_nm)
    assert abs(error) <= rel_tol, f"{error:+.1%} off {published_nm} nm ({source})"


def test_route__published_distances_in_aggregate() -> None:
    errors = [abs(relative_error(o, d, a, nm)) for o, d, a, nm, *_ in GOLDEN_NM]
    assert statistics.median(errors) <= 0.015
    assert sum(e <= 0.05 for e in errors) >= 0.9 * len(errors)


# --- passages ------------------------------------------------------------------------------------


def test_route__shanghai_rotterdam_goes_via_suez() -> None:
    assert "suez" in sealane.route("CNSHA", "NLRTM").passages


def test_route__avoid_suez_is_longer_and_skips_suez() -> None:
    direct = sealane.route("CNSHA", "NLRTM")
    around = sealane.route("CNSHA", "NLRTM", avoid=("suez",))
    assert "suez" not in around.passages
    assert around.distance_m > direct.distance_m * 1.1


def test_route__avoid_suez_and_panama_goes_round_the_cape() -> None:
    result = sealane.route("CNSHA", "NLRTM", avoid=("suez", "panama"))
    assert "good_hope" in result.passages
    assert {"suez", "panama"}.isdisjoint(result.passages)


def test_route__avoid_malacca_uses_sunda() -> None:
    assert "malacca" in sealane.route("SGSIN", "LKCMB").passages
    result = sealane.route("SGSIN", "LKCMB", avoid=("malacca",))
    assert "sunda" in result.passages
    assert "malacca" not in result.passages


def test_route__avoid_dover_goes_round_scotland() -> None:
    direct = sealane.route("NLRTM", "GBSOU")
    around = sealane.route("NLRTM", "GBSOU", avoid=("dover",))
    assert "dover" in direct.passages
    assert "dover" not in around.passages
    assert around.distance_m > 3 * direct.distance_m
    assert around.coordinates[:, 1].max() > 58.0  # north of mainland Scotland


def test_route__new_york_los_angeles_goes_via_panama() -> None:
    assert "panama" in sealane.route("USNYC", "USLAX").passages


def test_route__avoid_panama_goes_round_south_america() -> None:
    result = sealane.route("USNYC", "USLAX", avoid=("panama",))
    assert "panama" not in result.passages
    assert {"magellan", "cape_horn"} & set(result.passages)
    assert result.coordinates[:, 1].min() < -52.0


def test_route__valparaiso_buenos_aires_goes_via_magellan() -> None:
    assert "magellan" in sealane.route("CLVAP", "ARBUE").passages


def test_route__avoid_magellan_goes_round_cape_horn() -> None:
    result = sealane.route("CLVAP", "ARBUE", avoid=("magellan",))
    assert "cape_horn" in result.passages
    assert "magellan" not in result.passages


def test_route__hamburg_gdansk_goes_through_the_kiel_canal() -> None:
    result = sealane.route("DEHAM", "PLGDN")
    assert "kiel" in result.passages
    round_denmark = sealane.route("DEHAM", "PLGDN", avoid=["kiel"])
    assert "kiel" not in round_denmark.passages
    assert round_denmark.distance_nm > result.distance_nm + 250


def test_route__corinth_closed_by_default_and_opened_by_allow() -> None:
    default = sealane.route("ITBRI", "TRIST")
    assert "corinth" not in default.passages
    opened = sealane.route("ITBRI", "TRIST", allow=["corinth"])
    assert "corinth" in opened.passages
    assert opened.distance_nm < default.distance_nm


def test_route__port_flagged_inland_is_refused() -> None:
    inland = next(port for port in registry().ports if port.approach == "inland")
    with pytest.raises(sealane.NoRouteError, match="inland"):
        sealane.route("NLRTM", inland.locode)


def test_route__official_port_the_network_does_not_reach_is_refused() -> None:
    unjoined = next(port for port in registry().ports if port.approach == "unjoined")
    assert unjoined.inland
    with pytest.raises(sealane.NoRouteError, match="not reached by the sea-lane network"):
        sealane.route("NLRTM", unjoined.locode)


def test_route__river_ports_are_reached_through_their_corridors() -> None:
    assert "elbe" in sealane.route("NLRTM", "DEHAM").passages
    assert "scheldt" in sealane.route("GBFXT", "BEANR").passages
    assert "maas" in sealane.route("GBFXT", "NLRTM").passages


def test_route__odesa_piraeus_uses_turkish_straits_in_order() -> None:
    passages = sealane.route("UAODS", "GRPIR").passages
    assert passages.index("bosporus") < passages.index("dardanelles")


def test_route__avoid_bosporus_closes_the_black_sea() -> None:
    with pytest.raises(sealane.NoRouteError) as error:
        sealane.route("UAODS", "GRPIR", avoid=("bosporus",))
    assert error.value.code == "no_route"
    assert "bosporus" in str(error.value)


def test_route__jebel_ali_nhava_sheva_uses_ormuz() -> None:
    assert "ormuz" in sealane.route("AEJEA", "INNSA").passages


def test_route__avoid_ormuz_closes_the_gulf() -> None:
    with pytest.raises(sealane.NoRouteError, match="ormuz"):
        sealane.route("AEJEA", "INNSA", avoid=("ormuz",))


def test_route__avoid_alias_hormuz_closes_ormuz() -> None:
    with pytest.raises(sealane.NoRouteError, match="ormuz"):
        sealane.route("AEJEA", "INNSA", avoid=("Hormuz",))


def test_route__avoid_alias_gives_same_route_as_canonical_name() -> None:
    alias = sealane.route("CNSHA", "NLRTM", avoid=("Suez Canal",))
    canonical = sealane.route("CNSHA", "NLRTM", avoid=(sealane.Passage.SUEZ,))
    assert alias.distance_m == canonical.distance_m


def test_route__avoid_as_single_string() -> None:
    single = sealane.route("CNSHA", "NLRTM", avoid="suez")
    assert single.distance_m == sealane.route("CNSHA", "NLRTM", avoid=("suez",)).distance_m
    assert "suez" not in single.passages


ARCTIC_TEMPTING_PAIRS = [
    ("CNSHA", "NLRTM"),
    ("JPYOK", "NLRTM"),
    ("KRPUS", "DEHAM"),
    ("KRPUS", "NOBGO"),
    ("CNSHA", "RULED"),
    ("JPYOK", "ISREY"),
    ("CAVAN", "GBFXT"),
    ("USSEA", "NLRTM"),
    ("USLAX", "NOOSL"),
    ("JPTYO", "USNYC"),
]


@pytest.mark.parametrize(("origin", "destination"), ARCTIC_TEMPTING_PAIRS)
def test_route__arctic_closed_by_default(origin: str, destination: str) -> None:
    result = sealane.route(origin, destination)
    assert {"northwest", "northeast"}.isdisjoint(result.passages)
    lon, lat = result.coordinates[:, 0], result.coordinates[:, 1]
    # The Arctic sectors: 66 N and above, east of 55 E or west of 75 W.
    assert not np.any((lat >= 66.0) & ((lon >= 55.0) | (lon <= -75.0)))


def test_route__allow_arctic_opens_northern_sea_route() -> None:
    result = sealane.route(
        "CNSHA", "NLRTM", avoid=("suez", "panama", "good_hope"), allow_arctic=True
    )
    assert "northeast" in result.passages
    assert result.distance_nm < 9_000


def test_route__arctic_stays_closed_when_everything_else_is_avoided() -> None:
    result = sealane.route("CNSHA", "NLRTM", avoid=("suez", "panama"))
    assert {"northwest", "northeast"}.isdisjoint(result.passages)


def test_route__no_route_message_names_closed_passages() -> None:
    with pytest.raises(sealane.NoRouteError) as error:
        sealane.route("UAODS", "GRPIR", avoid=("bosporus", "suez"))
    message = str(error.value)
    for name in ("bosporus", "suez", "northeast", "northwest"):
        assert name in message


def test_route__gulf_of_panama_is_not_the_canal() -> None:
    assert "panama" not in sealane.route("PABLB", "USLAX").passages


def test_route__pacific_panama_port_routable_with_canal_avoided() -> None:
    result = sealane.route("PABLB", "USLAX", avoid=("panama",))
    assert result.distance_nm < 3_500


def test_route__gulf_of_suez_is_not_the_canal() -> None:
    assert "suez" not in sealane.route("EGSOK", "SAJED").passages
    sealane.route("EGSOK", "SAJED", avoid=("suez",))


def test_route__sea_of_marmara_is_not_the_dardanelles() -> None:
    assert "dardanelles" not in sealane.route("TRTEK", "TRIST").passages


def test_route__anadyr_below_arctic_circle_is_open_by_default() -> None:
    result = sealane.route("RUDYR", "JPYOK")
    assert "northeast" not in result.passages


# --- antimeridian --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pacific() -> sealane.Route:
    return sealane.route("JPYOK", "USLGB")


def test_route__pacific_lons_in_range(pacific: sealane.Route) -> None:
    lon = pacific.coordinates[:, 0]
    assert lon.min() >= -180.0
    assert lon.max() < 180.0
    assert np.any(np.abs(np.diff(lon)) > 180.0)  # it does cross


def test_to_geojson__pacific_is_multilinestring_split_at_antimeridian(
    pacific: sealane.Route,
) -> None:
    feature = pacific.to_geojson()
    assert feature["type"] == "Feature"
    geometry = feature["geometry"]
    assert geometry["type"] == "MultiLineString"
    parts = [np.array(part) for part in geometry["coordinates"]]
    assert len(parts) == 2
    for part in parts:
        assert part.shape[0] >= 2
        assert np.all(np.abs(part[:, 0]) <= 180.0)
        assert np.all(np.abs(np.diff(part[:, 0])) <= 180.0)
    assert parts[0][-1, 0] == 180.0  # Yokohama side ends on +180
    assert parts[1][0, 0] == -180.0  # Long Beach side starts on -180
    assert parts[0][-1, 1] == pytest.approx(parts[1][0, 1], abs=1e-9)


def test_to_geojson__pacific_continuous_runs_past_180(pacific: sealane.Route) -> None:
    geometry = pacific.to_geojson(continuous=True)["geometry"]
    assert geometry["type"] == "LineString"
    line = np.array(geometry["coordinates"])
    assert np.all(np.abs(np.diff(line[:, 0])) <= 180.0)
    assert line[:, 0].max() > 180.0 or line[:, 0].min() < -180.0
    found = iter(line[:, 1].tolist())  # every vertex's latitude, in order, exactly
    assert all(lat in found for lat in pacific.coordinates[:, 1].tolist())


def test_to_geojson__properties(pacific: sealane.Route) -> None:
    properties = pacific.to_geojson()["properties"]
    assert properties["distance_m"] == pacific.distance_m
    assert properties["distance_nm"] == pytest.approx(pacific.distance_m / 1852.0, rel=1e-12)
    assert properties["passages"] == list(pacific.passages)


def test_to_geojson__no_crossing_is_one_linestring() -> None:
    geometry = sealane.route("CNSHA", "NLRTM").to_geojson()["geometry"]
    assert geometry["type"] == "LineString"


def test_to_geojson__linestring_holds_route_coordinates_exactly_in_order() -> None:
    """The vertices, exactly and in order, with points every 100 km or less along each longer
    geodesic segment (RFC 7946 readers join positions by straight lines)."""
    result = sealane.route("CNSHA", "NLRTM")
    line = result.to_geojson()["geometry"]["coordinates"]
    found = iter(tuple(p) for p in line)
    assert all(tuple(p) in found for p in result.coordinates.tolist())
    lons, lats = np.array(line).T
    assert segment_lengths_m(lons, lats).max() <= 100_000.0 + 1.0


def test_to_geojson__route_ending_on_antimeridian_has_no_degenerate_part() -> None:
    geometry = sealane.route((170.0, 50.0), (180.0, 50.0)).to_geojson()["geometry"]
    parts = geometry["coordinates"] if geometry["type"] == "MultiLineString" else []
    for part in parts:
        lon = np.array(part)[:, 0]
        assert np.ptp(lon) > 1e-6, part


def test_route__coordinates_are_read_only(pacific: sealane.Route) -> None:
    with pytest.raises(ValueError, match="read-only"):
        pacific.coordinates[0, 0] = 0.0
    with pytest.raises(ValueError, match="read-only"):
        pacific.segment_m[0] = 0.0


# --- identical points, via, equivalent inputs ----------------------------------------------------


def test_route__identical_points_have_zero_distance() -> None:
    point = (4.0, 52.0)
    result = sealane.route(point, point)
    assert result.distance_m == 0.0
    assert tuple(result.coordinates[0]) == point
    assert tuple(result.coordinates[-1]) == point
    assert result.passages == ()


def test_route__identical_ports_have_zero_distance() -> None:
    result = sealane.route("NLRTM", "NLRTM")
    assert result.distance_m == 0.0
    assert result.origin.port is not None
    assert result.origin.port.locode == "NLRTM"


@pytest.mark.parametrize(
    ("origin", "end"),
    [("NLRTM", (50.0, -30.0)), ((0.0, 0.0), (-29.999999999999993, 30.0))],
    ids=["on-node", "within-1e-6-m-of-node"],  # the second was found by Hypothesis
)
def test_route__ends_exactly_on_destination_that_is_a_node(
    origin: str | tuple[float, float], end: tuple[float, float]
) -> None:
    assert tuple(sealane.route(origin, end).coordinates[-1]) == end


@pytest.mark.parametrize("start", [(50.0, -30.0), (-29.999999999999993, 30.0)])
def test_route__starts_exactly_on_origin_that_is_a_node(start: tuple[float, float]) -> None:
    assert tuple(sealane.route(start, "NLRTM").coordinates[0]) == start


def test_route__via_passes_through_waypoint() -> None:
    singapore = sealane.get_port("SGSIN")
    result = sealane.route("CNSHA", "NLRTM", via=("SGSIN",))
    n = result.coordinates.shape[0]
    _, _, to_singapore = GEOD.inv(
        result.coordinates[:, 0], result.coordinates[:, 1], [singapore.lon] * n, [singapore.lat] * n
    )
    assert min(to_singapore) <= 1_000.0
    assert result.distance_m >= sealane.route("CNSHA", "NLRTM").distance_m


def test_route__via_is_its_legs_joined_at_the_waypoints() -> None:
    stops = ("CNSHA", "SGSIN", "EGPSD", "NLRTM")
    whole = sealane.route(stops[0], stops[-1], via=stops[1:-1])
    legs = [sealane.route(a, b) for a, b in pairwise(stops)]
    joined = np.concatenate([legs[0].coordinates] + [leg.coordinates[1:] for leg in legs[1:]])
    np.testing.assert_array_equal(whole.coordinates, joined)
    assert whole.distance_m == pytest.approx(sum(leg.distance_m for leg in legs), rel=1e-12)
    for stop in stops[1:-1]:  # each waypoint is a point of the route, exactly
        port = sealane.get_port(stop)
        assert [port.lon, port.lat] in whole.coordinates.tolist()


def test_route__via_order_is_respected() -> None:
    colombo = sealane.get_port("LKCMB")
    singapore = sealane.get_port("SGSIN")

    def closest_index(result: sealane.Route, port: sealane.Port) -> int:
        c = result.coordinates
        return int(np.argmin(np.hypot(c[:, 0] - port.lon, c[:, 1] - port.lat)))

    forward = sealane.route("CNSHA", "NLRTM", via=("SGSIN", "LKCMB"))
    backward = sealane.route("CNSHA", "NLRTM", via=("LKCMB", "SGSIN"))
    assert closest_index(forward, singapore) < closest_index(forward, colombo)
    assert closest_index(backward, colombo) < closest_index(backward, singapore)
    assert backward.distance_m > forward.distance_m + 2_000 * 1852.0


def test_route__tuple_and_list_agree() -> None:
    as_tuple = sealane.route((121.5, 31.2), (4.0, 52.0))
    as_list = sealane.route([121.5, 31.2], [4.0, 52.0])
    np.testing.assert_array_equal(as_tuple.coordinates, as_list.coordinates)


@pytest.mark.parametrize("key", ["nlrtm", "NlRtM", sealane.port_id("NLRTM")])
def test_route__locode_case_and_port_id_agree(key: str) -> None:
    expected = sealane.route("NLRTM", "BEANR")
    result = sealane.route(key, "BEANR")
    np.testing.assert_array_equal(result.coordinates, expected.coordinates)
    assert result.origin == expected.origin


def test_route__port_object_accepted() -> None:
    port = sealane.get_port("NLRTM")
    assert sealane.route(port, "BEANR").distance_m == sealane.route("NLRTM", "BEANR").distance_m


def test_route__lon_180_is_normalised() -> None:
    result = sealane.route((180.0, 50.0), (-170.0, 50.0))
    assert result.origin.lon == -180.0
    assert result.coordinates[0, 0] == -180.0


def test_duration_h__hours_on_the_speed_profile() -> None:
    """The Maas and the Scheldt are sailed at 10 kn (their ends' approaches lie inside them):
    at 10 kn the route is its length at the speed, at 12 kn they take longer than the rest."""
    result = sealane.route("NLRTM", "BEANR")
    assert result.duration_h(10) == pytest.approx(result.distance_nm / 10.0, rel=1e-12)
    rivers = np.array([{"maas", "scheldt"} & set(names_from_mask(int(m), result.passage_names))
                       != set() for m in result.segment_passages])  # fmt: skip
    river_nm = float(result.segment_m[rivers].sum()) / METRES_PER_NM
    assert river_nm > 30.0
    expected = (result.distance_nm - river_nm) / 12.0 + river_nm / 10.0
    assert result.duration_h(12.0) == pytest.approx(expected, rel=1e-9)


# --- bad inputs, one test each -------------------------------------------------------------------


def test_route__latitude_91_raises() -> None:
    with pytest.raises(sealane.InvalidCoordinateError, match="latitude 91") as error:
        sealane.route((0.0, 91.0), "NLRTM")
    assert error.value.code == "invalid_coordinate"


def test_route__latitude_minus_90_5_raises() -> None:
    with pytest.raises(sealane.InvalidCoordinateError, match=r"latitude -90\.5"):
        sealane.route("NLRTM", (0.0, -90.5))


def test_route__longitude_200_raises() -> None:
    with pytest.raises(sealane.InvalidCoordinateError, match="longitude 200"):
        sealane.route((200.0, 0.0), "NLRTM")


def test_route__nan_longitude_raises() -> None:
    with pytest.raises(sealane.InvalidCoordinateError, match="longitude nan"):
        sealane.route((math.nan, 0.0), "NLRTM")


def test_route__inf_latitude_raises() -> None:
    with pytest.raises(sealane.InvalidCoordinateError, match="latitude inf"):
        sealane.route((0.0, math.inf), "NLRTM")


def test_route__three_element_point_raises() -> None:
    with pytest.raises(sealane.InvalidCoordinateError, match=r"\(1\.0, 2\.0, 3\.0\)"):
        sealane.route((1.0, 2.0, 3.0), "NLRTM")


def test_route__unknown_port_raises() -> None:
    with pytest.raises(sealane.UnknownPortError, match="XXXXX") as error:
        sealane.route("XXXXX", "NLRTM")
    assert error.value.code == "unknown_port"


def test_route__empty_string_raises() -> None:
    with pytest.raises(sealane.UnknownPortError, match="''"):
        sealane.route("", "NLRTM")


def test_route__none_origin_raises() -> None:
    with pytest.raises(sealane.InvalidCoordinateError, match=r"origin.*None"):
        sealane.route(None, "NLRTM")  # type: ignore[arg-type]


def test_route__bool_origin_raises() -> None:
    with pytest.raises(sealane.InvalidCoordinateError, match="True"):
        sealane.route(True, "NLRTM")  # type: ignore[arg-type]


def test_route__bad_via_names_its_index() -> None:
    with pytest.raises(sealane.InvalidCoordinateError, match=r"via\[1\] latitude 95"):
        sealane.route("CNSHA", "NLRTM", via=("SGSIN", (0.0, 95.0)))


def test_route__unknown_passage_raises() -> None:
    with pytest.raises(sealane.UnknownPassageError, match="atlantis") as error:
        sealane.route("CNSHA", "NLRTM", avoid=("suez", "atlantis"))
    assert error.value.code == "unknown_passage"


def test_duration_h__zero_speed_raises() -> None:
    with pytest.raises(sealane.InvalidSpeedError, match="got 0") as error:
        sealane.route("NLRTM", "BEANR").duration_h(0)
    assert error.value.code == "invalid_speed"


def test_duration_h__negative_speed_raises() -> None:
    with pytest.raises(sealane.InvalidSpeedError, match="got -5"):
        sealane.route("NLRTM", "BEANR").duration_h(-5.0)


def test_duration_h__nan_speed_raises() -> None:
    with pytest.raises(sealane.InvalidSpeedError, match="got nan"):
        sealane.route("NLRTM", "BEANR").duration_h(math.nan)


def test_duration_h__string_speed_raises() -> None:
    with pytest.raises(sealane.InvalidSpeedError, match="'12'"):
        sealane.route("NLRTM", "BEANR").duration_h("12")  # type: ignore[arg-type]


def test_duration_h__bool_speed_raises() -> None:
    with pytest.raises(sealane.InvalidSpeedError):
        sealane.route("NLRTM", "BEANR").duration_h(True)


@pytest.mark.parametrize("speed", [np.float32(12.0), np.int64(12)], ids=["float32", "int64"])
def test_duration_h__numpy_scalar_speed_accepted(speed: float) -> None:
    result = sealane.route("NLRTM", "BEANR")
    assert result.duration_h(speed) == pytest.approx(result.duration_h(12.0), rel=1e-6)


def test_errors__are_value_errors() -> None:
    for error in (
        sealane.InvalidCoordinateError,
        sealane.UnknownPortError,
        sealane.UnknownPassageError,
        sealane.NoRouteError,
        sealane.InvalidSpeedError,
    ):
        assert issubclass(error, sealane.RoutingError)
        assert issubclass(error, ValueError)


# --- properties ----------------------------------------------------------------------------------

#: Ports routes are not refused to (an inland or unjoined one is refused before any search).
ports = st.sampled_from([port for port in registry().ports if not port.inland])


def check_route_invariants(
    result: sealane.Route, start: tuple[float, float], end: tuple[float, float]
) -> None:
    coordinates = result.coordinates
    # Exact equality is pinned by test_route__ends_exactly_on_destination_that_is_a_node.
    assert tuple(coordinates[0]) == pytest.approx(start, abs=END_TOL_DEG)
    assert tuple(coordinates[-1]) == pytest.approx(end, abs=END_TOL_DEG)
    assert np.all((coordinates[:, 0] >= -180.0) & (coordinates[:, 0] < 180.0))
    assert np.all(np.abs(coordinates[:, 1]) <= 90.0)
    assert result.segment_m.shape == (coordinates.shape[0] - 1,)
    assert result.distance_m == pytest.approx(float(np.sum(result.segment_m)), rel=1e-12)
    _, _, geodesic_m = GEOD.inv(start[0], start[1], end[0], end[1])
    assert result.distance_m >= geodesic_m - 1.0


@PROPERTY_SETTINGS
@given(origin=ports, destination=ports)
def test_route__port_pair_invariants(origin: sealane.Port, destination: sealane.Port) -> None:
    try:
        result = sealane.route(origin.locode, destination.locode)
    except sealane.NoRouteError:
        reject()  # Arctic ports lie on passages closed by default
    check_route_invariants(result, origin.coordinates, destination.coordinates)
    assert result.origin.port == origin
    assert result.destination.port == destination


@PROPERTY_SETTINGS
@given(
    lon1=st.floats(-179.999, 179.999),
    lat1=st.floats(-60.0, 60.0),
    lon2=st.floats(-179.999, 179.999),
    lat2=st.floats(-60.0, 60.0),
)
def test_route__point_pair_invariants(lon1: float, lat1: float, lon2: float, lat2: float) -> None:
    try:
        result = sealane.route((lon1, lat1), (lon2, lat2))
    except (sealane.NoRouteError, sealane.OnLandError):
        reject()  # no way through, or an end on land
    check_route_invariants(result, (lon1, lat1), (lon2, lat2))


# --- head and tail: a route split at a point -----------------------------------------------------


@pytest.mark.parametrize("segment", [0, 7, -1], ids=["first", "middle", "last"])
def test_route_head_and_tail__split_at_a_point_join_and_add_up(segment: int) -> None:
    route = sealane.route("CNSHA", "NLRTM")
    segment %= route.segment_m.size
    (lon1, lat1), (lon2, lat2) = route.coordinates[segment], route.coordinates[segment + 1]
    azimuth, _, length = GEOD.inv(lon1, lat1, lon2, lat2)
    lon, lat, _ = GEOD.fwd(lon1, lat1, azimuth, length / 3)
    at = sealane.Location(float(lon), float(lat))
    head = route.head(segment, at.lon, at.lat, at)
    tail = route.tail(segment, at.lon, at.lat, at)
    assert tuple(head.coordinates[-1]) == tuple(tail.coordinates[0]) == (at.lon, at.lat)
    np.testing.assert_array_equal(head.coordinates[0], route.coordinates[0])
    np.testing.assert_array_equal(tail.coordinates[-1], route.coordinates[-1])
    assert head.distance_m + tail.distance_m == pytest.approx(route.distance_m, rel=1e-9)
    assert head.origin == route.origin and head.destination == at
    assert head.passages + tuple(p for p in tail.passages if p not in head.passages) == (
        route.passages
    )
