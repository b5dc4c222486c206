"""The prompts: ``track-shipment``, ``check-demurrage`` and ``analyze-delays``. Each gives the
model the steps to take and the tools to call, in order; none calls a tool itself."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, TypeVar

from mcp.server.mcpserver.prompts.base import Message, UserMessage
from pydantic import Field

from ..service.core.errors import InvalidInput
from .arguments import parse_id, parse_text
from .tool_errors import prompt_error

T = TypeVar("T")


def track_shipment(
    container_number: Annotated[
        str, Field(description="container, bill of lading or booking number")
    ],
    carrier: Annotated[str | None, Field(description="carrier SCAC code, if known")] = None,
) -> list[Message]:
    """Find or start tracking a shipment by its number, then report where it is."""
    number = _checked(lambda: parse_text(container_number, "container_number", max_chars=64))
    scac = _checked(lambda: parse_text(carrier, "carrier", max_chars=4))
    if number is None:
        raise prompt_error(InvalidInput("container_number is required", field="container_number"))
    start = (
        f"track_container with number={number!r}"
        + (f" and scac={scac!r}" if scac else "")
        + " (it finds an existing shipment first, otherwise it starts tracking)"
    )
    return [
        UserMessage(
            f"Track the shipment with number {number}"
            + (f" (carrier {scac})" if scac else "")
            + " and tell me where it is.\n\n"
            f"1. Call search_container with query={number!r}.\n"
            f"2. If nothing matches, call {start}. A new request is `pending` until the "
            "carrier answers: say so, and suggest asking again in a few minutes.\n"
            "3. For a container found, call get_container with its id and "
            'include=["shipment", "transport_events"].\n'
            "4. Answer briefly: current status, where it is (last milestone, its place and "
            "time), the vessel and voyage, the ETA at the port of discharge and whether it is "
            "available for pickup. Read service://docs/milestone-glossary to explain any event "
            "name you are unsure of."
        )
    ]


def check_demurrage(
    container_id: Annotated[str, Field(description="the container's id (a UUID)")],
) -> list[Message]:
    """Check a container's demurrage risk: last free day, holds, fees and availability."""
    container = _checked(lambda: parse_id(container_id, "container_id"))
    return [
        UserMessage(
            f"Check the demurrage risk of container {container}.\n\n"
            f"1. Call get_container with id={container!r} and "
            'include=["shipment", "pod_terminal"] (or read the resource '
            f"service://container/{container}).\n"
            "2. Look at available_for_pickup, pickup_lfd (the last free day), "
            "holds_at_pod_terminal, fees_at_pod_terminal, pickup_appointment_at and "
            "pod_discharged_at.\n"
            "3. Work out the days left before the last free day (or the days past it), which "
            "holds block the pickup, and the fees already charged.\n"
            "4. Answer with the risk (none, low, high, already charged), the reasons, and what "
            "to do next (clear a hold, book a pickup before the last free day)."
        )
    ]


def analyze_delays(
    container_id: Annotated[str, Field(description="the container's id (a UUID)")],
) -> list[Message]:
    """Analyse a container's delays: planned against actual milestones, and their causes."""
    container = _checked(lambda: parse_id(container_id, "container_id"))
    return [
        UserMessage(
            f"Analyse the delays of container {container}.\n\n"
            f"1. Call get_container with id={container!r} (its shipment is included): note "
            "pol_etd_at against pol_atd_at and pod_eta_at against pod_ata_at.\n"
            f"2. Call get_container_transport_events with id={container!r} for the timeline; "
            "look for long gaps, transshipment stays and repeated estimated arrivals.\n"
            f"3. Call get_container_route with id={container!r} for the legs and port calls "
            "(a paid feature: if it answers routing_disabled, go on without it).\n"
            "4. Answer with the total delay against the first plan, where it arose (departure, "
            "a transshipment, arrival, terminal), the likely causes, and the current ETA."
        )
    ]


def _checked(parse: Callable[[], T]) -> T:
    """``parse()``; a bad argument is the protocol's invalid params, naming it."""
    try:
        return parse()
    except InvalidInput as error:
        raise prompt_error(error) from None
