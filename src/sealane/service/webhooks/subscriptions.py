"""The application layer's side of webhook subscriptions (their rules are
:mod:`sealane.webhooks.subscription_rules`): create (with a fresh signing secret), list, read,
change and delete."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select

from ...store.models import Webhook
from ...tracking.catalog import CATEGORIES, EventCategory
from ...vocabulary.events import EVENT_NAMES
from ...webhooks import subscription_rules
from ...webhooks.signing import new_secret
from ..access.gatekeeper import Caller
from ..core.context import ServiceContext
from ..core.errors import InvalidInput
from ..core.inputs import editable_only
from ..core.paging import Page, PageRequest
from ..core.queries import fetch_page, owned
from .convert import webhook_record
from .records import WebhookRecord

EDITABLE = ("url", "events", "active", "headers")


@dataclass(frozen=True, slots=True)
class WebhookChanges:
    """Attributes of a webhook to set; None leaves one as it is (``headers=()`` clears them)."""

    url: str | None = None
    events: tuple[str, ...] | None = None
    active: bool | None = None
    headers: tuple[dict[str, str], ...] | None = None

    @classmethod
    def of(cls, attributes: Mapping[str, Any], *, new: bool = False) -> WebhookChanges:
        """Checked from untyped attributes (``url`` is checked against the URL policy when it
        is used). A ``new`` webhook must give ``url``; without ``events`` it subscribes to
        every event (as the reference API does; an empty list is still refused), and
        ``active`` defaults to true."""
        editable_only(attributes, EDITABLE)
        if new:
            attributes = {"url": None, "events": list(EVENT_NAMES), "active": True, **attributes}
        checks: dict[str, Callable[[Any], Any]] = {
            "events": lambda v: tuple(subscription_rules.validate_events(v)),
            "active": subscription_rules.validate_active,
            "headers": lambda v: tuple(subscription_rules.validate_headers(v)),
        }
        values: dict[str, Any] = {}
        for name in (name for name in EDITABLE if name in attributes):
            value = attributes[name]
            if name == "url":
                if not isinstance(value, str) or not value.strip():
                    raise InvalidInput("url must be a non-blank string", field="url")
                values["url"] = value
            else:
                values[name] = _checked(checks[name], value)
        return cls(**values)


def event_categories() -> tuple[EventCategory, ...]:
    """Every event a webhook can subscribe to, by category, with what each one means."""
    return CATEGORIES


@dataclass(frozen=True, slots=True)
class SourceAddresses:
    """The addresses deliveries leave from (as configured), and since when."""

    addresses: tuple[str, ...]
    last_updated: datetime


def source_addresses(ctx: ServiceContext) -> SourceAddresses:
    """The IPv4 addresses webhook deliveries come from, for the receivers' firewalls."""
    return SourceAddresses(ctx.settings.webhook_source_ips, ctx.started_at or ctx.clock.now())


def create_webhook(ctx: ServiceContext, caller: Caller, changes: WebhookChanges) -> WebhookRecord:
    """Subscribe a URL to events (``changes`` made with ``new=True``); the record carries the
    new signing secret."""
    if changes.url is None or not changes.events:
        raise InvalidInput("a new webhook needs a url", field="url")
    url = _allowed_url(ctx, changes.url or "")
    now = ctx.clock.now()
    with ctx.writing() as session:
        row = Webhook(
            account_id=caller.account_id,
            url=url,
            active=bool(changes.active),
            events=list(changes.events or ()),
            secret=new_secret(),
            headers=list(changes.headers or ()),
            created_at=now,
            updated_at=now,
        )
        session.add(row)
        session.flush()
        return webhook_record(row)


def list_webhooks(ctx: ServiceContext, caller: Caller, page: PageRequest) -> Page[WebhookRecord]:
    """The account's webhooks, oldest first."""
    query = (
        select(Webhook)
        .where(Webhook.account_id == caller.account_id)
        .order_by(Webhook.created_at, Webhook.id)
    )
    with ctx.reading() as session:
        total, rows = fetch_page(session, query, page)
        return Page(tuple(webhook_record(row) for row in rows), total, page)


def get_webhook(ctx: ServiceContext, caller: Caller, webhook_id: str) -> WebhookRecord:
    """One of the account's webhooks."""
    with ctx.reading() as session:
        return webhook_record(owned(session, Webhook, webhook_id, caller.account_id, "webhook"))


def update_webhook(
    ctx: ServiceContext, caller: Caller, webhook_id: str, changes: WebhookChanges
) -> WebhookRecord:
    """Change a webhook's url, events, active flag or headers."""
    url = _allowed_url(ctx, changes.url) if changes.url is not None else None
    with ctx.writing() as session:
        row = owned(session, Webhook, webhook_id, caller.account_id, "webhook")
        if url is not None:
            row.url = url
        if changes.events is not None:
            row.events = list(changes.events)
        if changes.active is not None:
            row.active = changes.active
        if changes.headers is not None:
            row.headers = list(changes.headers)
        row.updated_at = ctx.clock.now()
        return webhook_record(row)


def delete_webhook(ctx: ServiceContext, caller: Caller, webhook_id: str) -> None:
    """Remove a webhook (its undelivered notifications go with it)."""
    with ctx.writing() as session:
        session.delete(owned(session, Webhook, webhook_id, caller.account_id, "webhook"))


def _allowed_url(ctx: ServiceContext, url: str) -> str:
    allow_private = ctx.settings.webhook_allow_private
    return str(
        _checked(lambda v: subscription_rules.validate_url(v, allow_private=allow_private), url)
    )


def _checked(check: Callable[[Any], Any], value: Any) -> Any:
    try:
        return check(value)
    except subscription_rules.InvalidSubscription as error:
        raise InvalidInput(error.detail, field=error.field, code=error.code) from None
