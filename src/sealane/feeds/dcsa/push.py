"""DCSA push callbacks: verify the ``Notification-Signature``, keep the events once by eventID.

T&T 2.2 signs a callback with ``Notification-Signature: sha256=<hex>``, the HMAC-SHA256 of the
exact request body keyed by the subscription's shared secret (sent base64-encoded when
subscribing). Kept events are read by the carrier's adapter on its next sync, exactly like
polled ones; the same event pushed twice, or also polled, is one event.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from ...clock import Clock
from ...config.dcsa_carriers import CarrierConfig
from ...store.database import transaction
from .events import BadEvent, DcsaEvent, parse_event
from .store import store_events

log = logging.getLogger("sealane.feeds")

#: The deepest nesting of arrays and objects a callback may have: a T&T 2.2 event is about five
#: levels deep; anything far deeper is refused before it reaches a recursive encoder.
MAX_DEPTH = 32


class PushRejected(Exception):
    """A callback refused: ``status`` is the HTTP status to answer (400, 401 or 404)."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


@dataclass(frozen=True, slots=True)
class PushResult:
    """Events kept now, already kept before, and skipped as not T&T 2.2 events."""

    new: int
    duplicates: int
    skipped: int


def signature_of(body: bytes, secret: bytes) -> str:
    """The ``Notification-Signature`` value of ``body`` under ``secret``."""
    return "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()


def verify_signature(body: bytes, header: str | None, secret: bytes) -> bool:
    """Whether ``header`` (``sha256=<hex>``) signs ``body`` with ``secret`` (constant time)."""
    if not header:
        return False
    kind, _, value = header.strip().partition("=")
    if kind.strip().lower() != "sha256" or not value:
        return False
    expected = hmac.new(secret, body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, value.strip().lower())


def _parse_body(body: bytes) -> list[Any]:
    """The JSON array of a callback, or :class:`PushRejected` (400) for anything else,
    including nesting deeper than :data:`MAX_DEPTH`."""
    try:
        items = json.loads(body)
    except RecursionError as error:
        raise PushRejected(400, f"the body is nested deeper than {MAX_DEPTH} levels") from error
    except ValueError as error:
        raise PushRejected(400, "the body is not JSON") from error
    if not isinstance(items, list):
        raise PushRejected(400, "the body must be an array of events")
    if _depth(items) > MAX_DEPTH:
        raise PushRejected(400, f"the body is nested deeper than {MAX_DEPTH} levels")
    return items


def _depth(value: Any) -> int:
    """How deeply arrays and objects nest in ``value`` (iterative: no recursion limit)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict):
            node = list(node.values())
        if isinstance(node, list):
            deepest = max(deepest, level)
            if level <= MAX_DEPTH:
                stack.extend((child, level + 1) for child in node)
    return deepest


def handle_push(
    sessions: sessionmaker[Session],
    config: CarrierConfig,
    body: bytes,
    signature: str | None,
    clock: Clock,
) -> PushResult:
    """Verify and keep one callback of ``config``'s carrier (what the callback route calls).

    Raises :class:`PushRejected`: 404 when the carrier has no push secret configured, 401 for
    a missing or wrong signature, 400 when the body is not a JSON array. Answer 204 otherwise.
    """
    if config.push_secret is None:
        raise PushRejected(404, f"carrier {config.name} has no push subscription configured")
    if not verify_signature(body, signature, config.push_secret):
        raise PushRejected(401, "Notification-Signature does not sign this body")
    items = _parse_body(body)
    parsed: list[tuple[DcsaEvent, dict[str, Any]]] = []
    reasons: dict[str, int] = {}
    for item in items:
        try:
            parsed.append((parse_event(item), item))
        except BadEvent as error:
            reasons[str(error)] = reasons.get(str(error), 0) + 1
    skipped = sum(reasons.values())
    if skipped:
        # one line per callback, however many items it skips (a line each would let a junk
        # body of thousands of items cost seconds of logging)
        common = sorted(reasons.items(), key=lambda pair: -pair[1])[:3]
        log.warning(
            "push from %s: %d of %d events skipped (%s)",
            config.name,
            skipped,
            len(items),
            "; ".join(f"{count} x {reason[:200]}" for reason, count in common),
        )
    with transaction(sessions) as session:
        new, duplicates = store_events(session, config.scacs[0], parsed, "push", clock.now())
    return PushResult(new, duplicates, skipped)
