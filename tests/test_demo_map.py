"""The demo's container maps: between them, every kind of feature a map can show appears."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from sealane.api.routers.responses import FEATURE_COLLECTION_SCHEMA
from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.demo import seed_demo
from sealane.runtime import build_runtime
from sealane.service.access.gatekeeper import Caller
from sealane.service.container_routes.reading import container_map
from sealane.service.core.paging import PageRequest
from sealane.service.tracking.containers import list_containers
from sealane.service.tracking.filters import TrackingFilter


def feature_types() -> set[str]:
    """Every ``feature_type`` the map document declares (what the API says it can emit)."""
    item = FEATURE_COLLECTION_SCHEMA["properties"]["features"]["items"]
    return set(item["properties"]["properties"]["properties"]["feature_type"]["enum"])


def test_demo__the_containers_maps_show_every_feature_type(tmp_path: Path) -> None:
    clock = ManualClock(datetime(2026, 11, 21, 12, tzinfo=UTC))
    runtime = build_runtime(Settings(database_url=f"sqlite:///{tmp_path}/demo.db"), clock=clock)
    try:
        keys = seed_demo(runtime)
        caller = Caller(keys[0][1].account_id, routing_enabled=True)
        page = list_containers(runtime.context, caller, TrackingFilter(), PageRequest(1, 100))
        seen: dict[str, set[str]] = {}
        for container in page.items:
            found = container_map(runtime.context, caller, container.id)
            for feature in found.features:
                seen.setdefault(feature["properties"]["feature_type"], set()).add(container.number)
    finally:
        runtime.stop()
    assert len(page.items) >= 10
    assert set(seen) == feature_types(), seen
    # a leg not yet begun is drawn for a container whose vessel is at sea on the leg before it
    assert seen["estimated_full_legs"] & seen["current_vessel"]
