"""A carrier adapter over DCSA Track & Trace 2.2 (configured per carrier, see config.dcsa_carriers).

``lookup`` polls ``GET /v2/events`` for the number and reads the plan from the events;
``snapshot`` does the same at each sync (or, with pushes and ``poll_interval_s``, polls less
often and reads the pushed events kept in the database). Carrier failures become the
lifecycle's ``shipping_line_unreachable`` and ``unrecognized_response``.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from ...clock import Clock, SystemClock
from ...config.dcsa_carriers import CarrierConfig
from ...tracking.carriers.base import (
    AwaitingManifest,
    Found,
    LookupResult,
    Snapshot,
    UnknownNumber,
    Unreachable,
)
from ...tracking.lifecycle import MANIFEST_RECHECK
from .client import CarrierError, DcsaClient, UnrecognizedResponse
from .events import BadEvent, DcsaEvent, parse_event
from .store import read_events
from .timeline import Timeline, build_timeline

log = logging.getLogger("sealane.tracking")
REF_PREFIX = {"bill_of_lading": "TRD", "booking_number": "BKG", "container": "EQ"}


class DcsaCarrier:
    """The shipping lines of one T&T 2.2 endpoint (``config.scacs``)."""

    def __init__(
        self,
        config: CarrierConfig,
        *,
        client: DcsaClient | None = None,
        sessions: sessionmaker[Session] | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.config = config
        self.clock = clock or SystemClock()
        self.client = client or DcsaClient(config, clock=self.clock)
        self.sessions = sessions
        self.scacs = frozenset(config.scacs)
        self._polled: dict[tuple[str, str], tuple[float, list[dict[str, Any]]]] = {}

    def close(self) -> None:
        """Close the client's connections (the adapter is not used after this)."""
        self.client.close()

    def lookup(
        self, request_type: str, number: str, *, requested_at: datetime, now: datetime
    ) -> LookupResult:
        """Find the shipment behind ``number`` in the carrier's events."""
        try:
            timeline, seen = self._timeline(request_type, number, requested_at)
        except CarrierError as error:
            log.warning("%s lookup of %s failed: %s", self.config.name, number, error)
            return Unreachable(error.reason)
        if timeline.cancelled:
            return UnknownNumber("booking_cancelled")
        if timeline.plan is None:
            return AwaitingManifest(now + MANIFEST_RECHECK) if seen else UnknownNumber()
        return Found(timeline.plan)

    def snapshot(self, plan_key: tuple[str, str, datetime], now: datetime) -> Snapshot:
        """The shipment as its events tell it now; a carrier failure raises (sync retries)."""
        request_type, number, epoch = plan_key
        timeline, _seen = self._timeline(request_type, number, epoch)
        if timeline.plan is None:
            raise UnrecognizedResponse(f"{number}: the carrier no longer reports a vessel leg")
        return Snapshot(
            plan=timeline.plan,
            events=timeline.events,
            updates=(),
            pod_eta=timeline.pod_eta,
            pod_ata=timeline.pod_ata,
        )

    def _timeline(self, request_type: str, number: str, epoch: datetime) -> tuple[Timeline, int]:
        events: list[DcsaEvent] = []
        seen: set[str] = set()
        bad = 0
        for raw in self._raw_events(request_type, number):
            try:
                event = parse_event(raw)
            except BadEvent as error:
                log.warning("%s: event of %s skipped: %s", self.config.name, number, error)
                bad += 1
                continue
            if event.event_id not in seen:
                seen.add(event.event_id)
                events.append(event)
        timeline = build_timeline(self.config.scacs[0], request_type, number, events, epoch)
        if bad:
            timeline.skipped["malformed"] += bad
        if timeline.skipped:
            log.info("%s %s: skipped %s", self.config.name, number, dict(timeline.skipped))
        return timeline, len(events)

    def _raw_events(self, request_type: str, number: str) -> list[dict[str, Any]]:
        """Polled events (again only after ``poll_interval_s``) and pushed ones, polled first."""
        key = (request_type, number)
        now = self.clock.monotonic()
        cached = self._polled.get(key)
        if cached is None or now - cached[0] >= self.config.poll_interval_s:
            cached = (now, self.client.events(request_type, number))
            self._polled[key] = cached
        polled = cached[1]
        if self.sessions is None:
            return polled
        refs = {f"{REF_PREFIX[request_type]}:{number}"}
        refs |= {
            f"EQ:{str(e['equipmentReference']).upper()}"
            for e in polled
            if e.get("equipmentReference")
        }
        return polled + read_events(self.sessions, self.config.scacs[0], refs)


def dcsa_carriers(
    configs: list[CarrierConfig], sessions: sessionmaker[Session], clock: Clock
) -> dict[str, DcsaCarrier]:
    """An adapter per configured carrier, by each SCAC it serves (for ``TrackingService``)."""
    found: dict[str, DcsaCarrier] = {}
    for config in configs:
        carrier = DcsaCarrier(config, sessions=sessions, clock=clock)
        found.update(dict.fromkeys(config.scacs, carrier))
    return found
