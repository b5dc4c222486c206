"""``/webhooks`` and ``/webhook_notifications`` (account-scoped)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response

from ...jsonapi import Included, resource
from ...jsonapi.webhooks import webhook_resource
from ...service import notifications, webhooks
from ...service.access import Caller
from ...service.records import NotificationRecord, WebhookRecord
from ..auth import authenticate
from ..documents import attributes_of
from ..jsonapi import JsonApiResponse
from ..listing import PageNumber, PageSize, Payload
from ..params import optional_text, parse_include, parse_page
from ..render import many, one
from ..route import ApiRoute
from ..state import context_of
from .responses import ERRORS

router = APIRouter(tags=["webhooks"], route_class=ApiRoute)
Auth = Annotated[Caller, Depends(authenticate)]


def render_webhook(included: Included, record: WebhookRecord) -> dict[str, Any]:
    """A webhook without its secret."""
    return webhook_resource(record, included.base)


def render_new_webhook(included: Included, record: WebhookRecord) -> dict[str, Any]:
    """A webhook just created: the only time its secret is shown."""
    return webhook_resource(record, included.base, with_secret=True)


def render_notification(included: Included, record: NotificationRecord) -> dict[str, Any]:
    """A notification, including what it was loaded with."""
    return included.notification(record)


@router.get("/webhooks/events", response_class=JsonApiResponse, responses=ERRORS)
def list_events(request: Request, _caller: Auth) -> JsonApiResponse:
    """Every event name a webhook can subscribe to."""
    parse_include(request.query_params, ())
    data = [resource("webhook_event", name, {"name": name}) for name in webhooks.event_names()]
    return JsonApiResponse({"data": data, "meta": {"total": len(data)}})


@router.get("/webhooks", response_class=JsonApiResponse, responses=ERRORS)
def list_webhooks(
    request: Request, caller: Auth, page_number: PageNumber = None, page_size: PageSize = None
) -> JsonApiResponse:
    """The account's webhooks."""
    page = parse_page(request.query_params)
    parse_include(request.query_params, ())
    found = webhooks.list_webhooks(context_of(request), caller, page)
    return many(request, found, "webhooks", render_webhook)


@router.post("/webhooks", status_code=201, response_class=JsonApiResponse, responses=ERRORS)
def create_webhook(request: Request, caller: Auth, payload: Payload) -> JsonApiResponse:
    """Subscribe a URL to events; the response shows the signing secret, once."""
    changes = webhooks.WebhookChanges.of(attributes_of(payload, "webhook"), new=True)
    created = webhooks.create_webhook(context_of(request), caller, changes)
    return one(request, created, render_new_webhook, status_code=201)


@router.get("/webhooks/{webhook_id}", response_class=JsonApiResponse, responses=ERRORS)
def get_webhook(request: Request, webhook_id: str, caller: Auth) -> JsonApiResponse:
    """One webhook (without its secret)."""
    parse_include(request.query_params, ())
    found = webhooks.get_webhook(context_of(request), caller, webhook_id)
    return one(request, found, render_webhook)


@router.patch("/webhooks/{webhook_id}", response_class=JsonApiResponse, responses=ERRORS)
def update_webhook(
    request: Request, webhook_id: str, caller: Auth, payload: Payload
) -> JsonApiResponse:
    """Change a webhook's url, events, active flag or headers."""
    changes = webhooks.WebhookChanges.of(attributes_of(payload, "webhook", id_=webhook_id))
    found = webhooks.update_webhook(context_of(request), caller, webhook_id, changes)
    return one(request, found, render_webhook)


@router.delete("/webhooks/{webhook_id}", status_code=204, responses=ERRORS)
def delete_webhook(request: Request, webhook_id: str, caller: Auth) -> Response:
    """Remove a webhook (its undelivered notifications go with it)."""
    webhooks.delete_webhook(context_of(request), caller, webhook_id)
    return Response(status_code=204)


@router.get("/webhook_notifications", response_class=JsonApiResponse, responses=ERRORS)
def list_notifications(
    request: Request,
    caller: Auth,
    event: Annotated[str | None, Query(alias="filter[event]")] = None,
    delivery_status: Annotated[str | None, Query(alias="filter[delivery_status]")] = None,
    webhook: Annotated[str | None, Query(alias="filter[webhook]")] = None,
    include: Annotated[str | None, Query()] = None,
    page_number: PageNumber = None,
    page_size: PageSize = None,
) -> JsonApiResponse:
    """The account's notifications, newest first."""
    params = request.query_params
    page = parse_page(params)  # a bad page is reported before the other parameters
    includes = parse_include(params, notifications.INCLUDES)
    filters = notifications.NotificationFilter(
        event=optional_text(params, "filter[event]"),
        delivery_status=optional_text(params, "filter[delivery_status]"),
        webhook_id=optional_text(params, "filter[webhook]"),
    )
    found = notifications.list_notifications(context_of(request), caller, filters, page, includes)
    return many(request, found, "webhook_notifications", render_notification)


@router.get(
    "/webhook_notifications/{notification_id}", response_class=JsonApiResponse, responses=ERRORS
)
def get_notification(
    request: Request,
    notification_id: str,
    caller: Auth,
    include: Annotated[str | None, Query()] = None,
) -> JsonApiResponse:
    """One notification; ``include=webhook,reference_object,webhook_notification_logs``."""
    includes = parse_include(request.query_params, notifications.INCLUDES)
    found = notifications.get_notification(context_of(request), caller, notification_id, includes)
    return one(request, found, render_notification)
