"""Outputs of ``search_container`` and ``track_container``."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .outputs import Container, Output, TrackingRequest


class SearchHit(Output):
    """A match: a shipment, a container, or a tracking request not found yet."""

    kind: str
    id: str
    number: str
    exact: bool
    shipment_id: str | None = None
    scac: str | None = None
    port_of_lading_name: str | None = None
    port_of_discharge_name: str | None = None
    status: str | None = None
    failed_reason: str | None = None
    tracking_stopped: bool | None = None
    ref_numbers: list[str] = Field(default_factory=list)

    def line(self) -> str:
        """One line: what it is, its number, where it goes, and its id for the next tool."""
        route = " -> ".join(p for p in (self.port_of_lading_name, self.port_of_discharge_name) if p)
        parts = [f"{self.kind} {self.number}", "exact" if self.exact else "partial"]
        parts += [p for p in (self.scac, route, self.status) if p]
        return f"- {', '.join(parts)}: id {self.id}"


class SearchResult(Output):
    """The account's objects matching a number: shipments, then containers, then requests."""

    query: str
    total: int
    hits: list[SearchHit]

    def summary(self) -> str:
        """One line per hit, with the tool to call next."""
        if not self.hits:
            return f"Nothing matches {self.query!r}; track_container starts tracking it."
        lines = [f"{self.total} match(es) for {self.query!r}:", *(h.line() for h in self.hits)]
        lines.append("Next: get_container (container ids) or get_shipment_details (shipment ids).")
        return "\n".join(lines)


class CarrierCandidate(Output):
    """A carrier that likely issued a number, with a confidence in [0, 1]."""

    scac: str
    name: str | None = None
    confidence: float | None = None


class Inference(Output):
    """What a number looks like: its type, whether it is well formed, its likely carriers."""

    number_type: str | None
    request_type: str
    is_valid: bool | None = None
    reason: str | None = None
    decision: str | None = None
    selected: CarrierCandidate | None = None
    candidates: list[CarrierCandidate] = Field(default_factory=list)


class TrackResult(Output):
    """What ``track_container`` did: found it tracked already, found a pending request,
    started tracking, or needs the carrier to be named."""

    outcome: Literal["already_tracked", "already_requested", "tracking_requested", "needs_carrier"]
    number: str
    request_type: str | None = None
    scac: str | None = None
    match: SearchHit | None = None
    container: Container | None = None
    inference: Inference | None = None
    tracking_request: TrackingRequest | None = None

    def summary(self) -> str:
        """What happened and what to do next."""
        if self.outcome == "already_tracked":
            text = f"{self.number} is already tracked."
            if self.container is not None:
                return text + "\n" + self.container.summary()
            return f"{text} Shipment id {self.match.id if self.match else '?'}."
        if self.outcome == "already_requested":
            status = self.match.status if self.match else "pending"
            return f"{self.number} was already asked for: tracking request {status}."
        if self.outcome == "needs_carrier":
            names = [
                f"{c.scac} ({c.name})"
                for c in (self.inference.candidates if self.inference else [])
            ]
            return (
                f"Cannot tell which carrier issued {self.number}: call again with scac, one of "
                + (", ".join(names) if names else "the codes of get_supported_shipping_lines")
            )
        request = self.tracking_request
        return (
            f"Tracking requested: {self.request_type} {self.number} with {self.scac}, status "
            f"{request.status if request else 'pending'}; the carrier answers within minutes "
            "(see list_tracking_requests)."
        )
