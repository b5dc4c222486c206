"""Schemathesis over every ``/v2`` operation, on SQLite and on PostgreSQL, against an app with
real data (``fuzz_world``): the examples, coverage and fuzzing phases per operation, then the
stateful phase over the links schemathesis infers (``Location`` headers, ids in responses), with
every check schemathesis has. The run must find no server error and no conformance failure.

The document says what JSON Schema can: types, bounds, lengths, patterns, the values of every
enumeration (the SCACs of the shipped carriers among them) and no unknown attribute. A few rules
cannot be written in JSON Schema; a request the document calls valid may still be refused by
one of them, with its own code and a pointer. Only for those is schemathesis told to accept
one more status (``positive_data_acceptance``), per operation:

- ``POST /tracking_requests`` 422: a container number's ISO 6346 check digit
  (``invalid_number``); a carrier that cannot be inferred from the number when none is given
  (``scac_not_inferred``); the account already tracks the number with that carrier
  (``duplicate``); the ``customer`` party must exist in the account (``unknown_party``); the
  ``initial_custom_fields`` must name the account's definitions and hold their values (at most
  50 values in all).
- ``POST /webhooks``, ``PATCH /webhooks/{id}``, ``POST /webhooks/trigger`` 422: the URL must
  resolve to public addresses only (``unsafe_url``; here private ones are allowed too, but the
  host must still resolve, and the generated ones do not).
- ``POST /custom_field_definitions`` 422: an ``api_slug`` is unique among the account's fields of
  one entity type (``duplicate``).
- ``PATCH /custom_field_definitions/{id}`` 422: a ``default_value`` of the stored definition's
  data type.
- ``POST /custom_field_definitions/{id}/options`` 422: options belong to enumerations only, and
  an option's value is unique in its definition.
- ``POST``/``PATCH`` of custom field values (``/custom_fields``, ``/<objects>/{id}/custom_fields``)
  422: the ``api_slug`` must name one of the account's definitions for that object type, and the
  value must be of its data type (and among its options).
- ``GET /vessels/{id}`` 400: a ``show_positions`` window must start before it ends and span at
  most 31 days.
- ``GET /vessels/{id}/future_positions*`` 422: the ports must exist and a sea route must join
  them (and the start, when given, must be at sea).

Run time and the figures of a run are in ``benchmarks/README.md`` style at the end of the
module's output (``-s``): operations, cases and statuses per backend.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import hypothesis
import pytest
import schemathesis
from schemathesis.config import SchemathesisConfig
from sqlalchemy import Engine

from sealane.api.app import create_app
from sealane.config import Settings
from tests.store.conftest import schema_url

from .conftest import auth
from .fuzz_world import FuzzWorld, build_world

OPENAPI_URL = "/v2/openapi.json"
#: What schemathesis accepts for schema-valid data unless told more.
ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "429", "5xx"]
_WEBHOOK_URL = "the URL must resolve to public addresses (unsafe_url)"
_VALUES = "a value must name a definition of the account and be of its data type"
#: (method, path, status, rule): schema-valid requests a rule outside JSON Schema refuses.
RULES = (
    ("POST", "/v2/tracking_requests", 422, "check digit, carrier inference, duplicate, ids"),
    ("POST", "/v2/webhooks", 422, _WEBHOOK_URL),
    ("PATCH", "/v2/webhooks/{webhook_id}", 422, _WEBHOOK_URL),
    ("POST", "/v2/webhooks/trigger", 422, _WEBHOOK_URL),
    ("POST", "/v2/custom_field_definitions", 422, "api_slug unique per entity type"),
    ("PATCH", "/v2/custom_field_definitions/{definition_id}", 422, "default of the stored type"),
    ("POST", "/v2/custom_field_definitions/{definition_id}/options", 422, "enumerations only"),
    ("POST", "/v2/custom_fields", 422, _VALUES),
    ("PATCH", "/v2/custom_fields/{field_id}", 422, _VALUES),
    *(
        (method, f"/v2/{objects}/{{object_id}}/custom_fields{tail}", 422, _VALUES)
        for objects in ("tracking_requests", "shipments", "containers")
        for method, tail in (("POST", ""), ("PATCH", "/{api_slug}"))
    ),
    ("GET", "/v2/vessels/{vessel_id}", 400, "a show_positions window of at most 31 days"),
    ("GET", "/v2/vessels/{vessel_id}/future_positions", 422, "ports that exist, a sea route"),
    (
        "GET",
        "/v2/vessels/{vessel_id}/future_positions_with_coordinates",
        422,
        "ports that exist, a sea route, a start at sea",
    ),
)
#: Fuzzed cases per operation (after its examples and coverage cases); stateful scenarios.
MAX_EXAMPLES = 25
SCENARIOS = 40


def _config() -> SchemathesisConfig:
    """Every phase and every check, derandomized; the expectations of :data:`RULES`."""
    operations = [
        {
            "include-method": method,
            "include-path": path,
            "checks": {"positive_data_acceptance": {"expected-statuses": [*ACCEPTED, status]}},
        }
        for method, path, status, _rule in RULES
    ]
    return SchemathesisConfig.from_dict(
        {
            "seed": 2026,
            "generation": {"max-examples": MAX_EXAMPLES, "deterministic": True},
            "suppress-health-check": ["too_slow", "filter_too_much", "data_too_large"],
            "phases": {"stateful": {"max-steps": 12}},
            "operations": operations,
        }
    )


def _document() -> dict[str, Any]:
    """The document of an app on an in-memory database (built in this thread, which owns it)."""
    app = create_app(Settings(database_url="sqlite://"))
    document: dict[str, Any] = app.openapi()
    app.state.sealane.engine.dispose()
    return document


SCHEMA = schemathesis.openapi.from_dict(_document(), config=_config())


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def fuzz_world(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[FuzzWorld]:
    """The world on each backend, and the tally of what the run sent it (printed at the end)."""
    started = time.monotonic()
    if request.param == "sqlite":
        path: Path = tmp_path_factory.mktemp("fuzz") / "sealane.db"
        world = build_world(f"sqlite:///{path}")
        yield from _tallied(world, request, started)
        return
    url: str = request.getfixturevalue("postgres_url")
    admin: Engine = request.getfixturevalue("postgres_admin")
    with schema_url(url, admin) as database_url:
        world = build_world(database_url)
        yield from _tallied(world, request, started)


def _tallied(
    world: FuzzWorld, request: pytest.FixtureRequest, started: float
) -> Iterator[FuzzWorld]:
    world.tally = Counter()  # type: ignore[attr-defined]
    SCHEMA.app = world.app  # every request, and every check's own, goes to this world
    try:
        yield world
    finally:
        SCHEMA.app = None
        world.app.state.sealane.webhooks.close()
        world.app.state.sealane.engine.dispose()
    tally: Counter[str] = world.tally  # type: ignore[attr-defined]
    operations = len({key for key in tally if key.startswith("op ")})
    cases = sum(n for key, n in tally.items() if key.startswith("op "))
    statuses = sorted((key, n) for key, n in tally.items() if key.startswith("status "))
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(
            f"schemathesis on {request.param}: {operations} operations, {cases} cases, "
            f"{tally['stateful steps']} stateful steps, "
            f"{time.monotonic() - started:.0f} s; "
            + ", ".join(f"{key.removeprefix('status ')}: {n}" for key, n in statuses)
        )


def _count(world: FuzzWorld, label: str, status: int) -> None:
    tally: Counter[str] = world.tally  # type: ignore[attr-defined]
    tally[label] += 1
    tally[f"status {status}"] += 1


@pytest.mark.slow
@SCHEMA.parametrize()
def test_schemathesis__every_operation(case: schemathesis.Case, fuzz_world: FuzzWorld) -> None:
    """Examples, coverage and fuzzing phases of one operation, every check."""
    response = case.call_and_validate(headers=auth(fuzz_world.key))
    _count(fuzz_world, f"op {case.method} {case.path}", response.status_code)


@pytest.mark.slow
def test_schemathesis__stateful(fuzz_world: FuzzWorld) -> None:
    """Sequences of calls along the links schemathesis infers between operations."""
    world = fuzz_world

    class Machine(SCHEMA.as_state_machine()):  # type: ignore[misc]
        def get_call_kwargs(self, case: schemathesis.Case) -> dict[str, Any]:
            return {"headers": auth(world.key)}

        def after_call(self, response: Any, case: schemathesis.Case) -> None:
            super().after_call(response, case)
            _count(world, "stateful steps", response.status_code)

    Machine.run(
        settings=hypothesis.settings(
            max_examples=SCENARIOS,
            stateful_step_count=12,
            derandomize=True,
            deadline=None,
            suppress_health_check=list(hypothesis.HealthCheck),
        )
    )
