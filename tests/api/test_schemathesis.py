"""A schemathesis run over every ``/v2`` operation, on SQLite and on PostgreSQL, against an app
with real data (``fuzz_world``): schemathesis' own engine, as ``schemathesis run`` drives it, in
process (ASGI): the examples, coverage and fuzzing phases, then the stateful phase over the
links it infers (``Location`` headers, ids in responses and paths), with every check it has.
The run must end with no server error, no conformance failure and no error of its own.

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
- ``GET /reliability/lanes`` 400: a port id must name a port, and ``filter[until]`` be after
  ``filter[since]``; ``GET /reliability/ports/{locode}`` 400: the same window rule.
- ``GET /vessels/{id}/future_positions*`` 422: the ports must exist and a sea route must join
  them (and the start, when given, must be at sea).
- ``GET /sea_route_options`` 422: the places must exist (and lie at sea), the avoided passages
  be known, and a sea route join the places.
- ``GET /shipments``, ``/containers``, ``/tracking_requests`` 400: ``page[after]`` is an opaque
  key that only the list's own ``next`` links give; any other text is refused, naming it.

Each run prints its figures (requests per phase, statuses, checks, time): ``pytest -m slow -rP``.
"""

from __future__ import annotations

import socket
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from schemathesis.checks import CHECKS, load_all_checks
from schemathesis.config import SchemathesisConfig
from schemathesis.engine import events, from_schema
from sqlalchemy import Engine

from sealane.api.app import create_app
from sealane.config import Settings
from tests.store.conftest import schema_url

from .fuzz_world import FuzzWorld, build_world

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
    ("POST", "/v2/vessel_positions", 422, "an IMO's check digit, a time not in the future"),
    ("GET", "/v2/vessels/{vessel_id}", 400, "a show_positions window of at most 31 days"),
    ("GET", "/v2/reliability/lanes", 400, "a port id naming a port, until after since"),
    ("GET", "/v2/reliability/ports/{locode}", 400, "until after since"),
    ("GET", "/v2/vessels/{vessel_id}/future_positions", 422, "ports that exist, a sea route"),
    (
        "GET",
        "/v2/vessels/{vessel_id}/future_positions_with_coordinates",
        422,
        "ports that exist, a sea route, a start at sea",
    ),
    ("GET", "/v2/sea_route_options", 422, "places that exist, known passages, a sea route"),
    *(
        ("GET", f"/v2/{objects}", 400, "page[after]: a key a next link gave")
        for objects in ("shipments", "containers", "tracking_requests")
    ),
)
#: Fuzzed cases per operation (besides its examples and coverage cases) and stateful scenarios.
MAX_EXAMPLES = 10


@dataclass(frozen=True)
class Scope:
    """How much of the run a backend gets: the coverage phase's mode (``all`` or ``positive``)
    and the fuzzing phase's cases per operation and mode."""

    coverage: str = "all"
    fuzzed: int = MAX_EXAMPLES


#: The whole run on SQLite; on PostgreSQL every phase, operation and check too, with less of the
#: two phases whose cost is mostly schemathesis' own (making cases, checking answers):
#: - coverage, positive cases only. Nine in ten of the phase's requests are negative (a value of
#:   the wrong type, out of bounds, a parameter or header missing, a method not allowed), which
#:   the request validation refuses before any query, the same code on either backend. The
#:   positive ones (bounds, long strings, every enumeration value) reach the database, where
#:   PostgreSQL is the stricter (integer ranges, NUL characters), so it gets them all.
#: - fuzzing, 5 cases per operation and mode instead of 10: random cases on top of the coverage
#:   phase's systematic ones, negative among them (so the negative checks still run here).
SCOPES = {"sqlite": Scope(), "postgresql": Scope(coverage="positive", fuzzed=5)}


def config(key: str, scope: Scope = Scope()) -> SchemathesisConfig:
    """Every phase and every check (schemathesis' defaults), derandomized, authenticated with
    ``key``; the expectations of :data:`RULES`; as much of the coverage and fuzzing phases as
    ``scope`` says."""
    operations = [
        {
            # one filter, the operation's label: separate include-method and include-path
            # keys would each select operations on their own (they are or-ed)
            "include-name": f"{method} {path}",
            "checks": {"positive_data_acceptance": {"expected-statuses": [*ACCEPTED, status]}},
        }
        for method, path, status, _rule in RULES
    ]
    return SchemathesisConfig.from_dict(
        {
            "seed": 2026,
            "headers": {"Authorization": f"Token {key}"},
            "generation": {"max-examples": MAX_EXAMPLES, "deterministic": True},
            "suppress-health-check": ["too_slow", "filter_too_much", "data_too_large"],
            "phases": {
                "coverage": {"generation": {"mode": scope.coverage}},
                "fuzzing": {"generation": {"max-examples": scope.fuzzed}},
            },
            "operations": operations,
        }
    )


def _document() -> dict[str, Any]:
    """The document of an app on an in-memory database (built in this thread, which owns it)."""
    app = create_app(Settings(database_url="sqlite://"))
    document: dict[str, Any] = app.openapi()
    app.state.sealane.engine.dispose()
    return document


DOCUMENT = _document()


