"""``POST /dcsa/{carrier}/events``: DCSA Track & Trace callbacks, signed by the carrier.

This is the ``callbackUrl`` sealane gives a carrier when subscribing. No API key: the
``Notification-Signature`` header (HMAC-SHA256 of the body with the subscription's secret) is
the credential, so this route checks the media type and size itself instead of using
:class:`~sealane.api.operations.ApiRoute`, which asks for a key on every write.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Request, Response
from starlette.concurrency import run_in_threadpool

from ...service.ingest.carrier_push import receive_push
from ..operations import check_media_type, read_body
from ..state import context_of, state_of
from .responses import ERRORS

router = APIRouter(tags=["carrier callbacks"])

#: The body: T&T 2.2 events (``eventID``, ``eventType`` ...), validated one by one.
EVENTS_SCHEMA: dict[str, Any] = {
    "type": "array",
    "items": {"type": "object", "required": ["eventID", "eventType"]},
}
_REJECTIONS = {
    400: "The body is not a JSON array of events",
    401: "Missing Notification-Signature, or it does not sign the body",
    404: "No carrier of that name with a push subscription",
    413: "The body is too large",
    415: "The body is not declared as JSON",
}


@router.post(
    "/dcsa/{carrier}/events",
    status_code=204,
    response_class=Response,
    responses={
        204: {"description": "Kept (events already kept before are not kept twice)"},
        **{
            status: {"description": text, "content": ERRORS[400]["content"]}
            for status, text in _REJECTIONS.items()
        },
    },
    openapi_extra={
        "security": [],
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": EVENTS_SCHEMA}},
        },
    },
)
async def receive_events(
    request: Request,
    carrier: str,
    notification_signature: Annotated[str | None, Header()] = None,
) -> Response:
    """Keep the events a carrier pushes (its configured ``name`` in the path), once each by
    ``eventID``; they reach shipments on the carrier's next sync, as polled events do."""
    check_media_type(request)
    body = await read_body(request, state_of(request).settings.max_body_bytes)
    ctx = context_of(request)
    await run_in_threadpool(receive_push, ctx, carrier, body, notification_signature)
    return Response(status_code=204)
