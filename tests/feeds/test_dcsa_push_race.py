"""Twenty identical signed callbacks at once: each event is kept once, and every callback is
accepted (the ones that lost the race count the events as already kept), on SQLite and
PostgreSQL. Before, the unique constraint refused the losers' inserts with a 500."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from sealane.clock import ManualClock
from sealane.feeds.dcsa.push import PushResult, handle_push, signature_of
from sealane.store.models import CarrierEvent, CarrierEventRef

from .dcsa_fixtures import day, shipment_events
from .dcsa_world import SECRET, config_for

AT_ONCE = 20


def test_handle_push__twenty_identical_at_once_each_event_kept_once(
    sessions: sessionmaker[Session],
) -> None:
    events = shipment_events()[:3]
    body = json.dumps(events).encode()
    signature = signature_of(body, SECRET)
    config = config_for("https://x")
    start = Barrier(AT_ONCE)

    def push(_: int) -> PushResult:
        start.wait(timeout=30)
        return handle_push(sessions, config, body, signature, ManualClock(day(3)))

    with ThreadPoolExecutor(AT_ONCE) as pool:
        results = list(pool.map(push, range(AT_ONCE)))
    assert sum(result.new for result in results) == len(events)
    assert all(result.new + result.duplicates == len(events) for result in results)
    with sessions() as session:
        kept = session.scalar(select(func.count()).select_from(CarrierEvent))
        refs = session.scalar(select(func.count(func.distinct(CarrierEventRef.event_row_id))))
    assert (kept, refs) == (len(events), len(events))
