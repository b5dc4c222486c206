"""``get_container_route``: a container's multi-leg route (its port calls in order, with the
vessels and times of each leg), part of the paid routing feature."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult

from . import documents
from .arguments import Id, parse_id
from .backend import Account, Document
from .calls import Ctx, answer
from .outputs import Output, PortRef

#: What the route document is asked to include: the calls, their ports, vessels and terminals.
ROUTE_INCLUDES = ("route_locations", "port", "vessel", "terminal")


class CallTransport(Output):
    """How the container reaches or leaves a port call: mode, carrier, vessel, voyage and
    times (not an engine :class:`sealane.Leg`, which is a voyage between two ports)."""

    mode: str | None = None
    scac: str | None = None
    vessel_name: str | None = None
    vessel_imo: str | None = None
    voyage_number: str | None = None
    estimated_at: str | None = None
    actual_at: str | None = None


class ContainerPortCall(Output):
    """One port of the route: POL, TS1.., POD, with the legs in and out."""

    sequence: int
    label: str
    port: PortRef | None
    terminal_name: str | None = None
    inbound: CallTransport
    outbound: CallTransport


class ContainerRoute(Output):
    """A container's route from its port of lading to its port of discharge."""

    id: str
    container_id: str
    shipment_id: str | None
    calls: list[ContainerPortCall]

    def summary(self) -> str:
        """One line per port call."""
        lines = [f"Route of container {self.container_id}: {len(self.calls)} port call(s)"]
        for call in self.calls:
            where = f"{call.port.name} ({call.port.locode})" if call.port else "unknown port"
            arrive = call.inbound.actual_at or call.inbound.estimated_at
            leave = call.outbound.actual_at or call.outbound.estimated_at
            times = ", ".join(
                f"{name} {value}"
                for name, value in (("arrives", arrive), ("leaves", leave))
                if value
            )
            vessel = call.outbound.vessel_name or call.inbound.vessel_name
            lines.append(
                f"{call.sequence}. {call.label} {where}"
                + (f" on {vessel}" if vessel else "")
                + (f": {times}" if times else "")
            )
        return "\n".join(lines)


async def get_container_route(id: Id, ctx: Ctx) -> Annotated[CallToolResult, ContainerRoute]:
    """A container's multi-leg route: each port call in order (port of lading, transshipments,
    port of discharge) with the vessel, voyage and times in and out. Needs the account's routing
    feature."""

    async def work(account: Account) -> ContainerRoute:
        await account.require_routing()
        container_id = parse_id(id)
        document = await account.container_route(container_id, ROUTE_INCLUDES)
        return container_route(document)

    return await answer(ctx, work)


def container_route(document: Document) -> ContainerRoute:
    """The output of a container's ``route`` document (its calls, ports and vessels included)."""
    data, index = document["data"], documents.Index(document)
    calls = index.related(data, "route_locations")
    return ContainerRoute(
        id=data["id"],
        container_id=documents.related_id(data, "cargo") or "",
        shipment_id=documents.related_id(data, "shipment"),
        calls=[_call(obj, index, number, len(calls)) for number, obj in enumerate(calls, start=1)],
    )


def _call(
    obj: documents.Resource, index: documents.Index, number: int, count: int
) -> ContainerPortCall:
    a = obj["attributes"]
    port = index.get("port", documents.related_id(obj, "location"))
    terminal = index.get("terminal", documents.related_id(obj, "facility"))
    label = "POL" if number == 1 else "POD" if number == count else f"TS{number - 1}"
    return ContainerPortCall(
        sequence=number,
        label=label,
        port=PortRef(
            locode=port["attributes"]["code"],
            name=port["attributes"].get("name"),
            timezone=port["attributes"].get("time_zone"),
        )
        if port
        else None,
        terminal_name=terminal["attributes"].get("name") if terminal else None,
        inbound=_transport(a, index, obj, "inbound", "eta", "ata"),
        outbound=_transport(a, index, obj, "outbound", "etd", "atd"),
    )


def _transport(
    a: documents.Resource,
    index: documents.Index,
    obj: documents.Resource,
    side: str,
    estimated: str,
    actual: str,
) -> CallTransport:
    vessel = index.get("vessel", documents.related_id(obj, f"{side}_vessel"))
    return CallTransport(
        mode=a.get(f"{side}_mode"),
        scac=a.get(f"{side}_scac"),
        vessel_name=vessel["attributes"].get("name") if vessel else None,
        vessel_imo=vessel["attributes"].get("imo") if vessel else None,
        voyage_number=a.get(f"{side}_voyage_number"),
        estimated_at=a.get(f"{side}_{estimated}_at"),
        actual_at=a.get(f"{side}_{actual}_at"),
    )
