"""Start tracking a number (creates a tracking request), and follow the request's progress."""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ...service.access.gatekeeper import Caller
from ...service.core.context import ServiceContext
from ...service.core.errors import InvalidInput
from ...service.core.paging import PageRequest
from ...service.reference.lookups import list_shipping_lines
from ...service.tracking.requests import (
    NewTrackingRequest,
    RequestFilter,
    create_request,
    get_request,
    list_requests,
)
from ..forms import read_form
from ..guard import check_csrf, signed_in
from ..state import web_of

REQUEST_TYPE_WORDS = {
    "bill_of_lading": "Bill of lading",
    "booking_number": "Booking number",
    "container": "Container number",
}


def track_form_context(ctx: ServiceContext) -> dict[str, Any]:
    """What the tracking form needs: the request types and the carriers to choose from."""
    carriers = list_shipping_lines(ctx, PageRequest(1, 100)).items
    return {"request_types": REQUEST_TYPE_WORDS, "carriers": carriers}


def track_page(request: Request) -> Response:
    """The form on its own page, with the account's latest tracking requests."""
    caller = signed_in(request)
    return _render(request, caller, {}, "", 200)


async def track(request: Request) -> Response:
    """Create the tracking request and show its progress (the form again on a bad value)."""
    form = await read_form(request)
    caller = await run_in_threadpool(signed_in, request)
    check_csrf(request, form, request.state.web_session)
    refs = [part.strip() for part in form.get("ref_numbers", "").split(",") if part.strip()]
    attributes = {
        "request_type": form.get("request_type", ""),
        "request_number": form.get("request_number", ""),
        "scac": form.get("scac", "").strip(),
        "ref_numbers": refs,
    }
    web = web_of(request)
    try:
        new = NewTrackingRequest.of(attributes)
        made = await run_in_threadpool(create_request, web.context, caller, new)
    except InvalidInput as error:  # shown beside the form, which keeps what was typed
        values = {k: form.get(k, "") for k in ("request_type", "request_number", "scac")}
        values["ref_numbers"] = form.get("ref_numbers", "")
        return await run_in_threadpool(_render, request, caller, values, error.detail, 422)
    return RedirectResponse(f"/tracking_requests/{made.id}", status_code=303)


def request_page(request: Request) -> Response:
    """One tracking request: its status, retries, failure, and its shipment once found."""
    caller = signed_in(request)
    web = web_of(request)
    found = get_request(web.context, caller, request.path_params["request_id"])
    return web.pages.render(
        request,
        "tracking_request.html",
        title=f"Tracking {found.request_number}",
        tracking=found,
        request_types=REQUEST_TYPE_WORDS,
    )


def _render(
    request: Request, caller: Caller, values: dict[str, str], error: str, status: int
) -> Response:
    web = web_of(request)
    recent = list_requests(web.context, caller, RequestFilter(), PageRequest(1, 10)).items
    return web.pages.render(
        request,
        "track.html",
        status=status,
        title="Track a shipment",
        values=values,
        error=error,
        requests=recent,
        **track_form_context(web.context),
    )
