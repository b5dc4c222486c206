"""The filters shipments and containers share, and the queries they become."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.sql import Select

from ...store.models import Container, Shipment
from ...tracking.events import ContainerStatus
from ...tracking.numbers import normalize_container_number
from ..core.queries import contains_text, json_array_contains, json_array_contains_text


@dataclass(frozen=True, slots=True)
class TrackingFilter:
    """Filters of the shipment and container lists; None means any.

    ``number`` matches a container number (spaces and dashes ignored), a bill of lading or
    booking number, or a reference number of the shipment or of one of its containers;
    ``request_number`` the number a shipment was asked for (its bill of lading or booking
    number, as given); ``text`` is part of any of those; ``tracking_stopped`` whether the
    shipment is no longer followed.
    """

    status: ContainerStatus | None = None
    pod_locode: str | None = None
    scac: str | None = None
    updated_from: datetime | None = None
    number: str | None = None
    request_number: str | None = None
    text: str | None = None
    tracking_stopped: bool | None = None


def filter_shipments(query: Select[Any], filters: TrackingFilter) -> Select[Any]:
    """``query`` over shipments narrowed by ``filters``."""
    if filters.status is not None:
        having = select(Container.shipment_id).where(
            Container.current_status == filters.status.value
        )
        query = query.where(Shipment.id.in_(having))
    query = _shipment_fields(query, filters)
    if filters.updated_from is not None:
        query = query.where(Shipment.updated_at >= filters.updated_from)
    if filters.number is not None:
        text = filters.number.strip()
        by_container = select(Container.shipment_id).where(_container_number(text))
        query = query.where(or_(_shipment_number(text), Shipment.id.in_(by_container)))
    if filters.text is not None:
        by_container = select(Container.shipment_id).where(_container_text(filters.text))
        query = query.where(or_(_shipment_text(filters.text), Shipment.id.in_(by_container)))
    return query


def filter_containers(query: Select[Any], filters: TrackingFilter) -> Select[Any]:
    """``query`` over containers joined to their shipment, narrowed by ``filters``."""
    if filters.status is not None:
        query = query.where(Container.current_status == filters.status.value)
    query = _shipment_fields(query, filters)
    if filters.updated_from is not None:
        query = query.where(Container.updated_at >= filters.updated_from)
    if filters.number is not None:
        text = filters.number.strip()
        query = query.where(or_(_shipment_number(text), _container_number(text)))
    if filters.text is not None:
        query = query.where(or_(_shipment_text(filters.text), _container_text(filters.text)))
    return query


def _shipment_fields(query: Select[Any], filters: TrackingFilter) -> Select[Any]:
    if filters.request_number is not None:
        wanted = filters.request_number.strip().upper()
        query = query.where(func.upper(Shipment.carrier_number) == wanted)
    if filters.tracking_stopped is not None:
        stopped = Shipment.tracking_stopped_at.is_not(None)
        query = query.where(stopped if filters.tracking_stopped else ~stopped)
    if filters.pod_locode is not None:
        query = query.where(Shipment.port_of_discharge_locode == filters.pod_locode.upper())
    if filters.scac is not None:
        query = query.where(Shipment.shipping_line_scac == filters.scac.upper())
    return query


def _shipment_number(text: str) -> Any:
    return or_(
        func.upper(Shipment.bill_of_lading_number) == text.upper(),
        func.upper(Shipment.booking_number) == text.upper(),
        json_array_contains(Shipment.ref_numbers, text),
    )


def _shipment_text(text: str) -> Any:
    return or_(
        contains_text(Shipment.bill_of_lading_number, text),
        contains_text(Shipment.booking_number, text),
        json_array_contains_text(Shipment.ref_numbers, text),
    )


def _container_text(text: str) -> Any:
    return or_(
        contains_text(Container.number, normalize_container_number(text)),
        json_array_contains_text(Container.ref_numbers, text),
    )


def _container_number(text: str) -> Any:
    return or_(
        Container.number == normalize_container_number(text),
        json_array_contains(Container.ref_numbers, text),
    )
