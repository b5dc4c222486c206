"""The ends of the tracking requests' time filters on both databases (issue 30, item 4).

SQLite keeps a time as text and PostgreSQL as ``timestamptz``; a request made a quarter of a
second into a second must be found by a filter that ends (or starts) at the second the API
shows for it, whatever offset that second is written with."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

import pytest
from fastapi.testclient import TestClient

from sealane.clock import ManualClock
from tests.store.conftest import BACKENDS, schema_url
from tests.toolkit import START, Scenario, auth, make_app

from .test_conformance import conformance_problems
from .world import WRITE, document

MADE_AT = START + timedelta(seconds=0.25)


@dataclass
class Made:
    client: TestClient
    key: str
    id: str
    #: The second the API shows the request was made at.
    shown: datetime


@pytest.fixture(scope="module", params=BACKENDS)
def made(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Made]:
    if request.param == "sqlite":
        with _made(f"sqlite:///{tmp_path_factory.mktemp('filters') / 'sealane.db'}") as found:
            yield found
        return
    server = request.getfixturevalue("postgres_url")
    admin = request.getfixturevalue("postgres_admin")
    with schema_url(server, admin) as url, _made(url) as found:
        yield found


@contextmanager
def _made(url: str) -> Iterator[Made]:
    """An app on ``url`` with one tracking request made at :data:`MADE_AT`."""
    app = make_app(url, clock=ManualClock(MADE_AT), rate_limit_per_minute=100_000)
    key = Scenario.on(app).account("Filters Co", routing=False, at=START).secret
    attributes = {"request_type": "bill_of_lading", "request_number": "BL-1", "scac": "TEST"}
    headers = {**auth(key), "Content-Type": WRITE}
    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.post(
            "/v2/tracking_requests", json=document("tracking_request", attributes), headers=headers
        )
        data = answer.json()["data"]
        shown = datetime.fromisoformat(data["attributes"]["created_at"])
        yield Made(client, key, data["id"], shown)
    app.state.sealane.webhooks.close()
    app.state.sealane.engine.dispose()


SECOND = timedelta(seconds=1)


@pytest.mark.parametrize("field", ["created_at", "updated_at"])
@pytest.mark.parametrize("offset", [timedelta(0), timedelta(hours=-7)], ids=["Z", "-07:00"])
@pytest.mark.parametrize(
    ("end", "shift", "listed"),
    [
        ("end", timedelta(0), True),
        ("end", -SECOND, False),
        ("start", timedelta(0), True),
        ("start", SECOND, False),
    ],
    ids=["end-at", "end-before", "start-at", "start-after"],
)
def test_time_filter__at_the_second_shown(
    made: Made, field: str, offset: timedelta, end: str, shift: timedelta, listed: bool
) -> None:
    assert made.shown == MADE_AT.replace(microsecond=0)
    bound = (made.shown + shift).astimezone(timezone(offset)).isoformat().replace("+00:00", "Z")
    response = made.client.get(
        "/v2/tracking_requests", params={f"filter[{field}][{end}]": bound}, headers=auth(made.key)
    )
    assert response.status_code == 200, response.text[:300]
    assert conformance_problems("GET", "/tracking_requests", response) == []
    assert [r["id"] for r in response.json()["data"]] == ([made.id] if listed else [])
