"""Custom-field inputs a careless or hostile tenant sends: numbers and dates out of range,
patterns that backtrack. Each is refused (naming the input) before anything is written, and the
definitions and values stored stay readable, on SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from sealane.service.core.errors import InvalidInput
from sealane.service.core.paging import PageRequest
from sealane.service.fields import definitions, values
from sealane.service.tracking import requests as tracking_requests
from sealane.service.tracking.requests import NewTrackingRequest

from ..conftest import World, make_world

HUGE = 10**23
EVIL = "(a+)+$"


@pytest.fixture
def db_world(module_database: str) -> Iterator[World]:
    world = make_world(module_database)
    yield world
    world.runtime.stop()
    world.runtime.engine.dispose()


def define(world: World, slug: str, data_type: str, **more: Any) -> definitions.DefinitionRecord:
    attributes = {
        "entity_type": "TrackingRequest",
        "api_slug": slug,
        "display_name": slug,
        "data_type": data_type,
        **more,
    }
    changes = definitions.DefinitionChanges.of(attributes, new=True)
    return definitions.create_definition(world.runtime.context, world.plain, changes)


def entity(world: World, number: str) -> values.Entity:
    document = {"request_type": "bill_of_lading", "request_number": number, "scac": "TEST"}
    request = tracking_requests.create_request(
        world.runtime.context, world.plain, NewTrackingRequest.of(document)
    )
    return values.Entity("tracking_request", request.id)


def everything_readable(world: World, target: values.Entity) -> None:
    ctx, caller = world.runtime.context, world.plain
    definitions.list_definitions(ctx, caller, definitions.DefinitionFilter(), PageRequest())
    values.entity_fields(ctx, caller, target, PageRequest())


@pytest.mark.parametrize(
    ("validation", "field"),
    [
        ({"max": 10**400}, "validation/max"),
        ({"min": -(10**30)}, "validation/min"),
        ({"min": float("inf")}, "validation/min"),
        ({"max": 1e309}, "validation/max"),
        ({"max_length": 10**30}, "validation/max_length"),
        ({"max_length": 0}, "validation/max_length"),
        ({"pattern": "(a)\\1"}, "validation/pattern"),
        ({"pattern": "(?=a)a"}, "validation/pattern"),
        ({"pattern": "[a-"}, "validation/pattern"),
        ({"pattern": "a" * 1001}, "validation/pattern"),
        ({"pattern": 7}, "validation/pattern"),
    ],
)
def test_definition__validation_out_of_range_refused(
    db_world: World, validation: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidInput) as raised:
        define(db_world, "bounded", "number", validation=validation)
    assert raised.value.field == field
    listed = definitions.list_definitions(
        db_world.runtime.context, db_world.plain, definitions.DefinitionFilter(), PageRequest()
    )
    assert [record.api_slug for record in listed.items] == []


@pytest.mark.parametrize(
    ("data_type", "value"),
    [
        ("number", HUGE),
        ("number", -HUGE),
        ("number", 1e23),
        ("number", 2**53),
        ("datetime", "0001-01-01T00:00:00+01:00"),
        ("datetime", "9999-12-31T23:00:00-05:00"),
    ],
)
def test_value__out_of_range_refused_nothing_stored(
    db_world: World, data_type: str, value: Any
) -> None:
    slug = f"range_{data_type}"
    with contextlib.suppress(InvalidInput):  # defined by an earlier case of this module
        define(db_world, slug, data_type)
    target = entity(db_world, f"RANGE{uuid.uuid4().hex[:10].upper()}")
    with pytest.raises(InvalidInput) as raised:
        values.create_field(db_world.runtime.context, db_world.plain, target, slug, value)
    assert raised.value.field == "value"
    everything_readable(db_world, target)
    stored = values.entity_fields(db_world.runtime.context, db_world.plain, target, PageRequest())
    assert stored.items == ()


def test_value__largest_numbers_kept_exactly(db_world: World) -> None:
    define(db_world, "largest", "number")
    ctx, caller = db_world.runtime.context, db_world.plain
    for number, value in enumerate((2**53 - 1, -(2**53 - 1), 1.5e15, 1e-300)):
        target = entity(db_world, f"LARGEST{number}")
        values.create_field(ctx, caller, target, "largest", value)
        [record] = values.entity_fields(ctx, caller, target, PageRequest()).items
        assert record.value == value


def test_pattern__semantics_kept(db_world: World) -> None:
    define(db_world, "evil", "short_text", validation={"pattern": EVIL})
    ctx, caller = db_world.runtime.context, db_world.plain
    target = entity(db_world, "EVIL0001")
    with pytest.raises(InvalidInput) as raised:
        values.create_field(ctx, caller, target, "evil", "aaab")
    assert (raised.value.field, raised.value.code) == ("value", "invalid")
    record = values.create_field(ctx, caller, target, "evil", "a" * 255)
    assert record.value == "a" * 255


def test_pattern__backtracking_pattern_answered_at_once() -> None:
    """``(a+)+$`` took 3 s for 26 ``a`` and a ``b`` with Python's ``re``, doubling per
    character; the check runs in a child process so that a backtracking engine fails the test
    by its time limit instead of hanging the run."""
    probe = (
        "from sealane.service.fields.types import check_value\n"
        "from sealane.service.core.errors import InvalidInput\n"
        "try:\n"
        f"    check_value('short_text', 'a' * 254 + 'b', validation={{'pattern': {EVIL!r}}})\n"
        "except InvalidInput:\n"
        "    print('refused')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=30, check=True
    )
    assert done.stdout.strip() == "refused"
