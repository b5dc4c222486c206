"""Test deliveries: an example notification of one event, signed and sent once to a URL, with
what was sent and what came back, so an integrator can check a receiver before subscribing it.

The URL passes the same policy as a webhook's (https, public addresses only unless the
development setting allows more); nothing is stored and nothing is retried.

A trial waits for the receiver (up to the delivery timeout), so it never runs on the threads the
other requests share: :func:`submit_trial` runs it on a small executor of its own, and admits at
most :data:`PER_ACCOUNT` trials of one account at a time (more: :class:`RateLimited`, 429 with
``Retry-After``, rather than a queue behind a slow receiver).
"""

from __future__ import annotations

import base64
import binascii
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import httpx

from ...vocabulary.webhooks import SECRET_PREFIX
from ...webhooks.delivery import TIMEOUT_S, USER_AGENT, Sender, http_sender
from ...webhooks.signing import new_secret, signed_headers
from ...webhooks.urlpolicy import UnsafeUrl, check_url
from ..access.gatekeeper import Caller
from ..core.context import ServiceContext
from ..core.errors import InvalidInput, RateLimited
from .examples import notification_examples
from .records import NotificationRecord

MAX_SECRET_CHARS = 200
#: Trials of one account under way at once, and of all accounts (the executor's threads).
PER_ACCOUNT = 2
WORKERS = 8


@dataclass(frozen=True, slots=True)
class WebhookTrial:
    """Where to send a test notification, of which event, signed with which secret (None: a
    fresh one, returned with the result)."""

    url: str
    event: str
    secret: str | None = None

    @classmethod
    def of(cls, fields: Mapping[str, Any]) -> WebhookTrial:
        """Checked from an untyped object with ``url``, ``event`` and maybe ``secret``."""
        url, event, secret = fields.get("url"), fields.get("event"), fields.get("secret")
        if not isinstance(url, str) or not url.strip():
            raise InvalidInput("url must be a non-blank string", field="url")
        if not isinstance(event, str) or not event:
            raise InvalidInput("event must be an event name", field="event")
        if secret is not None:
            _check_secret(secret)
        return cls(url.strip(), event, secret)


@dataclass(frozen=True, slots=True)
class TrialResult:
    """What was sent and what the receiver answered (``status_code`` None: no answer)."""

    url: str
    succeeded: bool
    error: str | None
    status_code: int | None
    request_headers: dict[str, str]
    request_body: str
    response_body: str | None
    secret: str


def trigger_webhook(
    ctx: ServiceContext,
    trial: WebhookTrial,
    *,
    render: Callable[[NotificationRecord], bytes],
    sender: Sender | None = None,
) -> TrialResult:
    """Send the example notification of ``trial.event`` to ``trial.url`` once (blocking, at
    most the delivery timeout). ``render`` gives the body a webhook receives (the runtime's
    renderer, so this layer renders no documents itself); ``sender`` replaces the HTTP client
    (tests)."""
    example = notification_examples(trial.event)[0]
    try:
        target = check_url(trial.url, allow_private=ctx.settings.webhook_allow_private)
    except UnsafeUrl as error:
        raise InvalidInput(f"url is not allowed: {error}", field="url", code="unsafe_url") from None
    secret = trial.secret or new_secret()
    body = render(example)
    message_id = f"msg_{uuid.uuid4().hex}"
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT}
    headers.update(signed_headers(secret, message_id, int(time.time()), body))
    if sender is None:
        with httpx.Client(follow_redirects=False, timeout=TIMEOUT_S) as client:
            attempt = http_sender(client)(target, headers, body)
    else:
        attempt = sender(target, headers, body)
    return TrialResult(
        url=target.url,
        succeeded=attempt.succeeded,
        error=attempt.error,
        status_code=attempt.status_code,
        request_headers=headers,
        request_body=body.decode(),
        response_body=attempt.excerpt,
        secret=secret,
    )


class TrialGate:
    """The executor trials run on, and the count of each account's trials under way."""

    def __init__(self, per_account: int = PER_ACCOUNT, workers: int = WORKERS) -> None:
        self.per_account = per_account
        self._workers = workers
        self._lock = threading.Lock()
        self._running: Counter[str] = Counter()
        self._executor: ThreadPoolExecutor | None = None

    def submit(self, account_id: str, work: Callable[[], TrialResult]) -> Future[TrialResult]:
        """``work`` started on the trial executor; :class:`RateLimited` when the account has
        :attr:`per_account` trials under way."""
        with self._lock:
            if self._running[account_id] >= self.per_account:
                raise RateLimited(
                    f"at most {self.per_account} test deliveries of an account at a time; "
                    "retry when one has answered",
                    retry_after_s=TIMEOUT_S,
                )
            self._running[account_id] += 1
            if self._executor is None:
                self._executor = ThreadPoolExecutor(self._workers, "webhook-trial")
            executor = self._executor
        try:
            future = executor.submit(work)
        except BaseException:
            self._release(account_id)
            raise
        future.add_done_callback(lambda _: self._release(account_id))
        return future

    def _release(self, account_id: str) -> None:
        with self._lock:
            self._running[account_id] -= 1
            if self._running[account_id] <= 0:
                del self._running[account_id]


#: The gate of this process's trials.
GATE = TrialGate()


def submit_trial(
    ctx: ServiceContext,
    caller: Caller,
    trial: WebhookTrial,
    *,
    render: Callable[[NotificationRecord], bytes],
    gate: TrialGate = GATE,
) -> Future[TrialResult]:
    """:func:`trigger_webhook` on the trial executor, off the caller's thread; its future."""
    return gate.submit(caller.account_id, lambda: trigger_webhook(ctx, trial, render=render))


def _check_secret(secret: Any) -> None:
    """A Standard Webhooks secret: ``whsec_`` and base64 of at least 16 bytes."""
    problem = "secret must be whsec_ followed by base64 of at least 16 bytes"
    if not isinstance(secret, str) or len(secret) > MAX_SECRET_CHARS:
        raise InvalidInput(problem, field="secret")
    try:
        key = base64.b64decode(secret.removeprefix(SECRET_PREFIX), validate=True)
    except (binascii.Error, ValueError):
        raise InvalidInput(problem, field="secret") from None
    if not secret.startswith(SECRET_PREFIX) or len(key) < 16:
        raise InvalidInput(problem, field="secret")
