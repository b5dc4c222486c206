"""Pushed (signed) callbacks: verification, and one event whether it comes by push or poll."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from sealane.feeds.dcsa.push import PushRejected, handle_push, signature_of, verify_signature
from sealane.store.models import CarrierEvent

from .dcsa_fixtures import BL, day, shipment_events
from .dcsa_server import dcsa_server
from .dcsa_world import SECRET, config_for, dcsa_world, secret_b64

BODY = json.dumps(shipment_events()[:3]).encode()


def test_verify_signature__the_exact_body_only() -> None:
    good = signature_of(BODY, SECRET)
    assert good.startswith("sha256=") and verify_signature(BODY, good, SECRET)
    assert verify_signature(BODY, f"  {good.upper().replace('SHA256', 'sha256')} ", SECRET)
    assert not verify_signature(BODY + b" ", good, SECRET)
    assert not verify_signature(BODY, signature_of(BODY, b"other"), SECRET)
    assert not verify_signature(BODY, good.replace("sha256", "sha1"), SECRET)
    assert not verify_signature(BODY, None, SECRET)
    assert not verify_signature(BODY, "sha256=", SECRET)


@pytest.mark.parametrize(
    ("body", "signature", "status"),
    [
        (BODY, "sha256=00", 401),
        (BODY, None, 401),
        (b"[{", signature_of(b"[{", SECRET), 400),
        (b"{}", signature_of(b"{}", SECRET), 400),
    ],
)
def test_handle_push__rejections(
    sessions: sessionmaker[Session], body: bytes, signature: str | None, status: int
) -> None:
    from sealane.clock import ManualClock

    with pytest.raises(PushRejected) as caught:
        handle_push(sessions, config_for("https://x"), body, signature, ManualClock(day(3)))
    assert caught.value.status == status


def test_handle_push__no_secret_configured_is_404(sessions: sessionmaker[Session]) -> None:
    from sealane.clock import ManualClock

    config = config_for("https://x", push_secret=None)
    with pytest.raises(PushRejected) as caught:
        handle_push(sessions, config, BODY, signature_of(BODY, SECRET), ManualClock(day(3)))
    assert caught.value.status == 404


def test_push_twice_and_poll__each_event_once(sessions: sessionmaker[Session]) -> None:
    with dcsa_world(sessions) as world:
        request_id = world.request(BL)
        world.service.tick()
        assert world.tracking_request(request_id).status == "created"
        polled_only = world.events()
        # the server subscribes us, and pushes what becomes visible by day 12
        subscription = world.carrier.client.subscribe(
            "https://sealane.example/cb", secret_b64(), {"transportDocumentReference": BL}
        )
        world.at(day(12))
        fresh = [e for e in world.state.visible({}) if e["eventCreatedDateTime"] > "2026-11-04"]
        body, signature = world.state.signed_push(subscription, fresh)
        first = handle_push(sessions, world.carrier.config, body, signature, world.clock)
        again = handle_push(sessions, world.carrier.config, body, signature, world.clock)
        assert (first.new, first.duplicates, first.skipped) == (len(fresh), 0, 0)
        assert (again.new, again.duplicates) == (0, len(fresh))
        world.service.tick()  # polls the same events too
        world.service.tick()
        events = world.events()
        assert set(events.values()) == {1}
        assert len(events) == len(polled_only) + 8  # the transshipment's four events, two boxes
        with sessions() as session:
            assert session.scalar(select(func.count()).select_from(CarrierEvent)) == len(fresh)


def test_push_mode__syncs_from_pushed_events_without_polling(
    sessions: sessionmaker[Session],
) -> None:
    with dcsa_world(sessions, poll_interval_s=30 * 86400.0) as world:
        request_id = world.request(BL)
        world.service.tick()
        assert world.tracking_request(request_id).status == "created"
        polls = len(world.state.requests)
        world.at(day(12))
        fresh = [e for e in world.state.visible({}) if e["eventCreatedDateTime"] > "2026-11-04"]
        subscription = world.carrier.client.subscribe("https://s.example/cb", secret_b64(), {})
        body, signature = world.state.signed_push(subscription, fresh)
        handle_push(sessions, world.carrier.config, body, signature, world.clock)
        requests_before_sync = len(world.state.requests)
        world.service.tick()
        assert len(world.state.requests) == requests_before_sync  # no poll: the interval holds
        assert requests_before_sync == polls + 1  # only the subscription
        assert world.events()[("MSKU1234565", "transshipment_departed", "SGSIN")] == 1


def test_subscribe__returns_the_subscription_id() -> None:
    from sealane.feeds.dcsa.client import DcsaClient

    with dcsa_server(shipment_events(), day(3)) as (url, state, _stop):
        client = DcsaClient(config_for(url))
        subscription = client.subscribe("https://s.example/cb", secret_b64(), {})
        client.close()
    assert state.subscriptions[subscription]["callbackUrl"] == "https://s.example/cb"


def _push(sessions: sessionmaker[Session], items: object) -> tuple[int, int, int]:
    from sealane.clock import ManualClock

    body = json.dumps(items).encode()
    config = config_for("https://x")
    result = handle_push(sessions, config, body, signature_of(body, SECRET), ManualClock(day(3)))
    return result.new, result.duplicates, result.skipped


@pytest.mark.parametrize(
    "body", [b"[" * 100_000, b"[" * 100_000 + b"]" * 100_000, b"[" + b"[" * 40 + b"]" * 41]
)
def test_handle_push__deep_nesting_is_400_not_a_recursion_error(
    sessions: sessionmaker[Session], body: bytes
) -> None:
    from sealane.clock import ManualClock

    with pytest.raises(PushRejected) as caught:
        handle_push(
            sessions, config_for("https://x"), body, signature_of(body, SECRET), ManualClock(day(3))
        )
    assert caught.value.status == 400


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("eventID", "e" * 101),
        ("eventID", "abc\x00def"),
        (
            "documentReferences",
            [{"documentReferenceType": "BKG", "documentReferenceValue": "x" * 10_000}],
        ),
        (
            "documentReferences",
            [{"documentReferenceType": "TRD", "documentReferenceValue": "A\x00B"}],
        ),
        ("equipmentReference", "M" * 5_000),
    ],
)
def test_handle_push__keys_that_cannot_be_stored_are_skipped(
    sessions: sessionmaker[Session], field: str, value: object
) -> None:
    events = shipment_events()
    good, bad = events[5], dict(events[6])  # two EQUIPMENT events
    bad[field] = value
    assert _push(sessions, [good, bad]) == (1, 0, 1)
    with sessions() as session:
        assert session.scalars(select(CarrierEvent.event_id)).all() == [good["eventID"]]


def test_handle_push__longest_event_id_is_kept(sessions: sessionmaker[Session]) -> None:
    event = dict(shipment_events()[0], eventID="e" * 100)
    assert _push(sessions, [event]) == (1, 0, 0)


def test_handle_push__junk_items_are_logged_in_one_line(
    sessions: sessionmaker[Session], caplog: pytest.LogCaptureFixture
) -> None:
    junk: list[object] = [1, "x", None, {"eventType": "NOPE"}] * 5_000
    with caplog.at_level("WARNING", logger="sealane.feeds"):
        assert _push(sessions, [*junk, shipment_events()[0]]) == (1, 0, 20_000)
    lines = [r.getMessage() for r in caplog.records if r.name == "sealane.feeds"]
    assert len(lines) == 1
    assert "20000 of 20001 events skipped" in lines[0]
    assert "15000 x an event must be an object" in lines[0]


def test_handle_push__nul_in_a_field_only_kept_in_the_payload(
    sessions: sessionmaker[Session],
) -> None:
    """The payload column is JSON text: a NUL outside the keys is kept as its escape."""
    event = dict(shipment_events()[5], ISOEquipmentCode="45\x00G1", remark="x\x00" * 100)
    assert _push(sessions, [event]) == (1, 0, 0)
    with sessions() as session:
        payload = session.scalars(select(CarrierEvent.payload)).one()
    assert payload["ISOEquipmentCode"] == "45\x00G1"
