"""The shared rate limiter with leases: what it admits, in one process and in two on one
database, and how rarely a busy key touches the database.

Two ``RateLimiter`` objects on two engines of one database stand for two server processes.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine, event, select

from sealane.clock import ManualClock
from sealane.service.core.ratelimit import RateLimiter, default_max_lease
from sealane.store.database import make_engine
from sealane.store.migrate import upgrade
from sealane.store.models import RateLimitCount
from tests.store.conftest import (
    database_url,
    fresh_postgres_url,
    postgres_admin,
    postgres_database_url,
    postgres_url,
)

__all__ = [
    "database_url",
    "fresh_postgres_url",
    "postgres_admin",
    "postgres_database_url",
    "postgres_url",
]

KEY = "account-1"
#: A whole second, so that hits made without moving the clock share one lease second.
START = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


@pytest.fixture
def engines(database_url: str) -> Iterator[tuple[Engine, Engine]]:
    """Two engines on one migrated database: what two server processes hold."""
    first, second = make_engine(database_url), make_engine(database_url)
    upgrade(first)
    yield first, second
    first.dispose()
    second.dispose()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


def transactions(engine: Engine) -> Counter[str]:
    """A counter of the transactions ``engine`` begins from now on (key ``"begin"``)."""
    seen: Counter[str] = Counter()
    event.listen(engine, "begin", lambda _connection: seen.update(["begin"]))
    return seen


def counted(engine: Engine, key: str = KEY) -> dict[int, int]:
    """The database's counts of ``key``, by second."""
    table = RateLimitCount.__table__
    with engine.connect() as connection:
        rows = connection.execute(
            select(table.c.second, table.c.count).where(table.c.key == key)
        ).all()
    return {int(second): int(count) for second, count in rows}


def admitted(limiter: RateLimiter, hits: int) -> int:
    return sum(limiter.hit(KEY) is None for _ in range(hits))


def test_default_max_lease__a_hundredth_of_the_limit_within_1_and_256() -> None:
    assert [default_max_lease(n) for n in (1, 100, 199, 200, 5_000, 25_600, 10**9)] == [
        1,
        1,
        1,
        2,
        50,
        256,
        256,
    ]


def test_hit__leased_limit_refuses_at_the_count(
    engines: tuple[Engine, Engine], clock: ManualClock
) -> None:
    limiter = RateLimiter(engines[0], 1_000, clock)
    assert admitted(limiter, 1_000) == 1_000
    assert limiter.hit(KEY) == pytest.approx(60.0)
    assert counted(engines[0]) == {int(START.timestamp()): 1_000}


def test_hit__busy_key_mostly_admitted_from_memory(
    engines: tuple[Engine, Engine], clock: ManualClock
) -> None:
    limiter = RateLimiter(engines[0], 10**6, clock)
    seen = transactions(engines[0])
    assert admitted(limiter, 2_000) == 2_000
    # leases of 1, 2, 4, ..., 256, then 256 at a time: 15 transactions, not 2,000
    assert seen["begin"] <= 15
    assert counted(engines[0]) == {int(START.timestamp()): 2_047}  # the last lease's rest


def test_spend__only_within_the_second_the_lease_was_counted_in(
    engines: tuple[Engine, Engine], clock: ManualClock
) -> None:
    limiter = RateLimiter(engines[0], 10**6, clock)
    admitted(limiter, 3)  # leases of 1 and 2
    assert limiter.spend(KEY) is False  # spent
    admitted(limiter, 1)  # a lease of 4, 3 left
    clock.advance(1.0)
    assert limiter.spend(KEY) is False  # a new second: the database is asked again


def test_hit__unspent_hits_given_back_at_the_next_lease(
    engines: tuple[Engine, Engine], clock: ManualClock
) -> None:
    limiter = RateLimiter(engines[0], 10**6, clock)
    first = int(START.timestamp())
    admitted(limiter, 50)  # leases of 1 ... 32: 63 counted
    assert counted(engines[0]) == {first: 63}
    clock.advance(1.0)
    assert limiter.hit(KEY) is None
    assert counted(engines[0])[first] == 50


def test_hit__refused_lease_gives_back_too(
    engines: tuple[Engine, Engine], clock: ManualClock
) -> None:
    """A process whose lease is refused has given back its own rest first: in one process
    the limit is exact even across seconds."""
    limiter = RateLimiter(engines[0], 1_000, clock)  # leases of at most 10
    assert admitted(limiter, 993) == 993  # 995 counted: 1 + 2 + 4 + 8 + 98 leases of 10
    clock.advance(1.0)
    assert admitted(limiter, 10) == 7  # the 2 second 0's last lease left were given back
    assert sum(counted(engines[0]).values()) == 1_000


def test_hit__window_rolls_with_leases(engines: tuple[Engine, Engine], clock: ManualClock) -> None:
    limiter = RateLimiter(engines[0], 1_000, clock)
    assert admitted(limiter, 600) == 600
    clock.advance(30.0)
    assert admitted(limiter, 401) == 400
    clock.advance(30.0)  # second 0's 600 leave the window, second 30's 400 stay
    assert admitted(limiter, 601) == 600


def test_two_processes__never_more_than_the_limit(
    engines: tuple[Engine, Engine], clock: ManualClock
) -> None:
    limit = 1_000
    processes = [RateLimiter(engine, limit, clock) for engine in engines]
    rng = random.Random(29)
    total = 0
    for number in range(1, 1_601):  # either process, over 10 s: leases end with hits unspent
        total += processes[rng.random() < 0.5].hit(KEY) is None
        assert total <= limit
        if number % 40 == 0:
            clock.advance(0.25)
            assert sum(counted(engines[0]).values()) >= total
    assert limit - 2 * (processes[0].max_lease - 1) <= total


def test_two_processes__first_refusal_within_the_documented_margin(
    engines: tuple[Engine, Engine], clock: ManualClock
) -> None:
    limit = 5_000  # leases of at most 50
    first, second = (RateLimiter(engine, limit, clock) for engine in engines)
    admitted_first = admitted(first, 40)  # its lease of 32 has 23 left
    total = admitted_first
    while second.hit(KEY) is None:
        total += 1
    assert limit - (first.max_lease - 1) <= total < limit
    assert admitted(first, 100) == limit - total  # the other process spends what it holds


def test_two_processes__threads_never_exceed_the_limit(
    engines: tuple[Engine, Engine], clock: ManualClock
) -> None:
    limit = 1_000
    processes = [RateLimiter(engine, limit, clock) for engine in engines]
    with ThreadPoolExecutor(max_workers=16) as pool:
        results = list(pool.map(lambda i: processes[i % 2].hit(KEY) is None, range(1_500)))
    total = sum(results)
    margin = 2 * (processes[0].max_lease - 1)  # each may end holding a lease's rest
    assert limit - margin <= total <= limit
    assert sum(counted(engines[0]).values()) == limit


def test_hit__small_limits_are_not_leased(
    engines: tuple[Engine, Engine], clock: ManualClock
) -> None:
    limiter = RateLimiter(engines[0], 100, clock)
    seen = transactions(engines[0])
    assert admitted(limiter, 101) == 100
    assert seen["begin"] == 101
    assert counted(engines[0]) == {int(START.timestamp()): 100}
