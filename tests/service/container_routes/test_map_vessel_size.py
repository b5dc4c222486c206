"""A container's map routes its legs for the size its vessel reported (AIS, the position feed)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from pyproj import Geod

import sealane
from sealane.routing.ports import get_port
from sealane.service.container_routes.map_features import map_features
from sealane.service.container_routes.records import ContainerRoute, RouteLocationRecord
from sealane.vocabulary.vessels import VesselRecord
from tests.toolkit import START

GEOD = Geod(ellps="WGS84")
#: Shanghai to Rotterdam, through Suez for a vessel of unknown size.
LEG = ("CNSHA", "NLRTM")


def vessel(**reported: Any) -> VesselRecord:
    return VesselRecord("v1", "Deep One", "9811004", None, None, None, None, None, None, **reported)


def call(sequence: int, locode: str, ship: VesselRecord | None) -> RouteLocationRecord:
    """A call of a not yet departed route: the first leaves in a day on ``ship``."""
    first = sequence == 1
    return RouteLocationRecord(
        id=f"call{sequence}",
        route_id="r",
        sequence=sequence,
        port_locode=locode,
        port=get_port(locode),
        terminal_id=None,
        inbound_mode=None if first else "vessel",
        inbound_scac=None,
        inbound_vessel_id=None if first else ship and ship.id,
        inbound_voyage_number=None,
        inbound_eta_at=None if first else START + timedelta(days=30),
        inbound_ata_at=None,
        outbound_mode="vessel" if first else None,
        outbound_scac=None,
        outbound_vessel_id=ship.id if first and ship else None,
        outbound_voyage_number=None,
        outbound_etd_at=START + timedelta(days=1) if first else None,
        outbound_atd_at=None,
        created_at=START,
        updated_at=START,
        outbound_vessel=ship if first else None,
    )


def drawn_nm(ship: VesselRecord | None, leg: tuple[str, str] = LEG) -> tuple[float, dict[str, Any]]:
    """The length of the map's estimated legs, and its ``meta``."""
    calls = (call(1, leg[0], ship), call(2, leg[1], ship))
    found = map_features(ContainerRoute("r", "c", "s", START, START, calls), {}).to_geojson()
    lines = [
        f for f in found["features"] if f["properties"]["feature_type"] == "estimated_full_legs"
    ]
    total_m = 0.0
    for feature in lines:
        coordinates = feature["geometry"]["coordinates"]
        lons, lats = [c[0] for c in coordinates], [c[1] for c in coordinates]
        total_m += float(GEOD.line_length(lons, lats))
    return total_m / 1852.0, found["meta"]


def test_map__the_vessel_reported_draught_closes_suez() -> None:
    default_nm, default_meta = drawn_nm(vessel())
    deep_nm, deep_meta = drawn_nm(vessel(draught_m=21.0, dimensions_source="ais"))
    expected = sealane.route(*LEG, draft_m=21.0).distance_nm
    assert abs(deep_nm - expected) < 0.01 * expected
    assert deep_nm > 1.2 * default_nm
    assert deep_meta["vessel_id"] == "v1"
    assert deep_meta["vessel_dimensions"]["sources"]["draft_m"] == "reported"
    assert (
        deep_meta["vessel_dimensions"]["source"],
        default_meta["vessel_dimensions"]["source"],
    ) == (
        "reported",
        "default",
    )


def test_map__no_vessel_known_routes_the_default_vessel() -> None:
    nm, meta = drawn_nm(None)
    assert meta == {"vessel_id": None, "vessel_dimensions": meta["vessel_dimensions"]}
    assert meta["vessel_dimensions"]["source"] == "default"
    assert abs(nm - sealane.route(*LEG).distance_nm) < 0.01 * nm


def test_map__a_reported_draught_no_route_takes_is_set_aside() -> None:
    """Antwerp lies up the Scheldt (16 m): a 21 m report draws the leg as for no report."""
    leg = ("CNSHA", "BEANR")
    nm, meta = drawn_nm(vessel(draught_m=21.0, dimensions_source="ais"), leg)
    assert abs(nm - sealane.route(*leg).distance_nm) < 0.01 * nm
    dimensions = meta["vessel_dimensions"]
    assert (dimensions["source"], dimensions["draft_m"]) == ("default", None)
    assert "scheldt" in dimensions["reported_set_aside"]
