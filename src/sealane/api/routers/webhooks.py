"""Webhooks and webhook notifications (account-scoped), and the body a notification delivers."""

from __future__ import annotations

from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response
from sqlalchemy import select
from sqlalchemy.orm import Session

from ...routing.ports import registry
from ...store.database import transaction
from ...store.models import (
    Container,
    ContainerUpdatedEvent,
    EstimatedEvent,
    Shipment,
    TrackingRequest,
    TransportEvent,
    Webhook,
    WebhookNotification,
    WebhookNotificationLog,
)
from ...tracking.events import EVENT_NAMES
from ...tracking.requests import InvalidInput
from ...webhooks.signing import new_secret
from ...webhooks.subscriptions import (
    validate_active,
    validate_events,
    validate_headers,
    validate_url,
)
from ..auth import Caller, authenticate
from ..documents import attributes_of
from ..errors import BadRequest, Unprocessable
from ..jsonapi import JsonApiResponse, list_document, parse_include, parse_page, resource, to_one
from ..listing import PageNumber, PageSize, Payload, owned, paged
from ..params import optional_text
from ..resources import iso, port_resource
from ..tracking_resources import (
    container_updated_event_resource,
    estimated_event_resource,
    to_many,
    tracking_request_resource,
    transport_event_resource,
)
from .responses import ERRORS
from .tracking import Documents, list_response

router = APIRouter()
Auth = Annotated[Caller, Depends(authenticate)]
NOTIFICATION_INCLUDES = ("webhook", "reference_object", "webhook_notification_logs")


def webhook_resource(
    webhook: Webhook, base_url: str, *, with_secret: bool = False
) -> dict[str, Any]:
    """A ``webhook`` resource; the secret is shown only when the webhook is created."""
    attributes: dict[str, Any] = {
        "url": webhook.url,
        "active": webhook.active,
        "events": list(webhook.events),
        "headers": list(webhook.headers or []),
        "created_at": iso(webhook.created_at),
        "updated_at": iso(webhook.updated_at),
    }
    if with_secret:
        attributes["secret"] = webhook.secret
    return resource(
        "webhook", webhook.id, attributes, links={"self": f"{base_url}/webhooks/{webhook.id}"}
    )


def log_resource(log: WebhookNotificationLog) -> dict[str, Any]:
    """A ``webhook_notification_log`` resource: one delivery attempt."""
    return resource(
        "webhook_notification_log",
        log.id,
        {
            "attempt": log.attempt,
            "attempted_at": iso(log.attempted_at),
            "status_code": log.status_code,
            "duration_ms": round(log.duration_ms, 3),
            "error": log.error,
            "response_excerpt": log.response_excerpt,
        },
        relationships={"webhook_notification": to_one("webhook_notification", log.notification_id)},
    )


class NotificationDocuments(Documents):
    """Notification documents: the reference object and the objects it points to."""

    def notification(
        self, notification: WebhookNotification, includes: tuple[str, ...] | list[str]
    ) -> dict[str, Any]:
        logs = self.session.scalars(
            select(WebhookNotificationLog)
            .where(WebhookNotificationLog.notification_id == notification.id)
            .order_by(WebhookNotificationLog.attempt)
        ).all()
        if "webhook" in includes:
            webhook = self.session.get(Webhook, notification.webhook_id)
            if webhook is not None:
                self._add(webhook_resource(webhook, self.base))
        if "reference_object" in includes:
            self.reference(notification.reference_type, notification.reference_id)
        if "webhook_notification_logs" in includes:
            for log in logs:
                self._add(log_resource(log))
        return resource(
            "webhook_notification",
            notification.id,
            {
                "id": notification.id,
                "event": notification.event,
                "delivery_status": notification.delivery_status,
                "created_at": iso(notification.created_at),
            },
            relationships={
                "webhook": to_one("webhook", notification.webhook_id),
                "reference_object": to_one(notification.reference_type, notification.reference_id),
                "webhook_notification_logs": to_many(
                    "webhook_notification_log", [log.id for log in logs]
                ),
            },
            links={"self": f"{self.base}/webhook_notifications/{notification.id}"},
        )

    def reference(self, kind: str, object_id: str) -> None:
        """Include the reference object and the shipment, container, port and terminal it names."""
        if kind == "transport_event":
            event = self.session.get(TransportEvent, object_id)
            if event is not None:
                self._add(transport_event_resource(event, self.base))
                self._related(
                    event.shipment_id, event.container_id, event.location_locode, event.terminal_id
                )
        elif kind == "estimated_event":
            estimate = self.session.get(EstimatedEvent, object_id)
            if estimate is not None:
                self._add(estimated_event_resource(estimate, self.base))
                self._related(estimate.shipment_id, None, estimate.location_locode, None)
        elif kind == "container_updated_event":
            update = self.session.get(ContainerUpdatedEvent, object_id)
            if update is not None:
                self._add(container_updated_event_resource(update, self.base))
                self._related(None, update.container_id, None, update.terminal_id)
        elif kind == "tracking_request":
            request = self.session.get(TrackingRequest, object_id)
            if request is not None:
                self._add(tracking_request_resource(request, self.base))
                self._related(request.shipment_id, None, None, None)
        elif kind == "container":
            container = self.session.get(Container, object_id)
            if container is not None:
                shipment = self.session.get(Shipment, container.shipment_id)
                pod = shipment.port_of_discharge_locode if shipment else None
                self._related(container.shipment_id, container.id, pod, container.pod_terminal_id)

    def _related(
        self,
        shipment_id: str | None,
        container_id: str | None,
        locode: str | None,
        terminal_id: str | None,
    ) -> None:
        if shipment_id and (shipment := self.session.get(Shipment, shipment_id)) is not None:
            self._add(self.shipment(shipment))
        if container_id and (container := self.session.get(Container, container_id)) is not None:
            self._add(self.container(container))
        if locode:
            self._add(port_resource(registry().get(locode), self.base))
        if terminal_id:
            self._terminal(terminal_id)


