"""The future-positions answers' ``meta``: the ETA with its range (``eta_p10``, ``eta_p90``) and
the speed sailed at with its source; a bad ``speed_kn`` is a 400 naming it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sealane.store.database import transaction
from sealane.store.models import Vessel, VesselPosition
from tests.api.jsonapi_asserts import assert_error
from tests.toolkit import START, Keys, auth

PORTS = {"port_id": "NLRTM", "previous_port_id": "CNSHA"}
START_AT = {"latitude": "12.3", "longitude": "60.1"}


def meta_of(client: TestClient, keys: Keys, vessel: Vessel, **params: Any) -> dict[str, Any]:
    with_start = "latitude" in params
    endpoint = "future_positions_with_coordinates" if with_start else "future_positions"
    response = client.get(
        f"/v2/vessels/{vessel.id}/{endpoint}", params=PORTS | params, headers=auth(keys.routing)
    )
    assert response.status_code == 200, response.text[:300]
    body = response.json()
    positions = body["data"]["attributes"]["positions"]
    meta: dict[str, Any] = body["meta"]
    assert meta["eta"] == positions[-1]["timestamp"]
    assert positions[0]["timestamp"] <= meta["eta_p10"] <= meta["eta"] < meta["eta_p90"]
    return meta


@pytest.mark.parametrize("params", [START_AT, {}], ids=["with_coordinates", "from_last"])
def test_meta__range_and_reported_speed(
    client: TestClient, keys: Keys, vessel: Vessel, params: dict[str, str]
) -> None:
    meta = meta_of(client, keys, vessel, **params)
    assert meta["speed"] == {"knots": 18.0, "source": "reported"}


def test_meta__given_speed(client: TestClient, keys: Keys, vessel: Vessel) -> None:
    slow = meta_of(client, keys, vessel, **START_AT, speed_kn="9.5")
    fast = meta_of(client, keys, vessel, **START_AT)
    assert slow["speed"] == {"knots": 9.5, "source": "given"}
    assert slow["eta"] > fast["eta"] and slow["eta_p90"] > fast["eta_p90"]


def test_meta__observed_speed(app: FastAPI, client: TestClient, keys: Keys, vessel: Vessel) -> None:
    with transaction(app.state.sealane.sessions) as session:
        for minutes, sog in ((20, 12.0), (40, 13.0), (60, 12.5), (80, 0.3)):
            session.add(
                VesselPosition(
                    vessel_id=vessel.id,
                    longitude=60.1 - minutes / 600,
                    latitude=12.3,
                    speed_knots=sog,
                    timestamp=START - timedelta(minutes=minutes),
                )
            )
    meta = meta_of(client, keys, vessel, **START_AT)
    speed = meta["speed"]
    assert (speed["knots"], speed["source"], speed["positions"]) == (12.5, "observed", 3)
    assert speed["observed_to"] == "2026-11-21T11:40:00Z"


@pytest.mark.parametrize("bad", ["0.5", "61", "nan", "fast", ""])
def test_meta__bad_speed_is_400(client: TestClient, keys: Keys, vessel: Vessel, bad: str) -> None:
    response = client.get(
        f"/v2/vessels/{vessel.id}/future_positions",
        params=PORTS | {"speed_kn": bad},
        headers=auth(keys.routing),
    )
    assert_error(response, 400, parameter="speed_kn")
