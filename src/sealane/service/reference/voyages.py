"""Where a vessel is sailing, from what sealane knows of it: the ports a future-positions
request leaves out are taken from here.

In order: a leg of a container the caller tracks on board (the route's port the vessel leaves
and the next port it calls there, not yet reached), then a shipment of the caller's whose
discharge leg the vessel sails and that has not arrived (its last transshipment port or port of
lading, and its port of discharge), then the last port AIS saw the vessel leave (a previous port
only: the destination a vessel reports over AIS is not stored yet). Only the caller's own
shipments are read, so no account learns another's cargo from a vessel they share.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import and_, func, or_, select
from sqlalchemy.orm import Session, aliased

from ...store.models import RouteLocation, Shipment, VesselPortCall

#: Where the ports came from, as ``meta`` names it.
GIVEN = "given"
TRACKED_SHIPMENT = "tracked_shipment"
AIS_PORT_CALL = "ais_port_call"
#: Candidates read per source (a vessel carries many containers of one account).
_CANDIDATES = 200
_EPOCH = datetime.min.replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class KnownVoyage:
    """The port a vessel last left and the next it calls (LOCODEs; None where unknown)."""

    previous_locode: str | None
    next_locode: str | None
    source: str
    #: The shipment the ports came from (source ``tracked_shipment``).
    shipment_id: str | None = None


def known_voyage(session: Session, account_id: str, vessel_id: str) -> KnownVoyage | None:
    """What the caller's tracking and AIS tell of the vessel's voyage, or None."""
    return (
        _container_leg(session, account_id, vessel_id)
        or _discharge_leg(session, account_id, vessel_id)
        or _last_port_call(session, vessel_id)
    )


def _container_leg(session: Session, account_id: str, vessel_id: str) -> KnownVoyage | None:
    """A leg on the vessel not yet arrived: the one that departed last (by its actual, else
    its estimated departure), so a vessel between two calls gets the leg it is sailing."""
    after = aliased(RouteLocation)
    query = (
        select(RouteLocation, after)
        .join(
            after,
            and_(
                after.container_id == RouteLocation.container_id,
                after.sequence == RouteLocation.sequence + 1,
            ),
        )
        .where(
            RouteLocation.account_id == account_id,
            RouteLocation.outbound_vessel_id == vessel_id,
            after.inbound_ata_at.is_(None),
            or_(after.inbound_vessel_id.is_(None), after.inbound_vessel_id == vessel_id),
        )
        # the candidates read are the latest departed, so the one chosen below is among them
        .order_by(
            RouteLocation.outbound_atd_at.is_(None),
            func.coalesce(RouteLocation.outbound_atd_at, RouteLocation.outbound_etd_at)
            .desc()
            .nulls_last(),
        )
        .limit(_CANDIDATES)
    )
    legs = [(leave, arrive) for leave, arrive in session.execute(query).all()]
    if not legs:
        return None

    def departed(pair: tuple[RouteLocation, RouteLocation]) -> tuple[bool, datetime, str]:
        leave, _ = pair
        moment = leave.outbound_atd_at or leave.outbound_etd_at or _EPOCH
        return (leave.outbound_atd_at is not None, moment, leave.shipment_id)

    leave, arrive = max(legs, key=departed)
    return KnownVoyage(leave.port_locode, arrive.port_locode, TRACKED_SHIPMENT, leave.shipment_id)


def _discharge_leg(session: Session, account_id: str, vessel_id: str) -> KnownVoyage | None:
    """The latest-updated shipment of the caller's whose discharge leg the vessel sails and
    that has not arrived."""
    query = (
        select(Shipment)
        .where(
            Shipment.account_id == account_id,
            Shipment.pod_vessel_id == vessel_id,
            Shipment.pod_ata_at.is_(None),
        )
        .order_by(Shipment.updated_at.desc(), Shipment.id)
        .limit(1)
    )
    shipment = session.scalars(query).first()
    if shipment is None:
        return None
    stops = [*shipment.transshipment_locodes] or [shipment.port_of_lading_locode]
    return KnownVoyage(stops[-1], shipment.port_of_discharge_locode, TRACKED_SHIPMENT, shipment.id)


def _last_port_call(session: Session, vessel_id: str) -> KnownVoyage | None:
    """The port AIS last saw the vessel leave (vessel positions are shared by every account)."""
    query = (
        select(VesselPortCall.locode)
        .where(VesselPortCall.vessel_id == vessel_id, VesselPortCall.departed_at.is_not(None))
        .order_by(VesselPortCall.departed_at.desc(), VesselPortCall.id.desc())
        .limit(1)
    )
    locode = session.scalars(query).first()
    return None if locode is None else KnownVoyage(locode, None, AIS_PORT_CALL)
