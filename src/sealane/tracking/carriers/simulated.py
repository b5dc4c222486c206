"""The simulated carrier (SCAC ``TEST``, and its lines ``TSTA`` to ``TSTE``): deterministic
voyages timed by the routing engine.

Any number gives a voyage seeded by the number itself: real ports of lading and discharge, one
or two vessels (a transshipment about a third of the time), one to three containers, and every
gate, vessel and terminal event at a time computed from the engine's sea distance and a realistic
speed. The voyage is anchored at an ``epoch`` chosen when the number is first looked up, so a new
request finds its shipment somewhere along the way. Special numbers exercise the lifecycles, each
reaching its documented state at the first lookup: ``TEST-TR-SUCCEEDED`` (created),
``TEST-TR-FAILED`` (failed, not found, no retry), ``TEST-TR-AWAITING`` (awaiting_manifest; the
manifest is published two hours after the request), ``TEST-TR-FLAKY`` (unreachable for the first
hour, retried) and ``TEST-TR-RETRYING`` (not found at every attempt: retried with backoff, then
failed). A number beginning with a line's SCAC sails as that line runs (:mod:`.simulated_lines`:
late, rolled, transshipped), and is found as booked 12 hours before the request; a rolled
shipment's estimates are the missed sailing's until the carrier says so. The plan is drawn in
:mod:`.simulated_voyage`, where it stands at a given time in :mod:`.simulated_sailing`.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from .base import (
    AwaitingManifest,
    Found,
    LookupResult,
    ShipmentPlan,
    Snapshot,
    UnknownNumber,
    Unreachable,
)
from .simulated_lines import LINES, ROLL, line_of
from .simulated_sailing import call_estimates, minute_of, vessel_position
from .simulated_voyage import HOLDS, plan_voyage, seeded

__all__ = ["HOLDS", "SimulatedCarrier", "plan_voyage"]


class SimulatedCarrier:
    """A carrier that answers from a deterministic simulation instead of a remote system."""

    scacs = frozenset({"TEST", *(line.scac for line in LINES)})

    def lookup(
        self, request_type: str, number: str, *, requested_at: datetime, now: datetime
    ) -> LookupResult:
        """Find ``number``; the special TEST-TR-* numbers give each lookup outcome."""
        key = number.upper()
        if key == "TEST-TR-FAILED":
            return UnknownNumber("not_found", final=True)
        if key == "TEST-TR-RETRYING":
            return UnknownNumber("not_found")
        if key == "TEST-TR-AWAITING" and now < requested_at + timedelta(hours=2):
            return AwaitingManifest(retry_at=requested_at + timedelta(hours=2))
        if key == "TEST-TR-FLAKY" and now < requested_at + timedelta(hours=1):
            return Unreachable()
        return Found(plan_voyage(request_type, key, _epoch(key, requested_at)))

    def snapshot(self, plan_key: tuple[str, str, datetime], now: datetime) -> Snapshot:
        """The voyage as reported at ``now``: the estimate at sea to the minute, and the sailing
        vessel's position as of the minute begun (none once it has arrived)."""
        plan = plan_voyage(*plan_key)
        fixed = minute_of(now)
        at_sea = any(leg.depart_at <= now < leg.arrive_at for leg in plan.legs)
        missed = plan.missed if plan.missed and now < plan.missed.announced_at else None
        estimates = call_estimates(_as_booked(plan) if missed else plan, now)
        pod_eta = estimates[-1].arrival_at
        assert pod_eta is not None  # every leg is timed, so the last arrival is
        return Snapshot(
            plan=plan,
            events=tuple(e for e in plan.events if e.at <= now),
            updates=tuple(u for u in plan.updates if u.at <= now),
            pod_eta=pod_eta,
            pod_ata=plan.legs[-1].arrive_at if now >= plan.legs[-1].arrive_at else None,
            vessel_position=vessel_position(plan, fixed) if at_sea else None,
            vessel_position_at=fixed,
            call_estimates=estimates,
            pod_voyage_number=missed.voyage_number if missed else None,
        )


def _as_booked(plan: ShipmentPlan) -> ShipmentPlan:
    """A rolled plan as it stood before the roll: every leg a week earlier."""
    legs = tuple(
        replace(leg, depart_at=leg.depart_at - ROLL, arrive_at=leg.arrive_at - ROLL)
        for leg in plan.legs
    )
    return replace(plan, legs=legs)


def _epoch(number: str, requested_at: datetime) -> datetime:
    """When the simulated voyage began: a seeded 0-45 days before the first lookup (a line's
    number, or a lifecycle number: 12 hours before, so its first ETA is the booking's)."""
    if number.startswith("TEST-TR-") or line_of(number) is not None:
        return requested_at - timedelta(hours=12)
    return requested_at - timedelta(days=seeded(number + "/epoch").uniform(0.0, 45.0))
