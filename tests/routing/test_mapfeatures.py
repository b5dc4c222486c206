"""Tests of an itinerary's map features: the feature types at each stage, the joins, the
antimeridian, and the feature schemas Terminal49 publishes for its container map."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime, timedelta, timezone
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pyproj import Geod

import sealane
from sealane.routing import mapfeatures

GEOD = Geod(ellps="WGS84")
T0 = datetime(2026, 3, 1, tzinfo=UTC)
#: Terminal49's document as kept in the repository (scripts/derive_reference_facts.py).
OPENAPI = Path(__file__).resolve().parents[1] / "fixtures/reference/terminal49/openapi.json"
JOIN_M = 1.0


@cache
def four_ports() -> sealane.Itinerary:
    return sealane.itinerary(["CNSHA", "SGSIN", "ESALG", "NLRTM"], speed_kn=18, departed_at=T0)


@cache
def trans_pacific() -> sealane.Itinerary:
    return sealane.itinerary(["CNSHA", "JPYOK", "USLGB"], speed_kn=20, departed_at=T0)


def stages() -> dict[str, sealane.Progress]:
    trip, pacific = four_ports(), trans_pacific()
    return {
        "not-departed": trip.at_port(0),
        "mid-leg": trip.at_sea(1, (48.5, 12.3), datetime(2026, 3, 18, tzinfo=UTC)),
        "transshipment": trip.at_port(2),
        "delivered": trip.at_port(3),
        "pacific-east": pacific.at_sea(1, (-170.0, 45.0), T0 + timedelta(days=8)),
        "pacific-west": pacific.at_sea(1, (170.0, 42.0), T0 + timedelta(days=6)),
    }


def kinds(document: dict[str, Any]) -> list[str]:
    return [f["properties"]["feature_type"] for f in document["features"]]


def lines(document: dict[str, Any]) -> list[list[list[float]]]:
    return [
        f["geometry"]["coordinates"]
        for f in document["features"]
        if f["geometry"]["type"] == "LineString"
    ]


def apart_m(a: list[float], b: list[float]) -> float:
    return float(GEOD.inv(a[0], a[1], b[0], b[1])[2])


def openapi_to_json_schema(node: Any) -> Any:
    """OpenAPI 3.0's ``nullable: true`` as JSON Schema (``type`` also allows null)."""
    if isinstance(node, dict):
        out = {key: openapi_to_json_schema(value) for key, value in node.items()}
        if out.pop("nullable", False) and "type" in out:
            out["type"] = [out["type"], "null"]
        return out
    if isinstance(node, list):
        return [openapi_to_json_schema(item) for item in node]
    return node


@cache
def map_geojson_validator() -> jsonschema.Draft7Validator:
    if not OPENAPI.is_file():
        pytest.fail(f"Terminal49's OpenAPI document is missing: {OPENAPI}")
    spec = json.loads(OPENAPI.read_text(encoding="utf-8"))
    response = spec["paths"]["/containers/{id}/map_geojson"]["get"]["responses"]["200"]
    schema = copy.deepcopy(response["content"]["application/json"]["schema"])
    schema["components"] = spec["components"]
    return jsonschema.Draft7Validator(openapi_to_json_schema(schema))


@pytest.mark.parametrize("stage", list(stages()))
def test_progress_features__valid_against_terminal49_feature_schemas(stage: str) -> None:
    document = json.loads(json.dumps(stages()[stage].to_geojson(), allow_nan=False))
    map_geojson_validator().validate(document)


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("geometry",), {"type": "Polygon", "coordinates": []}),
        (("properties", "feature_type"), "ship"),
        (("properties", "ports_sequence"), "1"),
        (("properties", "inbound_eta_at"), 5),
    ],
    ids=["polygon", "unknown-feature-type", "sequence-as-text", "time-as-number"],
)
def test_progress_features__validator_rejects_a_wrong_feature(
    path: tuple[str, ...], value: Any
) -> None:
    document = four_ports().to_geojson()
    target = document["features"][0]
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(jsonschema.ValidationError):
        map_geojson_validator().validate(document)


