"""A running service, wired from its settings: database, key checks, tracking, carriers (the
simulation and the configured DCSA carriers), webhook delivery and the notification renderer.

The composition root: every shell builds one :class:`Runtime` (the API app, the MCP server, the
web app, the worker command) and passes its :attr:`Runtime.context` to the use cases. It sits
above the application layer, so the layer itself imports no feed adapter and no renderer;
nothing here speaks HTTP.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Protocol

from sqlalchemy import Engine, text
from sqlalchemy.orm import Session, sessionmaker

from .clock import Clock, SystemClock
from .config import Settings
from .feeds.dcsa.carrier import DcsaCarrier, dcsa_carriers
from .jsonapi import notification_body
from .service.access.gatekeeper import Caller, Gatekeeper
from .service.access.keycache import KeyCache
from .service.core.context import REFRESH_PER_MINUTE, ServiceContext
from .service.core.ratelimit import RateLimiter
from .service.ingest.retention import RETENTION_INTERVAL_S, PositionRetention
from .service.webhooks.notifications import load_notifications
from .service.webhooks.records import NotificationRecord
from .store.database import make_engine, session_factory, transaction
from .store.migrate import upgrade
from .store.models import WebhookNotification
from .store.seed import add_carrier_lines, load_reference_data
from .tracking.carrier_sync import TrackingService
from .tracking.carriers import SimulatedCarrier
from .tracking.carriers.base import CarrierAdapter
from .tracking.poller import Poller
from .webhooks.delivery import DeliveryWorker

#: The PostgreSQL advisory lock key held while a process migrates the database (any constant
#: that nothing else on the server uses as a key: "sealane" in ASCII).
MIGRATION_LOCK = 0x7365616C616E65


class Background(Protocol):
    """Work that runs beside the service while it serves (a feed replay, say)."""

    def start(self) -> None: ...

    def stop(self) -> None: ...


@dataclass
class Runtime:
    """The parts of one running service, and the background pollers that drive them."""

    context: ServiceContext
    gate: Gatekeeper
    tracking: TrackingService
    webhooks: DeliveryWorker
    pollers: list[Poller] = field(default_factory=list)
    #: Started after the pollers and stopped before them (see :meth:`start`).
    background: list[Background] = field(default_factory=list)

    # Short names for what tests and shells reach for most.
    @property
    def settings(self) -> Settings:
        """The settings the service runs with."""
        return self.context.settings

    @property
    def sessions(self) -> sessionmaker[Session]:
        """The database sessions."""
        return self.context.sessions

    @property
    def engine(self) -> Engine:
        """The database engine."""
        return self.context.engine

    @property
    def clock(self) -> Clock:
        """The service's clock."""
        return self.context.clock

    @property
    def keys(self) -> KeyCache[Caller]:
        """The cache of checked API keys."""
        return self.gate.keys

    def notification_body(self, notification: NotificationRecord) -> bytes:
        """The JSON:API body a webhook receives for ``notification`` (test deliveries send it)."""
        return notification_body(notification, self.settings.base_url)

    def start(self) -> None:
        """Start the background pollers (tracking and webhook delivery) and other background
        work, if any."""
        for poller in self.pollers:
            poller.start()
        for work in self.background:
            work.start()

    def request_stop(self) -> None:
        """Ask the pollers' passes in flight to end at their next unit of work (a signal
        handler's first step; :meth:`stop` then waits for them)."""
        for poller in self.pollers:
            poller.request_stop()

    def stop(self) -> None:
        """Stop the background work and the pollers; release the delivery worker's and the
        DCSA carriers' connections."""
        for work in self.background:
            work.stop()
        for poller in self.pollers:
            poller.stop()
        self.webhooks.close()
        for adapter in {id(a): a for a in self.context.carriers.values()}.values():
            if isinstance(adapter, DcsaCarrier):  # one adapter may serve several SCACs
                adapter.close()


