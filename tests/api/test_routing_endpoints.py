"""The paid routing endpoints: future positions of a vessel, one minute apart, to a port."""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import pairwise
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pyproj import Geod

import sealane
from sealane.routing.errors import NoRouteError
from sealane.store.database import transaction
from sealane.store.models import Vessel
from tests.toolkit import START, Keys, auth

from .jsonapi_asserts import JSONAPI, assert_error

GEOD = Geod(ellps="WGS84")
METRES_PER_NM = 1852.0
#: Rotterdam, the destination of every voyage here (lon, lat).
NLRTM = (4.442447, 51.904383)
#: A start in the Arabian Sea on the Shanghai -> Rotterdam leg (lon, lat).
ARABIAN_SEA = (60.1, 12.3)
POSITION_KEYS = {"latitude", "longitude", "heading", "timestamp", "estimated"}
VALID = {
    "port_id": "NLRTM",
    "previous_port_id": "CNSHA",
    "latitude": "12.3",
    "longitude": "60.1",
}


@pytest.fixture(scope="module")
def ships(shared_app: FastAPI) -> dict[str, Vessel]:
    """Vessels by role: ``fast`` (18 kn), ``unknown_speed`` (None), ``slow`` (0.5 kn),
    ``no_position`` (never reported) and ``inland`` (a stored position far inland)."""
    made = {
        "fast": Vessel(name="Fast", imo="9400001", latitude=12.3, longitude=60.1,
                       nautical_speed_knots=18.0, position_timestamp=START),
        "unknown_speed": Vessel(name="Unknown Speed", imo="9400002", latitude=12.3,
                                longitude=60.1, nautical_speed_knots=None),
        "slow": Vessel(name="Slow", imo="9400003", latitude=12.3, longitude=60.1,
                       nautical_speed_knots=0.5),
        "no_position": Vessel(name="No Position", imo="9400004", nautical_speed_knots=18.0),
        "inland": Vessel(name="Inland", imo="9400005", latitude=50.0, longitude=10.0,
                         nautical_speed_knots=18.0),
    }  # fmt: skip
    with transaction(shared_app.state.sealane.sessions) as session:
        session.add_all(made.values())
    return made


def with_coordinates(
    client: TestClient,
    key: str,
    vessel: str,
    *,
    headers: dict[str, str] | None = None,
    **params: Any,
) -> httpx.Response:
    """GET future_positions_with_coordinates with VALID parameters, ``params`` replacing them
    (a value of None drops the parameter)."""
    query = {k: v for k, v in (VALID | params).items() if v is not None}
    return client.get(
        f"/v2/vessels/{vessel}/future_positions_with_coordinates",
        params=query,
        headers={**auth(key), **(headers or {})},
    )


def from_last_position(client: TestClient, key: str, vessel: str, **params: Any) -> httpx.Response:
    query = {"port_id": "NLRTM", "previous_port_id": "CNSHA"} | params
    query = {k: v for k, v in query.items() if v is not None}
    return client.get(f"/v2/vessels/{vessel}/future_positions", params=query, headers=auth(key))


def positions_of(response: httpx.Response) -> list[dict[str, Any]]:
    assert response.status_code == 200, response.text[:500]
    positions: list[dict[str, Any]] = response.json()["data"]["attributes"]["positions"]
    return positions


def step_m(positions: list[dict[str, Any]], index: int = 0) -> float:
    a, b = positions[index], positions[index + 1]
    return float(GEOD.inv(a["longitude"], a["latitude"], b["longitude"], b["latitude"])[2])


def stamp(position: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(position["timestamp"].replace("Z", "+00:00"))


@pytest.fixture(scope="module")
def voyage(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel]
) -> httpx.Response:
    """The fast ship's voyage from the Arabian Sea to Rotterdam (computed once per module)."""
    return with_coordinates(shared_client, shared_keys.routing, ships["fast"].id)


# 200