def render_notification(base_url: str) -> Any:
    """The worker's renderer: the notification document with its reference object included."""

    def render(session: Session, notification: WebhookNotification) -> bytes:
        docs = NotificationDocuments(session, base_url)
        data = docs.notification(notification, ("reference_object",))
        doc = {"data": data, "included": list(docs.included.values())}
        return orjson.dumps(doc)

    return render


def _invalid(error: InvalidInput) -> Unprocessable:
    return Unprocessable(error.detail, pointer=error.pointer, code=error.code)


@router.get("/webhooks/events", response_class=JsonApiResponse, responses=ERRORS, tags=["webhooks"])
def list_events(request: Request, _caller: Auth) -> JsonApiResponse:
    """Every event name a webhook can subscribe to."""
    parse_include(request.query_params, ())
    data = [resource("webhook_event", name, {"name": name}) for name in EVENT_NAMES]
    return JsonApiResponse({"data": data, "meta": {"total": len(data)}})


@router.get("/webhooks", response_class=JsonApiResponse, responses=ERRORS, tags=["webhooks"])
def list_webhooks(
    request: Request, caller: Auth, page_number: PageNumber = None, page_size: PageSize = None
) -> JsonApiResponse:
    """The account's webhooks."""
    params = request.query_params
    page = parse_page(params)
    parse_include(params, ())
    state = request.app.state.sealane
    query = select(Webhook).where(Webhook.account_id == caller.account_id)
    with state.sessions() as session:
        total, rows = paged(session, query.order_by(Webhook.created_at, Webhook.id), page)
    base = state.settings.base_url
    data = [webhook_resource(row, base) for row in rows]
    return JsonApiResponse(
        list_document(data, self_url=f"{base}/webhooks", params=params, page=page, total=total)
    )


@router.post(
    "/webhooks",
    status_code=201,
    response_class=JsonApiResponse,
    responses=ERRORS,
    tags=["webhooks"],
)
def create_webhook(request: Request, caller: Auth, payload: Payload) -> JsonApiResponse:
    """Subscribe a URL to events; the response shows the signing secret, once."""
    attributes = attributes_of(payload, "webhook")
    state = request.app.state.sealane
    allow_private = state.settings.webhook_allow_private
    try:
        url = validate_url(attributes.get("url"), allow_private=allow_private)
        events = validate_events(attributes.get("events"))
        active = validate_active(attributes.get("active", True))
        headers = validate_headers(attributes.get("headers"))
    except InvalidInput as error:
        raise _invalid(error) from None
    now = state.clock.now()
    with transaction(state.sessions) as session:
        webhook = Webhook(
            account_id=caller.account_id,
            url=url,
            active=active,
            events=events,
            secret=new_secret(),
            headers=headers,
            created_at=now,
            updated_at=now,
        )
        session.add(webhook)
        session.flush()
        data = webhook_resource(webhook, state.settings.base_url, with_secret=True)
    link = data["links"]["self"]
    return JsonApiResponse(
        {"data": data, "links": {"self": link}}, status_code=201, headers={"Location": link}
    )


