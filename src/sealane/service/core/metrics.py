"""What the service counts for ``GET /metrics``: requests, webhook deliveries and AIS ingest.

One :class:`Metrics` per running service (it lives on the
:class:`~.context.ServiceContext`), with a registry of its own, so that tests may build as many
services in one process as they like. The shells and the domain code count through its few
methods and never touch ``prometheus_client`` themselves; the webhook worker gets
:meth:`Metrics.webhook_delivery` as a plain callable. What is a state of the database rather
than an event of this process (the webhook queue, the poller's lag) is not counted here but read
when scraped (:mod:`.health`) and written beside the counters by :meth:`Metrics.exposition`.

Several processes: when ``PROMETHEUS_MULTIPROC_DIR`` names a directory (set before the
process starts: ``prometheus_client`` reads it on import), every process writes its counters to
files there and each process's ``/metrics`` answers the sum over all of them, the ``sealane
worker`` and ``sealane ais`` processes included. Without it, each process answers its own.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Final

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

#: The media type of the text exposition format.
CONTENT_TYPE: Final = "text/plain; version=0.0.4; charset=utf-8"
#: Seconds: from a health probe's fraction of a millisecond to a 25-day voyage under load.
LATENCY_BUCKETS_S: Final = (
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
)  # fmt: skip
#: What a webhook attempt came to: delivered, to be tried again, or given up.
WEBHOOK_OUTCOMES: Final = ("succeeded", "retrying", "failed")
#: The environment variable ``prometheus_client`` reads for its multiprocess mode.
MULTIPROC_VARIABLE: Final = "PROMETHEUS_MULTIPROC_DIR"


@dataclass(frozen=True, slots=True)
class Backlog:
    """Work waiting in the database when scraped; None where the database did not answer."""

    #: Webhook notifications not yet delivered nor given up.
    webhook_queue: int | None
    #: Events recorded but not yet fanned out into notifications.
    outbox: int | None
    #: Seconds since the longest-waiting due tracking request should have been looked up (0
    #: when none is overdue).
    poller_lag_s: float | None


class Metrics:
    """The counters and histograms of one running service."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self._requests = Counter(
            "sealane_http_requests",
            "HTTP requests answered, by route template, method and status",
            ("route", "method", "status"),
            registry=r,
        )
        self._latency = Histogram(
            "sealane_http_request_duration_seconds",
            "Time from a request's arrival to its last byte sent, by route template and method",
            ("route", "method"),
            buckets=LATENCY_BUCKETS_S,
            registry=r,
        )
        self._webhooks = Counter(
            "sealane_webhook_deliveries",
            "Webhook delivery attempts by outcome (succeeded, retrying, failed)",
            ("outcome",),
            registry=r,
        )
        self._ais_sentences = Counter(
            "sealane_ais_sentences", "AIS sentences (NMEA lines) read", registry=r
        )
        self._ais_messages = Counter(
            "sealane_ais_messages_ingested",
            "AIS messages decoded and ingested, by kind (position, static)",
            ("kind",),
            registry=r,
        )
        self._ais_stored = Counter(
            "sealane_ais_positions_stored", "AIS positions stored as vessel positions", registry=r
        )
        self._ais_thinned = Counter(
            "sealane_ais_positions_thinned",
            "AIS positions left out by thinning (one a minute per vessel)",
            registry=r,
        )
        self._ais_dropped = Counter(
            "sealane_ais_dropped",
            "AIS sentences or messages dropped, by reason",
            ("reason",),
            registry=r,
        )

    def request(self, route: str, method: str, status: int, seconds: float) -> None:
        """One HTTP request answered; ``route`` is its template (bounded), never the raw path."""
        self._requests.labels(route, method, str(status)).inc()
        self._latency.labels(route, method).observe(seconds)

    def webhook_delivery(self, outcome: str) -> None:
        """One webhook attempt recorded with ``outcome``, one of :data:`WEBHOOK_OUTCOMES`."""
        if outcome not in WEBHOOK_OUTCOMES:
            raise ValueError(f"unknown webhook outcome {outcome!r}")
        self._webhooks.labels(outcome).inc()

    def ais_ingested(
        self,
        *,
        sentences: int,
        positions: int,
        statics: int,
        stored: int,
        thinned: int,
        dropped: Mapping[str, int],
    ) -> None:
        """Add what (part of) an AIS run read, ingested, stored and dropped by reason."""
        self._ais_sentences.inc(sentences)
        self._ais_messages.labels("position").inc(positions)
        self._ais_messages.labels("static").inc(statics)
        self._ais_stored.inc(stored)
        self._ais_thinned.inc(thinned)
        for reason, count in dropped.items():
            if count:
                self._ais_dropped.labels(reason).inc(count)

    def exposition(self, backlog: Backlog) -> bytes:
        """The text exposition: this process's counters (every process's, in multiprocess
        mode), then the database's backlog as gauges."""
        directory = os.environ.get(MULTIPROC_VARIABLE)
        if directory:
            merged = CollectorRegistry()
            MultiProcessCollector(merged, path=directory)  # type: ignore[no-untyped-call]
            counters = generate_latest(merged)
        else:
            counters = generate_latest(self.registry)
        gauges = CollectorRegistry()
        gauges.register(_BacklogCollector(backlog))
        return counters + generate_latest(gauges)


class _BacklogCollector(Collector):
    """``backlog`` as gauges (left out where unknown), with ``sealane_database_up`` saying
    whether the database answered. Metric families, not ``Gauge`` objects: in multiprocess mode
    a ``Gauge`` would write a file of its own, which the next scrape would then add in."""

    def __init__(self, backlog: Backlog) -> None:
        self.backlog = backlog

    def collect(self) -> Iterator[Metric]:
        b = self.backlog
        values = (
            ("sealane_webhook_queue_depth", "Webhook notifications waiting for delivery",
             b.webhook_queue),
            ("sealane_webhook_outbox_depth", "Events not yet fanned out into notifications",
             b.outbox),
            ("sealane_poller_lag_seconds",
             "Seconds since the longest-waiting due tracking request should have been looked up",
             b.poller_lag_s),
        )  # fmt: skip
        known = [(n, d, v) for n, d, v in values if v is not None]
        for name, documentation, value in known:
            yield GaugeMetricFamily(name, documentation, value=value)
        up = 1 if known else 0
        yield GaugeMetricFamily("sealane_database_up", "1 when the database answered", value=up)
