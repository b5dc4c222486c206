"""JSON:API documents -> tool outputs, for both backends.

The remote backend receives these documents from the API; the local one renders the application
layer's records with the same renderers the API uses (:mod:`sealane.jsonapi`). Mapping both with
this one module is what makes the two backends answer alike.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from ..service.reference.ports import known_port
from .glossary import label
from .listings import Links, Paging
from .outputs import Container, PortRef, Shipment, ShippingLine, Terminal, TrackingRequest
from .outputs import TransportEvent as Event

Resource = Mapping[str, Any]


class Index:
    """The resources of one document (``data`` and ``included``) by (type, id)."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        data = document.get("data")
        found = [*(data if isinstance(data, list) else [data] if data else [])]
        found += list(document.get("included") or ())
        self._by_key = {(obj["type"], obj["id"]): obj for obj in found}

    def get(self, type_: str, id_: str | None) -> Resource | None:
        """The resource, if the document holds it."""
        return self._by_key.get((type_, id_)) if id_ else None

    def related(self, obj: Resource, name: str) -> list[Resource]:
        """The resources a relationship of ``obj`` names that the document holds, in order."""
        data = obj.get("relationships", {}).get(name, {}).get("data")
        refs = data if isinstance(data, list) else [data] if data else []
        return [found for ref in refs if (found := self.get(ref["type"], ref["id"])) is not None]


def related_id(obj: Resource, name: str) -> str | None:
    """The id a to-one relationship points to."""
    data = obj.get("relationships", {}).get(name, {}).get("data")
    return data["id"] if isinstance(data, dict) else None


def related_ids(obj: Resource, name: str) -> list[str]:
    """The ids a to-many relationship points to."""
    data = obj.get("relationships", {}).get(name, {}).get("data") or []
    return [ref["id"] for ref in data]


def place_name(locode: str | None) -> str | None:
    """The name of the port with UN/LOCODE ``locode``, if the engine knows it."""
    port = known_port(locode)
    return port.name if port is not None else None


def event(obj: Resource) -> Event:
    """A transport event."""
    a = obj["attributes"]
    return Event(
        id=obj["id"],
        event=a["event"],
        label=label(a["event"]),
        timestamp=a.get("timestamp"),
        timezone=a.get("timezone"),
        location_locode=a.get("location_locode"),
        location_name=place_name(a.get("location_locode")),
        voyage_number=a.get("voyage_number"),
        vessel_id=related_id(obj, "vessel"),
        terminal_id=related_id(obj, "terminal"),
        data_source=a.get("data_source"),
    )


def terminal(obj: Resource) -> Terminal:
    """A terminal."""
    a = obj["attributes"]
    return Terminal(
        id=obj["id"],
        name=a.get("name"),
        firms_code=a.get("firms_code"),
        port_locode=a.get("port_code"),
    )


def shipment(obj: Resource, index: Index, includes: Collection[str] = ()) -> Shipment:
    """A shipment; its containers too when ``includes`` names ``containers``."""
    a = obj["attributes"]
    containers = None
    if "containers" in includes:
        containers = [container(c, index, ()) for c in index.related(obj, "containers")]
    return Shipment(
        id=obj["id"],
        bill_of_lading_number=a.get("bill_of_lading_number"),
        booking_number=a.get("booking_number"),
        ref_numbers=list(a.get("ref_numbers") or ()),
        shipping_line_scac=a.get("shipping_line_scac"),
        shipping_line_name=a.get("shipping_line_name"),
        port_of_lading=_port(a, "port_of_lading", "pol_timezone"),
        port_of_discharge=_port(a, "port_of_discharge", "pod_timezone"),
        transshipment_locodes=list(a.get("transshipment_locodes") or ()),
        pod_vessel_name=a.get("pod_vessel_name"),
        pod_vessel_imo=a.get("pod_vessel_imo"),
        pod_voyage_number=a.get("pod_voyage_number"),
        pol_etd_at=a.get("pol_etd_at"),
        pol_atd_at=a.get("pol_atd_at"),
        pod_eta_at=a.get("pod_eta_at"),
        pod_ata_at=a.get("pod_ata_at"),
        tracking_stopped_at=a.get("line_tracking_stopped_at"),
        created_at=a.get("created_at"),
        updated_at=a.get("updated_at"),
        pod_terminal_id=related_id(obj, "pod_terminal"),
        container_ids=related_ids(obj, "containers"),
        containers=containers,
    )


