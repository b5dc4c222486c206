"""``GET /v2/account``: the caller's account states its features, over HTTP on the real app."""

from __future__ import annotations

from typing import Any

import jsonschema
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sealane.service.access.accounts import set_feature
from tests.toolkit import JSONAPI, Keys, auth

from .jsonapi_asserts import assert_error


def account_of(client: TestClient, key: str) -> dict[str, Any]:
    response = client.get("/v2/account", headers=auth(key))
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith(JSONAPI)
    document: dict[str, Any] = response.json()
    return document


def test_account__states_each_feature(client: TestClient, keys: Keys) -> None:
    routing, plain = account_of(client, keys.routing), account_of(client, keys.plain)
    assert routing["data"]["type"] == "account"
    assert routing["data"]["attributes"]["name"] == "Routing Co"
    assert routing["data"]["attributes"]["features"] == {"routing": True, "ingest": False}
    assert plain["data"]["attributes"]["features"] == {"routing": False, "ingest": False}
    assert routing["data"]["id"] != plain["data"]["id"]
    assert routing["links"]["self"] == "http://testserver/v2/account"


def test_account__a_switched_feature_shows_at_once(
    app: FastAPI, client: TestClient, keys: Keys
) -> None:
    before = account_of(client, keys.plain)["data"]
    set_feature(app.state.sealane.context, before["id"], "ingest", enabled=True)
    after = account_of(client, keys.plain)["data"]["attributes"]["features"]
    assert after == {"routing": False, "ingest": True}


def test_account__without_a_key_401(client: TestClient) -> None:
    response = client.get("/v2/account")
    assert_error(response, 401)


def test_account__answer_matches_the_openapi_document(client: TestClient, keys: Keys) -> None:
    document = client.get("/v2/openapi.json").json()
    operation = document["paths"]["/v2/account"]["get"]
    schema = operation["responses"]["200"]["content"][JSONAPI]["schema"]
    features = schema["properties"]["data"]["properties"]["attributes"]["properties"]["features"]
    assert set(features["required"]) == {"routing", "ingest"}
    jsonschema.validate(account_of(client, keys.routing), schema)
    jsonschema.validate(account_of(client, keys.plain), schema)