@router.get(
    "/webhooks/{webhook_id}", response_class=JsonApiResponse, responses=ERRORS, tags=["webhooks"]
)
def get_webhook(request: Request, webhook_id: str, caller: Auth) -> JsonApiResponse:
    """One webhook (without its secret)."""
    parse_include(request.query_params, ())
    state = request.app.state.sealane
    with state.sessions() as session:
        webhook = owned(session, Webhook, webhook_id, caller, "webhook")
        data = webhook_resource(webhook, state.settings.base_url)
    return JsonApiResponse({"data": data, "links": {"self": data["links"]["self"]}})


@router.patch(
    "/webhooks/{webhook_id}", response_class=JsonApiResponse, responses=ERRORS, tags=["webhooks"]
)
def update_webhook(
    request: Request, webhook_id: str, caller: Auth, payload: Payload
) -> JsonApiResponse:
    """Change a webhook's url, events, active flag or headers."""
    attributes = attributes_of(payload, "webhook", id_=webhook_id)
    state = request.app.state.sealane
    validators = {
        "url": lambda v: validate_url(v, allow_private=state.settings.webhook_allow_private),
        "events": validate_events,
        "active": validate_active,
        "headers": validate_headers,
    }
    for name in attributes:
        if name not in validators:
            raise Unprocessable(
                f"{name} cannot be changed", pointer=f"/data/attributes/{name}", code="read_only"
            )
    try:
        changes = {name: validators[name](value) for name, value in attributes.items()}
    except InvalidInput as error:
        raise _invalid(error) from None
    with transaction(state.sessions) as session:
        webhook = owned(session, Webhook, webhook_id, caller, "webhook")
        for name, value in changes.items():
            setattr(webhook, name, value)
        webhook.updated_at = state.clock.now()
        data = webhook_resource(webhook, state.settings.base_url)
    return JsonApiResponse({"data": data, "links": {"self": data["links"]["self"]}})


@router.delete("/webhooks/{webhook_id}", status_code=204, responses=ERRORS, tags=["webhooks"])
def delete_webhook(request: Request, webhook_id: str, caller: Auth) -> Response:
    """Remove a webhook (its undelivered notifications go with it)."""
    state = request.app.state.sealane
    with transaction(state.sessions) as session:
        session.delete(owned(session, Webhook, webhook_id, caller, "webhook"))
    return Response(status_code=204)


@router.get(
    "/webhook_notifications", response_class=JsonApiResponse, responses=ERRORS, tags=["webhooks"]
)
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
    parse_page(params)  # a bad page is reported before the other parameters
    includes = parse_include(params, NOTIFICATION_INCLUDES)
    query = select(WebhookNotification).where(WebhookNotification.account_id == caller.account_id)
    if value := optional_text(params, "filter[event]"):
        query = query.where(WebhookNotification.event == value)
    if value := optional_text(params, "filter[delivery_status]"):
        if value not in ("pending", "succeeded", "failed"):
            raise BadRequest(
                "filter[delivery_status] is pending, succeeded or failed",
                parameter="filter[delivery_status]",
                code="invalid_parameter",
            )
        query = query.where(WebhookNotification.delivery_status == value)
    if value := optional_text(params, "filter[webhook]"):
        query = query.where(WebhookNotification.webhook_id == value)
    return list_response(
        request,
        query.order_by(WebhookNotification.created_at.desc(), WebhookNotification.id),
        "webhook_notifications",
        lambda docs, row: docs.notification(row, includes),
        documents=NotificationDocuments,
    )


@router.get(
    "/webhook_notifications/{notification_id}",
    response_class=JsonApiResponse,
    responses=ERRORS,
    tags=["webhooks"],
)
def get_notification(
    request: Request,
    notification_id: str,
    caller: Auth,
    include: Annotated[str | None, Query()] = None,
) -> JsonApiResponse:
    """One notification; ``include=webhook,reference_object,webhook_notification_logs``."""
    includes = parse_include(request.query_params, NOTIFICATION_INCLUDES)
    state = request.app.state.sealane
    with state.sessions() as session:
        notification = owned(
            session, WebhookNotification, notification_id, caller, "webhook notification"
        )
        docs = NotificationDocuments(session, state.settings.base_url)
        doc = docs.single(docs.notification(notification, includes))
    return JsonApiResponse(doc)
