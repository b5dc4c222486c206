"""Hostile and careless input on both databases: a clear error document, never a 500.

Regressions from probing the running service: NUL characters in filters, ids and bodies gave
500 on PostgreSQL (it refuses NUL in text); a lone surrogate in a body gave 500 on both
databases; bodies of any size were parsed whole and unknown attributes silently dropped; a JSON
body that could not be decoded had the title "Error" and no code; 404 details echoed the whole
requested id.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sealane.store.accounts import create_account
from sealane.store.database import transaction
from tests.store.conftest import BACKENDS, schema_url
from tests.toolkit import START, auth, make_app

from .jsonapi_asserts import JSONAPI, assert_error

NUL = "\x00"
LIMIT = 64 * 1024


@dataclass(frozen=True)
class Hostile:
    client: TestClient
    key: str


@pytest.fixture(scope="module", params=BACKENDS)
def hostile(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Hostile]:
    """An app on SQLite or PostgreSQL with a small body limit, and one account."""
    if request.param == "sqlite":
        yield from _hostile(f"sqlite:///{tmp_path_factory.mktemp('hostile') / 'sealane.db'}")
        return
    server = request.getfixturevalue("postgres_url")
    with schema_url(server, request.getfixturevalue("postgres_admin")) as url:
        yield from _hostile(url)


def _hostile(database_url: str) -> Iterator[Hostile]:
    app = make_app(database_url, rate_limit_per_minute=100_000, max_body_bytes=LIMIT)
    with transaction(app.state.sealane.sessions) as session:
        key = create_account(session, "Hostile Co", routing=True, now=START).secret
    with TestClient(app, raise_server_exceptions=False) as client:
        yield Hostile(client, key)
    app.state.sealane.engine.dispose()


def post(hostile: Hostile, url: str, body: Any) -> Any:
    """POST ``body`` as JSON text (lone surrogates escaped, as JSON allows)."""
    return hostile.client.post(
        url,
        content=json.dumps(body).encode(),
        headers={**auth(hostile.key), "Content-Type": JSONAPI},
    )


def tracking_document(**attributes: Any) -> dict[str, Any]:
    base = {"request_type": "bill_of_lading", "request_number": "BL-HOSTILE", "scac": "TEST"}
    return {"data": {"type": "tracking_request", "attributes": {**base, **attributes}}}


# -- NUL characters -------------------------------------------------------------------------------

FILTERS = [
    ("/v2/shipments", "filter[number]"),
    ("/v2/shipments", "filter[pod_locode]"),
    ("/v2/shipments", "filter[shipping_line_scac]"),
    ("/v2/containers", "filter[number]"),
    ("/v2/tracking_requests", "filter[request_number]"),
    ("/v2/tracking_requests", "filter[scac]"),
    ("/v2/webhook_notifications", "filter[event]"),
    ("/v2/webhook_notifications", "filter[webhook]"),
    ("/v2/vessels", "filter[name]"),
    ("/v2/vessels", "filter[imo]"),
    ("/v2/terminals", "filter[port]"),
    ("/v2/shipping_lines", "filter[search]"),
    ("/v2/ports", "filter[search]"),
]


@pytest.mark.parametrize(("url", "name"), FILTERS)
def test_filter__nul_400(hostile: Hostile, url: str, name: str) -> None:
    response = hostile.client.get(url, params={name: f"A{NUL}B"}, headers=auth(hostile.key))
    assert_error(response, 400, parameter=name)


PATHS = [
    "/v2/shipments/{}",
    "/v2/containers/{}",
    "/v2/containers/{}/transport_events",
    "/v2/tracking_requests/{}",
    "/v2/webhooks/{}",
    "/v2/webhook_notifications/{}",
    "/v2/vessels/{}",
    "/v2/terminals/{}",
    "/v2/shipping_lines/{}",
    "/v2/ports/{}",
]


@pytest.mark.parametrize("template", PATHS)
def test_path_id__nul_404(hostile: Hostile, template: str) -> None:
    response = hostile.client.get(template.format("ab%00cd"), headers=auth(hostile.key))
    assert_error(response, 404, code="not_found")


@pytest.mark.parametrize("template", PATHS)
def test_path_id__20_kb_404_not_echoed_whole(hostile: Hostile, template: str) -> None:
    response = hostile.client.get(template.format("x" * 20_000), headers=auth(hostile.key))
    error = assert_error(response, 404)
    assert len(error["detail"]) < 400


@pytest.mark.parametrize(
    ("attribute", "value"),
    [
        ("request_number", f"BL{NUL}1"),
        ("scac", f"TE{NUL}T"),
        ("ref_numbers", [f"PO{NUL}1"]),
        ("tags", [f"t{NUL}"]),
        ("request_number", "AB\ud800CD"),
        ("scac", "T\udc00ST"),
        ("ref_numbers", ["PO-\ud83d"]),
        ("tags", ["\udfff"]),
    ],
)
def test_create_request__nul_or_lone_surrogate_422(
    hostile: Hostile, attribute: str, value: Any
) -> None:
    response = post(hostile, "/v2/tracking_requests", tracking_document(**{attribute: value}))
    error = assert_error(response, 422)
    assert error["source"] == {"pointer": f"/data/attributes/{attribute}"}


@pytest.mark.parametrize("url", [f"https://93.184.215.14/{NUL}", "https://93.184.215.14/\ud800"])
def test_create_webhook__nul_or_surrogate_url_422(hostile: Hostile, url: str) -> None:
    document = {
        "data": {"type": "webhook", "attributes": {"url": url, "events": ["container.created"]}}
    }
    error = assert_error(post(hostile, "/v2/webhooks", document), 422, code="unsafe_url")
    assert error["source"] == {"pointer": "/data/attributes/url"}


def test_create_webhook__surrogate_event_422(hostile: Hostile) -> None:
    document = {
        "data": {
            "type": "webhook",
            "attributes": {"url": "https://93.184.215.14/", "events": ["container.\ud800"]},
        }
    }
    assert_error(post(hostile, "/v2/webhooks", document), 422, code="unknown_event")


def test_nothing_stored_after_the_bad_bodies(hostile: Hostile) -> None:
    body = hostile.client.get("/v2/tracking_requests", headers=auth(hostile.key)).json()
    assert all(r["attributes"]["request_number"] == "BL-HOSTILE-OK" for r in body["data"])


# -- sizes, unknown attributes, undecodable bodies -----------------------------------------------


def test_body__over_the_limit_413(hostile: Hostile) -> None:
    document = tracking_document(note="x" * (LIMIT + 1))
    assert_error(post(hostile, "/v2/tracking_requests", document), 413, code="payload_too_large")


def test_body__over_the_limit_without_content_length_413(hostile: Hostile) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"data": {"type": "tracking_request", "attributes": {"note": "'
        for _ in range(LIMIT // 1024 + 1):
            yield b"x" * 1024
        yield b'"}}}'

    response = hostile.client.post(
        "/v2/tracking_requests",
        content=chunks(),
        headers={**auth(hostile.key), "Content-Type": JSONAPI},
    )
    assert_error(response, 413, code="payload_too_large")


def test_body__unknown_attribute_422_with_pointer(hostile: Hostile) -> None:
    response = post(hostile, "/v2/tracking_requests", tracking_document(colour="blue"))
    error = assert_error(response, 422, code="unknown_attribute")
    assert error["source"] == {"pointer": "/data/attributes/colour"}


def test_body__not_json_400_with_code(hostile: Hostile) -> None:
    response = hostile.client.post(
        "/v2/tracking_requests",
        content=b'{"data": ',
        headers={**auth(hostile.key), "Content-Type": JSONAPI},
    )
    error = assert_error(response, 400, code="invalid_json")
    assert error["title"] == "Bad Request"


def test_body__not_utf8_400_with_code(hostile: Hostile) -> None:
    response = hostile.client.post(
        "/v2/tracking_requests",
        content=b'{"data": "\xff\xfe"}',
        headers={**auth(hostile.key), "Content-Type": JSONAPI},
    )
    error = assert_error(response, 400)
    assert error["title"] == "Bad Request"
    assert error.get("code")


def test_valid_request_after_all_that_201(hostile: Hostile) -> None:
    response = post(
        hostile, "/v2/tracking_requests", tracking_document(request_number="BL-HOSTILE-OK")
    )
    assert response.status_code == 201, response.text