def test_progress_features__not_departed_shows_ports_and_full_legs() -> None:
    document = four_ports().to_geojson()
    assert kinds(document) == ["port", "estimated_full_legs"] * 3 + ["port"]
    assert document == four_ports().at_port(0).to_geojson()
    ports = [
        f["properties"] for f in document["features"] if f["properties"]["feature_type"] == "port"
    ]
    assert [p["label"] for p in ports] == ["POL", "TS1", "TS2", "POD"]
    assert [p["ports_sequence"] for p in ports] == [1, 2, 3, 4]
    assert {p["ports_total"] for p in ports} == {4}
    assert ports[0]["location_id"] == sealane.get_port("CNSHA").id
    assert ports[0]["outbound_etd_at"] == "2026-03-01T00:00:00Z"
    assert ports[0]["inbound_eta_at"] is None and ports[-1]["outbound_etd_at"] is None
    assert ports[1]["time_zone"] == "Asia/Singapore"


def test_progress_features__mid_leg_vessel_and_partial_leg() -> None:
    progress = stages()["mid-leg"]
    document = progress.to_geojson()
    assert kinds(document) == [
        "port", "past_vessel_locations",
        "port", "past_vessel_locations", "current_vessel", "estimated_partial_leg",
        "port", "estimated_full_legs",
        "port",
    ]  # fmt: skip
    vessel = next(
        f for f in document["features"] if f["properties"]["feature_type"] == "current_vessel"
    )
    properties = vessel["properties"]
    assert vessel["geometry"]["coordinates"] == [48.5, 12.3]
    assert properties["ports_sequence"] == 2
    assert properties["departure_port_label"] == "TS1" and properties["arrival_port_label"] == "TS2"
    assert properties["arrival_port_id"] == sealane.get_port("ESALG").id
    assert properties["vessel_location_speed"] == 18.0
    assert properties["vessel_location_timestamp"] == "2026-03-18T00:00:00Z"
    assert properties["arrival_port_eta"] == progress.calls[2].arrival_at.strftime(
        "%Y-%m-%dT%H:%M:%SZ"
    )  # type: ignore[union-attr]
    partial = next(
        f
        for f in document["features"]
        if f["properties"]["feature_type"] == "estimated_partial_leg"
    )
    assert partial["properties"]["current_port_id"] == sealane.get_port("SGSIN").id
    assert partial["properties"]["point_count"] == len(partial["geometry"]["coordinates"])


def test_progress_features__delivered_has_no_estimated_leg_or_vessel() -> None:
    assert set(kinds(stages()["delivered"].to_geojson())) == {"port", "past_vessel_locations"}


@pytest.mark.parametrize("stage", list(stages()))
def test_progress_features__pieces_join_within_a_metre(stage: str) -> None:
    document = stages()[stage].to_geojson()
    pieces = lines(document)
    for before, after in pairwise(pieces):
        assert apart_m(before[-1], after[0]) <= JOIN_M
    ports = [
        f["geometry"]["coordinates"]
        for f in document["features"]
        if f["geometry"]["type"] == "Point"
    ]
    assert apart_m(pieces[0][0], ports[0]) <= JOIN_M
    assert apart_m(pieces[-1][-1], ports[-1]) <= JOIN_M


@pytest.mark.parametrize("stage", ["not-departed", "pacific-east", "pacific-west"])
def test_progress_features__trans_pacific_split_at_the_antimeridian(stage: str) -> None:
    progress = stages()[stage] if stage != "not-departed" else trans_pacific().at_port(0)
    pieces = lines(progress.to_geojson())
    for piece in pieces:
        lons = [lon for lon, _ in piece]
        assert all(-180.0 <= lon <= 180.0 for lon in lons)
        assert all(abs(b - a) < 180.0 for a, b in pairwise(lons))  # no jump
    at_meridian = [p for p in pieces if abs(p[-1][0]) == 180.0]
    assert len(at_meridian) == 1  # one crossing, and the next part starts on the other side
    crossing = pieces.index(at_meridian[0])
    assert pieces[crossing + 1][0] == [-pieces[crossing][-1][0], pieces[crossing][-1][1]]


@pytest.mark.parametrize(
    ("moment", "expected"),
    [
        (datetime(1, 1, 1), "0001-01-01T00:00:00Z"),
        (datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC), "9999-12-31T23:59:59Z"),
        (datetime(2026, 3, 1, 1, 30, tzinfo=timezone(timedelta(hours=2))), "2026-02-28T23:30:00Z"),
        (None, None),
    ],
    ids=["year 1 padded", "year 9999", "converted to utc", "none"],
)
def test_iso(moment: datetime | None, expected: str | None) -> None:
    assert mapfeatures.iso(moment) == expected
