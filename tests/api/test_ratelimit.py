"""The per-account rate limit: a rolling minute, 429 with ``Retry-After``, safe under threads."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import event

from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.store.accounts import create_account
from sealane.store.database import transaction
from tests.toolkit import START, Keys, auth, make_app

from .jsonapi_asserts import assert_error

URL = "/v2/ports/NLRTM"


def limited(settings: Settings, clock: ManualClock, limit: int) -> tuple[FastAPI, Keys]:
    app = make_app(settings, clock=clock, rate_limit_per_minute=limit)
    with transaction(app.state.sealane.sessions) as session:
        first = create_account(session, "First", routing=True, now=START)
        second = create_account(session, "Second", routing=False, now=START)
    return app, Keys(routing=first.secret, plain=second.secret)


@pytest.fixture
def five(settings: Settings, clock: ManualClock) -> Iterator[tuple[TestClient, Keys]]:
    """A client of an app allowing 5 requests per minute, and its two accounts' keys."""
    app, keys = limited(settings, clock, 5)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client, keys


def spend(client: TestClient, key: str, count: int) -> list[int]:
    return [client.get(URL, headers=auth(key)).status_code for _ in range(count)]


def test_rate_limit__five_requests_pass(five: tuple[TestClient, Keys]) -> None:
    client, keys = five
    assert spend(client, keys.routing, 5) == [200] * 5


def test_rate_limit__sixth_request_429(five: tuple[TestClient, Keys]) -> None:
    client, keys = five
    spend(client, keys.routing, 5)
    response = client.get(URL, headers=auth(keys.routing))
    error = assert_error(response, 429, code="rate_limited")
    assert "5" in error["detail"]


def test_rate_limit__retry_after_is_whole_seconds(
    five: tuple[TestClient, Keys], clock: ManualClock
) -> None:
    client, keys = five
    spend(client, keys.routing, 5)
    assert client.get(URL, headers=auth(keys.routing)).headers["retry-after"] == "60"
    clock.advance(20.5)
    retry_after = client.get(URL, headers=auth(keys.routing)).headers["retry-after"]
    assert retry_after == "40"  # 39.5 s rounded up


def test_rate_limit__retry_after_at_least_one_second(
    five: tuple[TestClient, Keys], clock: ManualClock
) -> None:
    client, keys = five
    spend(client, keys.routing, 5)
    clock.advance(59.9)
    response = client.get(URL, headers=auth(keys.routing))
    assert response.status_code == 429
    assert int(response.headers["retry-after"]) == 1


def test_rate_limit__a_minute_later_200(five: tuple[TestClient, Keys], clock: ManualClock) -> None:
    client, keys = five
    spend(client, keys.routing, 6)
    clock.advance(60)
    assert spend(client, keys.routing, 5) == [200] * 5
    assert client.get(URL, headers=auth(keys.routing)).status_code == 429


def test_rate_limit__window_rolls(five: tuple[TestClient, Keys], clock: ManualClock) -> None:
    client, keys = five
    spend(client, keys.routing, 3)
    clock.advance(30)
    spend(client, keys.routing, 2)
    clock.advance(30)  # the first three fall out of the window, the last two stay
    assert spend(client, keys.routing, 4) == [200, 200, 200, 429]


def test_rate_limit__rejected_requests_do_not_extend_the_wait(
    five: tuple[TestClient, Keys], clock: ManualClock
) -> None:
    client, keys = five
    spend(client, keys.routing, 5)
    for _ in range(10):
        clock.advance(5)
        spend(client, keys.routing, 1)
    clock.advance(10)
    assert spend(client, keys.routing, 1) == [200]


def test_rate_limit__other_account_unaffected(five: tuple[TestClient, Keys]) -> None:
    client, keys = five
    spend(client, keys.routing, 6)
    assert spend(client, keys.plain, 5) == [200] * 5


def test_rate_limit__counts_failed_requests(five: tuple[TestClient, Keys]) -> None:
    client, keys = five
    for _ in range(5):
        assert client.get("/v2/ports/ZZZZZ", headers=auth(keys.routing)).status_code == 404
    assert client.get(URL, headers=auth(keys.routing)).status_code == 429


def test_rate_limit__429_on_routing_endpoint_before_parameter_checks(
    five: tuple[TestClient, Keys],
) -> None:
    client, keys = five
    spend(client, keys.routing, 5)
    response = client.get("/v2/vessels/x/future_positions", headers=auth(keys.routing))
    assert_error(response, 429, code="rate_limited")


def test_rate_limit__unknown_key_401_not_429(five: tuple[TestClient, Keys]) -> None:
    client, keys = five
    spend(client, keys.routing, 6)
    response = client.get(URL, headers=auth("sl_unknown"))
    assert_error(response, 401)


def test_rate_limit__forty_threads_limit_ten(settings: Settings, clock: ManualClock) -> None:
    app, keys = limited(settings, clock, 10)
    start = Barrier(40)

    def call(client: TestClient) -> int:
        start.wait(timeout=10)
        return client.get(URL, headers=auth(keys.routing)).status_code

    with (
        TestClient(app, raise_server_exceptions=False) as client,
        ThreadPoolExecutor(max_workers=40) as pool,
    ):
        statuses = Counter(pool.map(call, [client] * 40))
    assert statuses == {200: 10, 429: 30}


def test_rate_limit__busy_key_admitted_from_memory(settings: Settings, clock: ManualClock) -> None:
    """Under a generous limit a key's requests are admitted from this process's leases of its
    counter: 63 requests, 6 leases (1, 2, 4, ..., 32), not a transaction each."""
    app, keys = limited(settings, clock, 100_000)
    begun: list[object] = []
    with TestClient(app, raise_server_exceptions=False) as client:
        assert spend(client, keys.routing, 1) == [200]  # the key is checked and cached
        event.listen(app.state.sealane.context.engine, "begin", begun.append)
        assert spend(client, keys.routing, 62) == [200] * 62
    assert len(begun) == 5
