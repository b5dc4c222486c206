"""Webhook subscriptions: validation of url, events, active and custom headers."""

from __future__ import annotations

import re
from typing import Any

from ..tracking.events import EVENT_NAMES
from ..tracking.requests import InvalidInput
from .urlpolicy import Resolver, UnsafeUrl, check_url, system_resolver

#: Headers a subscription may not set: hop-by-hop, framing, and those that carry identity or
#: the signature (a custom header must never override authentication or signing).
FORBIDDEN_HEADERS = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "host",
        "content-length",
        "content-type",
        "content-encoding",
        "authorization",
        "cookie",
        "webhook-id",
        "webhook-timestamp",
        "webhook-signature",
    }
)
HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$")
MAX_HEADERS = 20


def _pointer(name: str) -> str:
    return f"/data/attributes/{name}"


def validate_url(url: Any, *, allow_private: bool, resolver: Resolver = system_resolver) -> str:
    """A URL the delivery policy accepts (422 pointer ``/data/attributes/url`` otherwise)."""
    if not isinstance(url, str) or not url.strip():
        raise InvalidInput("url must be a non-blank string", pointer=_pointer("url"))
    try:
        return check_url(url, allow_private=allow_private, resolver=resolver).url
    except UnsafeUrl as error:
        raise InvalidInput(
            f"url is not allowed: {error}", pointer=_pointer("url"), code="unsafe_url"
        ) from None


def validate_events(events: Any) -> list[str]:
    """At least one known event name, each once."""
    if not isinstance(events, list) or not events:
        raise InvalidInput(
            "events must be a non-empty array of event names", pointer=_pointer("events")
        )
    if not all(isinstance(event, str) for event in events):
        raise InvalidInput("events must be strings", pointer=_pointer("events"))
    if len(set(events)) != len(events):
        raise InvalidInput(
            "events must not repeat a name", pointer=_pointer("events"), code="duplicate"
        )
    unknown = [event for event in events if event not in EVENT_NAMES]
    if unknown:
        raise InvalidInput(
            f"unknown event {unknown[0]!r}; GET /v2/webhooks/events lists them",
            pointer=_pointer("events"),
            code="unknown_event",
        )
    return list(events)


def validate_headers(headers: Any) -> list[dict[str, str]]:
    """Custom headers: a list of {name, value}, no hop-by-hop or auth-overriding names."""
    if headers is None:
        return []
    if not isinstance(headers, list) or len(headers) > MAX_HEADERS:
        raise InvalidInput(
            f"headers must be an array of at most {MAX_HEADERS} objects",
            pointer=_pointer("headers"),
        )
    cleaned = []
    for index, header in enumerate(headers):
        pointer = f"{_pointer('headers')}/{index}"
        if not isinstance(header, dict) or set(header) != {"name", "value"}:
            raise InvalidInput("each header is an object with name and value", pointer=pointer)
        name, value = header["name"], header["value"]
        if not isinstance(name, str) or not HEADER_NAME.fullmatch(name):
            raise InvalidInput(f"{name!r} is not a valid header name", pointer=f"{pointer}/name")
        if name.lower() in FORBIDDEN_HEADERS:
            raise InvalidInput(
                f"the {name} header cannot be set",
                pointer=f"{pointer}/name",
                code="forbidden_header",
            )
        printable = isinstance(value, str) and value.isascii() and value.isprintable()
        if not printable or len(value) > 1024:
            raise InvalidInput(
                "header values are printable ASCII strings of at most 1024 characters",
                pointer=f"{pointer}/value",
            )
        cleaned.append({"name": name, "value": value})
    return cleaned


def validate_active(active: Any) -> bool:
    """A boolean."""
    if not isinstance(active, bool):
        raise InvalidInput("active must be true or false", pointer=_pointer("active"))
    return active