def test_with_coordinates__document(voyage: httpx.Response, ships: dict[str, Vessel]) -> None:
    assert voyage.status_code == 200
    assert voyage.headers["content-type"] == JSONAPI
    body = voyage.json()
    assert set(body) == {"data", "links", "meta"}
    assert body["meta"]["ports_source"] == "given"
    assert body["meta"]["port"] == {
        "id": sealane.get_port("NLRTM").id,
        "locode": "NLRTM",
        "name": "Rotterdam",
        "source": "given",
    }
    assert body["meta"]["previous_port"]["locode"] == "CNSHA"
    assert "shipment_id" not in body["meta"]
    assert body["meta"]["vessel_dimensions"] == {
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
    assert body["data"]["type"] == "vessel"
    assert body["data"]["id"] == ships["fast"].id
    assert body["data"]["attributes"]["name"] == "Fast"
    assert body["data"]["attributes"]["imo"] == "9400001"
    assert body["links"]["self"] == str(voyage.request.url)


def test_with_coordinates__position_objects(voyage: httpx.Response) -> None:
    positions = positions_of(voyage)
    assert len(positions) > 1_000
    for position in positions:
        assert set(position) == POSITION_KEYS
        assert position["estimated"] is True
        assert 0.0 <= position["heading"] < 360.0
        assert -90.0 <= position["latitude"] <= 90.0
        assert -180.0 <= position["longitude"] <= 180.0


def test_with_coordinates__first_position_is_the_start_at_clock_time(
    voyage: httpx.Response,
) -> None:
    first = positions_of(voyage)[0]
    assert (first["longitude"], first["latitude"]) == pytest.approx(ARABIAN_SEA, abs=1e-6)
    assert first["timestamp"] == "2026-11-21T12:00:00Z"


def test_with_coordinates__last_position_is_rotterdam(voyage: httpx.Response) -> None:
    last = positions_of(voyage)[-1]
    assert (last["longitude"], last["latitude"]) == pytest.approx(NLRTM, abs=1e-6)


def test_with_coordinates__one_minute_apart(voyage: httpx.Response) -> None:
    times = [stamp(p) for p in positions_of(voyage)]
    gaps = {b - a for a, b in pairwise(times[:-1])}
    final = times[-1] - times[-2]
    assert gaps == {timedelta(minutes=1)}
    # The arrival is timed by the route's length, so the corners cut between positions make the
    # last interval longer than a minute (here about 2 min for a 0.5 km chord).
    assert timedelta(0) < final < timedelta(minutes=5)


def test_with_coordinates__step_is_18_knots_for_one_minute(voyage: httpx.Response) -> None:
    positions = positions_of(voyage)
    for index in (0, 1, len(positions) // 2):
        assert step_m(positions, index) == pytest.approx(18 * METRES_PER_NM / 60, abs=1.0)


def test_with_coordinates__eta_on_the_speed_profile(voyage: httpx.Response) -> None:
    """The route at 18 kn on its speed profile: Suez's convoy and its wait add about 16 h."""
    positions = positions_of(voyage)
    hours_at_sea = sealane.route(ARABIAN_SEA, "NLRTM").duration_h(18.0)
    hours = (stamp(positions[-1]) - stamp(positions[0])) / timedelta(hours=1)
    assert hours == pytest.approx(hours_at_sea, rel=0.02)
    assert len(positions) == pytest.approx(hours_at_sea * 60, rel=0.02)


def test_with_coordinates__port_ids_as_uuids(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel], voyage: httpx.Response
) -> None:
    response = with_coordinates(
        shared_client,
        shared_keys.routing,
        ships["fast"].id,
        port_id=sealane.get_port("NLRTM").id,
        previous_port_id=sealane.get_port("CNSHA").id,
    )
    assert positions_of(response) == positions_of(voyage)


def test_with_coordinates__lowercase_locodes(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel], voyage: httpx.Response
) -> None:
    response = with_coordinates(
        shared_client, shared_keys.routing, ships["fast"].id, port_id="nlrtm"
    )
    assert len(positions_of(response)) == len(positions_of(voyage))


def test_with_coordinates__vessel_by_imo(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel], voyage: httpx.Response
) -> None:
    response = with_coordinates(shared_client, shared_keys.routing, "9400001")
    assert response.json()["data"]["id"] == ships["fast"].id
    assert positions_of(response) == positions_of(voyage)


def test_with_coordinates__start_at_the_destination_is_one_position(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel]
) -> None:
    response = with_coordinates(
        shared_client,
        shared_keys.routing,
        ships["fast"].id,
        longitude=str(NLRTM[0]),
        latitude=str(NLRTM[1]),
    )
    positions = positions_of(response)
    assert len(positions) == 1
    assert (positions[0]["longitude"], positions[0]["latitude"]) == pytest.approx(NLRTM)
    assert positions[0]["timestamp"] == "2026-11-21T12:00:00Z"


def test_with_coordinates__gzip_when_asked(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel]
) -> None:
    response = with_coordinates(
        shared_client, shared_keys.routing, ships["fast"].id, headers={"Accept-Encoding": "gzip"}
    )
    assert response.status_code == 200
    assert response.headers["content-encoding"] == "gzip"
    assert response.json()["data"]["attributes"]["positions"]


def test_with_coordinates__identity_when_gzip_not_asked(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel]
) -> None:
    response = with_coordinates(
        shared_client,
        shared_keys.routing,
        ships["fast"].id,
        headers={"Accept-Encoding": "identity"},
    )
    assert response.status_code == 200
    assert "content-encoding" not in response.headers


