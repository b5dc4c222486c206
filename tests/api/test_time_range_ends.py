"""The ends of the writable years, 0001 and 9999, come back as RFC 3339 (four-digit, zero-padded
years) through the API's renderer, on SQLite and PostgreSQL: a datetime custom field stored at
either end reads back exactly as written."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.store.conftest import database_url, fresh_postgres_url, postgres_database_url
from tests.toolkit import JSONAPI, auth, make_account, make_app

__all__ = ["database_url", "fresh_postgres_url", "postgres_database_url"]


@pytest.fixture
def app(database_url: str) -> Iterator[FastAPI]:
    made = make_app(database_url)
    yield made
    made.state.sealane.engine.dispose()


@pytest.mark.parametrize("written", ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z"])
def test_datetime_custom_field__year_range_ends_read_back_padded(
    app: FastAPI, written: str
) -> None:
    key = make_account(app, "Time Co", routing=False)
    headers = {**auth(key), "Content-Type": JSONAPI}
    with TestClient(app, raise_server_exceptions=False) as client:
        definition = {
            "data": {
                "type": "custom_field_definition",
                "attributes": {
                    "entity_type": "TrackingRequest",
                    "api_slug": "moment",
                    "display_name": "Moment",
                    "data_type": "datetime",
                },
            }
        }
        made = client.post("/v2/custom_field_definitions", json=definition, headers=headers)
        assert made.status_code == 201, made.text
        request = client.post(
            "/v2/tracking_requests",
            json={
                "data": {
                    "type": "tracking_request",
                    "attributes": {
                        "request_type": "bill_of_lading",
                        "request_number": "RANGE0001",
                        "scac": "TEST",
                    },
                }
            },
            headers=headers,
        )
        assert request.status_code == 201, request.text
        fields = f"/v2/tracking_requests/{request.json()['data']['id']}/custom_fields"
        value = {
            "data": {"type": "custom_field", "attributes": {"api_slug": "moment", "value": written}}
        }
        stored = client.post(fields, json=value, headers=headers)
        assert stored.status_code in (200, 201), stored.text
        assert stored.json()["data"]["attributes"]["value"] == written
        listed = client.get(fields, headers=auth(key))
        assert listed.status_code == 200, listed.text
        assert [item["attributes"]["value"] for item in listed.json()["data"]] == [written]
