"""The structured outputs of the tracking tools: what ``structuredContent`` holds.

Each model is published as a tool's ``outputSchema``. Times are ISO 8601 UTC strings (``Z``), as
in the API; ``None`` where unknown. Every output has a :meth:`summary` that a model can read.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Output(BaseModel):
    """Base of every output: immutable, and no field beyond those declared."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def summary(self) -> str:
        """A short text a model can read (tool outputs override it)."""
        return self.__class__.__name__


class PortRef(Output):
    """A port by UN/LOCODE, with its name and IANA time zone when known."""

    locode: str
    name: str | None = None
    timezone: str | None = None


class Terminal(Output):
    """A container terminal."""

    id: str
    name: str | None = None
    firms_code: str | None = None
    port_locode: str | None = None


class TransportEvent(Output):
    """A milestone of a container: what happened (``event``, with a readable ``label``), where
    and when."""

    id: str
    event: str
    label: str
    timestamp: str | None
    timezone: str | None = None
    location_locode: str | None = None
    location_name: str | None = None
    voyage_number: str | None = None
    vessel_id: str | None = None
    terminal_id: str | None = None
    data_source: str | None = None


class Shipment(Output):
    """A shipment (a bill of lading or booking) with its ports, vessel and milestones."""

    id: str
    bill_of_lading_number: str | None
    booking_number: str | None
    ref_numbers: list[str]
    shipping_line_scac: str | None
    shipping_line_name: str | None
    port_of_lading: PortRef | None
    port_of_discharge: PortRef | None
    transshipment_locodes: list[str] = Field(default_factory=list)
    pod_vessel_name: str | None = None
    pod_vessel_imo: str | None = None
    pod_voyage_number: str | None = None
    pol_etd_at: str | None = None
    pol_atd_at: str | None = None
    pod_eta_at: str | None = None
    pod_ata_at: str | None = None
    tracking_stopped_at: str | None = None
    created_at: str | None = None
    updated_at: str | None = None
    pod_terminal_id: str | None = None
    container_ids: list[str] = Field(default_factory=list)
    containers: list[Container] | None = None

    def summary(self) -> str:
        """One or two lines: numbers, carrier, ports, vessel and dates."""
        number = self.bill_of_lading_number or self.booking_number or self.id
        pol = _port(self.port_of_lading)
        pod = _port(self.port_of_discharge)
        text = f"Shipment {number} ({self.shipping_line_scac or '?'}): {pol} -> {pod}"
        if self.pod_vessel_name:
            text += f" on {self.pod_vessel_name}"
        text += "; " + _dates(
            ("departed", self.pol_atd_at),
            ("ETD", None if self.pol_atd_at else self.pol_etd_at),
            ("arrived", self.pod_ata_at),
            ("ETA", None if self.pod_ata_at else self.pod_eta_at),
        )
        text += f"; {len(self.container_ids)} container(s)"
        if self.tracking_stopped_at:
            text += f"; tracking stopped {self.tracking_stopped_at}"
        return text


class Container(Output):
    """A container: status, equipment, terminal facts (availability, holds, fees, last free day)
    and milestones; its ``shipment`` and ``transport_events`` when asked for."""

    id: str
    number: str
    current_status: str | None
    shipment_id: str | None
    seal_number: str | None = None
    equipment_type: str | None = None
    equipment_length: int | None = None
    equipment_height: str | None = None
    weight_in_lbs: int | None = None
    ref_numbers: list[str] = Field(default_factory=list)
    available_for_pickup: bool | None = None
    availability_known: bool | None = None
    pickup_lfd: str | None = None
    pickup_appointment_at: str | None = None
    holds_at_pod_terminal: list[dict[str, Any]] = Field(default_factory=list)
    fees_at_pod_terminal: list[dict[str, Any]] = Field(default_factory=list)
    pod_arrived_at: str | None = None
    pod_discharged_at: str | None = None
    pod_full_out_at: str | None = None
    empty_terminated_at: str | None = None
    pod_timezone: str | None = None
    created_at: str | None = None
    updated_at: str | None = None
    pod_terminal_id: str | None = None
    pod_terminal: Terminal | None = None
    shipment: Shipment | None = None
    transport_events: list[TransportEvent] | None = None

    def summary(self) -> str:
        """A few lines: status, route, availability, holds, fees and the last milestone."""
        lines = [f"Container {self.number}: {self.current_status or 'status unknown'}"]
        if self.shipment is not None:
            lines.append(self.shipment.summary())
        lines.append(
            "Availability: "
            + (
                "available for pickup"
                if self.available_for_pickup
                else "not available"
                if self.available_for_pickup is False
                else "unknown"
            )
            + (f", last free day {self.pickup_lfd}" if self.pickup_lfd else "")
        )
        holds = [str(hold.get("name", "hold")) for hold in self.holds_at_pod_terminal]
        lines.append(f"Holds: {', '.join(holds) if holds else 'none'}")
        lines.append(f"Fees: {_fees(self.fees_at_pod_terminal)}")
        if self.transport_events:
            last = self.transport_events[-1]
            where = last.location_name or last.location_locode or ""
            lines.append(
                f"Last of {len(self.transport_events)} events: {last.label} "
                f"{last.timestamp or ''} {where}".rstrip()
            )
        return "\n".join(lines)


class ContainerEvents(Output):
    """A container's transport events in time order (its timeline)."""

    container_id: str
    total: int
    events: list[TransportEvent]

    def summary(self) -> str:
        """One line per event."""
        if not self.events:
            return f"No transport events yet for container {self.container_id}."
        lines = [f"{self.total} transport event(s):"]
        for event in self.events:
            where = event.location_name or event.location_locode or ""
            lines.append(f"- {event.timestamp or '?'} {event.label} {where}".rstrip())
        return "\n".join(lines)


class TrackingRequest(Output):
    """A request to track a number with a carrier, and how far it got."""

    id: str
    request_number: str
    request_type: str
    scac: str
    status: str
    failed_reason: str | None = None
    is_retrying: bool | None = None
    retry_count: int | None = None
    ref_numbers: list[str] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)
    shipment_id: str | None = None
    created_at: str | None = None
    updated_at: str | None = None

    def summary(self) -> str:
        """One line: number, carrier, status."""
        text = f"{self.request_type} {self.request_number} with {self.scac}: {self.status}"
        if self.failed_reason:
            text += f" ({self.failed_reason})"
        if self.shipment_id:
            text += f", shipment {self.shipment_id}"
        return text


class ShippingLine(Output):
    """A carrier and its SCAC code."""

    scac: str
    name: str
    short_name: str | None = None
    bill_of_lading_prefixes: list[str] = Field(default_factory=list)


def _port(port: PortRef | None) -> str:
    if port is None:
        return "?"
    return f"{port.name} ({port.locode})" if port.name else port.locode


def _dates(*pairs: tuple[str, str | None]) -> str:
    shown = [f"{name} {value}" for name, value in pairs if value]
    return ", ".join(shown) if shown else "no dates yet"


def _fees(fees: list[dict[str, Any]]) -> str:
    if not fees:
        return "none"
    parts = []
    for fee in fees:
        amount = fee.get("amount")
        currency = fee.get("currency_code") or fee.get("currency") or ""
        parts.append(f"{fee.get('type', 'fee')} {amount if amount is not None else ''} {currency}")
    return ", ".join(" ".join(part.split()) for part in parts)


Shipment.model_rebuild()
Container.model_rebuild()