def build_runtime(
    settings: Settings,
    *,
    clock: Clock | None = None,
    migrate: bool = True,
    poll_interval_s: float | None = None,
    webhook_lease_s: float = 120.0,
    deliver_in_background: bool = True,
) -> Runtime:
    """The service for ``settings``; the database schema is brought up to date first.

    With ``poll_interval_s``, background pollers advance tracking and deliver webhooks once
    :meth:`Runtime.start` is called; without, callers run ``runtime.tracking.tick()`` themselves.
    ``webhook_lease_s`` is how long a claimed notification stays with this process's worker.
    Without ``deliver_in_background`` only tracking is polled in the background: the caller
    drives :attr:`Runtime.webhooks` itself (``sealane worker``).
    """
    engine = make_engine(settings.database_url)
    sessions = session_factory(engine)
    if migrate:
        prepare_database(settings, engine)
    the_clock = clock or SystemClock()
    carriers = carrier_adapters(settings, sessions, the_clock)
    context = ServiceContext(
        settings,
        engine,
        sessions,
        the_clock,
        carriers=carriers,
        refresh_limiter=RateLimiter(engine, REFRESH_PER_MINUTE, the_clock),
        started_at=the_clock.now(),
    )
    gate = Gatekeeper(
        context.sessions,
        KeyCache(settings.auth_cache_seconds, the_clock),
        RateLimiter(engine, settings.rate_limit_per_minute, the_clock),
        RateLimiter(engine, settings.auth_failures_per_minute, the_clock),
    )
    tracking = TrackingService(context.sessions, the_clock, carriers)
    webhooks = delivery_worker(settings, context.sessions, the_clock, lease_s=webhook_lease_s)
    webhooks.on_outcome = context.metrics.webhook_delivery
    pollers = [Poller(tracking, poll_interval_s)] if poll_interval_s else []
    if poll_interval_s and deliver_in_background:
        pollers.append(Poller(webhooks, poll_interval_s))
    return Runtime(context, gate, tracking, webhooks, pollers)


def add_position_retention(runtime: Runtime) -> PositionRetention:
    """Run the positions' job (next months' partitions, ``SEALANE_POSITION_RETENTION_DAYS``)
    every hour beside the runtime's other background work, from its :meth:`Runtime.start`."""
    job = PositionRetention(runtime.context)
    runtime.pollers.append(Poller(job, RETENTION_INTERVAL_S))
    return job


def prepare_database(settings: Settings, engine: Engine | None = None) -> None:
    """Bring the database of ``settings`` up to date: the schema migrated, the reference data
    and the configured carriers' lines loaded (``sealane migrate``, and every start).

    On PostgreSQL, processes starting together on one database (API processes, workers, feeds)
    do this one after the other (:func:`one_migration_at_a_time`).
    """
    the_engine = engine or make_engine(settings.database_url)
    try:
        with one_migration_at_a_time(the_engine):
            upgrade(the_engine)
            with transaction(session_factory(the_engine)) as session:
                load_reference_data(session)
                lines = {scac: c.name for c in settings.dcsa_carriers for scac in c.scacs}
                add_carrier_lines(session, lines)
    finally:
        if engine is None:
            the_engine.dispose()


@contextmanager
def one_migration_at_a_time(engine: Engine) -> Iterator[None]:
    """Hold a PostgreSQL advisory lock meanwhile (nothing on SQLite): Alembic's upgrade is not
    safe run twice at once, and the lock goes with the connection if the process dies."""
    if engine.dialect.name != "postgresql":
        yield
        return
    with engine.connect() as lock:
        lock.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
        lock.commit()
        try:
            yield
        finally:
            lock.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
            lock.commit()


def feed_context(settings: Settings, *, clock: Clock | None = None) -> ServiceContext:
    """A context for feeding data in from outside (``sealane ais``): the database of
    ``settings`` brought up to date and the clock; no carriers, no pollers, no reference data
    loaded (a feed writes vessel positions only)."""
    engine = make_engine(settings.database_url)
    with one_migration_at_a_time(engine):
        upgrade(engine)
    return ServiceContext(settings, engine, session_factory(engine), clock or SystemClock())


def carrier_adapters(
    settings: Settings, sessions: sessionmaker[Session], clock: Clock
) -> dict[str, CarrierAdapter]:
    """The adapter of each SCAC: the configured DCSA carriers', and the simulation's ``TEST``
    and its lines (which a configured carrier cannot take over: the test numbers rely on it)."""
    adapters: dict[str, CarrierAdapter] = dict(
        dcsa_carriers(list(settings.dcsa_carriers), sessions, clock)
    )
    simulated = SimulatedCarrier()
    adapters |= dict.fromkeys(simulated.scacs, simulated)
    return adapters


def delivery_worker(
    settings: Settings, sessions: sessionmaker[Session], clock: Clock, *, lease_s: float = 120.0
) -> DeliveryWorker:
    """The webhook delivery worker configured by ``settings``.

    ``lease_s`` is how long a claimed notification stays with this worker; after a crash it is
    sent again once the lease runs out (keep it above the 10 s delivery timeout).
    """
    return DeliveryWorker(
        sessions,
        clock,
        render=notification_renderer(settings.base_url),
        schedule=settings.webhook_retry_schedule,
        allow_private=settings.webhook_allow_private,
        lease_s=lease_s,
    )


def notification_renderer(base_url: str) -> Callable[[Session, WebhookNotification], bytes]:
    """The body of each notification, rendered once when it is created."""

    def render(session: Session, row: WebhookNotification) -> bytes:
        record = load_notifications(session, [row], ("reference_object",))[0]
        return notification_body(record, base_url)

    return render
