"""``POST /v2/vessel_positions``'s use case keeps one ingestor across requests: the second batch
finds the vessel's track state without reading it again, and a failed batch forgets it."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import event

from sealane.service.access.gatekeeper import Caller
from sealane.service.core.errors import InvalidFields
from sealane.service.ingest.positions import ingest_positions, shared_ingestor
from sealane.store.database import transaction
from sealane.store.models import Vessel

from ..conftest import World

MMSI = "636019825"


def batch(*minutes: int) -> dict[str, Any]:
    """Positions of the vessel off Rotterdam, ``minutes`` after 11:00 on the world's day."""
    return {
        "data": [
            {
                "type": "vessel_position",
                "attributes": {
                    "mmsi": MMSI,
                    "latitude": 51.95,
                    "longitude": 3.9 + minute * 0.01,
                    "timestamp": f"2026-11-21T11:{minute:02d}:00Z",
                    "speed_knots": 11.5,
                },
            }
            for minute in minutes
        ]
    }


def test_ingest_positions__one_ingestor_across_requests(world: World) -> None:
    ctx = world.runtime.context
    with transaction(ctx.sessions) as session:
        session.add(Vessel(name="Shared", mmsi=MMSI))
    writer = Caller(world.plain.account_id, False, ingest_enabled=True)
    first = ingest_positions(ctx, writer, batch(0, 2))
    assert first.stored == 2
    shared = shared_ingestor(ctx)
    assert shared is shared_ingestor(ctx)
    statements: list[str] = []

    def count(*args: Any) -> None:
        statements.append(args[2])

    event.listen(ctx.engine, "before_cursor_execute", count)
    try:
        second = ingest_positions(ctx, writer, batch(4, 6))
    finally:
        event.remove(ctx.engine, "before_cursor_execute", count)
    assert second.stored == 2
    assert not [s for s in statements if "FROM vessels" in s]  # the track state was kept
    with pytest.raises(InvalidFields):
        ingest_positions(ctx, writer, {"data": [{"type": "vessel_position", "attributes": {}}]})
    assert shared_ingestor(ctx) is shared