def test_future_positions__starts_at_the_stored_position(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel], voyage: httpx.Response
) -> None:
    response = from_last_position(shared_client, shared_keys.routing, ships["fast"].id)
    assert response.headers["content-type"] == JSONAPI
    positions = positions_of(response)
    assert (positions[0]["longitude"], positions[0]["latitude"]) == pytest.approx(ARABIAN_SEA)
    assert positions[0]["timestamp"] == "2026-11-21T12:00:00Z"
    assert (positions[-1]["longitude"], positions[-1]["latitude"]) == pytest.approx(NLRTM)
    assert positions == positions_of(voyage)
    assert response.json()["links"]["self"] == str(response.request.url)


def test_future_positions__vessel_by_imo(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel]
) -> None:
    response = from_last_position(shared_client, shared_keys.routing, "9400001")
    assert response.json()["data"]["id"] == ships["fast"].id


@pytest.mark.parametrize("role", ["unknown_speed", "slow"])
def test_future_positions__missing_or_sub_knot_speed_sails_at_14_knots(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel], role: str
) -> None:
    positions = positions_of(from_last_position(shared_client, shared_keys.routing, ships[role].id))
    hours_at_sea = sealane.route(ARABIAN_SEA, "NLRTM").duration_h(14.0)
    assert step_m(positions) == pytest.approx(14 * METRES_PER_NM / 60, abs=1.0)
    assert len(positions) == pytest.approx(hours_at_sea * 60, rel=0.02)


# 400: one missing or malformed parameter per test


@pytest.mark.parametrize("name", ["latitude", "longitude"])
def test_with_coordinates__missing_parameter_400(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel], name: str
) -> None:
    response = with_coordinates(
        shared_client, shared_keys.routing, ships["fast"].id, **{name: None}
    )
    assert_error(response, 400, parameter=name, code="missing_parameter")


def test_with_coordinates__blank_latitude_400(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel]
) -> None:
    response = with_coordinates(shared_client, shared_keys.routing, ships["fast"].id, latitude=" ")
    assert_error(response, 400, parameter="latitude", code="invalid_parameter")


@pytest.mark.parametrize("value", [None, " "])
@pytest.mark.parametrize("name", ["port_id", "previous_port_id"])
def test_with_coordinates__port_missing_and_no_voyage_known_422(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel], name: str, value: Any
) -> None:
    """No tracked shipment on board and no AIS port call: the port must be given (blank is
    missing)."""
    response = with_coordinates(
        shared_client, shared_keys.routing, ships["fast"].id, **{name: value}
    )
    error = assert_error(response, 422, parameter=name, code="unknown_voyage")
    assert f"give {name}" in error["detail"]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("latitude", "abc"),
        ("latitude", "91"),
        ("latitude", "-90.0001"),
        ("latitude", "inf"),
        ("latitude", "-inf"),
        ("latitude", "nan"),
        ("longitude", "-181"),
        ("longitude", "180.5"),
        ("longitude", "nan"),
        ("longitude", "1e400"),
        ("longitude", "12,5"),
    ],
)
def test_with_coordinates__malformed_coordinate_400(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel], name: str, value: str
) -> None:
    response = with_coordinates(
        shared_client, shared_keys.routing, ships["fast"].id, **{name: value}
    )
    assert_error(response, 400, parameter=name, code="invalid_parameter")


def test_with_coordinates__400_before_unknown_vessel_404(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    response = with_coordinates(shared_client, shared_keys.routing, "9999999", latitude="abc")
    assert_error(response, 400, parameter="latitude")


@pytest.mark.parametrize("name", ["port_id", "previous_port_id"])
def test_future_positions__port_missing_and_no_voyage_known_422(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel], name: str
) -> None:
    response = from_last_position(
        shared_client, shared_keys.routing, ships["fast"].id, **{name: None}
    )
    assert_error(response, 422, parameter=name, code="unknown_voyage")


def test_with_coordinates__latitude_with_underscore_400(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel]
) -> None:
    response = with_coordinates(
        shared_client, shared_keys.routing, ships["fast"].id, latitude="1_2.3"
    )
    assert_error(response, 400, parameter="latitude")


# 404


def test_with_coordinates__unknown_vessel_id_404(
    shared_client: TestClient, shared_keys: Keys
) -> None:
    response = with_coordinates(
        shared_client, shared_keys.routing, "00000000-0000-0000-0000-000000000000"
    )
    assert_error(response, 404, code="not_found")


def test_with_coordinates__unknown_imo_404(shared_client: TestClient, shared_keys: Keys) -> None:
    response = with_coordinates(shared_client, shared_keys.routing, "9999999")
    assert_error(response, 404, code="not_found")


