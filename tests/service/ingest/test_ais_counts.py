"""RunCounter (sealane.service.ingest.ais_counts): running totals become metric increments."""

from __future__ import annotations

from sealane.feeds.ais.pipeline import RunReport
from sealane.feeds.ais.reports import Drop
from sealane.service.core.metrics import Metrics
from sealane.service.ingest.ais_counts import RunCounter


def sample(metrics: Metrics, name: str, **labels: str) -> float:
    return metrics.registry.get_sample_value(name, labels) or 0.0


def test_run_counter__the_same_totals_twice_count_once() -> None:
    metrics = Metrics()
    count = RunCounter(metrics)
    report = RunReport(sentences=10)
    report.ingest.positions, report.ingest.stored = 8, 5
    report.ingest.drops[Drop.BAD_CHECKSUM] += 2
    count(report)
    count(report)
    assert sample(metrics, "sealane_ais_sentences_total") == 10
    assert sample(metrics, "sealane_ais_messages_ingested_total", kind="position") == 8
    assert sample(metrics, "sealane_ais_positions_stored_total") == 5
    assert sample(metrics, "sealane_ais_dropped_total", reason="bad_checksum") == 2


def test_run_counter__adds_only_what_grew() -> None:
    metrics = Metrics()
    count = RunCounter(metrics)
    report = RunReport(sentences=3)
    report.ingest.drops[Drop.MALFORMED] += 1
    count(report)
    report.sentences = 7
    report.ingest.drops[Drop.MALFORMED] += 1
    report.ingest.drops[Drop.STALE] += 4
    count(report)
    assert sample(metrics, "sealane_ais_sentences_total") == 7
    assert sample(metrics, "sealane_ais_dropped_total", reason="malformed") == 2
    assert sample(metrics, "sealane_ais_dropped_total", reason="stale") == 4
