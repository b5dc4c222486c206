"""The tests' one toolkit: factories for the app, accounts and vessels, the scenario builder the
test worlds make their data with, and the words every test package uses (the start time, the
media type, the key header). ``tests/conftest.py`` builds the shared fixtures (``app``,
``client``, ``keys``, ``vessel``, ...) from these, so a test says only what is special to it:
``make_app(tmp_path, rate_limit_per_minute=5)``, ``Scenario.on(app).account("Kept Co")``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from sealane.api.app import create_app
from sealane.clock import Clock, ManualClock
from sealane.config import Settings
from sealane.runtime import Runtime
from sealane.service.access.gatekeeper import Caller
from sealane.service.core.context import ServiceContext
from sealane.service.tracking.requests import NewTrackingRequest, create_request
from sealane.store.accounts import NewKey, create_account
from sealane.store.database import transaction
from sealane.store.models import Vessel
from sealane.tracking.carrier_sync import TrackingService
from sealane.webhooks.delivery import DeliveryWorker
from tests.templates import prepared_sqlite

#: The time every test's clock starts at.
START = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
JSONAPI = "application/vnd.api+json"
DAY_S = 86_400.0
#: The vessel :func:`make_vessel` and :meth:`Scenario.vessel` make unless told otherwise: in the
#: Arabian Sea, bound from Shanghai to Rotterdam, last seen at :data:`START`.
VESSEL: dict[str, Any] = {
    "name": "Test Mariner",
    "imo": "9400001",
    "mmsi": "211000001",
    "latitude": 12.3,
    "longitude": 60.1,
    "nautical_speed_knots": 18.0,
    "navigational_heading_degrees": 250.0,
    "position_timestamp": START,
}


@dataclass(frozen=True)
class Keys:
    """API keys of the two test accounts."""

    routing: str
    plain: str


def auth(key: str) -> dict[str, str]:
    """Headers authenticating with ``key``."""
    return {"Authorization": f"Token {key}"}


def make_settings(database: Path | str, **overrides: Any) -> Settings:
    """Test settings: a new SQLite file at ``database`` (a copy of a prepared one:
    ``tests.templates``) or a database URL, a generous rate limit, the test client's base URL;
    ``overrides`` set any other field."""
    url = prepared_sqlite(database) if isinstance(database, Path) else database
    base = Settings(database_url=url, rate_limit_per_minute=10_000, base_url="http://testserver/v2")
    return replace(base, **overrides)


def make_app(
    database: Path | str | Settings, *, clock: ManualClock | None = None, **overrides: Any
) -> FastAPI:
    """The real app on ``database`` (a path for a new SQLite file, a URL, or whole settings),
    with a manual clock at :data:`START` unless one is given."""
    settings = database if isinstance(database, Settings) else make_settings(database)
    return create_app(replace(settings, **overrides), clock=clock or ManualClock(START))


def make_account(
    app: FastAPI, name: str = "Routing Co", *, routing: bool = True, ingest: bool = False
) -> str:
    """A new account in ``app``'s database; its API key."""
    return Scenario.on(app).account(name, routing=routing, ingest=ingest, at=START).secret


def make_keys(app: FastAPI, prefix: str = "") -> Keys:
    """Keys of a routing account and a plain one (``prefix`` starts their names)."""
    return Keys(
        routing=make_account(app, f"{prefix}Routing Co", routing=True),
        plain=make_account(app, f"{prefix}Plain Co", routing=False),
    )


def make_vessel(app: FastAPI, **fields: Any) -> Vessel:
    """A vessel in ``app``'s database: :data:`VESSEL`, ``fields`` setting any column."""
    return Scenario.on(app).vessel(**fields)


