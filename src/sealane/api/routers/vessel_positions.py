"""``POST /vessel_positions``: batches of positions from an AIS provider's API.

The account must have the ingest permission (403 ``ingest_disabled``); the batch is checked
whole, every bad value answered as a 422 error naming its JSON pointer, and stored in one
transaction. The answer is a document with ``meta`` only: the counts of what the batch did.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Request

from ...service.access.gatekeeper import Caller
from ...service.ingest.positions import (
    DIMENSIONS,
    MAX_POSITIONS,
    RESOURCE_TYPE,
    ingest_positions,
)
from ..jsonapi import JsonApiResponse
from ..operations import ApiRoute
from ..params import authenticated
from ..state import context_of
from .responses import META_SCHEMA, answering

router = APIRouter(tags=["vessel positions"], route_class=ApiRoute)
Auth = Annotated[Caller, Depends(authenticated)]

_OPTIONAL_NUMBER = {"type": ["number", "null"]}
#: The attributes of one position (``latitude``/``longitude`` in degrees, speed in knots, the
#: vessel's size in metres); the optional ones may be null ("not available", as AIS providers
#: send it).
POSITION_ATTRIBUTES: dict[str, Any] = {
    "type": "object",
    "required": ["mmsi", "latitude", "longitude", "timestamp"],
    "properties": {
        "mmsi": {
            "type": ["string", "integer"],
            "description": "9-digit MMSI",
            "pattern": "^[1-9][0-9]{8}$",
            "minimum": 100_000_000,
            "maximum": 999_999_999,
        },
        "latitude": {"type": "number", "minimum": -90, "maximum": 90},
        "longitude": {"type": "number", "minimum": -180, "maximum": 180},
        "timestamp": {"type": "string", "format": "date-time"},
        "speed_knots": {**_OPTIONAL_NUMBER, "minimum": 0, "maximum": 102.2},
        "course_degrees": {**_OPTIONAL_NUMBER, "minimum": 0, "maximum": 359.9},
        "heading_degrees": {**_OPTIONAL_NUMBER, "minimum": 0, "maximum": 359},
        "navigational_status": {"type": ["integer", "null"], "minimum": 0, "maximum": 15},
        "imo": {
            "type": ["string", "integer", "null"],
            "description": "7-digit IMO number (its check digit is checked too)",
            "pattern": "^[0-9]{7}$",
            "minimum": 1_000_000,
            "maximum": 9_999_999,
        },
        **{
            name: {
                **_OPTIONAL_NUMBER,
                "exclusiveMinimum": 0,
                "maximum": most,
                "description": f"the vessel's {name.partition('_')[0]} in metres, stored on it",
            }
            for name, most in DIMENSIONS.items()
        },
    },
}
#: The request document: resource objects without ids (or their bare attributes).
BATCH_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["data"],
    "properties": {
        "data": {
            "type": "array",
            "minItems": 1,
            "maxItems": MAX_POSITIONS,
            "items": {
                "anyOf": [
                    {
                        "type": "object",
                        "required": ["type", "attributes"],
                        "properties": {
                            "type": {"type": "string", "enum": [RESOURCE_TYPE]},
                            "attributes": POSITION_ATTRIBUTES,
                        },
                    },
                    POSITION_ATTRIBUTES,
                ]
            },
        }
    },
}
Batch = Annotated[Any, Body(media_type="application/vnd.api+json")]


@router.post(
    "/vessel_positions",
    response_class=JsonApiResponse,
    responses=answering(META_SCHEMA, "Stored; meta counts what the batch did"),
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/vnd.api+json": {"schema": BATCH_SCHEMA}},
        }
    },
)
def post_vessel_positions(request: Request, caller: Auth, payload: Batch) -> JsonApiResponse:
    """Store a batch of up to 2,000 AIS positions of known vessels (matched by MMSI).

    Needs the account's ingest permission. Positions are filtered (stale, impossible jumps)
    and thinned like a radio feed's; ``meta`` gives the counts (``stored``, ``thinned``,
    ``dropped_<reason>``, ``arrivals``, ...). The optional ``length_meters``, ``beam_meters``
    and ``draught_meters`` are stored on the vessel (the newest report wins) and size its
    routes. Any invalid value: 422 naming every one, and nothing of the batch is stored.
    """
    report = ingest_positions(context_of(request), caller, payload)
    return JsonApiResponse({"meta": report.counts()})
