"""Delivery of webhook notifications: claimed from the database, signed, retried, logged.

A worker claims due notifications by leasing them (``locked_until``) in a short transaction,
sends them outside any transaction, then records each attempt in its own transaction. A worker
that dies mid-flight loses nothing: its leases expire and another worker (or itself, restarted)
sends again with the same ``webhook-id``. That is at-least-once delivery; receivers deduplicate
by ``webhook-id`` as the Standard Webhooks spec advises.
"""

from __future__ import annotations

import email.utils
import logging
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

import httpx
from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session, sessionmaker

from ..clock import Clock
from ..store.claims import for_update_skip_locked
from ..store.database import transaction
from ..store.models import Webhook, WebhookNotification, WebhookNotificationLog
from ..tracking.poller import never
from .notifications import Renderer, fan_out
from .signing import signed_headers
from .urlpolicy import CheckedUrl, UnsafeUrl, check_url

log = logging.getLogger("sealane.webhooks")

TIMEOUT_S = 10.0
EXCERPT_CHARS = 500
USER_AGENT = "sealane-webhooks/1"
MAX_RETRY_AFTER_S = 7 * 24 * 3600.0


@dataclass(frozen=True, slots=True)
class Attempt:
    """The outcome of one POST."""

    status_code: int | None
    duration_ms: float
    error: str | None = None
    excerpt: str | None = None
    retry_after_s: float | None = None

    @property
    def succeeded(self) -> bool:
        """Any 2xx is a success."""
        return self.status_code is not None and 200 <= self.status_code < 300


@dataclass(frozen=True, slots=True)
class Job:
    """A claimed notification with what is needed to send it."""

    notification_id: str
    attempt: int
    url: str
    secret: str
    headers: tuple[tuple[str, str], ...]
    body: bytes
    active: bool
    #: Past this time the job is not sent: its lease ends too soon for the request to finish
    #: before another worker may claim the notification (see :meth:`DeliveryWorker.run_once`).
    send_by: datetime | None = None


Sender = Callable[[CheckedUrl, dict[str, str], bytes], Attempt]


def http_sender(client: httpx.Client) -> Sender:
    """POST with ``client`` to the checked address (Host and TLS name kept), no redirects."""

    def send(target: CheckedUrl, headers: dict[str, str], body: bytes) -> Attempt:
        default_port = 443 if target.scheme == "https" else 80
        headers = {
            **headers,
            "Host": target.host if target.port == default_port else f"{target.host}:{target.port}",
        }
        started = time.perf_counter()
        deadline = started + TIMEOUT_S
        received = bytearray()
        try:
            url = httpx.URL(target.url).copy_with(host=target.address, port=target.port)
            request = client.build_request(
                "POST", url, headers=headers, content=body, extensions={"sni_hostname": target.host}
            )
            response = client.send(request, stream=True)
            try:
                for chunk in response.iter_bytes():
                    if len(received) < 4 * EXCERPT_CHARS:
                        received += chunk
                    if time.perf_counter() > deadline:  # a trickling answer must not hold the job
                        raise httpx.ReadTimeout(f"no complete answer within {TIMEOUT_S:g} s")
            finally:
                response.close()
        except (httpx.HTTPError, httpx.InvalidURL, UnicodeError, ValueError) as failure:
            elapsed = (time.perf_counter() - started) * 1000
            return Attempt(None, elapsed, error=f"{type(failure).__name__}: {failure}")
        elapsed = (time.perf_counter() - started) * 1000
        excerpt = bytes(received[:EXCERPT_CHARS]).decode("utf-8", "replace") if received else None
        note = "redirects are not followed" if 300 <= response.status_code < 400 else None
        return Attempt(response.status_code, elapsed, note, excerpt, _retry_after(response))

    return send