@dataclass
class Scenario:
    """The data a test world is made of, on one running service: accounts, vessels, tracked
    numbers, the API's resources, and time moving on with tracking (and webhook delivery)
    following it. Every world module states its scenario through it rather than writing the
    steps out again.

    Requests to track are made as a client would, through the API, when a ``client`` is given
    (:meth:`with_client`), else through the application layer; either way the simulated carrier
    answers when tracking next runs (:meth:`tick`).
    """

    sessions: sessionmaker[Session]
    clock: Clock
    tracking: TrackingService | None = None
    webhooks: DeliveryWorker | None = None
    context: ServiceContext | None = None
    client: TestClient | None = None
    #: The accounts made, by name.
    accounts: dict[str, NewKey] = field(default_factory=dict)
    #: Whether each account made has the routing feature, by name.
    routing: dict[str, bool] = field(default_factory=dict)

    @classmethod
    def on(cls, service: FastAPI | Runtime) -> Scenario:
        """The scenario of an app, or of a runtime (time moves on only on a
        :class:`ManualClock`)."""
        runtime: Runtime = service.state.sealane if isinstance(service, FastAPI) else service
        context = runtime.context
        return cls(runtime.sessions, context.clock, runtime.tracking, runtime.webhooks, context)

    def with_client(self, client: TestClient) -> Scenario:
        """This scenario, making its requests through the API with ``client``."""
        self.client = client
        return self

    # -- what the scenario holds -----------------------------------------------------------

    def account(
        self,
        name: str,
        *,
        routing: bool = True,
        ingest: bool = False,
        at: datetime | None = None,
    ) -> NewKey:
        """A new account named ``name`` (created at ``at``, by default now) and its key."""
        with transaction(self.sessions) as session:
            made = create_account(
                session, name, routing=routing, ingest=ingest, now=at or self.clock.now()
            )
        self.accounts[name], self.routing[name] = made, routing
        return made

    def known(self, name: str, key: NewKey, *, routing: bool) -> Scenario:
        """This scenario, knowing an account made elsewhere (the demo's, say) as ``name``."""
        self.accounts[name], self.routing[name] = key, routing
        return self

    def key(self, name: str) -> str:
        """The API key of the account named ``name``."""
        return self.accounts[name].secret

    def caller(self, name: str) -> Caller:
        """The account named ``name`` as the application layer's caller."""
        return Caller(self.accounts[name].account_id, routing_enabled=self.routing[name])

    def vessel(self, **fields: Any) -> Vessel:
        """A vessel: :data:`VESSEL`, ``fields`` setting any column."""
        with transaction(self.sessions) as session:
            ship = Vessel(**(VESSEL | fields))
            session.add(ship)
        return ship

    def track(
        self,
        account: str,
        number: str,
        *,
        request_type: str = "bill_of_lading",
        scac: str = "TEST",
        customer: str | None = None,
        **attributes: Any,
    ) -> str:
        """The account named ``account`` asks to track ``number`` (for the party ``customer``:
        through the API only); the request's id."""
        wanted = {"request_type": request_type, "request_number": number, "scac": scac}
        if self.client is not None:
            party = {"customer": {"type": "party", "id": customer}} if customer else {}
            made = self.post(
                account, "/tracking_requests", "tracking_request", wanted | attributes, **party
            )
            return str(made["id"])
        assert customer is None, "a customer is named through the API"
        context = self.context or ServiceContext(
            Settings(), self.sessions.kw["bind"], self.sessions, self.clock
        )
        new = NewTrackingRequest.of(wanted | attributes)
        return create_request(context, self.caller(account), new).id

    def post(
        self,
        account: str,
        path: str,
        type_: str,
        attributes: dict[str, Any],
        **relationships: dict[str, str],
    ) -> dict[str, Any]:
        """A JSON:API write through the API as the account named ``account`` (``path`` under
        /v2; ``relationships`` by name, each ``{"type": ..., "id": ...}``) that must make a
        resource; its ``data``."""
        assert self.client is not None, "the API's resources are made through a client"
        data: dict[str, Any] = {"type": type_, "attributes": attributes}
        if relationships:
            data["relationships"] = {name: {"data": value} for name, value in relationships.items()}
        headers = {**auth(self.key(account)), "Content-Type": JSONAPI}
        response = self.client.post(f"/v2{path}", json={"data": data}, headers=headers)
        assert response.status_code == 201, response.text[:800]
        made: dict[str, Any] = response.json()["data"]
        return made

    # -- time ------------------------------------------------------------------------------

    def tick(self, days: float = 0.0) -> None:
        """Move time on by ``days`` (a :class:`ManualClock`'s), then let tracking do one pass."""
        if days:
            assert isinstance(self.clock, ManualClock), "time moves on a ManualClock only"
            self.clock.advance(days * DAY_S)
        assert self.tracking is not None, "this scenario has no tracking service"
        self.tracking.tick()

    def sail(self, days: float, *, every: float = 1.0) -> None:
        """``days`` of voyage: a tracking pass every ``every`` days."""
        for _ in range(round(days / every)):
            self.tick(every)

    def deliver(self) -> int:
        """One pass of webhook delivery; the attempts it made."""
        assert self.webhooks is not None, "this scenario has no webhook delivery"
        return self.webhooks.run_once()
