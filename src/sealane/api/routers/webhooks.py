"""``/webhooks`` and ``/webhook_notifications`` (account-scoped)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from ...clock import utc_iso
from ...jsonapi import Included
from ...jsonapi.webhooks import event_category_resource, webhook_resource
from ...service.access.gatekeeper import Caller
from ...service.core.paging import MAX_PAGE_SIZE, Page, PageRequest
from ...service.webhooks import examples, notifications, subscriptions, trials
from ...service.webhooks.records import NotificationRecord, WebhookRecord
from ...vocabulary.events import EVENT_NAMES
from .. import bodies
from ..bodies import body
from ..documents import attributes_of
from ..jsonapi import JsonApiResponse
from ..listing import Paging, choice, include_paths, text
from ..operations import ApiRoute
from ..params import authenticated, blank_none, parse_include, plain_object
from ..render import deleted, many, one
from ..state import context_of, state_of
from .responses import DELETED, ERRORS, IPS_SCHEMA, TRIAL_SCHEMA, answering

router = APIRouter(tags=["webhooks"], route_class=ApiRoute)
Auth = Annotated[Caller, Depends(authenticated)]
#: What a notification document may include.
Includes = Annotated[str | None, include_paths(notifications.INCLUDES)]


def render_webhook(included: Included, record: WebhookRecord) -> dict[str, Any]:
    """A webhook with its signing secret (shown to the owning account only)."""
    return webhook_resource(record, included.base)


def render_notification(included: Included, record: NotificationRecord) -> dict[str, Any]:
    """A notification read through the API: its webhook, reference object and logs if loaded
    (the shipment, container, port and terminal are in the delivered body only)."""
    return included.notification(record, delivered=False)


def render_example(included: Included, record: NotificationRecord) -> dict[str, Any]:
    """An example notification, with everything a webhook receives."""
    return included.notification(record)


@router.get("/webhooks/events", response_class=JsonApiResponse, responses=ERRORS)
def list_events(_caller: Auth) -> JsonApiResponse:
    """Every event a webhook can subscribe to, by category, with what each one means."""
    categories = subscriptions.event_categories()
    data = [event_category_resource(category) for category in categories]
    total = sum(len(category.events) for category in categories)
    return JsonApiResponse({"data": data, "meta": {"total": total}})


@router.get(
    "/webhooks/ips",
    response_class=JsonApiResponse,
    responses=answering(IPS_SCHEMA, "Addresses of the deliveries"),
)
def list_ips(request: Request, _caller: Auth) -> JsonApiResponse:
    """The IPv4 addresses deliveries come from (``SEALANE_WEBHOOK_SOURCE_IPS``)."""
    found = subscriptions.source_addresses(context_of(request))
    return JsonApiResponse(
        {
            "webhook_notification_ips": list(found.addresses),
            "last_updated": utc_iso(found.last_updated),
        }
    )


@router.post(
    "/webhooks/trigger",
    response_class=JsonApiResponse,
    responses=answering(TRIAL_SCHEMA, "The test delivery"),
)
async def trigger_webhook(
    request: Request, caller: Auth, payload: Annotated[Any, body(bodies.TRIAL)]
) -> JsonApiResponse:
    """Send the example notification of ``event`` to ``url`` once, signed with ``secret`` (or
    a fresh one); the body is ``{"url", "event", "secret"?}``. At most two test deliveries of
    an account at a time (more: 429 with ``Retry-After``); each waits at most 10 s for the
    receiver, on threads of its own, so other requests never wait behind it."""
    trial = trials.WebhookTrial.of(plain_object(request, payload))
    runtime = state_of(request)
    future = trials.submit_trial(runtime.context, caller, trial, render=runtime.notification_body)
    result = await asyncio.wrap_future(future)
    return JsonApiResponse(
        {
            "url": result.url,
            "succeeded": result.succeeded,
            "error": result.error,
            "status_code": result.status_code,
            "request_headers": result.request_headers,
            "request_body": result.request_body,
            "response_headers": None,
            "response_body": result.response_body,
            "secret": result.secret,
        }
    )


@router.get("/webhooks", response_class=JsonApiResponse, responses=ERRORS)
def list_webhooks(request: Request, caller: Auth, page: Paging) -> JsonApiResponse:
    """The account's webhooks."""
    found = subscriptions.list_webhooks(context_of(request), caller, page)
    return many(request, found, "webhooks", render_webhook)


