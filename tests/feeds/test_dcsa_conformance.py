"""Every response the DCSA test server sends conforms to the published T&T 2.2 schemas.

The adapter is driven through a whole voyage and the conformant fault modes (500, 429, an empty
first page, paging of every size); each recorded response body is validated against the
OpenAPI document's own response schema, with EVENT_DOMAIN resolved to 1.0.3 and to 1.1.0.
The deliberately broken fault modes (malformed JSON, an unknown code) are shown to fail the same
validation, so the check is not vacuous.
"""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session, sessionmaker

from sealane.feeds.dcsa.client import DcsaClient
from sealane.store.database import make_engine, session_factory
from sealane.store.migrate import upgrade

from .dcsa_fixtures import BL, BOOKING, CONTAINERS, day, shipment_events, unknown_code_event
from .dcsa_schemas import (
    EVENT_DOMAINS,
    callback_schema,
    errors,
    events_response_schema,
    subscription_schema,
)
from .dcsa_server import Fault, Sent, dcsa_server
from .dcsa_world import config_for, dcsa_world, secret_b64


def drive(sessions: sessionmaker[Session]) -> list[Sent]:
    """A voyage, the conformant faults and a subscription; every response recorded."""
    with dcsa_world(sessions) as world:
        world.state.fail(Fault.SERVER_ERROR, times=1)
        world.state.fail(Fault.RATE_LIMITED, times=1)
        world.state.fail(Fault.EMPTY_PAGE, times=1)
        world.request(BL)
        world.request(BOOKING, "booking_number")
        world.request(CONTAINERS[0], "container")
        world.request("UNKNOWN1", "bill_of_lading")
        for when in (day(3), day(12), day(40)):
            world.at(when)
            world.service.tick()
        world.carrier.client.subscribe("https://sealane.example/callback", secret_b64(), {})
        return list(world.state.sent)


@pytest.fixture(scope="module")
def sent(tmp_path_factory: pytest.TempPathFactory) -> list[Sent]:
    """What the server sent during one drive (on SQLite: the database is not under test)."""
    engine = make_engine(f"sqlite:///{tmp_path_factory.mktemp('conformance') / 'dcsa.db'}")
    upgrade(engine)
    try:
        return drive(session_factory(engine))
    finally:
        engine.dispose()


@pytest.mark.parametrize("event_domain", EVENT_DOMAINS)
def test_every_response__conforms(sent: list[Sent], event_domain: str) -> None:
    statuses = {s.status for s in sent}
    assert {200, 201, 429, 500} <= statuses
    assert any(s.status == 200 and s.body == [] for s in sent)  # the empty page and not-found
    assert sum(len(s.body) for s in sent if s.status == 200 and isinstance(s.body, list)) > 50
    for response in sent:
        assert response.headers["API-Version"] == "2.2.0"
        if response.path.startswith("/v2/events"):
            schema = events_response_schema(response.status)
            if response.status == 200:
                assert "Current-Page" in response.headers
        else:
            schema = subscription_schema()
        problems = errors(schema, response.body, event_domain)
        assert problems == [], (response.path, response.status, problems[:3])


@pytest.mark.parametrize("event_domain", EVENT_DOMAINS)
def test_push_bodies__conform(event_domain: str) -> None:
    assert errors(callback_schema(), shipment_events()[:6], event_domain) == []


@pytest.mark.parametrize("event_domain", EVENT_DOMAINS)
def test_validation__rejects_the_broken_fault_modes(event_domain: str) -> None:
    schema = events_response_schema(200)
    assert errors(schema, [unknown_code_event()], event_domain) != []
    missing_call = {k: v for k, v in shipment_events()[1].items() if k != "transportCall"}
    assert errors(schema, [missing_call], event_domain) != []
    assert errors(schema, {"not": "an array"}, event_domain) != []
    bad_time = {**shipment_events()[1], "eventDateTime": "yesterday"}
    assert errors(schema, [bad_time], event_domain) != []


def test_malformed_json_fault__is_not_json() -> None:
    with dcsa_server(shipment_events(), day(3)) as (url, state, _stop):
        state.fail(Fault.MALFORMED_JSON, times=1)
        client = DcsaClient(config_for(url))
        response = client.http.get(f"{url}/v2/events")
        client.close()
    with pytest.raises(ValueError):
        response.json()
