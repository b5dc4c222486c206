"""The rules of a webhook subscription (the application layer's commands are
:mod:`sealane.service.webhooks.subscriptions`): url, events, active and custom headers.

A value that breaks a rule raises :class:`InvalidSubscription` naming the attribute (and, for a
header, its index and part, as in ``headers/2/name``).
"""

from __future__ import annotations

from typing import Any

from ..vocabulary.events import EVENT_NAMES
from ..vocabulary.webhooks import FORBIDDEN_HEADERS, HEADER_NAME, MAX_HEADERS
from .urlpolicy import Resolver, UnsafeUrl, check_url, system_resolver


class InvalidSubscription(ValueError):
    """A subscription attribute that breaks a rule: ``field`` names it, ``code`` the rule."""

    def __init__(self, detail: str, *, field: str, code: str = "invalid") -> None:
        super().__init__(detail)
        self.detail = detail
        self.field = field
        self.code = code


def validate_url(url: Any, *, allow_private: bool, resolver: Resolver = system_resolver) -> str:
    """A URL the delivery policy accepts (:class:`InvalidSubscription` otherwise)."""
    if not isinstance(url, str) or not url.strip():
        raise InvalidSubscription("url must be a non-blank string", field="url")
    try:
        return check_url(url, allow_private=allow_private, resolver=resolver).url
    except UnsafeUrl as error:
        raise InvalidSubscription(
            f"url is not allowed: {error}", field="url", code="unsafe_url"
        ) from None


def validate_events(events: Any) -> list[str]:
    """At least one known event name, each once."""
    if not isinstance(events, list) or not events:
        raise InvalidSubscription("events must be a non-empty array of event names", field="events")
    if not all(isinstance(event, str) for event in events):
        raise InvalidSubscription("events must be strings", field="events")
    if len(set(events)) != len(events):
        raise InvalidSubscription("events must not repeat a name", field="events", code="duplicate")
    unknown = [event for event in events if event not in EVENT_NAMES]
    if unknown:
        raise InvalidSubscription(
            f"unknown event {unknown[0]!r}; GET /v2/webhooks/events lists them",
            field="events",
            code="unknown_event",
        )
    return list(events)


def validate_headers(headers: Any) -> list[dict[str, str]]:
    """Custom headers: a list of {name, value}, no hop-by-hop or auth-overriding names."""
    if headers is None:
        return []
    if not isinstance(headers, list) or len(headers) > MAX_HEADERS:
        raise InvalidSubscription(
            f"headers must be an array of at most {MAX_HEADERS} objects",
            field="headers",
        )
    cleaned = []
    for index, header in enumerate(headers):
        field = f"headers/{index}"
        if not isinstance(header, dict) or set(header) != {"name", "value"}:
            raise InvalidSubscription("each header is an object with name and value", field=field)
        name, value = header["name"], header["value"]
        if not isinstance(name, str) or not HEADER_NAME.fullmatch(name):
            raise InvalidSubscription(f"{name!r} is not a valid header name", field=f"{field}/name")
        if name.lower() in FORBIDDEN_HEADERS:
            raise InvalidSubscription(
                f"the {name} header cannot be set",
                field=f"{field}/name",
                code="forbidden_header",
            )
        printable = isinstance(value, str) and value.isascii() and value.isprintable()
        if not printable or len(value) > 1024:
            raise InvalidSubscription(
                "header values are printable ASCII strings of at most 1024 characters",
                field=f"{field}/value",
            )
        cleaned.append({"name": name, "value": value})
    return cleaned


def validate_active(active: Any) -> bool:
    """A boolean."""
    if not isinstance(active, bool):
        raise InvalidSubscription("active must be true or false", field="active")
    return active