@router.post("/webhooks", status_code=201, response_class=JsonApiResponse, responses=ERRORS)
def create_webhook(
    request: Request, caller: Auth, payload: Annotated[Any, body(bodies.NEW_WEBHOOK)]
) -> JsonApiResponse:
    """Subscribe a URL to events; the response shows the signing secret, once."""
    changes = subscriptions.WebhookChanges.of(attributes_of(payload, "webhook"), new=True)
    created = subscriptions.create_webhook(context_of(request), caller, changes)
    return one(request, created, render_webhook, status_code=201)


@router.get("/webhooks/{webhook_id:id}", response_class=JsonApiResponse, responses=ERRORS)
def get_webhook(request: Request, webhook_id: str, caller: Auth) -> JsonApiResponse:
    """One webhook."""
    found = subscriptions.get_webhook(context_of(request), caller, webhook_id)
    return one(request, found, render_webhook)


@router.patch("/webhooks/{webhook_id:id}", response_class=JsonApiResponse, responses=ERRORS)
def update_webhook(
    request: Request,
    webhook_id: str,
    caller: Auth,
    payload: Annotated[Any, body(bodies.WEBHOOK_CHANGES)],
) -> JsonApiResponse:
    """Change a webhook's url, events, active flag or headers."""
    changes = subscriptions.WebhookChanges.of(attributes_of(payload, "webhook", id_=webhook_id))
    found = subscriptions.update_webhook(context_of(request), caller, webhook_id, changes)
    return one(request, found, render_webhook)


@router.delete("/webhooks/{webhook_id:id}", response_class=JsonApiResponse, responses=DELETED)
def delete_webhook(request: Request, webhook_id: str, caller: Auth) -> JsonApiResponse:
    """Remove a webhook (its undelivered notifications go with it); 200 with ``meta``."""
    subscriptions.delete_webhook(context_of(request), caller, webhook_id)
    return deleted(webhook_id)


@router.get("/webhook_notifications", response_class=JsonApiResponse, responses=ERRORS)
def list_notifications(
    request: Request,
    caller: Auth,
    page: Paging,
    event: Annotated[str | None, text(alias="filter[event]")] = None,
    delivery_status: Annotated[
        str | None, choice(notifications.DELIVERY_STATUSES, alias="filter[delivery_status]")
    ] = None,
    webhook: Annotated[str | None, text(alias="filter[webhook]")] = None,
    include: Includes = None,
) -> JsonApiResponse:
    """The account's notifications, newest first."""
    paths = parse_include(include, notifications.INCLUDES)
    filters = notifications.NotificationFilter(
        event=blank_none(event),
        delivery_status=delivery_status,
        webhook_id=blank_none(webhook),
    )
    found = notifications.list_notifications(context_of(request), caller, filters, page, paths)
    return many(request, found, "webhook_notifications", render_notification)


@router.get("/webhook_notifications/examples", response_class=JsonApiResponse, responses=ERRORS)
def notification_examples(
    request: Request, _caller: Auth, event: Annotated[str | None, choice(EVENT_NAMES)] = None
) -> JsonApiResponse:
    """For each event (or only ``event``), a notification as a webhook receives it."""
    found = examples.notification_examples(event)
    page = Page(tuple(found), len(found), PageRequest(1, MAX_PAGE_SIZE))
    return many(request, page, "webhook_notifications/examples", render_example)


@router.get(
    "/webhook_notifications/{notification_id:id}", response_class=JsonApiResponse, responses=ERRORS
)
def get_notification(
    request: Request,
    notification_id: str,
    caller: Auth,
    include: Includes = None,
) -> JsonApiResponse:
    """One notification; ``include=webhook,reference_object,webhook_notification_logs``."""
    paths = parse_include(include, notifications.INCLUDES)
    found = notifications.get_notification(context_of(request), caller, notification_id, paths)
    return one(request, found, render_notification)
