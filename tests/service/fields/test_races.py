"""Identical custom-field writes at once: one is stored, the others are 422 ``duplicate``.

Both requests pass the look-up before the insert; the database's unique constraint refuses the
second insert, and the service turns that refusal into the caller's duplicate (not a 500).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier
from typing import Any

import pytest
from sqlalchemy import func, select

from sealane.service.core.errors import InvalidInput
from sealane.service.fields import definitions, options, values
from sealane.service.tracking import requests as tracking_requests
from sealane.service.tracking.requests import NewTrackingRequest
from sealane.store.models import CustomField, CustomFieldDefinition, CustomFieldOption

from ..conftest import World, make_world

AT_ONCE = 20


@pytest.fixture
def db_world(module_database: str) -> Iterator[World]:
    world = make_world(module_database)
    yield world
    world.runtime.stop()
    world.runtime.engine.dispose()


def all_at_once(call: Callable[[], Any]) -> Counter[str]:
    """``call`` from :data:`AT_ONCE` threads released together; the outcomes counted."""
    start = Barrier(AT_ONCE)

    def one(_: int) -> str:
        start.wait(timeout=30)
        try:
            call()
        except InvalidInput as error:
            return f"{error.code}:{error.field}"
        return "created"

    with ThreadPoolExecutor(max_workers=AT_ONCE) as pool:
        return Counter(pool.map(one, range(AT_ONCE)))


def count(world: World, model: Any, *where: Any) -> int:
    with world.runtime.sessions() as session:
        return int(session.scalar(select(func.count()).select_from(model).where(*where)) or 0)


def new_definition(slug: str, data_type: str = "enum") -> definitions.DefinitionChanges:
    return definitions.DefinitionChanges.of(
        {
            "entity_type": "TrackingRequest",
            "api_slug": slug,
            "display_name": slug.title(),
            "data_type": data_type,
        },
        new=True,
    )


def test_definitions__twenty_at_once_one_stored(db_world: World) -> None:
    ctx, caller = db_world.runtime.context, db_world.plain
    outcomes = all_at_once(
        lambda: definitions.create_definition(ctx, caller, new_definition("raced"))
    )
    assert outcomes == {"created": 1, "duplicate:api_slug": AT_ONCE - 1}
    assert count(db_world, CustomFieldDefinition, CustomFieldDefinition.api_slug == "raced") == 1


def test_options__twenty_at_once_one_stored(db_world: World) -> None:
    ctx, caller = db_world.runtime.context, db_world.plain
    definition = definitions.create_definition(ctx, caller, new_definition("raced_enum"))
    change = options.OptionChanges.of({"label": "Red", "value": "red"}, new=True)
    outcomes = all_at_once(lambda: options.create_option(ctx, caller, definition.id, change))
    assert outcomes == {"created": 1, "duplicate:value": AT_ONCE - 1}
    assert count(db_world, CustomFieldOption, CustomFieldOption.definition_id == definition.id) == 1


def test_values__twenty_at_once_one_stored(db_world: World) -> None:
    ctx, caller = db_world.runtime.context, db_world.plain
    definitions.create_definition(ctx, caller, new_definition("raced_text", "short_text"))
    request = tracking_requests.create_request(
        ctx,
        caller,
        NewTrackingRequest.of(
            {"request_type": "bill_of_lading", "request_number": "RACE0001", "scac": "TEST"}
        ),
    )
    entity = values.Entity("tracking_request", request.id)
    outcomes = all_at_once(lambda: values.create_field(ctx, caller, entity, "raced_text", "x"))
    assert outcomes == {"created": 1, "duplicate:api_slug": AT_ONCE - 1}
    assert count(db_world, CustomField, CustomField.entity_id == request.id) == 1
