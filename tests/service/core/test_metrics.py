"""Metrics (sealane.service.core.metrics): one registry per service, several processes summed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from sealane.service.core.metrics import Backlog, Metrics

DELIVER = (
    "from sealane.service.core.metrics import Metrics\nMetrics().webhook_delivery('succeeded')\n"
)
SCRAPE = (
    "import sys\n"
    "from sealane.service.core.metrics import Backlog, Metrics\n"
    "sys.stdout.write(Metrics().exposition(Backlog(0, 0, 0.0)).decode())\n"
)


def samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def run(code: str, directory: Path) -> str:
    env = dict(os.environ, PROMETHEUS_MULTIPROC_DIR=str(directory))
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


def test_exposition__multiprocess_dir_sums_the_processes(tmp_path: Path) -> None:
    """Two processes deliver a webhook each; a third one's scrape counts both."""
    run(DELIVER, tmp_path)
    run(DELIVER, tmp_path)
    found = samples(run(SCRAPE, tmp_path))
    key = ("sealane_webhook_deliveries_total", frozenset({("outcome", "succeeded")}))
    assert found[key] == 2


def test_two_services_in_one_process_count_apart() -> None:
    first, second = Metrics(), Metrics()
    first.webhook_delivery("failed")
    assert second.registry.get_sample_value(
        "sealane_webhook_deliveries_total", {"outcome": "failed"}
    ) in (None, 0.0)


def test_webhook_delivery__unknown_outcome_refused() -> None:
    with pytest.raises(ValueError, match="unknown webhook outcome"):
        Metrics().webhook_delivery("maybe")


def test_exposition__backlog_left_out_when_unknown() -> None:
    text = Metrics().exposition(Backlog(None, None, None)).decode()
    found = samples(text)
    assert found[("sealane_database_up", frozenset())] == 0
    assert not any(name == "sealane_poller_lag_seconds" for name, _labels in found)
