"""``GET /v2/vessels/{id}/future_positions`` and ``..._with_coordinates`` as Terminal49's SDK
calls them, with no port at all (issue 30, item 7): the ports come from what sealane knows of
the vessel, ``meta`` says which and from where; and the vessel's dimensions (issue 28, item 1),
sealane's own query parameters beside Terminal49's.

Every answer is checked against Terminal49's documented schema for the operation (an error
against its error model). The voyages are the simulated carrier's (scac TEST), on an app of
this module's own, two days after the requests: ``TEST-VOYAGE-1`` sails Yokohama -> Bremerhaven
then, ``TEST-VOYAGE-2`` has already arrived at Los Angeles.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete

from sealane.clock import ManualClock
from sealane.service.core.engine import DIMENSION_BOUNDS_M
from sealane.service.reference.voyages import known_voyage
from sealane.store.database import transaction
from sealane.store.models import RouteLocation, Shipment, VesselPortCall
from tests.api.jsonapi_asserts import assert_error
from tests.toolkit import START, Scenario, make_app

from . import document as t49
from .world import World

FROM_LAST = "/vessels/{id}/future_positions"
WITH_COORDINATES = "/vessels/{id}/future_positions_with_coordinates"
#: In the North Sea off the Elbe (lon, lat).
GERMAN_BIGHT = {"longitude": "7.6", "latitude": "54.1"}


@pytest.fixture(scope="module")
def voyages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """Two tracked voyages of the main account, two days on; ``ids`` names each shipment and
    the vessel of its discharge leg (``sailing``, ``arrived``)."""
    t49.require_document()
    tmp = Path(tmp_path_factory.mktemp("voyages"))
    clock = ManualClock(START)
    app = make_app(tmp / "sealane.db", clock=clock, rate_limit_per_minute=1_000_000)
    scenario = Scenario.on(app)
    key = scenario.account("Voyage Co", routing=True).secret
    other = scenario.account("Other Co", routing=True).secret
    plain = scenario.account("Plain Co", routing=False).secret
    with TestClient(app, raise_server_exceptions=False) as client:
        world = World(app, client, clock, key, other, plain, scenario.with_client(client))
        for number in ("TEST-VOYAGE-1", "TEST-VOYAGE-2"):
            scenario.track("Voyage Co", number)
        world.tick()
        world.tick(days=2)
        for shipment in world.get("/shipments").json()["data"]:
            name = {"TEST-VOYAGE-1": "sailing", "TEST-VOYAGE-2": "arrived"}[
                shipment["attributes"]["bill_of_lading_number"]
            ]
            world.ids[f"{name}_shipment"] = shipment["id"]
            world.ids[name] = shipment["relationships"]["pod_vessel"]["data"]["id"]
        yield world
    app.state.sealane.webhooks.close()
    app.state.sealane.engine.dispose()


def conforming(response: httpx.Response, path: str) -> dict[str, Any]:
    """The body, after checking it against Terminal49's schema for its status."""
    try:
        schema = t49.response_schema("GET", path, response.status_code)
    except KeyError:
        schema = t49.error_schema()
    body: dict[str, Any] = response.json()
    assert schema is not None
    assert t49.problems(schema, body) == []
    return body


def positions(w: World, vessel: str, key: str | None = None, **params: Any) -> httpx.Response:
    return w.get(FROM_LAST.replace("{id}", w.ids.get(vessel, vessel)), key, **params)


def with_coordinates(w: World, vessel: str, **params: Any) -> httpx.Response:
    return w.get(WITH_COORDINATES.replace("{id}", w.ids[vessel]), **params)


# -- no port given: the voyage of a tracked shipment ----------------------------------------------


def test_no_ports__the_voyage_of_the_shipment_on_board(voyages: World) -> None:
    body = conforming(positions(voyages, "sailing"), FROM_LAST)
    meta = body["meta"]
    assert meta["ports_source"] == "tracked_shipment"
    assert (meta["previous_port"]["locode"], meta["port"]["locode"]) == ("JPYOK", "DEBRV")
    assert {meta["previous_port"]["source"], meta["port"]["source"]} == {"tracked_shipment"}
    assert meta["shipment_id"] == voyages.ids["sailing_shipment"]
    assert len(body["data"]["attributes"]["positions"]) > 1_000


