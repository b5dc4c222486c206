"""The API-key cache: hits skip the database, entries expire, revocation applies within the TTL."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import update

from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.service.access import gatekeeper as auth_module
from sealane.service.access.keycache import KeyCache
from sealane.store.accounts import create_account, hash_key
from sealane.store.database import transaction
from sealane.store.models import Account, ApiKey
from tests.toolkit import START, Keys, auth, make_app

URL = "/v2/ports/NLRTM"


def test_key_cache__hit_until_ttl() -> None:
    clock = ManualClock(START)
    cache: KeyCache[str] = KeyCache(10.0, clock)
    cache.put("sl_key", "account")
    clock.advance(9.9)
    assert cache.get("sl_key") == "account"
    clock.advance(0.1)
    assert cache.get("sl_key") is None
    assert len(cache) == 0  # the expired entry is dropped


def test_key_cache__other_key_misses() -> None:
    cache: KeyCache[str] = KeyCache(10.0, ManualClock(START))
    cache.put("sl_key", "account")
    assert cache.get("sl_kez") is None


def test_key_cache__ttl_zero_never_stores() -> None:
    cache: KeyCache[str] = KeyCache(0.0, ManualClock(START))
    cache.put("sl_key", "account")
    assert cache.get("sl_key") is None
    assert len(cache) == 0


def test_key_cache__bounded_least_recently_used_first() -> None:
    cache: KeyCache[str] = KeyCache(10.0, ManualClock(START), max_entries=2)
    cache.put("a", "A")
    cache.put("b", "B")
    assert cache.get("a") == "A"  # "b" is now the least recently used
    cache.put("c", "C")
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == ("A", None, "C")


class CountingLookup:
    """Wraps ``account_for_key``, counting the database look-ups."""

    def __init__(self) -> None:
        self.calls = 0
        self.real = auth_module.account_for_key

    def __call__(self, *args: Any) -> Any:
        self.calls += 1
        return self.real(*args)


@pytest.fixture
def lookups(monkeypatch: pytest.MonkeyPatch) -> CountingLookup:
    counting = CountingLookup()
    monkeypatch.setattr(auth_module, "account_for_key", counting)
    return counting


def revoke(app: FastAPI, key: str) -> None:
    with transaction(app.state.sealane.sessions) as session:
        session.execute(
            update(ApiKey).where(ApiKey.key_hash == hash_key(key)).values(revoked_at=START)
        )


def test_authenticate__valid_key_looked_up_once(
    client: TestClient, keys: Keys, lookups: CountingLookup
) -> None:
    for _ in range(5):
        assert client.get(URL, headers=auth(keys.plain)).status_code == 200
    assert lookups.calls == 1


def test_authenticate__unknown_key_looked_up_every_time(
    client: TestClient, keys: Keys, lookups: CountingLookup
) -> None:
    for _ in range(3):
        assert client.get(URL, headers=auth("sl_" + "x" * 43)).status_code == 401
    assert lookups.calls == 3


def test_authenticate__revoked_key_refused_once_the_ttl_passes(
    app: FastAPI, client: TestClient, keys: Keys, clock: ManualClock
) -> None:
    assert client.get(URL, headers=auth(keys.plain)).status_code == 200
    revoke(app, keys.plain)
    assert client.get(URL, headers=auth(keys.plain)).status_code == 200  # still cached
    clock.advance(app.state.sealane.settings.auth_cache_seconds)
    assert client.get(URL, headers=auth(keys.plain)).status_code == 401


def test_authenticate__routing_flag_applies_once_the_ttl_passes(
    app: FastAPI, client: TestClient, keys: Keys, clock: ManualClock
) -> None:
    path = "/v2/vessels/9999999/future_positions?port_id=NLRTM&previous_port_id=CNSHA"
    assert client.get(path, headers=auth(keys.plain)).status_code == 403
    with transaction(app.state.sealane.sessions) as session:
        session.execute(update(Account).values(routing_enabled=True))
    clock.advance(app.state.sealane.settings.auth_cache_seconds)
    assert client.get(path, headers=auth(keys.plain)).status_code == 404  # past the 403 now


def test_authenticate__cache_off_revocation_immediate(
    settings: Settings, clock: ManualClock
) -> None:
    uncached = make_app(settings, clock=clock, auth_cache_seconds=0)
    with transaction(uncached.state.sealane.sessions) as session:
        key = create_account(session, "Uncached Co", routing=False, now=START).secret
    with TestClient(uncached, raise_server_exceptions=False) as client:
        assert client.get(URL, headers=auth(key)).status_code == 200
        revoke(uncached, key)
        assert client.get(URL, headers=auth(key)).status_code == 401
