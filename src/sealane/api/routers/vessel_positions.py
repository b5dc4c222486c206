"""``POST /vessel_positions``: batches of positions from an AIS provider's API.

The account must have the ingest permission (403 ``ingest_disabled``); the batch is checked
whole, every bad value answered as a 422 error naming its JSON pointer, and stored in one
transaction. The answer is a document with ``meta`` only: the counts of what the batch did.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Request

from ...feeds.ais.batch import MAX_POSITIONS, RESOURCE_TYPE
from ...service import ingest
from ...service.access import Caller
from ..jsonapi import JsonApiResponse
from ..params import authenticated
from ..route import ApiRoute
from ..state import context_of
from .responses import META_SCHEMA, answering

router = APIRouter(tags=["vessel positions"], route_class=ApiRoute)
Auth = Annotated[Caller, Depends(authenticated)]

_NUMBER = {"type": "number"}
#: The attributes of one position (``latitude``/``longitude`` in degrees, speed in knots).
POSITION_ATTRIBUTES: dict[str, Any] = {
    "type": "object",
    "required": ["mmsi", "latitude", "longitude", "timestamp"],
    "properties": {
        "mmsi": {"type": ["string", "integer"], "description": "9-digit MMSI"},
        "latitude": {**_NUMBER, "minimum": -90, "maximum": 90},
        "longitude": {**_NUMBER, "minimum": -180, "maximum": 180},
        "timestamp": {"type": "string", "format": "date-time"},
        "speed_knots": {**_NUMBER, "minimum": 0, "maximum": 102.2},
        "course_degrees": {**_NUMBER, "minimum": 0, "maximum": 359.9},
        "heading_degrees": {**_NUMBER, "minimum": 0, "maximum": 359},
        "navigational_status": {"type": "integer", "minimum": 0, "maximum": 15},
        "imo": {"type": ["string", "integer"], "description": "7-digit IMO number"},
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
    """Store a batch of up to 10,000 AIS positions of known vessels (matched by MMSI).

    Needs the account's ingest permission. Positions are filtered (stale, impossible jumps)
    and thinned like a radio feed's; ``meta`` gives the counts (``stored``, ``thinned``,
    ``dropped_<reason>``, ``arrivals``, ...). Any invalid value: 422 naming every one, and
    nothing of the batch is stored.
    """
    report = ingest.ingest_positions(context_of(request), caller, payload)
    return JsonApiResponse({"meta": report.counts()})
