"""Authentication (``Authorization: Token <key>``) and the routing feature gate.

Each security test changes one thing about an otherwise valid request and names the status
it expects.
"""

from __future__ import annotations

from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import update

from sealane.store.accounts import hash_key
from sealane.store.database import transaction
from sealane.store.models import ApiKey, Vessel
from tests.toolkit import START, Keys, auth

from .jsonapi_asserts import JSONAPI, assert_error

URL = "/v2/ports/NLRTM"
ROUTING_DISABLED = {
    "errors": [
        {
            "status": "403",
            "title": "Forbidden",
            "detail": "Routing data feature is not enabled for this account",
            "code": "routing_disabled",
        }
    ]
}


def assert_unauthorized(response: httpx.Response) -> None:
    error = assert_error(response, 401, code="unauthorized")
    assert "source" not in error
    assert response.headers["www-authenticate"] == "Token"


def test_authenticate__valid_key_200(client: TestClient, keys: Keys) -> None:
    response = client.get(URL, headers=auth(keys.plain))
    assert response.status_code == 200
    assert response.headers["content-type"] == JSONAPI
    assert response.json()["data"]["attributes"]["code"] == "NLRTM"


def test_authenticate__lowercase_scheme_200(client: TestClient, keys: Keys) -> None:
    response = client.get(URL, headers={"Authorization": f"token {keys.plain}"})
    assert response.status_code == 200


def test_authenticate__no_header_401(client: TestClient, keys: Keys) -> None:
    assert_unauthorized(client.get(URL))


def test_authenticate__bearer_scheme_401(client: TestClient, keys: Keys) -> None:
    assert_unauthorized(client.get(URL, headers={"Authorization": f"Bearer {keys.plain}"}))


def test_authenticate__token_scheme_with_empty_key_401(client: TestClient, keys: Keys) -> None:
    assert_unauthorized(client.get(URL, headers={"Authorization": "Token "}))


def test_authenticate__bare_key_without_scheme_401(client: TestClient, keys: Keys) -> None:
    assert_unauthorized(client.get(URL, headers={"Authorization": keys.plain}))


def test_authenticate__unknown_key_401(client: TestClient, keys: Keys) -> None:
    assert_unauthorized(client.get(URL, headers=auth("sl_" + "x" * 43)))


def test_authenticate__key_with_one_character_changed_401(client: TestClient, keys: Keys) -> None:
    changed = keys.plain[:-1] + ("A" if keys.plain[-1] != "A" else "B")
    assert_unauthorized(client.get(URL, headers=auth(changed)))


def test_authenticate__revoked_key_401(client: TestClient, app: FastAPI, keys: Keys) -> None:
    with transaction(app.state.sealane.sessions) as session:
        session.execute(
            update(ApiKey)
            .where(ApiKey.key_hash == hash_key(keys.plain))
            .values(revoked_at=START + timedelta(minutes=1))
        )
    assert_unauthorized(client.get(URL, headers=auth(keys.plain)))


def test_authenticate__revoking_one_key_leaves_the_other_account_200(
    client: TestClient, app: FastAPI, keys: Keys
) -> None:
    with transaction(app.state.sealane.sessions) as session:
        session.execute(
            update(ApiKey).where(ApiKey.key_hash == hash_key(keys.plain)).values(revoked_at=START)
        )
    assert client.get(URL, headers=auth(keys.routing)).status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "future_positions_with_coordinates?port_id=NLRTM&previous_port_id=CNSHA"
        "&latitude=12.3&longitude=60.1",
        "future_positions?port_id=NLRTM&previous_port_id=CNSHA",
    ],
    ids=["with_coordinates", "from_last_position"],
)
def test_require_routing__plain_account_403_exact_document(
    client: TestClient, keys: Keys, vessel: Vessel, path: str
) -> None:
    response = client.get(f"/v2/vessels/{vessel.id}/{path}", headers=auth(keys.plain))
    assert response.status_code == 403
    assert response.headers["content-type"] == JSONAPI
    assert response.json() == ROUTING_DISABLED


def test_require_routing__checked_before_parameters_403(
    client: TestClient, keys: Keys, vessel: Vessel
) -> None:
    response = client.get(f"/v2/vessels/{vessel.id}/future_positions", headers=auth(keys.plain))
    assert response.status_code == 403
    assert response.json() == ROUTING_DISABLED


def test_require_routing__plain_account_reads_vessel_200(
    client: TestClient, keys: Keys, vessel: Vessel
) -> None:
    response = client.get(f"/v2/vessels/{vessel.id}", headers=auth(keys.plain))
    assert response.status_code == 200


def test_require_routing__no_key_is_401_not_403(client: TestClient, vessel: Vessel) -> None:
    response = client.get(
        f"/v2/vessels/{vessel.id}/future_positions?port_id=NLRTM&previous_port_id=CNSHA"
    )
    assert_unauthorized(response)
