"""Containers of the simulated carrier put at each phase of their route, and checks of map
features shared by the service and API tests of routes."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pyproj import Geod

from sealane.clock import ManualClock
from sealane.tracking.carriers import Found, ShipmentPlan, SimulatedCarrier
from tests.service.conftest import ROUTING, World
from tests.toolkit import START

GEOD = Geod(ellps="WGS84")
#: Numbers starting TEST-TR- begin their simulated voyage 12 hours before the request, so a
#: request at START finds the container not departed. These two give (asserted by the tests):
#: VNSGN -> SGSIN -> USLGB with one container, its second leg across the Pacific and the
#: antimeridian; and VNSGN -> BEANR with one container, through Suez.
TRANSSHIPPED = "TEST-TR-ROUTE02"
DIRECT = "TEST-TR-ROUTE10"
JOIN_M = 1.0
HOUR = 3600.0


def track(world: World, number: str) -> str:
    """Ask to track bill of lading ``number`` with the simulated carrier; the request's id."""
    return world.scenario.track(ROUTING, number)


@cache
def plan_of(number: str) -> ShipmentPlan:
    """The simulated carrier's plan for a bill of lading requested at START."""
    found = SimulatedCarrier().lookup("bill_of_lading", number, requested_at=START, now=START)
    assert isinstance(found, Found)
    return found.plan


def phase_times(number: str) -> dict[str, datetime]:
    """A moment of each phase of the container's voyage (a transshipped plan has them all)."""
    legs = plan_of(number).legs
    last = legs[-1]
    times = {
        "not_departed": START,
        "first_leg": legs[0].depart_at + timedelta(hours=18),
        "delivered": last.arrive_at + timedelta(days=2),
    }
    if len(legs) > 1:
        times["transshipment"] = legs[0].arrive_at + timedelta(days=1)
        times["last_leg"] = last.depart_at + (last.arrive_at - last.depart_at) * 0.6
    return dict(sorted(times.items(), key=lambda item: item[1]))


def advance_to(
    clock: ManualClock, when: datetime, tick: Callable[[], object], *, hourly_for_s: float = 0
) -> None:
    """Move the clock to ``when``, ticking once, and every hour over the last ``hourly_for_s``."""
    hourly_from = when - timedelta(seconds=hourly_for_s)
    if clock.now() < hourly_from:
        clock.advance((hourly_from - clock.now()).total_seconds())
        tick()
    while clock.now() < when:
        clock.advance(min(HOUR, (when - clock.now()).total_seconds()))
        tick()


def apart_m(a: list[float], b: list[float]) -> float:
    """Geodesic distance between two (lon, lat) positions, metres."""
    return float(GEOD.inv(a[0], a[1], b[0], b[1])[2])


def kinds(collection: dict[str, Any]) -> list[str]:
    """The feature types of a FeatureCollection, in order, consecutive repeats merged."""
    found: list[str] = []
    for feature in collection["features"]:
        kind = feature["properties"]["feature_type"]
        if not found or found[-1] != kind:
            found.append(kind)
    return found


def _ends(feature: dict[str, Any]) -> tuple[list[float], list[float]]:
    coordinates = feature["geometry"]["coordinates"]
    if feature["geometry"]["type"] == "LineString":
        return coordinates[0], coordinates[-1]
    return coordinates, coordinates


def assert_joined(collection: dict[str, Any]) -> None:
    """Each feature starts where the one before it ends, within a metre: a port and the line
    leaving it, a line and the next (across the antimeridian too), the track sailed and the
    vessel, the vessel and the rest of its leg, a leg and the port it reaches."""
    features = collection["features"]
    assert features
    for before, after in pairwise(features):
        assert apart_m(_ends(before)[1], _ends(after)[0]) <= JOIN_M, (before, after)


def assert_rfc7946_lines(collection: dict[str, Any]) -> None:
    """Longitudes in [-180, 180] and no step across the world inside a line."""
    for feature in collection["features"]:
        coordinates = feature["geometry"]["coordinates"]
        points = coordinates if feature["geometry"]["type"] == "LineString" else [coordinates]
        assert all(-180.0 <= lon <= 180.0 and -90.0 <= lat <= 90.0 for lon, lat in points)
        assert all(abs(b[0] - a[0]) < 180.0 for a, b in pairwise(points))


#: The facts of Terminal49's reference documents kept in the repository.
TERMINAL49_FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "reference" / "terminal49"


def reference_file(name: str) -> Path:
    """``tests/fixtures/reference/terminal49/<name>`` (written from ``../shared/reference`` by
    ``scripts/derive_reference_facts.py``); the test fails when it is missing."""
    path = TERMINAL49_FIXTURES / name
    if not path.is_file():
        pytest.fail(f"a Terminal49 fixture is missing: {path} (scripts/derive_reference_facts.py)")
    return path


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


def with_errata(spec: dict[str, Any]) -> dict[str, Any]:
    """A Terminal49 OpenAPI document with the errata its README lists applied to the schemas: a
    container's type is "container", a to-one relationship's data may be null, a terminal's
    string attributes may be null."""
    fixed = copy.deepcopy(spec)
    schemas = fixed["components"]["schemas"]
    schemas["container"]["properties"]["type"]["enum"] = ["container"]
    for attribute in schemas["terminal"]["properties"]["attributes"]["properties"].values():
        if attribute.get("type") == "string":
            attribute["nullable"] = True
    for relationships in _relationship_schemas(fixed):
        for relationship in relationships.get("properties", {}).values():
            data = relationship.get("properties", {}).get("data")
            if isinstance(data, dict) and data.get("type") == "object":
                data["nullable"] = True
    return fixed


def _relationship_schemas(node: Any) -> Iterator[dict[str, Any]]:
    """Every schema describing a resource's ``relationships`` member."""
    if isinstance(node, dict):
        relationships = node.get("properties", {}).get("relationships")
        if isinstance(node.get("properties"), dict) and isinstance(relationships, dict):
            yield relationships
        for value in node.values():
            yield from _relationship_schemas(value)
    elif isinstance(node, list):
        for item in node:
            yield from _relationship_schemas(item)


def schema_validator(spec: dict[str, Any], schema: dict[str, Any]) -> jsonschema.Draft7Validator:
    """A validator of ``schema`` resolving ``#/components`` in the OpenAPI document ``spec``."""
    wrapped = copy.deepcopy(schema)
    wrapped["components"] = spec["components"]
    return jsonschema.Draft7Validator(openapi_to_json_schema(wrapped))
