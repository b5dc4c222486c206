"""Statements per list page do not grow with the page: related rows are read per page, in batches.

A page of 5 and a page of 50 objects, every include asked for, must run the same number of SQL
statements; a per-object query (the N+1 pattern) would add 45 or more.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event

from sealane.service.core.paging import Page, PageRequest
from sealane.service.fields import definitions, options, values
from sealane.service.tracking import containers, parties, shipments
from sealane.service.tracking import requests as tracking_requests
from sealane.service.tracking.filters import TrackingFilter
from sealane.service.tracking.requests import NewTrackingRequest, RequestFilter
from sealane.service.webhooks import notifications
from sealane.service.webhooks.subscriptions import WebhookChanges, create_webhook

from .conftest import World, make_world

SHIPMENTS = 52


@pytest.fixture(scope="module")
def fleet(module_database: str) -> Iterator[World]:
    """52 tracked shipments with their containers and events, and their notifications."""
    world = make_world(module_database)
    ctx = world.runtime.context
    hook = WebhookChanges.of(
        {"url": "http://127.0.0.1:9/hook", "events": ["tracking_request.succeeded"]}, new=True
    )
    create_webhook(ctx, world.plain, hook)
    for index in range(SHIPMENTS):
        new = NewTrackingRequest.of(
            {
                "request_type": "bill_of_lading",
                "request_number": f"FLEET{index:04d}",
                "scac": "TEST",
            }
        )
        tracking_requests.create_request(ctx, world.plain, new)
    world.runtime.tracking.tick()
    for _ in range(10):  # fan the whole outbox out (200 rows a pass), one failed attempt each
        world.runtime.webhooks.run_once()
    _parties_and_custom_fields(world)
    yield world
    world.runtime.stop()
    world.runtime.engine.dispose()


def _parties_and_custom_fields(world: World) -> None:
    """52 parties, 52 enum definitions (two options each), and one value per shipment."""
    ctx = world.runtime.context
    page = shipments.list_shipments(ctx, world.plain, TrackingFilter(), PageRequest(1, 100))
    for index in range(SHIPMENTS):
        parties.create_party(ctx, world.plain, parties.PartyChanges(f"Party {index:03d}"))
        attributes = {
            "entity_type": "Shipment",
            "api_slug": f"field_{index:03d}",
            "display_name": f"Field {index:03d}",
            "data_type": "enum",
        }
        new = definitions.DefinitionChanges.of(attributes, new=True)
        definition = definitions.create_definition(ctx, world.plain, new)
        for value in ("a", "b"):
            option = options.OptionChanges.of({"label": value.upper(), "value": value}, new=True)
            options.create_option(ctx, world.plain, definition.id, option)
        entity = values.Entity("shipment", page.items[index].id)
        values.create_field(ctx, world.plain, entity, f"field_{index:03d}", "a")


@contextmanager
def counting(world: World) -> Iterator[list[str]]:
    """The SQL statements run on the world's engine inside the block."""
    statements: list[str] = []

    def record(*args: Any) -> None:
        statements.append(str(args[2]))

    event.listen(world.runtime.engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        event.remove(world.runtime.engine, "before_cursor_execute", record)


def statements_for(world: World, size: int, query: Callable[[PageRequest], Page[Any]]) -> int:
    """How many statements listing a full page of ``size`` runs."""
    with counting(world) as statements:
        page = query(PageRequest(1, size))
    assert len(page.items) == size, "the fleet must fill the page"
    return len(statements)


LISTS: dict[str, Callable[[World, PageRequest], Page[Any]]] = {
    "shipments": lambda w, page: shipments.list_shipments(
        w.runtime.context, w.plain, TrackingFilter(), page, shipments.INCLUDES
    ),
    "containers": lambda w, page: containers.list_containers(
        w.runtime.context, w.plain, TrackingFilter(), page, containers.INCLUDES
    ),
    "tracking_requests": lambda w, page: tracking_requests.list_requests(
        w.runtime.context, w.plain, RequestFilter(), page, tracking_requests.INCLUDES
    ),
    "webhook_notifications": lambda w, page: notifications.list_notifications(
        w.runtime.context, w.plain, notifications.NotificationFilter(), page, notifications.INCLUDES
    ),
    "parties": lambda w, page: parties.list_parties(w.runtime.context, w.plain, page),
    "custom_field_definitions": lambda w, page: definitions.list_definitions(
        w.runtime.context, w.plain, definitions.DefinitionFilter(), page
    ),
    "custom_fields": lambda w, page: values.list_fields(
        w.runtime.context, w.plain, values.FieldFilter(), page
    ),
}


def _busiest_container(world: World) -> tuple[str, int]:
    page = containers.list_containers(
        world.runtime.context, world.plain, TrackingFilter(), PageRequest(1, 100)
    )
    busiest = max(page.items, key=lambda c: len(c.event_ids))
    return busiest.id, len(busiest.event_ids)


def test_transport_events__statements_flat_with_every_include(fleet: World) -> None:
    """Pages that both hold events with a vessel and with a terminal (a page without any
    skips that look-up)."""
    container_id, count = _busiest_container(fleet)

    def query(page: PageRequest) -> Page[Any]:
        return containers.list_transport_events(
            fleet.runtime.context, fleet.plain, container_id, page, containers.EVENT_INCLUDES
        )

    assert count >= 8
    assert statements_for(fleet, count - 3, query) == statements_for(fleet, count, query) <= 12


@pytest.mark.parametrize("name", LISTS)
def test_list__statements_flat_in_page_size(fleet: World, name: str) -> None:
    def query(page: PageRequest) -> Page[Any]:
        return LISTS[name](fleet, page)

    assert statements_for(fleet, 5, query) == statements_for(fleet, 50, query)


@pytest.mark.parametrize("name", LISTS)
def test_list__statements_a_small_constant(fleet: World, name: str) -> None:
    """Every include costs at most a few statements, whatever the page holds."""

    def query(page: PageRequest) -> Page[Any]:
        return LISTS[name](fleet, page)

    assert statements_for(fleet, 50, query) <= 12


def test_list_shipments__every_include_is_loaded(fleet: World) -> None:
    page = LISTS["shipments"](fleet, PageRequest(1, 5))
    for shipment in page.items:
        assert shipment.containers, "containers are loaded"
        assert all(c.events is not None for c in shipment.containers)
        assert [c.id for c in shipment.containers] == list(shipment.container_ids)
        assert shipment.pod_terminal is not None or shipment.pod_terminal_id is None


def test_list_notifications__reference_and_logs_loaded(fleet: World) -> None:
    page = LISTS["webhook_notifications"](fleet, PageRequest(1, 5))
    for notification in page.items:
        assert notification.reference is not None
        assert notification.reference.tracking_request is not None
        assert notification.reference.shipment is not None
        assert notification.logs is not None and len(notification.logs) == 1
        assert notification.webhook is not None
