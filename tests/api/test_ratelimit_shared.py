"""The rate limits are counted in the database: they hold across server processes, and invalid
keys are limited per client address.

Regression: each process kept its own counters (two ``sealane serve`` on one database allowed
100 + 100 requests against a limit of 100), and requests with wrong keys were never limited.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from fastapi.testclient import TestClient

from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.store.accounts import create_account
from sealane.store.database import transaction
from tests.servers import run_sealane, serving
from tests.store.conftest import (
    database_url,
    fresh_postgres_url,
    postgres_database_url,
)
from tests.toolkit import START, auth, make_app

from .jsonapi_asserts import assert_error

__all__ = ["database_url", "fresh_postgres_url", "postgres_database_url"]


def status_of(url: str, key: str) -> int:
    request = urllib.request.Request(url, headers={"Authorization": f"Token {key}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_rate_limit__holds_across_two_server_processes(database_url: str, tmp_path: Path) -> None:
    key = run_sealane("accounts", "create", "Two Servers", "--database", database_url)
    key = key.strip().splitlines()[-1]
    env = {"SEALANE_RATE_LIMIT_PER_MINUTE": "20"}
    with (
        serving(database_url, tmp_path / "first.log", env=env) as first,
        serving(database_url, tmp_path / "second.log", env=env) as second,
        ThreadPoolExecutor(max_workers=8) as pool,
    ):
        urls = [f"{base}/ports/NLRTM" for base in (first, second)] * 30
        statuses = Counter(pool.map(lambda url: status_of(url, key), urls))
    assert statuses == {200: 20, 429: 40}


def test_rate_limit__leases_hold_across_two_server_processes(
    database_url: str, tmp_path: Path
) -> None:
    """A limit of 600 is leased up to 6 hits at a time: the two processes together never admit
    more than 600, and each holds back at most the 5 unspent hits of its last lease."""
    key = run_sealane("accounts", "create", "Leases", "--database", database_url)
    key = key.strip().splitlines()[-1]
    env = {"SEALANE_RATE_LIMIT_PER_MINUTE": "600"}
    with (
        serving(database_url, tmp_path / "first.log", env=env) as first,
        serving(database_url, tmp_path / "second.log", env=env) as second,
        ThreadPoolExecutor(max_workers=8) as pool,
    ):
        urls = [f"{base}/ports/NLRTM" for base in (first, second)] * 450
        statuses = Counter(pool.map(lambda url: status_of(url, key), urls))
    assert set(statuses) == {200, 429}
    assert 600 - 2 * 5 <= statuses[200] <= 600


def test_invalid_keys__limited_per_address(settings: Settings, clock: ManualClock) -> None:
    app = make_app(settings, clock=clock, auth_failures_per_minute=5)
    with transaction(app.state.sealane.sessions) as session:
        valid = create_account(session, "Valid Co", routing=False, now=START).secret
    with TestClient(app, raise_server_exceptions=False) as client:
        assert client.get("/v2/ports/NLRTM", headers=auth(valid)).status_code == 200
        wrong = [client.get("/v2/ports/NLRTM", headers=auth(f"sl_wrong{i}")) for i in range(6)]
        assert [r.status_code for r in wrong] == [401] * 5 + [429]
        error = assert_error(wrong[-1], 429, code="rate_limited")
        assert "invalid API keys" in error["detail"]
        assert int(wrong[-1].headers["retry-after"]) >= 1
        # a key this address has already shown to be valid still works
        assert client.get("/v2/ports/NLRTM", headers=auth(valid)).status_code == 200
        clock.advance(61)
        assert client.get("/v2/ports/NLRTM", headers=auth("sl_wrong")).status_code == 401