def test_no_ports__the_same_positions_as_those_ports_given(voyages: World) -> None:
    inferred = positions(voyages, "sailing").json()
    given = positions(voyages, "sailing", port_id="DEBRV", previous_port_id="JPYOK").json()
    assert given["meta"]["ports_source"] == "given"
    assert "shipment_id" not in given["meta"]
    assert inferred["data"] == given["data"]


def test_with_coordinates__no_ports__the_voyage_of_the_shipment_on_board(voyages: World) -> None:
    start = {"latitude": "1.2", "longitude": "104.0"}  # the Singapore Strait
    body = conforming(with_coordinates(voyages, "sailing", **start), WITH_COORDINATES)
    assert body["meta"]["ports_source"] == "tracked_shipment"
    assert body["meta"]["port"]["locode"] == "DEBRV"
    first = body["data"]["attributes"]["positions"][0]
    assert (first["latitude"], first["longitude"]) == pytest.approx((1.2, 104.0), abs=1e-6)


@pytest.mark.parametrize(
    ("given", "inferred", "locode"),
    [("port_id", "previous_port", "JPYOK"), ("previous_port_id", "port", "DEBRV")],
)
def test_one_port_given__the_other_from_the_voyage(
    voyages: World, given: str, inferred: str, locode: str
) -> None:
    value = "NLRTM" if given == "port_id" else "JPTYO"
    meta = conforming(positions(voyages, "sailing", **{given: value}), FROM_LAST)["meta"]
    assert meta["ports_source"] == "mixed"
    assert meta[inferred] | {"id": None} == {
        "id": None,
        "locode": locode,
        "name": meta[inferred]["name"],
        "source": "tracked_shipment",
    }
    assert meta["port" if given == "port_id" else "previous_port"]["source"] == "given"


def test_blank_ports_are_not_given(voyages: World) -> None:
    meta = positions(voyages, "sailing", port_id=" ", previous_port_id="").json()["meta"]
    assert meta["ports_source"] == "tracked_shipment"


# -- nothing known: 422 naming the port ---------------------------------------------------------


def test_an_arrived_voyage_is_not_used_422(voyages: World) -> None:
    response = positions(voyages, "arrived")
    conforming(response, FROM_LAST)
    error = assert_error(response, 422, parameter="port_id", code="unknown_voyage")
    assert "give port_id" in error["detail"]


def test_another_accounts_shipment_is_not_used_422(voyages: World) -> None:
    response = positions(voyages, "sailing", voyages.other_key)
    conforming(response, FROM_LAST)
    assert_error(response, 422, parameter="port_id", code="unknown_voyage")


def test_previous_port_missing_with_no_voyage_422(voyages: World) -> None:
    response = positions(voyages, "arrived", port_id="CNSHA")
    assert_error(response, 422, parameter="previous_port_id", code="unknown_voyage")


def test_ais_port_call__the_port_it_last_left(voyages: World) -> None:
    """A port call AIS saw gives the previous port (no destination: AIS's is not stored)."""
    left = START + timedelta(days=1)
    with transaction(voyages.app.state.sealane.sessions) as session:
        session.add_all(
            [
                VesselPortCall(
                    vessel_id=voyages.ids["arrived"],
                    locode=locode,
                    arrived_at=left - timedelta(days=days + 1),
                    departed_at=left - timedelta(days=days),
                )
                for locode, days in (("SGSIN", 5), ("USOAK", 0))
            ]
        )
    body = conforming(positions(voyages, "arrived", port_id="CNSHA"), FROM_LAST)
    assert body["meta"]["previous_port"]["locode"] == "USOAK"
    assert body["meta"]["previous_port"]["source"] == "ais_port_call"
    assert body["meta"]["ports_source"] == "mixed"
    assert_error(positions(voyages, "arrived"), 422, parameter="port_id", code="unknown_voyage")


def test_without_the_routing_feature_403_first(voyages: World) -> None:
    response = positions(voyages, "arrived", voyages.plain_key, draft_m="-1")
    conforming(response, FROM_LAST)
    assert_error(response, 403)


# -- the vessel's dimensions ----------------------------------------------------------------------


def test_dimensions__default_when_none_given(voyages: World) -> None:
    meta = positions(voyages, "sailing").json()["meta"]
    assert meta["vessel_dimensions"] == {
        "source": "default",
        "draft_m": None,
        "beam_m": None,
        "length_m": None,
        "air_draft_m": None,
        "sources": {
            "draft_m": "default",
            "beam_m": "default",
            "length_m": "default",
            "air_draft_m": "default",
        },
    }


