"""Check that the tests mirror ``src/sealane``: each test module names the module it tests.

``tests/<path>/test_<name>.py`` tests a module or package of ``src/sealane/<path>`` (at any depth
below it; directly in ``src/sealane`` for the top-level tests) whose name is ``<name>`` or begins
it, followed by ``_`` and what the module tests of it: ``tests/tracking/test_carrier_sync_quiet.py``
tests ``tracking/carrier_sync.py``, ``tests/tracking/test_simulated.py`` tests
``tracking/carriers/simulated.py``. A migration ``NNNN_name.py`` is tested by
``test_migration_NNNN``. A test module that names no module fails the check unless it is in
:data:`ALLOWED` with the reason it stands apart (suites that cross every module: conformance,
isolation, the layers, the browser...). ``make lint`` runs it; it exits 1 listing the strays.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "sealane"
TESTS = ROOT / "tests"
#: Test modules (or folders of them, ending in ``/``) under ``tests/`` that name no source
#: module, each with the reason.
LATER = "to rename after the merge of issues 41/42"
ALLOWED: dict[str, str] = {
    # Suites that cross every module.
    "test_doctests.py": "runs every module's doctests",
    "test_isolation.py": "tenant isolation across every resource of the API, MCP and web app",
    "test_layers.py": "the layers' import rules, across the package",
    "test_processes_pg.py": "several server and worker processes on one PostgreSQL",
    "test_profile_etas.py": "the speed profile's ETA alike in the engine, fleet, HTTP, MCP, CLI",
    "test_readme.py": "runs the README's code blocks",
    "test_version.py": "the version, written once in pyproject.toml",
    "notebooks/": "the notebooks in notebooks/, not modules of the package",
    "api/terminal49/": "conformance to Terminal49's v2 API, resource by resource",
    "api/test_schemathesis.py": "the whole API fuzzed from its OpenAPI document",
    "api/test_hostile_input.py": "hostile input to every endpoint",
    "api/test_smoke.py": "a request to each endpoint, end to end",
    "feeds/test_doctests.py": "runs the feeds' doctests",
    "service/test_statement_counts.py": "SQL statements per use case, across the service",
    "routing/test_published_distances.py": "routes against NGA Pub. 151's published distances",
    "routing/test_ais_tracks.py": "routes against vessels' AIS tracks",
    "web/test_browser.py": "every page in a real browser",
    # Test modules in folders others are editing at the same time.
    "api/test_database_outage.py": LATER,
    "api/test_dcsa_carriers.py": LATER,
    "api/test_future_positions_fresh.py": LATER,
    "api/test_future_positions_speed_path.py": LATER,
    "api/test_keycache.py": LATER,
    "api/test_known_tags.py": LATER,
    "api/test_list_reading.py": LATER,
    "api/test_pagination.py": LATER,
    "api/test_ratelimit.py": LATER,
    "api/test_ratelimit_shared.py": LATER,
    "api/test_records_deflate.py": LATER,
    "api/test_routing_endpoints.py": LATER,
    "api/test_settings.py": LATER,
    "api/test_time_range_ends.py": LATER,
    "api/test_trusted_proxies.py": LATER,
    "api/test_vessel_static.py": LATER,
    "api/test_webhook_trials.py": LATER,
    "routing/build/test_apart.py": LATER,
    "routing/build/test_dead_ends.py": LATER,
    "routing/build/test_network_land.py": LATER,
    "routing/test_default_vessel.py": LATER,
    "routing/test_port_approaches.py": LATER,
    "service/container_routes/test_map_vessel_size.py": LATER,
    "service/container_routes/test_routes.py": LATER,
    "service/fields/test_hostile_values.py": LATER,
    "service/fields/test_races.py": LATER,
    "service/reliability/test_demo_history.py": LATER,
    "service/tracking/test_duplicate_requests.py": LATER,
    "store/test_app.py": LATER,
    "store/test_carrier_data.py": LATER,
}


def names_in(folder: Path, *, deep: bool) -> set[str]:
    """The names a test may give for the modules and packages in ``folder`` (and below it)."""
    found: set[str] = set()
    for path in folder.rglob("*") if deep else folder.iterdir():
        if "__pycache__" in path.parts:
            continue
        if path.is_dir():
            found.add(path.name)
        elif path.suffix == ".py" and path.stem not in ("__init__", "__main__"):
            found.add(path.stem)
            number = path.stem.split("_", 1)[0]
            if path.parent.name == "versions" and number.isdigit():
                found.add(f"migration_{number}")
    return found


def tested(test: Path) -> bool:
    """Whether ``test`` (a path relative to ``tests/``) names a module of ``src/sealane``."""
    folder = SOURCE.joinpath(*test.parts[:-1])
    if not folder.is_dir():
        return False
    name = test.stem.removeprefix("test_")
    names = names_in(folder, deep=len(test.parts) > 1)
    return any(name == module or name.startswith(f"{module}_") for module in names)


def allowed(test: Path) -> bool:
    key = test.as_posix()
    return key in ALLOWED or any(k.endswith("/") and key.startswith(k) for k in ALLOWED)


def main() -> int:
    tests = sorted(p.relative_to(TESTS) for p in TESTS.rglob("test_*.py"))
    tests = [t for t in tests if "fixtures" not in t.parts]
    strays = [t for t in tests if not tested(t) and not allowed(t)]
    stale = [
        key
        for key in ALLOWED
        if not any(t.as_posix() == key or t.as_posix().startswith(key) for t in tests)
    ]
    for test in strays:
        print(f"tests/{test}: names no module of src/sealane (rename it, or allow it)")
    for key in stale:
        print(f"tests/{key}: allowed in {Path(__file__).name} but not there any more")
    if strays or stale:
        return 1
    print(f"{len(tests)} test modules mirror src/sealane ({len(ALLOWED)} allowed apart)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
