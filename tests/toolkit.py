"""The tests' one toolkit: factories for the app, accounts and vessels, and the words every test
package uses (the start time, the media type, the key header). ``tests/conftest.py`` builds the
shared fixtures (``app``, ``client``, ``keys``, ``vessel``, ...) from these, so a test says only
what is special to it: ``make_app(tmp_path, rate_limit_per_minute=5)``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi import FastAPI

from sealane.api.app import create_app
from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.store.accounts import create_account
from sealane.store.database import transaction
from sealane.store.models import Vessel
from tests.templates import prepared_sqlite

#: The time every test's clock starts at.
START = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
JSONAPI = "application/vnd.api+json"


@dataclass(frozen=True)
class Keys:
    """API keys of the two test accounts."""

    routing: str
    plain: str


def auth(key: str) -> dict[str, str]:
    """Headers authenticating with ``key``."""
    return {"Authorization": f"Token {key}"}


def make_settings(database: Path | str, **overrides: Any) -> Settings:
    """Test settings: a new SQLite file at ``database`` (a copy of a prepared one:
    ``tests.templates``) or a database URL, a generous rate limit, the test client's base URL;
    ``overrides`` set any other field."""
    url = prepared_sqlite(database) if isinstance(database, Path) else database
    base = Settings(database_url=url, rate_limit_per_minute=10_000, base_url="http://testserver/v2")
    return replace(base, **overrides)


def make_app(
    database: Path | str | Settings, *, clock: ManualClock | None = None, **overrides: Any
) -> FastAPI:
    """The real app on ``database`` (a path for a new SQLite file, a URL, or whole settings),
    with a manual clock at :data:`START` unless one is given."""
    settings = database if isinstance(database, Settings) else make_settings(database)
    return create_app(replace(settings, **overrides), clock=clock or ManualClock(START))


def make_account(
    app: FastAPI, name: str = "Routing Co", *, routing: bool = True, ingest: bool = False
) -> str:
    """A new account in ``app``'s database; its API key."""
    with transaction(app.state.sealane.sessions) as session:
        return create_account(session, name, routing=routing, ingest=ingest, now=START).secret


def make_keys(app: FastAPI, prefix: str = "") -> Keys:
    """Keys of a routing account and a plain one (``prefix`` starts their names)."""
    return Keys(
        routing=make_account(app, f"{prefix}Routing Co", routing=True),
        plain=make_account(app, f"{prefix}Plain Co", routing=False),
    )


def make_vessel(app: FastAPI, **fields: Any) -> Vessel:
    """A vessel in ``app``'s database: by default in the Arabian Sea, bound from Shanghai to
    Rotterdam, last seen at :data:`START`; ``fields`` set any column."""
    values: dict[str, Any] = {
        "name": "Test Mariner",
        "imo": "9400001",
        "mmsi": "211000001",
        "latitude": 12.3,
        "longitude": 60.1,
        "nautical_speed_knots": 18.0,
        "navigational_heading_degrees": 250.0,
        "position_timestamp": START,
    }
    with transaction(app.state.sealane.sessions) as session:
        ship = Vessel(**(values | fields))
        session.add(ship)
    return ship
