"""Future positions start from the vessel's latest position as stored: a position the feed
reported is where the next request starts, on SQLite and PostgreSQL (nothing read for an earlier
request is kept)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.store.conftest import database_url, fresh_postgres_url, postgres_database_url
from tests.toolkit import auth

from .test_vessel_positions import Setup, client, position, setup

__all__ = ["client", "database_url", "fresh_postgres_url", "postgres_database_url", "setup"]

PORTS = {"previous_port_id": "NLRTM", "port_id": "GBFXT"}


def future(setup: Setup, client: TestClient) -> dict[str, Any]:
    """The vessel's future positions document, asked with gzip as a client asks."""
    url = f"/v2/vessels/{setup.vessel_id}/future_positions"
    headers = {**auth(setup.routing), "Accept-Encoding": "gzip"}
    response = client.get(url, params=PORTS, headers=headers)
    assert response.status_code == 200, response.text[:300]
    document: dict[str, Any] = response.json()
    return document


def test_future_positions__each_request_starts_from_the_latest_report(
    setup: Setup, client: TestClient
) -> None:
    for minute, longitude in ((3, 3.900), (2, 3.897), (1, 3.894)):
        report = position(minute, longitude=longitude)
        assert setup.post(client, {"data": [report]}).status_code == 200
        attributes = future(setup, client)["data"]["attributes"]
        assert attributes["longitude"] == pytest.approx(longitude)
        assert attributes["position_timestamp"].startswith(report["attributes"]["timestamp"][:16])
        first = attributes["positions"][0]
        assert (first["longitude"], first["latitude"]) == pytest.approx((longitude, 51.95))