def _take(session: Session, seen: WebhookNotification, now: datetime, until: datetime) -> bool:
    """Lease one notification if it is still as ``seen`` and due: compare-and-set on any backend.

    Comparing the attempt count too means a worker that read the row before another worker sent
    and recorded an attempt cannot claim it again with a stale attempt number.
    """
    claimed = session.execute(
        update(WebhookNotification)
        .where(
            WebhookNotification.id == seen.id,
            WebhookNotification.delivery_status == "pending",
            WebhookNotification.attempts == seen.attempts,
            WebhookNotification.next_attempt_at <= now,
            or_(WebhookNotification.locked_until.is_(None), WebhookNotification.locked_until < now),
        )
        .values(locked_until=until)
        .execution_options(synchronize_session=False)
    )
    return int(getattr(claimed, "rowcount", 0)) == 1


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    if not value:
        return None
    if value.strip().isdigit():
        return float(value.strip())
    try:
        moment = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max((moment - datetime.now(moment.tzinfo)).total_seconds(), 0.0)


class DeliveryWorker:
    """Fans the outbox out into notifications and delivers the ones that are due."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        clock: Clock,
        *,
        render: Renderer,
        schedule: tuple[int, ...],
        allow_private: bool,
        sender: Sender | None = None,
        lease_s: float = 120.0,
        batch: int = 50,
        concurrency: int = 8,
        wall_clock: Callable[[], float] = time.time,
        on_outcome: Callable[[str], None] | None = None,
    ) -> None:
        self.sessions = sessions
        self.clock = clock
        self.render = render
        self.schedule = schedule
        self.allow_private = allow_private
        self.lease = timedelta(seconds=lease_s)
        self._timeout = timedelta(seconds=TIMEOUT_S)
        self.batch = batch
        self._client = httpx.Client(
            follow_redirects=False, timeout=TIMEOUT_S, headers={"User-Agent": USER_AGENT}
        )
        self.sender = sender or http_sender(self._client)
        self._pool = ThreadPoolExecutor(
            max_workers=concurrency, thread_name_prefix="sealane-webhook"
        )
        self._rng = random.Random()
        #: Signing time: receivers check ``webhook-timestamp`` against their real clock, so it
        #: is wall time even when the service runs on a simulated clock.
        self.wall_clock = wall_clock
        #: Told each recorded attempt's outcome ("succeeded", "retrying" or "failed"): the
        #: service's metrics.
        self.on_outcome = on_outcome

    def close(self) -> None:
        """Release the HTTP client and the sending threads."""
        self._pool.shutdown(wait=True)
        self._client.close()

    def tick(self, stopping: Callable[[], bool] = never) -> int:
        """One pass (see :meth:`run_once`), so a background poller can drive the worker."""
        return self.run_once(stopping)

    def run_once(self, stopping: Callable[[], bool] = never) -> int:
        """One pass: fan out the outbox, then send what is due; returns attempts made. Once
        ``stopping()``, no further send starts: the sends in flight finish (each within the
        timeout) and are recorded, and the notifications claimed but not sent are handed back
        at once for any worker to take."""
        now = self.clock.now()
        with transaction(self.sessions) as session:
            fan_out(session, now, self.render)
        if stopping():
            return 0
        jobs = self._claim(now)
        results = list(self._pool.map(partial(self._send_in_time, stopping=stopping), jobs))
        for job, attempt in zip(jobs, results, strict=True):
            if attempt is not None:
                self._record(job, attempt)
        unsent = [
            job.notification_id
            for job, attempt in zip(jobs, results, strict=True)
            if attempt is None
        ]
        if unsent and stopping():
            self._hand_back(unsent, now)
        return sum(attempt is not None for attempt in results)

    def _hand_back(self, notification_ids: list[str], claimed_at: datetime) -> None:
        """Release the leases this pass took (at ``claimed_at``) on notifications it did not
        send, so another worker may send them now rather than when the lease runs out."""
        with transaction(self.sessions) as session:
            session.execute(
                update(WebhookNotification)
                .where(
                    WebhookNotification.id.in_(notification_ids),
                    WebhookNotification.locked_until == claimed_at + self.lease,
                )
                .values(locked_until=None)
            )

    def _claim(self, now: datetime) -> list[Job]:
        """Lease due notifications to this worker (skipping those other workers hold)."""
        with transaction(self.sessions) as session:
            query = (
                select(WebhookNotification)
                .where(
                    WebhookNotification.delivery_status == "pending",
                    WebhookNotification.next_attempt_at <= now,
                    or_(
                        WebhookNotification.locked_until.is_(None),
                        WebhookNotification.locked_until < now,
                    ),
                )
                .order_by(WebhookNotification.next_attempt_at)
                .limit(self.batch)
            )
            jobs = []
            for notification in session.scalars(for_update_skip_locked(session, query)).all():
                if not _take(session, notification, now, now + self.lease):
                    continue  # another worker claimed it in the meantime
                webhook = session.get(Webhook, notification.webhook_id)
                jobs.append(
                    Job(
                        notification_id=notification.id,
                        attempt=notification.attempts + 1,
                        url=webhook.url if webhook else "",
                        secret=webhook.secret if webhook else "",
                        headers=tuple(
                            (h["name"], h["value"]) for h in (webhook.headers if webhook else [])
                        ),
                        body=notification.payload.encode(),
                        active=bool(webhook and webhook.active),
                        send_by=now + self.lease - min(2 * self._timeout, self.lease / 2),
                    )
                )
            return jobs

    def _send_in_time(self, job: Job, stopping: Callable[[], bool] = never) -> Attempt | None:
        """:meth:`_send_isolated`, unless the job waited in the pool until its lease nearly ran
        out (a slow batch): then it is left unsent (None) and unrecorded, for whichever worker
        claims it once the lease has expired, so two workers never send it at once. Left
        unsent too once ``stopping()``."""
        if stopping() or (job.send_by is not None and self.clock.now() > job.send_by):
            return None
        return self._send_isolated(job)

    def _send_isolated(self, job: Job) -> Attempt:
        """:meth:`_send`, with any failure recorded as this job's failed attempt: one bad row
        (a URL stored before the policy refused it, a header the client rejects) must never stop
        the rest of the batch, which belongs to other webhooks and other accounts."""
        try:
            return self._send(job)
        except Exception as failure:
            log.exception("delivery of notification %s failed", job.notification_id)
            return Attempt(None, 0.0, error=f"{type(failure).__name__}: {failure}"[:500])

    def _send(self, job: Job) -> Attempt:
        if not job.active:
            return Attempt(None, 0.0, error="the webhook is inactive or deleted")
        try:
            target = check_url(job.url, allow_private=self.allow_private)  # DNS may have changed
        except UnsafeUrl as error:
            return Attempt(None, 0.0, error=f"refused by the URL policy: {error}")
        timestamp = int(self.wall_clock())
        headers = dict(job.headers)
        headers["Content-Type"] = "application/json"
        headers.update(signed_headers(job.secret, job.notification_id, timestamp, job.body))
        return self.sender(target, headers, job.body)

    def _record(self, job: Job, attempt: Attempt) -> None:
        """Log the attempt and decide: succeeded, retry later, or failed for good."""
        now = self.clock.now()
        with transaction(self.sessions) as session:
            notification = session.get(WebhookNotification, job.notification_id)
            if notification is None:
                return
            session.add(
                WebhookNotificationLog(
                    notification_id=notification.id,
                    attempt=job.attempt,
                    attempted_at=now,
                    status_code=attempt.status_code,
                    duration_ms=attempt.duration_ms,
                    error=attempt.error,
                    response_excerpt=attempt.excerpt,
                )
            )
            if notification.delivery_status != "pending" or notification.attempts >= job.attempt:
                return  # settled by another worker whose lease overlapped: keep its outcome
            notification.attempts = job.attempt
            notification.locked_until = None
            notification.updated_at = now
            if attempt.succeeded:
                notification.delivery_status = outcome = "succeeded"
                notification.next_attempt_at = None
            elif not job.active or job.attempt > len(self.schedule):
                notification.delivery_status = outcome = "failed"
                notification.next_attempt_at = None
            else:
                outcome = "retrying"
                delay = self.schedule[job.attempt - 1] * self._rng.uniform(0.9, 1.1)
                if attempt.retry_after_s is not None:  # honoured, up to a week
                    delay = max(delay, min(attempt.retry_after_s, MAX_RETRY_AFTER_S))
                notification.next_attempt_at = now + timedelta(seconds=delay)
        if self.on_outcome is not None:  # once committed
            self.on_outcome(outcome)
