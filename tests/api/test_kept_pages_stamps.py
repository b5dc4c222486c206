"""A kept page found at once by its database stamp costs no connection of the pool, and the
stamps' own connection cut off by the server means pages read again, not errors (SQLite and
PostgreSQL; the cut-off on PostgreSQL)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event, literal_column, select, table, update

from sealane.api.kept_pages import KeptPages, kept_page
from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.service.core.context import ServiceContext
from sealane.service.core.paging import Page, PageRequest
from sealane.service.tracking.pages import ReadPage, Reads
from sealane.store.database import make_engine, session_factory
from sealane.store.models import Shipment
from sealane.store.reading import ReadLog
from sealane.store.stamps import _list_versions
from tests.store.conftest import BACKENDS, terminate_backends
from tests.toolkit import START

from .kept_world import World, world_on


@pytest.fixture(params=BACKENDS)
def world(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[World]:
    with world_on(request, tmp_path) as found:
        yield found


def test_kept_page__found_at_once_without_a_pooled_connection(world: World) -> None:
    engine: Engine = world.app.state.sealane.engine
    pages, key = KeptPages(), ("acct", "shipments", "", "base")

    def read() -> ReadPage[Any]:
        return ReadPage(Page((), 0, PageRequest()), Reads(ReadLog()))

    def ask() -> bytes:
        return kept_page(pages, key, world.app.state.sealane.context, read, lambda _: b"page")

    assert ask() == b"page"
    checkouts: list[object] = []

    def counted(*_: object) -> None:
        checkouts.append(None)

    event.listen(engine, "checkout", counted)
    try:
        for _ in range(10):
            assert ask() == b"page"
    finally:
        event.remove(engine, "checkout", counted)
    assert pages.unread > 0
    # a connection only for the pages replayed (another test's commit on the shared server)
    assert len(checkouts) == pages.reused - pages.unread


@pytest.mark.parametrize("world", ["postgresql"], indirect=True)
def test_kept_page__stamp_connections_cut_off_are_no_error(
    world: World, postgres_admin: Engine
) -> None:
    url, params = "/v2/shipments", {"include": "containers"}
    before = world.kept(url, params)
    engine: Engine = world.app.state.sealane.engine
    stamps = _list_versions[engine]._connection
    assert stamps is not None
    terminate_backends(postgres_admin, [stamps.info.backend_pid])
    shipment = before["data"][0]["id"]
    world.write_elsewhere(update(Shipment).where(Shipment.id == shipment).values(tags=["cut"]))
    for _ in range(3):  # get_json checks the status: 200 each time
        after = world.get(url, params)
        assert {item["id"]: item for item in after["data"]}[shipment]["attributes"]["tags"] == [
            "cut"
        ]
    unread = world.pages.unread
    for _ in range(5):
        world.get(url, params)
    assert world.pages.unread > unread  # stamps again, on a new connection


def test_kept_page__after_a_commit_one_request_replays_the_page(tmp_path: Path) -> None:
    """Requests that come with the same new stamp queue for the page: the first replays it,
    the others find it vouched for by that stamp and take it without reading."""
    url = f"sqlite:///{tmp_path / 'replayed.db'}"
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.exec_driver_sql("CREATE TABLE t (x INTEGER)")
        connection.exec_driver_sql("CREATE TABLE list_stamps (id INTEGER PRIMARY KEY, version INT)")
        connection.exec_driver_sql("INSERT INTO list_stamps VALUES (1, 0)")
    sessions = session_factory(engine)
    context = ServiceContext(Settings(database_url=url), engine, sessions, ManualClock(START))
    pages, key, asked = KeptPages(), ("acct", "shipments", "", "base"), 4

    def read() -> ReadPage[Any]:
        log = ReadLog()
        with sessions() as session:
            log.read(session.connection(), select(literal_column("x")).select_from(table("t")), {})
        return ReadPage(Page((), 0, PageRequest()), Reads(log))

    def ask() -> bytes:
        return kept_page(pages, key, context, read, lambda _: b"page")

    assert ask() == b"page"
    other = make_engine(url)
    with other.begin() as connection:  # a commit elsewhere: a new stamp, the same rows
        connection.exec_driver_sql("UPDATE list_stamps SET version = version + 1")
    other.dispose()
    checkouts: list[object] = []

    def counted(*_: object) -> None:
        checkouts.append(None)

    event.listen(engine, "checkout", counted)
    with ThreadPoolExecutor(asked) as pool:
        with pages.making(key):  # held while they come: they all queue behind it
            answers = [pool.submit(ask) for _ in range(asked)]
            deadline = time.monotonic() + 30
            while pages._making[key][1] < asked + 1 and time.monotonic() < deadline:
                threading.Event().wait(0.01)
            queued = pages._making[key][1] - 1
        assert [answer.result() for answer in answers] == [b"page"] * asked
    event.remove(engine, "checkout", counted)
    engine.dispose()
    assert queued == asked, "requests replayed the page before they queued for it"
    assert len(checkouts) == 1 and pages.made == 1
    assert (pages.reused, pages.unread) == (asked, asked - 1)
