"""Every failure is a JSON:API error document: unknown routes, methods, and unexpected errors."""

from __future__ import annotations

import logging

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sealane.store.database import transaction
from sealane.store.models import Vessel
from tests.toolkit import Keys, auth

from .jsonapi_asserts import assert_error

SECRET_MESSAGE = "database password is hunter2"


def boom(*args: object, **kwargs: object) -> None:
    raise RuntimeError(SECRET_MESSAGE)


# 404 for routes that do not exist


@pytest.mark.parametrize("path", ["/v2/nope", "/v2/ports/NLRTM/terminals", "/v2/vessels/x/y/z"])
def test_unknown_route__404(shared_client: TestClient, shared_keys: Keys, path: str) -> None:
    error = assert_error(shared_client.get(path, headers=auth(shared_keys.plain)), 404)
    assert path in error["detail"]


def test_unknown_route__404_without_key(shared_client: TestClient) -> None:
    assert_error(shared_client.get("/v2/nope"), 404)


def test_unknown_route__outside_the_api_is_the_web_apps_404_page(
    shared_client: TestClient,
) -> None:
    """Paths outside /v2 belong to the web app (sealane.web): an HTML page, not a document."""
    response = shared_client.get("/nope")
    assert response.status_code == 404
    assert response.headers["content-type"] == "text/html; charset=utf-8"


# 405


@pytest.mark.parametrize("method", ["DELETE", "PUT", "PATCH", "POST"])
def test_method__not_allowed_on_port_405(
    shared_client: TestClient, shared_keys: Keys, method: str
) -> None:
    response = shared_client.request(method, "/v2/ports/NLRTM", headers=auth(shared_keys.plain))
    error = assert_error(response, 405)
    assert error["title"] == "Method Not Allowed"
    assert method in error["detail"]


def test_method__405_lists_allowed_methods(shared_client: TestClient, shared_keys: Keys) -> None:
    response = shared_client.delete("/v2/ports/NLRTM", headers=auth(shared_keys.plain))
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, HEAD, OPTIONS"


@pytest.mark.parametrize(
    ("url", "allow"),
    [
        ("/v2/ports/NLRTM", "GET, HEAD, OPTIONS"),
        ("/v2/containers/x", "GET, HEAD, OPTIONS, PATCH"),
        ("/v2/webhooks/x", "DELETE, GET, HEAD, OPTIONS, PATCH"),
        ("/v2/tracking_requests", "GET, HEAD, OPTIONS, POST"),
    ],
)
def test_options__204_with_every_method_of_the_path(
    shared_client: TestClient, url: str, allow: str
) -> None:
    """Regression: ``Allow`` named only the first route's method when several routes share a
    path (GET and PATCH of a container)."""
    response = shared_client.options(url)
    assert response.status_code == 204
    assert response.headers["allow"] == allow


def test_put_on_a_collection__405_not_415(shared_client: TestClient, shared_keys: Keys) -> None:
    response = shared_client.put(
        "/v2/containers", headers={**auth(shared_keys.plain), "Content-Type": "text/plain"}
    )
    error = assert_error(response, 405)
    assert "PUT" in error["detail"]
    assert response.headers["allow"] == "GET, HEAD, OPTIONS"


def test_method__head_on_port_200(shared_client: TestClient, shared_keys: Keys) -> None:
    response = shared_client.head("/v2/ports/NLRTM", headers=auth(shared_keys.plain))
    assert response.status_code == 200


# 500


def test_unexpected_error__routing_endpoint_500_document(
    shared_client: TestClient,
    shared_keys: Keys,
    ship_id: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr("sealane.service.reference.vessels.future_positions", boom)
    response = shared_client.get(
        f"/v2/vessels/{ship_id}/future_positions_with_coordinates",
        params={"port_id": "NLRTM", "previous_port_id": "CNSHA", "latitude": 1, "longitude": 2},
        headers=auth(shared_keys.routing),
    )
    error = assert_error(response, 500)
    assert error["title"] == "Internal Server Error"
    assert SECRET_MESSAGE not in response.text
    assert "RuntimeError" not in response.text
    assert any(record.exc_info for record in caplog.records if record.name == "sealane.api")


def test_unexpected_error__reference_endpoint_500_document(
    shared_client: TestClient, shared_keys: Keys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sealane.service.reference.lookups.registry", boom)
    response = shared_client.get("/v2/ports", headers=auth(shared_keys.plain))
    assert_error(response, 500)
    assert SECRET_MESSAGE not in response.text


def test_unexpected_error__in_authentication_500_document(
    shared_app: FastAPI,
    shared_client: TestClient,
    shared_keys: Keys,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shared_app.state.sealane.keys.clear()  # so the key is looked up again
    monkeypatch.setattr("sealane.service.access.gatekeeper.account_for_key", boom)
    response = shared_client.get("/v2/ports/NLRTM", headers=auth(shared_keys.plain))
    assert_error(response, 500)
    assert SECRET_MESSAGE not in response.text


def test_unexpected_error__next_request_is_served(
    shared_client: TestClient, shared_keys: Keys, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patch:
        patch.setattr("sealane.service.reference.lookups.registry", boom)
        assert shared_client.get("/v2/ports", headers=auth(shared_keys.plain)).status_code == 500
    assert shared_client.get("/v2/ports", headers=auth(shared_keys.plain)).status_code == 200


@pytest.fixture(scope="module")
def ship_id(shared_app: FastAPI) -> str:
    """The id of a vessel in the module's shared app."""
    with transaction(shared_app.state.sealane.sessions) as session:
        ship = Vessel(name="Errant", imo="9400009")
        session.add(ship)
        session.flush()
        return ship.id


@pytest.fixture(autouse=True)
def _quiet_logs(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="sealane.api")
