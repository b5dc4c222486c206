"""The prompts: ``track-shipment``, ``check-demurrage``, ``analyze-delays`` and
``compare-carriers``. Each gives the model the steps to take and the tools to call, in order;
none calls a tool itself."""

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


def compare_carriers(
    port_of_lading: Annotated[str, Field(description="port of lading: UN/LOCODE or port id")],
    port_of_discharge: Annotated[str, Field(description="port of discharge: UN/LOCODE or port id")],
) -> list[Message]:
    """Compare the carriers on a lane: on-time share, transit time, ETA drift and rolled cargo."""
    pol = _checked(lambda: parse_text(port_of_lading, "port_of_lading", max_chars=64))
    pod = _checked(lambda: parse_text(port_of_discharge, "port_of_discharge", max_chars=64))
    if pol is None or pod is None:
        field = "port_of_lading" if pol is None else "port_of_discharge"
        raise prompt_error(InvalidInput(f"{field} is required", field=field))
    return [
        UserMessage(
            f"Compare the carriers on the lane {pol} -> {pod}.\n\n"
            f"1. Call carrier_reliability with port_of_lading={pol!r} and "
            f"port_of_discharge={pod!r} (add since= to look at recent months only).\n"
            f"2. Call lane_transit_times with the same ports for the transit spread by carrier.\n"
            f"3. Call port_waiting_times with port={pod!r} for the waiting off the port of "
            "discharge, which every carrier meets alike.\n"
            "4. Answer with a short table per carrier: shipments, on-time share (and its "
            "tolerance), median transit with P10-P90, mean and P90 ETA drift, rolled and "
            "transshipped shares. Say which carrier is most reliable and why, and flag any "
            "carrier with fewer than 5 shipments: its figures are too few to rank."
        )
    ]


def _checked(parse: Callable[[], T]) -> T:
    """``parse()``; a bad argument is the protocol's invalid params, naming it."""
    try:
        return parse()
    except InvalidInput as error:
        raise prompt_error(error) from None