def test_future_positions__unknown_vessel_404(shared_client: TestClient, shared_keys: Keys) -> None:
    response = from_last_position(shared_client, shared_keys.routing, "9999999")
    assert_error(response, 404, code="not_found")


# 422


def test_with_coordinates__unknown_port_422(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel]
) -> None:
    response = with_coordinates(
        shared_client, shared_keys.routing, ships["fast"].id, port_id="ZZZZZ"
    )
    assert_error(response, 422, parameter="port_id", code="unknown_port")


def test_with_coordinates__unknown_previous_port_422(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel]
) -> None:
    response = with_coordinates(
        shared_client, shared_keys.routing, ships["fast"].id, previous_port_id="ZZZZZ"
    )
    assert_error(response, 422, parameter="previous_port_id", code="unknown_port")


def test_with_coordinates__unknown_port_uuid_422(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel]
) -> None:
    response = with_coordinates(
        shared_client,
        shared_keys.routing,
        ships["fast"].id,
        port_id="00000000-0000-0000-0000-000000000000",
    )
    assert_error(response, 422, parameter="port_id", code="unknown_port")


def test_with_coordinates__start_far_inland_422(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel]
) -> None:
    response = with_coordinates(
        shared_client, shared_keys.routing, ships["fast"].id, latitude="50", longitude="10"
    )
    assert_error(response, 422, code="on_land")


@pytest.mark.parametrize(
    ("longitude", "latitude"),
    [("14.42", "50.08"), ("6.76", "51.43"), ("-100", "40")],
    ids=["prague", "duisburg", "kansas"],
)
def test_with_coordinates__start_inland_near_an_inland_port_422_names_it(
    shared_client: TestClient,
    shared_keys: Keys,
    ships: dict[str, Vessel],
    longitude: str,
    latitude: str,
) -> None:
    response = with_coordinates(
        shared_client,
        shared_keys.routing,
        ships["fast"].id,
        latitude=latitude,
        longitude=longitude,
        previous_port_id="DEHAM",
    )
    error = assert_error(response, 422, code="on_land")
    assert f"({float(longitude)}, {float(latitude)})" in error["detail"]


def test_with_coordinates__start_in_the_suez_canal_200(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel]
) -> None:
    response = with_coordinates(
        shared_client,
        shared_keys.routing,
        ships["fast"].id,
        latitude="30.657",
        longitude="32.3244",
        previous_port_id="SGSIN",
    )
    assert response.status_code == 200, response.text[:500]
    first = response.json()["data"]["attributes"]["positions"][0]
    assert (first["longitude"], first["latitude"]) == (32.3244, 30.657)


def test_with_coordinates__south_pole_is_in_range_but_on_land_422(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel]
) -> None:
    response = with_coordinates(
        shared_client, shared_keys.routing, ships["fast"].id, latitude="-90", longitude="0"
    )
    assert_error(response, 422, code="on_land")


def test_future_positions__stored_position_far_inland_422(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel]
) -> None:
    response = from_last_position(shared_client, shared_keys.routing, ships["inland"].id)
    assert_error(response, 422, code="on_land")


def test_future_positions__vessel_without_position_422(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel]
) -> None:
    response = from_last_position(shared_client, shared_keys.routing, ships["no_position"].id)
    assert_error(response, 422, code="no_position")


def test_future_positions__unknown_port_422(
    shared_client: TestClient, shared_keys: Keys, ships: dict[str, Vessel]
) -> None:
    response = from_last_position(
        shared_client, shared_keys.routing, ships["fast"].id, port_id="ZZZZZ"
    )
    assert_error(response, 422, parameter="port_id", code="unknown_port")


@pytest.mark.parametrize(
    ("vessel", "expected"),
    [("9999999", (404, "not_found")), ("no_position", (422, "no_position"))],
)
def test_future_positions__unknown_vessel_then_no_position_come_before_an_unknown_port(
    shared_client: TestClient,
    shared_keys: Keys,
    ships: dict[str, Vessel],
    vessel: str,
    expected: tuple[int, str],
) -> None:
    key = ships[vessel].id if vessel in ships else vessel
    response = from_last_position(shared_client, shared_keys.routing, key, port_id="ZZZZZ")
    assert_error(response, expected[0], code=expected[1])


def test_with_coordinates__no_sea_route_422(
    shared_client: TestClient,
    shared_keys: Keys,
    ships: dict[str, Vessel],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_route(*args: object, **kwargs: object) -> None:
        raise NoRouteError("no sea route joins the start and NLRTM")

    monkeypatch.setattr("sealane.service.reference.vessels.future_positions", no_route)
    response = with_coordinates(shared_client, shared_keys.routing, ships["fast"].id)
    assert_error(response, 422, code="no_route")
