"""A vessel's reported static data over HTTP, on SQLite and PostgreSQL: shown on the vessel,
given with ``POST /v2/vessel_positions``, and sizing its future positions."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

import sealane
from sealane.clock import ManualClock
from sealane.feeds.ais.ingest import Ingestor
from sealane.feeds.ais.reports import StaticReport
from sealane.store.accounts import create_account
from sealane.store.database import transaction
from sealane.store.models import Vessel
from tests.store.conftest import database_url, fresh_postgres_url, postgres_database_url
from tests.toolkit import JSONAPI, START, auth, make_app

from .jsonapi_asserts import assert_error

__all__ = ["database_url", "fresh_postgres_url", "postgres_database_url"]

MMSI = 636019826
#: A start in the Arabian Sea on the Shanghai -> Rotterdam leg (lon, lat), and the speed there.
ARABIAN_SEA = (60.1, 12.3)
SPEED_KN = 18.0
#: Where each query-parameter dimension defaults from when the vessel reported only a draught.
REPORTED_DRAUGHT = {
    "draft_m": "reported",
    "beam_m": "default",
    "length_m": "default",
    "air_draft_m": "default",
}


class Setup:
    """An app on the test's database, a vessel known by MMSI with no position yet, and a key
    that may both route and write positions."""

    def __init__(self, url: str) -> None:
        self.clock = ManualClock(START)
        self.app: FastAPI = make_app(url, clock=self.clock)
        with transaction(self.app.state.sealane.sessions) as session:
            ship = Vessel(name="Sealane Static", imo="9811002", mmsi=str(MMSI))
            session.add(ship)
            session.flush()
            self.vessel_id = ship.id
            self.key = create_account(session, "Feed Co", routing=True, ingest=True).secret

    def post(self, client: TestClient, *items: dict[str, Any]) -> httpx.Response:
        headers = {"Content-Type": JSONAPI, **auth(self.key)}
        return client.post("/v2/vessel_positions", json={"data": list(items)}, headers=headers)

    def sail(self, client: TestClient, **dimensions: float) -> None:
        """Report the vessel in the Arabian Sea a minute ago, with ``dimensions``."""
        response = self.post(client, position(**dimensions))
        assert response.status_code == 200, response.text[:500]
        assert response.json()["meta"]["stored"] == 1

    def vessel(self, client: TestClient) -> dict[str, Any]:
        response = client.get(f"/v2/vessels/{self.vessel_id}", headers=auth(self.key))
        assert response.status_code == 200, response.text[:300]
        attributes: dict[str, Any] = response.json()["data"]["attributes"]
        return attributes

    def future(self, client: TestClient, port: str = "NLRTM", **params: str) -> httpx.Response:
        query = {"port_id": port, "previous_port_id": "CNSHA", **params}
        url = f"/v2/vessels/{self.vessel_id}/future_positions"
        return client.get(url, params=query, headers=auth(self.key))


def position(**changes: Any) -> dict[str, Any]:
    """A ``vessel_position`` of the test vessel in the Arabian Sea a minute before START."""
    attributes = {
        "mmsi": str(MMSI),
        "longitude": ARABIAN_SEA[0],
        "latitude": ARABIAN_SEA[1],
        "timestamp": (START - timedelta(minutes=1)).isoformat(),
        "speed_knots": SPEED_KN,
        **changes,
    }
    return {"type": "vessel_position", "attributes": attributes}


def engine_positions(
    destination: str = "NLRTM", draft_m: float | None = None, beam_m: float | None = None
) -> int:
    """How many positions the engine gives from the test start, called as a library."""
    found = sealane.future_positions(
        ARABIAN_SEA,
        "CNSHA",
        destination,
        speed_kn=SPEED_KN,
        start_time=START,
        draft_m=draft_m,
        beam_m=beam_m,
    )
    return len(found.lons)


def answer(response: httpx.Response) -> tuple[int, dict[str, Any]]:
    """The count of positions of a future-positions answer, and its vessel dimensions."""
    assert response.status_code == 200, response.text[:500]
    body = response.json()
    return len(body["data"]["attributes"]["positions"]), body["meta"]["vessel_dimensions"]


@pytest.fixture
def setup(database_url: str) -> Iterator[Setup]:
    made = Setup(database_url)
    yield made
    made.app.state.sealane.engine.dispose()


@pytest.fixture
def client(setup: Setup) -> Iterator[TestClient]:
    with TestClient(setup.app, raise_server_exceptions=False) as test_client:
        yield test_client


# -- the vessel resource --------------------------------------------------------------------------


def test_vessel__nothing_reported_is_null(setup: Setup, client: TestClient) -> None:
    attributes = setup.vessel(client)
    names = ("call_sign", "ship_type", "length_meters", "beam_meters", "draught_meters")
    assert {name: attributes[name] for name in names} == dict.fromkeys(names)
    assert attributes["dimensions_source"] is None and attributes["reported_eta"] is None


def test_vessel__shows_what_ais_reported(setup: Setup, client: TestClient) -> None:
    report = StaticReport(
        MMSI,
        START.timestamp(),
        callsign="V7AB3",
        destination="NL RTM",
        ship_type=71,
        to_bow_m=300,
        to_stern_m=66,
        to_port_m=25,
        to_starboard_m=26,
        draught_m=14.5,
        eta_s=(START + timedelta(days=20)).timestamp(),
    )
    Ingestor(setup.app.state.sealane.sessions, setup.clock).ingest([], [report])
    attributes = setup.vessel(client)
    assert {name: attributes[name] for name in ("call_sign", "ship_type")} == {
        "call_sign": "V7AB3",
        "ship_type": 71,
    }
    sizes = (attributes["length_meters"], attributes["beam_meters"], attributes["draught_meters"])
    assert sizes == (366.0, 51.0, 14.5)
    assert attributes["dimensions_source"] == "ais"
    assert attributes["dimensions_updated_at"].startswith("2026-11-21T12:00:00")
    assert attributes["reported_destination"] == "NL RTM"
    assert attributes["reported_eta"].startswith("2026-12-11T12:00:00")


# -- POST /v2/vessel_positions ------------------------------------------------------------------


def test_post__dimensions_stored_on_the_vessel(setup: Setup, client: TestClient) -> None:
    setup.sail(client, length_meters=299.9, beam_meters=48.2, draught_meters=13.1)
    attributes = setup.vessel(client)
    sizes = (attributes["length_meters"], attributes["beam_meters"], attributes["draught_meters"])
    assert sizes == (299.9, 48.2, 13.1)
    assert attributes["dimensions_source"] == "position_feed"


def test_post__a_later_report_without_dimensions_keeps_them(
    setup: Setup, client: TestClient
) -> None:
    setup.sail(client, draught_meters=13.1)
    later = position(timestamp=START.isoformat(), longitude=60.2, draught_meters=None)
    assert setup.post(client, later).status_code == 200
    assert setup.vessel(client)["draught_meters"] == 13.1


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("draught_meters", -1),
        ("draught_meters", 0),
        ("draught_meters", 31),
        ("length_meters", 501),
        pytest.param("beam_meters", 10**400, id="beam_meters-huge-integer"),
        ("beam_meters", "48"),
        ("length_meters", True),
    ],
)
def test_post__bad_dimension_422_naming_it_and_nothing_stored(
    setup: Setup, client: TestClient, name: str, value: Any
) -> None:
    response = setup.post(client, position(**{name: value}))
    error = assert_error(response, 422)
    assert error["source"] == {"pointer": f"/data/0/attributes/{name}"}
    attributes = setup.vessel(client)
    assert attributes["position_timestamp"] is None and attributes[name] is None


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity"])
def test_post__non_finite_dimension_422(setup: Setup, client: TestClient, value: str) -> None:
    # Python's JSON reader takes these words, which no JSON document may hold
    text = json.dumps({"data": [position(draught_meters=0.5)["attributes"]]})
    body = text.replace('"draught_meters": 0.5', f'"draught_meters": {value}')
    headers = {"Content-Type": JSONAPI, **auth(setup.key)}
    response = client.post("/v2/vessel_positions", content=body, headers=headers)
    error = assert_error(response, 422)
    assert error["source"] == {"pointer": "/data/0/draught_meters"}
    assert setup.vessel(client)["draught_meters"] is None


def test_post__bad_dimension_named_beside_the_batch_own_errors(
    setup: Setup, client: TestClient
) -> None:
    bare = position(latitude=91, beam_meters=-5)["attributes"]
    response = setup.post(client, position(), bare)
    assert response.status_code == 422
    pointers = [e["source"]["pointer"] for e in response.json()["errors"]]
    assert pointers == ["/data/1/latitude", "/data/1/beam_meters"]


# -- future positions sized by the reported dimensions ------------------------------------------


def test_future__reported_draught_routes_like_the_engine_and_avoids_suez(
    setup: Setup, client: TestClient
) -> None:
    setup.sail(client, draught_meters=21.0)
    count, dimensions = answer(setup.future(client))
    assert count == engine_positions(draft_m=21.0)
    assert count > 1.2 * engine_positions()  # round the Cape: Suez takes 20.1 m
    assert dimensions == {
        "source": "reported",
        "draft_m": 21.0,
        "beam_m": None,
        "length_m": None,
        "air_draft_m": None,
        "sources": REPORTED_DRAUGHT,
        "reported_by": "position_feed",
    }


def test_future__a_query_parameter_overrides_the_report(setup: Setup, client: TestClient) -> None:
    setup.sail(client, draught_meters=21.0, beam_meters=40.0)
    count, dimensions = answer(setup.future(client, draft_m="12"))
    assert count == engine_positions(draft_m=12.0, beam_m=40.0)
    assert (dimensions["source"], dimensions["draft_m"], dimensions["beam_m"]) == (
        "mixed",
        12.0,
        40.0,
    )
    assert dimensions["sources"]["draft_m"] == "given"
    assert dimensions["sources"]["beam_m"] == "reported"


def test_future__with_coordinates_uses_the_report_too(setup: Setup, client: TestClient) -> None:
    setup.sail(client, draught_meters=21.0)
    query = {"port_id": "NLRTM", "previous_port_id": "CNSHA"}
    query |= {"longitude": str(ARABIAN_SEA[0]), "latitude": str(ARABIAN_SEA[1])}
    url = f"/v2/vessels/{setup.vessel_id}/future_positions_with_coordinates"
    count, dimensions = answer(client.get(url, params=query, headers=auth(setup.key)))
    assert count == engine_positions(draft_m=21.0)
    assert dimensions["sources"] == REPORTED_DRAUGHT


def test_future__a_reported_draught_no_route_takes_is_set_aside(
    setup: Setup, client: TestClient
) -> None:
    """Hamburg lies up the Elbe (15.4 m): a 16 m AIS draught routes as unknown, a 16 m
    parameter is refused."""
    setup.sail(client, draught_meters=16.0)
    count, dimensions = answer(setup.future(client, port="DEHAM"))
    assert count == engine_positions("DEHAM")
    assert (dimensions["source"], dimensions["draft_m"]) == ("default", None)
    assert "elbe" in dimensions["reported_set_aside"]
    refused = assert_error(setup.future(client, port="DEHAM", draft_m="16"), 422)
    assert "elbe" in refused["detail"]


def test_future__a_port_shallower_than_the_draft__parameter_422_report_set_aside(
    setup: Setup, client: TestClient
) -> None:
    """Savannah's channel takes 16.73 m at high water (``data/port_limits.csv``): a 17 m
    parameter is a JSON:API 422 naming it, a 17 m AIS draught routes as unknown."""
    setup.sail(client, draught_meters=17.0)
    refused = assert_error(setup.future(client, port="USSAV", draft_m="17"), 422)
    assert "Savannah Harbor's channel" in refused["detail"] and "16.73 m" in refused["detail"]
    count, dimensions = answer(setup.future(client, port="USSAV"))
    assert count == engine_positions("USSAV")
    assert (dimensions["source"], dimensions["draft_m"]) == ("default", None)
    assert "Savannah" in dimensions["reported_set_aside"]
