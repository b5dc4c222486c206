"""The container status that the latest transport event implies."""

from __future__ import annotations

from ..vocabulary.events import TRANSPORT
from ..vocabulary.statuses import ContainerStatus

#: Status after each transport event (by the part after ``container.transport.``).
STATUS_AFTER = {
    "empty_out": ContainerStatus.NEW,
    "full_in": ContainerStatus.NEW,
    "vessel_loaded": ContainerStatus.ON_SHIP,
    "vessel_departed": ContainerStatus.ON_SHIP,
    "transshipment_arrived": ContainerStatus.ON_SHIP,
    "transshipment_discharged": ContainerStatus.AWAITING_INLAND_TRANSFER,
    "transshipment_loaded": ContainerStatus.ON_SHIP,
    "transshipment_departed": ContainerStatus.ON_SHIP,
    "vessel_arrived": ContainerStatus.ON_SHIP,
    "vessel_berthed": ContainerStatus.ON_SHIP,
    "vessel_discharged": ContainerStatus.GROUNDED,
    "available": ContainerStatus.AVAILABLE,
    "full_out": ContainerStatus.PICKED_UP,
    "empty_in": ContainerStatus.EMPTY_RETURNED,
    "rail_loaded": ContainerStatus.ON_RAIL,
    "rail_departed": ContainerStatus.ON_RAIL,
    "rail_arrived": ContainerStatus.ON_RAIL,
    "rail_unloaded": ContainerStatus.AWAITING_INLAND_TRANSFER,
    "arrived_at_inland_destination": ContainerStatus.DELIVERED,
}


def status_after(event: str, *, available: bool | None = None) -> ContainerStatus | None:
    """The status a container takes after ``event``; None when the event leaves it unchanged.

    A discharge with known availability gives available / not_available rather than grounded.

    >>> status_after("container.transport.vessel_loaded")
    <ContainerStatus.ON_SHIP: 'on_ship'>
    """
    status = STATUS_AFTER.get(event.removeprefix(TRANSPORT))
    if status is ContainerStatus.GROUNDED and available is not None:
        return ContainerStatus.AVAILABLE if available else ContainerStatus.NOT_AVAILABLE
    return status
