"""Kept list pages are not made again for what does not change what they show: a row written
again as it was, or moved on disk by an update (PostgreSQL gives unordered rows in the order it
finds them), on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select, update

from sealane.store.models import Shipment
from tests.store.conftest import BACKENDS

from .kept_world import World, world_on


@pytest.fixture(params=BACKENDS)
def world(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[World]:
    with world_on(request, tmp_path) as found:
        yield found


@pytest.mark.parametrize(
    "url",
    ["/v2/tracking_requests", "/v2/containers", "/v2/shipments"],
)
def test_kept_page__a_related_row_moved_on_disk_is_no_change(world: World, url: str) -> None:
    """Regression: the shipments of a tracking request page (and a container page's parents)
    were read without an order; after an update that changed nothing they show, PostgreSQL gave
    them in another order and the page was made again."""
    before = world.kept(url, {})
    first = world.one(select(Shipment.id))  # no order: the first PostgreSQL finds on disk
    world.write_elsewhere(
        update(Shipment).where(Shipment.id == first[0]).values(tags=Shipment.tags)
    )
    if world.url.startswith("postgresql"):  # the row written again is found last now
        assert world.one(select(Shipment.id))[0] != first[0]
    made = world.pages.made
    assert world.get(url, {}) == before
    assert world.pages.made == made, "the page was made again"
