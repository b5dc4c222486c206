"""A tick that syncs a shipment must not warn: the test suite turns warnings into errors.

Regression: the sync used SQLAlchemy's ``Result.tuples()``, deprecated in 2.1, so every tick that
recorded events raised ``SADeprecationWarning`` under ``filterwarnings = error``.
"""

from __future__ import annotations

import warnings

from fastapi import FastAPI
from fastapi.testclient import TestClient

from sealane.clock import ManualClock
from tests.toolkit import Keys

from .support import DAY, advance, create_request, outbox, tick


def test_tick__sync_raises_no_deprecation_warning(
    app: FastAPI, client: TestClient, clock: ManualClock, keys: Keys
) -> None:
    create_request(client, keys.routing, "TEST-TR-SUCCEEDED")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tick(app)
        advance(app, clock, 40 * DAY)  # events and terminal updates recorded
    recorded = {row.event for row in outbox(app)}
    assert "container.transport.vessel_departed" in recorded, "the ticks synced the shipment"
    assert "container.updated" in recorded, "terminal updates were recorded"
    assert [f"{w.category.__name__}: {w.message}" for w in caught] == []