class WorldUnderTest:
    """The ASGI app schemathesis calls (its own requests and those of its checks): it passes
    each request on to the world of the backend under test. The world's lifespan was run when it
    was built; schemathesis' lifespan events are answered here."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        await self.app(scope, receive, send)


@dataclass
class Run:
    """What a run sent and found: requests per phase and status, failures, errors."""

    requests: Counter[str] = field(default_factory=Counter)
    statuses: Counter[int] = field(default_factory=Counter)
    checks: set[str] = field(default_factory=set)
    failures: dict[str, str] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    transitions: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    _started: dict[str, float] = field(default_factory=dict)

    def record(self, phase: str, recorder: Any) -> None:
        """The requests, statuses and failed checks of one scenario."""
        for interaction in recorder.interactions.values():
            if interaction.response is not None:
                self.requests[phase] += 1
                self.statuses[interaction.response.status_code] += 1
        for case_id, checks in recorder.checks.items():
            for check in checks:
                self.checks.add(check.name)
                failed = check.failure_info
                if failed is not None:
                    case = recorder.cases[case_id].value
                    title = f"{check.name}: {case.method} {case.path}: {failed.failure.title}"
                    self.failures.setdefault(title, failed.code_sample)


def run_schemathesis(world: FuzzWorld, scope: Scope = Scope()) -> Run:
    """Schemathesis' engine over the whole document, against ``world``."""
    schema = schemathesis.openapi.from_dict(DOCUMENT, config=config(world.key, scope))
    schema.app = WorldUnderTest(world.app)
    found = Run()
    for event in from_schema(schema).execute():
        if isinstance(event, events.ScenarioFinished):
            found.record(event.phase.name.lower(), event.recorder)
        elif isinstance(event, events.FuzzScenarioFinished):
            found.record("fuzzing", event.recorder)
        elif isinstance(event, events.PhaseStarted):
            found._started[event.phase.name.name.lower()] = event.timestamp
            if event.payload is not None:
                found.transitions = event.payload.transitions_selected
        elif isinstance(event, events.PhaseFinished):
            phase = event.phase.name.name.lower()
            took = event.timestamp - found._started.pop(phase, event.timestamp)
            found.seconds[phase] = found.seconds.get(phase, 0.0) + took
        elif isinstance(event, events.NonFatalError):
            found.errors.append(f"{event.label}: {event.value!r}"[:2000])
        elif isinstance(event, events.FatalError):
            found.errors.append(f"fatal: {event.exception!r}"[:2000])
        elif isinstance(event, events.EngineFinished):
            found.errors.extend(f"after run: {failure.title}" for failure in event.failures)
    return found


@pytest.fixture(params=["sqlite", "postgresql"])
def fuzz_world(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[FuzzWorld]:
    """The world on each backend."""
    if request.param == "sqlite":
        path: Path = tmp_path_factory.mktemp("fuzz") / "sealane.db"
        yield from _closed(build_world(f"sqlite:///{path}"))
        return
    url: str = request.getfixturevalue("postgres_url")
    admin: Engine = request.getfixturevalue("postgres_admin")
    with schema_url(url, admin) as database_url:
        yield from _closed(build_world(database_url))


def _closed(world: FuzzWorld) -> Iterator[FuzzWorld]:
    try:
        yield world
    finally:
        world.app.state.sealane.webhooks.close()
        world.app.state.sealane.engine.dispose()


_getaddrinfo = socket.getaddrinfo


def offline_getaddrinfo(
    host: Any, port: Any, family: int = 0, type: int = 0, proto: int = 0, flags: int = 0
) -> Any:
    """``socket.getaddrinfo`` for address literals and ``localhost`` only: any other name is
    unknown at once (EAI_NONAME), with no DNS query. The webhook URLs the run generates name
    hosts that must not resolve (so those requests end in 422 ``unsafe_url``); asking a
    resolver each time cost half the coverage phase (25 s of POST /webhooks and
    /webhooks/trigger) wherever DNS is slow to say no, and would depend on the network."""
    if host != "localhost":
        flags |= socket.AI_NUMERICHOST
    return _getaddrinfo(host, port, family, type, proto, flags)


@pytest.mark.slow
def test_schemathesis__every_operation_every_phase_every_check(
    fuzz_world: FuzzWorld, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(socket, "getaddrinfo", offline_getaddrinfo)
    backend = request.node.callspec.id
    started = time.monotonic()
    found = run_schemathesis(fuzz_world, SCOPES[backend])
    elapsed_s = time.monotonic() - started
    phases = ", ".join(
        f"{phase} {n} in {found.seconds.get(phase, 0):.0f} s"
        for phase, n in sorted(found.requests.items())
    )
    statuses = ", ".join(f"{status}: {n}" for status, n in sorted(found.statuses.items()))
    print(  # shown with -rP (or -s)
        f"schemathesis on {backend} ({SCOPES[backend]}): "
        f"{sum(found.requests.values())} requests "
        f"({phases}), {found.transitions} stateful transitions, checks "
        f"{', '.join(sorted(found.checks))}; {elapsed_s:.0f} s; statuses {statuses}"
    )
    assert not found.errors, "\n".join(found.errors)
    assert not found.failures, "\n\n".join(f"{t}\n{c}" for t, c in found.failures.items())
    assert found.statuses, "nothing was sent"
    assert not [status for status in found.statuses if status >= 500]
    every_phase = {"examples", "coverage", "fuzzing", "stateful_testing"}
    assert every_phase <= set(found.requests), found.requests
    load_all_checks()
    assert found.checks == set(CHECKS.get_all_names()), "every check schemathesis has ran"


def test_config__each_rule_widens_its_own_operation_only() -> None:
    """Regression: a rule given as ``include-method`` plus ``include-path`` selected every
    operation of that method (the keys are or-ed), so every GET accepted a 400."""
    schema = schemathesis.openapi.from_dict(DOCUMENT, config=config("key"))
    ruled = {(method, path): str(status) for method, path, status, _rule in RULES}
    for result in schema.get_all_operations():
        operation = result.ok()
        checks = schema.config.checks_config_for(operation=operation, phase="stateful")
        expected = checks.positive_data_acceptance.expected_statuses
        extra = ruled.get((operation.method.upper(), operation.path))
        assert expected == [*ACCEPTED, *([extra] if extra else [])], operation.label
