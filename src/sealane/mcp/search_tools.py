"""Finding and starting to track: ``search_container`` (by container, bill of lading, booking or
reference number) and ``track_container`` (an existing shipment first, else a new tracking
request with the number's type and carrier inferred when not given)."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.types import CallToolResult
from pydantic import Field

from ..service.core.errors import InvalidInput
from ..service.tracking.requests import NewTrackingRequest
from ..vocabulary.statuses import REQUEST_TYPES
from . import documents
from .arguments import parse_text
from .backend import Account
from .calls import Ctx, answer
from .search_outputs import CarrierCandidate, Inference, SearchHit, SearchResult, TrackResult
from .tracking_tools import read_container

#: The ``numberType`` values track_container takes, and the request type each means.
NUMBER_TYPES = {
    "container": "container",
    "bill_of_lading": "bill_of_lading",
    "booking_number": "booking_number",
    "booking": "booking_number",
}


async def search_container(
    query: Annotated[
        str, Field(description="a container, bill of lading, booking or reference number, or part")
    ],
    ctx: Ctx,
) -> Annotated[CallToolResult, SearchResult]:
    """Find the account's containers, shipments and pending tracking requests by container,
    bill of lading, booking or reference number (case, spaces and dashes ignored; exact matches
    first)."""

    async def work(account: Account) -> SearchResult:
        text = parse_text(query, "query", max_chars=100)
        if text is None:
            raise InvalidInput("query is required", field="query")
        return await find(account, text)

    return await answer(ctx, work)


async def find(account: Account, text: str) -> SearchResult:
    """The search hits for ``text``."""
    document = await account.search(text)
    hits = [hit(obj) for obj in document["data"]]
    return SearchResult(query=text, total=len(hits), hits=hits)


def hit(obj: documents.Resource) -> SearchHit:
    """A search hit from its resource (``shipment``, ``cargo`` or ``tracking_request``)."""
    a = obj["attributes"]
    return SearchHit(
        kind=a["entity_type"],
        id=obj["id"],
        number=a["number"],
        exact=bool(a.get("exact_match")),
        shipment_id=a.get("shipment_id"),
        scac=a.get("scac"),
        port_of_lading_name=a.get("port_of_lading_name"),
        port_of_discharge_name=a.get("port_of_discharge_name"),
        status=a.get("status"),
        failed_reason=a.get("failed_reason"),
        tracking_stopped=a.get("tracking_stopped"),
        ref_numbers=list(a.get("ref_numbers") or ()),
    )


async def track_container(
    number: Annotated[str, Field(description="container, bill of lading or booking number")],
    ctx: Ctx,
    numberType: Annotated[
        str | None,
        Field(
            description="container, bill_of_lading or booking_number (inferred when not given)",
            json_schema_extra={"enum": [*NUMBER_TYPES, None]},
        ),
    ] = None,
    scac: Annotated[
        str | None, Field(description="carrier SCAC code (inferred when not given)")
    ] = None,
    refNumbers: Annotated[
        list[str] | None, Field(description="your reference numbers (purchase orders, ...)")
    ] = None,
) -> Annotated[CallToolResult, TrackResult]:
    """Start tracking a container, bill of lading or booking number: answers the shipment when
    it is already tracked; otherwise infers the number's type and carrier (unless given) and
    creates a tracking request, which the carrier answers within minutes."""

    async def work(account: Account) -> TrackResult:
        text = parse_text(number, "number", max_chars=64)
        if text is None:
            raise InvalidInput("number is required", field="number")
        kind = _number_type(numberType)
        found = await _existing(account, text)
        if found is not None:
            return found
        return await _request(
            account, text, kind, parse_text(scac, "scac", max_chars=4), refNumbers
        )

    return await answer(ctx, work)


async def _existing(account: Account, text: str) -> TrackResult | None:
    """The tracked container, shipment or open request the number names exactly, if any."""
    exact = [h for h in (await find(account, text)).hits if h.exact]
    for wanted in ("container", "shipment", "tracking_request"):
        for found in exact:
            if found.kind != wanted:
                continue
            if found.kind == "tracking_request":
                return TrackResult(outcome="already_requested", number=text, match=found)
            container = None
            if found.kind == "container":
                container = await read_container(account, found.id, ["shipment"])
            return TrackResult(
                outcome="already_tracked", number=text, match=found, container=container
            )
    return None


async def _request(
    account: Account, text: str, kind: str | None, scac: str | None, refs: list[str] | None
) -> TrackResult:
    """A new tracking request, with what was inferred when the type or carrier was missing."""
    inference = None
    if kind is None or scac is None:
        inference = _inference((await account.infer_number(text))["data"]["attributes"])
        kind = kind or inference.request_type
        selected = inference.selected
        if scac is None and selected is None:
            return TrackResult(
                outcome="needs_carrier", number=text, request_type=kind, inference=inference
            )
        scac = scac or (selected.scac if selected else None)
    attributes: dict[str, Any] = {"request_type": kind, "request_number": text, "scac": scac}
    if refs:
        attributes["ref_numbers"] = refs
    new = NewTrackingRequest.of(attributes)
    document = await account.create_tracking_request(new)
    return TrackResult(
        outcome="tracking_requested",
        number=new.request_number,
        request_type=new.request_type,
        scac=new.scac,
        inference=inference,
        tracking_request=documents.tracking_request(document["data"]),
    )


def _number_type(value: str | None) -> str | None:
    if value is None:
        return None
    kind = NUMBER_TYPES.get(value.strip().lower())
    if kind is None or kind not in REQUEST_TYPES:
        raise InvalidInput(
            f"numberType must be one of {', '.join(NUMBER_TYPES)}, got {value[:40]!r}",
            field="numberType",
        )
    return kind


def _inference(a: dict[str, Any]) -> Inference:
    line = a.get("shipping_line") or {}
    validation = a.get("validation") or {}

    def guess(g: dict[str, Any]) -> CarrierCandidate:
        return CarrierCandidate(scac=g["scac"], name=g.get("name"), confidence=g.get("confidence"))

    return Inference(
        number_type=a.get("number_type"),
        request_type=a["request_type"],
        is_valid=validation.get("is_valid"),
        reason=validation.get("reason"),
        decision=line.get("decision"),
        selected=guess(line["selected"]) if line.get("selected") else None,
        candidates=[guess(g) for g in line.get("candidates") or ()],
    )