def container(obj: Resource, index: Index, includes: Collection[str] = ()) -> Container:
    """A container with what ``includes`` names (``shipment``, ``pod_terminal``,
    ``transport_events``) taken from the document."""
    a = obj["attributes"]
    shipment_obj = index.get("shipment", related_id(obj, "shipment"))
    terminal_obj = index.get("terminal", related_id(obj, "pod_terminal"))
    events = None
    if "transport_events" in includes:
        found = [event(e) for e in index.related(obj, "transport_events")]
        events = sorted(found, key=lambda e: e.timestamp or "")
    return Container(
        id=obj["id"],
        number=a["number"],
        current_status=a.get("current_status"),
        shipment_id=related_id(obj, "shipment"),
        seal_number=a.get("seal_number"),
        equipment_type=a.get("equipment_type"),
        equipment_length=a.get("equipment_length"),
        equipment_height=a.get("equipment_height"),
        weight_in_lbs=a.get("weight_in_lbs"),
        ref_numbers=list(a.get("ref_numbers") or ()),
        available_for_pickup=a.get("available_for_pickup"),
        availability_known=a.get("availability_known"),
        pickup_lfd=a.get("pickup_lfd"),
        pickup_appointment_at=a.get("pickup_appointment_at"),
        holds_at_pod_terminal=list(a.get("holds_at_pod_terminal") or ()),
        fees_at_pod_terminal=list(a.get("fees_at_pod_terminal") or ()),
        pod_arrived_at=a.get("pod_arrived_at"),
        pod_discharged_at=a.get("pod_discharged_at"),
        pod_full_out_at=a.get("pod_full_out_at"),
        empty_terminated_at=a.get("empty_terminated_at"),
        pod_timezone=a.get("pod_timezone"),
        created_at=a.get("created_at"),
        updated_at=a.get("updated_at"),
        pod_terminal_id=related_id(obj, "pod_terminal"),
        pod_terminal=terminal(terminal_obj)
        if terminal_obj and "pod_terminal" in includes
        else None,
        shipment=shipment(shipment_obj, index) if shipment_obj and "shipment" in includes else None,
        transport_events=events,
    )


def tracking_request(obj: Resource) -> TrackingRequest:
    """A tracking request."""
    a = obj["attributes"]
    return TrackingRequest(
        id=obj["id"],
        request_number=a["request_number"],
        request_type=a["request_type"],
        scac=a["scac"],
        status=a["status"],
        failed_reason=a.get("failed_reason"),
        is_retrying=a.get("is_retrying"),
        retry_count=a.get("retry_count"),
        ref_numbers=list(a.get("ref_numbers") or ()),
        tags=list(a.get("tags") or ()),
        shipment_id=related_id(obj, "tracked_object"),
        created_at=a.get("created_at"),
        updated_at=a.get("updated_at"),
    )


def shipping_line(obj: Resource) -> ShippingLine:
    """A carrier."""
    a = obj["attributes"]
    return ShippingLine(
        scac=a["scac"],
        name=a["name"],
        short_name=a.get("short_name"),
        bill_of_lading_prefixes=list(a.get("bill_of_lading_prefixes") or ()),
    )


def paging(document: Mapping[str, Any], page: int, page_size: int) -> Paging:
    """The paging of a list document (``links``, ``meta.total``)."""
    total = int(document.get("meta", {}).get("total", 0))
    pages = max(1, -(-total // page_size))
    links = document.get("links") or {}
    return Paging(
        page=page,
        page_size=page_size,
        total=total,
        total_pages=pages,
        next_page=page + 1 if page < pages else None,
        links=Links(**{k: links.get(k) for k in ("self", "first", "prev", "next", "last")}),
    )


def _port(a: Mapping[str, Any], prefix: str, zone: str) -> PortRef | None:
    locode = a.get(f"{prefix}_locode")
    if not locode:
        return None
    return PortRef(locode=locode, name=a.get(f"{prefix}_name"), timezone=a.get(zone))
