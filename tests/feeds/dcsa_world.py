"""A tracking service wired to a DcsaCarrier that talks to the DCSA test server."""

from __future__ import annotations

import base64
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from sealane.clock import ManualClock
from sealane.config.dcsa_carriers import CarrierConfig
from sealane.feeds.dcsa.carrier import DcsaCarrier
from sealane.feeds.dcsa.client import DcsaClient
from sealane.store.database import transaction
from sealane.store.models import (
    Container,
    EstimatedEvent,
    OutboxEvent,
    ShippingLine,
    TrackingRequest,
    TransportEvent,
)
from sealane.tracking.carrier_sync import TrackingService
from tests.toolkit import Scenario

from .dcsa_fixtures import day, shipment_events
from .dcsa_server import DcsaState, dcsa_server

SCAC = "DCSX"
ACCOUNT = "DCSA Co"
SECRET = b"a shared secret of the push subscription"
#: When the worlds start: the vessel has left Shanghai.
START = day(3)


@dataclass
class World:
    """The server's state, the clock both share, the carrier and the service."""

    state: DcsaState
    clock: ManualClock
    carrier: DcsaCarrier
    service: TrackingService
    sessions: sessionmaker[Session]
    account_id: str
    scenario: Scenario
    slept: list[float] = field(default_factory=list)

    def at(self, when: datetime) -> None:
        """Move the clock (and the server's) to ``when``."""
        self.clock.advance((when - self.clock.now()).total_seconds())
        self.state.now = when

    def request(self, number: str, request_type: str = "bill_of_lading") -> str:
        return self.scenario.track(ACCOUNT, number, request_type=request_type, scac=SCAC)

    def tracking_request(self, request_id: str) -> TrackingRequest:
        with self.sessions() as session:
            found = session.get(TrackingRequest, request_id)
            assert found is not None
            return found

    def events(self) -> Counter[tuple[str, str, str | None]]:
        """Transport events by (container, event, place)."""
        with self.sessions() as session:
            numbers = {c.id: c.number for c in session.scalars(select(Container))}
            return Counter(
                (
                    numbers[e.container_id],
                    e.event.removeprefix("container.transport."),
                    e.location_locode,
                )
                for e in session.scalars(select(TransportEvent))
            )

    def statuses(self) -> dict[str, str]:
        with self.sessions() as session:
            return {c.number: c.current_status for c in session.scalars(select(Container))}

    def estimates(self) -> list[datetime]:
        with self.sessions() as session:
            rows = session.scalars(select(EstimatedEvent).order_by(EstimatedEvent.created_at))
            return [e.estimated_timestamp for e in rows]

    def outbox(self) -> Counter[str]:
        with self.sessions() as session:
            return Counter(o.event for o in session.scalars(select(OutboxEvent)))

    def settle(self, request_id: str, attempts: int = 10) -> TrackingRequest:
        """Tick, jumping to each retry, until the request is not due any more."""
        for _ in range(attempts):
            self.service.tick()
            row = self.tracking_request(request_id)
            if row.next_attempt_at is None or row.status not in ("pending", "awaiting_manifest"):
                return row
            self.at(max(row.next_attempt_at, self.clock.now()) + timedelta(seconds=1))
        raise AssertionError("still retrying")


def config_for(url: str, **changes: object) -> CarrierConfig:
    base = CarrierConfig(
        name="dcsa-test",
        base_url=url,
        scacs=(SCAC,),
        page_limit=5,
        timeout_s=0.3,
        retries=2,
        backoff_s=0.01,
        requests_per_second=0.0,
        push_secret=SECRET,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def secret_b64() -> str:
    return base64.b64encode(SECRET).decode()


@contextmanager
def dcsa_world(
    sessions: sessionmaker[Session], now: datetime = START, **changes: object
) -> Iterator[World]:
    """The server with the fixture, and a service whose carrier ``DCSX`` is the adapter."""
    with dcsa_server(shipment_events(), now) as (url, state, _stop):
        clock = ManualClock(now)
        slept: list[float] = []
        config = config_for(url, **changes)
        client = DcsaClient(config, clock=clock, sleep=slept.append)
        carrier = DcsaCarrier(config, client=client, sessions=sessions, clock=clock)
        service = TrackingService(sessions, clock, {SCAC: carrier})
        with transaction(sessions) as session:
            session.add(ShippingLine(id=SCAC, scac=SCAC, name="DCSA Test", short_name="DCSA"))
        scenario = Scenario(sessions, clock, tracking=service)
        account_id = scenario.account(ACCOUNT, routing=True).account_id
        try:
            yield World(state, clock, carrier, service, sessions, account_id, scenario, slept)
        finally:
            client.close()
