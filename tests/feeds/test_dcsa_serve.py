"""End to end: a real ``sealane serve`` with a carrier configured by ``SEALANE_DCSA_CARRIERS``,
the DCSA test server on 127.0.0.1, a tracking request over HTTP, polls and a signed push."""

from __future__ import annotations

import base64
import json
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

from sealane.config import Settings
from sealane.feeds.dcsa.push import signature_of
from sealane.runtime import build_runtime
from sealane.service.access.accounts import create_account
from tests.servers import serving
from tests.store.conftest import database_url, fresh_postgres_url, postgres_database_url

from .dcsa_fixtures import BL, CONTAINERS, day, shipment_events
from .dcsa_server import dcsa_server
from .dcsa_world import SCAC, SECRET

__all__ = ["database_url", "fresh_postgres_url", "postgres_database_url"]


def call(
    method: str, url: str, key: str | None, body: bytes | None = None, **headers: str
) -> tuple[int, Any]:
    """Status and decoded JSON body (None when empty) of one request."""
    sent = dict(headers)
    if key is not None:
        sent["Authorization"] = f"Token {key}"
    request = urllib.request.Request(url, data=body, method=method, headers=sent)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    return status, json.loads(raw) if raw else None


def transport_events(base: str, key: str) -> Counter[tuple[str, str, str]]:
    found: Counter[tuple[str, str, str]] = Counter()
    _status, containers = call("GET", f"{base}/containers", key)
    for container in containers["data"]:
        url = f"{base}/containers/{container['id']}/transport_events?page%5Bsize%5D=100"
        _status, events = call("GET", url, key)
        for event in events["data"]:
            attributes = event["attributes"]
            name = attributes["event"].removeprefix("container.transport.")
            found[(container["attributes"]["number"], name, attributes["location_locode"])] += 1
    return found


def account_key(database_url: str) -> str:
    """A key of a new account in the (migrated) database the server will use."""
    runtime = build_runtime(Settings(database_url=database_url))
    try:
        return create_account(runtime.context, "Importer", routing=False).secret
    finally:
        runtime.engine.dispose()


def wait_for(check: Any, timeout_s: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout_s
    while True:
        found = check()
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.3)


def test_serve__dcsa_carrier_from_the_environment_polled_and_pushed(
    database_url: str, tmp_path: Path
) -> None:
    key = account_key(database_url)
    with dcsa_server(shipment_events(), day(12)) as (url, state, _stop):
        carriers = [
            {
                "name": "dcsa-test",
                "base_url": url,
                "scacs": [SCAC],
                "timeout_s": 2,
                "requests_per_second": 0,
                "push_secret_env": "DCSA_PUSH_SECRET",
            }
        ]
        env = {
            "SEALANE_DCSA_CARRIERS": json.dumps(carriers),
            "DCSA_PUSH_SECRET": base64.b64encode(SECRET).decode(),
        }
        arguments = ("--poll-interval", "0.3")
        with serving(database_url, tmp_path / "serve.log", env=env, arguments=arguments) as base:
            attributes = {"request_type": "bill_of_lading", "request_number": BL, "scac": SCAC}
            document = json.dumps({"data": {"type": "tracking_request", "attributes": attributes}})
            status, created = call(
                "POST",
                f"{base}/tracking_requests",
                key,
                document.encode(),
                **{"Content-Type": "application/vnd.api+json"},
            )
            assert status == 201, created
            request_url = f"{base}/tracking_requests/{created['data']['id']}"

            def is_created() -> bool:
                return call("GET", request_url, key)[1]["data"]["attributes"]["status"] == "created"

            assert wait_for(is_created), (tmp_path / "serve.log").read_text()[-3000:]
            assert any(path.startswith("/v2/events") for path, _ in state.requests)
            events = wait_for(lambda: transport_events(base, key))
            assert events[(CONTAINERS[0], "transshipment_departed", "SGSIN")] == 1
            # the carrier pushes what it already served: kept, and still once each
            body = json.dumps(state.visible({})).encode()
            headers = {
                "Content-Type": "application/json",
                "Notification-Signature": signature_of(body, SECRET),
            }
            assert call("POST", f"{base}/dcsa/dcsa-test/events", None, body, **headers)[0] == 204
            bad = {**headers, "Notification-Signature": signature_of(body, b"x")}
            assert call("POST", f"{base}/dcsa/dcsa-test/events", None, body, **bad)[0] == 401
            polls = len(state.requests)
            assert wait_for(lambda: len(state.requests) > polls + 2)  # synced again since
            after = transport_events(base, key)
    assert after == events
    assert set(after.values()) == {1}