def test_dimensions__given_in_meta_and_a_deep_draft_leaves_suez(voyages: World) -> None:
    """Yokohama -> Bremerhaven by Suez; at 21 m draft (Suez takes 20.1 m) round the Cape."""
    default = positions(voyages, "sailing").json()["data"]["attributes"]["positions"]
    deep = positions(voyages, "sailing", draft_m="21", beam_m="50", length_m="366")
    body = conforming(deep, FROM_LAST)
    assert body["meta"]["vessel_dimensions"] == {
        "source": "given",
        "draft_m": 21.0,
        "beam_m": 50.0,
        "length_m": 366.0,
        "air_draft_m": None,
        "sources": {
            "draft_m": "given",
            "beam_m": "given",
            "length_m": "given",
            "air_draft_m": "default",
        },
    }
    assert len(body["data"]["attributes"]["positions"]) > 1.2 * len(default)


def test_dimensions__on_with_coordinates_too(voyages: World) -> None:
    response = with_coordinates(voyages, "sailing", air_draft_m="60.5", **GERMAN_BIGHT)
    meta = conforming(response, WITH_COORDINATES)["meta"]["vessel_dimensions"]
    assert (meta["source"], meta["air_draft_m"]) == ("given", 60.5)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("draft_m", "-1"),
        ("draft_m", "0"),
        ("draft_m", "31"),
        ("beam_m", "81"),
        ("length_m", "501"),
        ("air_draft_m", "1e400"),
        ("length_m", "nan"),
        ("beam_m", "wide"),
    ],
)
def test_dimensions__bad_value_400_names_it(voyages: World, name: str, value: str) -> None:
    response = positions(voyages, "sailing", **{name: value})
    conforming(response, FROM_LAST)
    assert_error(response, 400, parameter=name)


def test_dimensions__a_bad_value_400_before_an_unknown_port(voyages: World) -> None:
    response = positions(voyages, "sailing", port_id="ZZZZZ", beam_m="-3")
    assert_error(response, 400, parameter="beam_m")


def test_dimensions__a_passage_too_shallow_422_names_the_limit(voyages: World) -> None:
    response = with_coordinates(
        voyages, "sailing", port_id="DEHAM", previous_port_id="NLRTM", draft_m="25", **GERMAN_BIGHT
    )
    conforming(response, WITH_COORDINATES)
    error = assert_error(response, 422)
    assert "draft 25 m" in error["detail"]


def test_openapi__ports_optional_and_dimensions_declared(voyages: World) -> None:
    document = voyages.client.get("/v2/openapi.json").json()
    for path in ("future_positions", "future_positions_with_coordinates"):
        operation = document["paths"][f"/v2/vessels/{{vessel_id}}/{path}"]["get"]
        declared = {p["name"]: p for p in operation["parameters"] if p["in"] == "query"}
        assert not declared["port_id"].get("required")
        assert not declared["previous_port_id"].get("required")
        for name in ("draft_m", "beam_m", "length_m", "air_draft_m"):
            schema = declared[name]["schema"]
            assert (schema["type"], schema["exclusiveMinimum"]) == ("number", 0), name
            assert schema["maximum"] == DIMENSION_BOUNDS_M[name], name


def test_voyage__the_shipment_when_no_container_route_is_known(voyages: World) -> None:
    """Without route locations (a carrier that gives none) the shipment's discharge leg gives
    the ports: its last transshipment port (none here: its port of lading) and its discharge."""
    with voyages.app.state.sealane.sessions() as session:
        shipment = session.get(Shipment, voyages.ids["sailing_shipment"])
        assert shipment is not None
        account, vessel, shipment_id = shipment.account_id, voyages.ids["sailing"], shipment.id
        with_route = known_voyage(session, account, vessel)
        session.execute(delete(RouteLocation).where(RouteLocation.shipment_id == shipment_id))
        without = known_voyage(session, account, vessel)
        session.rollback()
    assert with_route is not None and without is not None
    assert (without.previous_locode, without.next_locode) == ("JPYOK", "DEBRV")
    assert (without.source, without.shipment_id) == ("tracked_shipment", shipment_id)
    assert (with_route.previous_locode, with_route.next_locode) == ("JPYOK", "DEBRV")
