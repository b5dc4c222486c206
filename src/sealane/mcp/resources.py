"""The resources: ``service://container/{id}`` (a readable summary of one container) and
``service://docs/milestone-glossary`` (every event name, its meaning and usual order)."""

from __future__ import annotations

from ..service.core.errors import ServiceError
from .arguments import parse_id
from .calls import Ctx, account_of
from .glossary import glossary_markdown
from .outputs import Container
from .tool_errors import resource_error
from .tracking_tools import read_container

CONTAINER_URI = "service://container/{id}"
GLOSSARY_URI = "service://docs/milestone-glossary"


async def container_resource(id: str, ctx: Ctx) -> str:
    """A container's status, milestones, ETA, holds and fees, as Markdown."""
    try:
        account = await account_of(ctx)
        includes = ["shipment", "pod_terminal", "transport_events"]
        container = await read_container(account, parse_id(id), includes)
    except ServiceError as error:
        raise resource_error(error) from None
    return container_markdown(container)


def container_markdown(container: Container) -> str:
    """The summary of :meth:`Container.summary`, the key dates and the milestone table."""
    shipment = container.shipment
    lines = [f"# Container {container.number}", "", container.summary(), "", "## Key dates", ""]
    dates = [
        ("Departed port of lading", shipment.pol_atd_at if shipment else None),
        ("ETA at port of discharge", shipment.pod_eta_at if shipment else None),
        ("Arrived at port of discharge", container.pod_arrived_at),
        ("Discharged", container.pod_discharged_at),
        ("Last free day", container.pickup_lfd),
        ("Pickup appointment", container.pickup_appointment_at),
        ("Picked up", container.pod_full_out_at),
        ("Empty returned", container.empty_terminated_at),
    ]
    lines += [f"- {name}: {value or '-'}" for name, value in dates]
    if container.pod_terminal is not None:
        lines += [
            "",
            f"Terminal: {container.pod_terminal.name} ({container.pod_terminal.firms_code or '-'})",
        ]
    lines += ["", "## Milestones", "", "| time (UTC) | milestone | place |", "|---|---|---|"]
    for event in container.transport_events or ():
        place = event.location_name or event.location_locode or ""
        lines.append(f"| {event.timestamp or '-'} | {event.label} (`{event.event}`) | {place} |")
    if not container.transport_events:
        lines.append("| - | no milestone yet | |")
    return "\n".join(lines) + "\n"


def glossary() -> str:
    """The milestone glossary, as Markdown."""
    return glossary_markdown()
