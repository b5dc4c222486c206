"""End-to-end smoke test of the routing endpoint over the real app and database."""

from __future__ import annotations

from fastapi.testclient import TestClient

from sealane.store.models import Vessel
from tests.toolkit import Keys, auth


def test_future_positions_with_coordinates__one_minute_apart(
    client: TestClient, keys: Keys, vessel: Vessel
) -> None:
    response = client.get(
        f"/v2/vessels/{vessel.id}/future_positions_with_coordinates",
        params={
            "port_id": "NLRTM",
            "previous_port_id": "CNSHA",
            "latitude": 12.3,
            "longitude": 60.1,
        },
        headers=auth(keys.routing),
    )
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/vnd.api+json"
    body = response.json()
    positions = body["data"]["attributes"]["positions"]
    assert body["data"]["type"] == "vessel"
    assert positions[0]["timestamp"] == "2026-11-21T12:00:00Z"
    assert positions[1]["timestamp"] == "2026-11-21T12:01:00Z"
    assert positions[0]["latitude"] == 12.3 and positions[0]["longitude"] == 60.1
    assert body["links"]["self"].startswith("http://testserver/v2/vessels/")
