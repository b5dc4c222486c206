"""An AIS run's counts told to the service's metrics (``sealane_ais_*`` on ``/metrics``).

A run reports running totals (after each committed batch, and at its end); the metrics want
increments. :class:`RunCounter` remembers what it last passed on and adds only the difference,
so it may be told the same totals any number of times.
"""

from __future__ import annotations

from collections import Counter

from ...feeds.ais.pipeline import RunReport
from ..core.metrics import Metrics


class RunCounter:
    """Adds to ``metrics`` what one run's totals gained since the last call."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics
        self._seen: dict[str, int] = {}
        self._dropped: Counter[str] = Counter()

    def __call__(self, report: RunReport) -> None:
        ingest = report.ingest
        totals = {
            "sentences": report.sentences,
            "positions": ingest.positions,
            "statics": ingest.statics,
            "stored": ingest.stored,
            "thinned": ingest.thinned,
        }
        gained = {name: value - self._seen.get(name, 0) for name, value in totals.items()}
        dropped = Counter({str(reason): count for reason, count in ingest.drops.items()})
        new_drops = dropped - self._dropped  # only the reasons that grew, by how much
        if not any(gained.values()) and not new_drops:
            return
        self.metrics.ais_ingested(**gained, dropped=new_drops)
        self._seen, self._dropped = totals, dropped
