"""Kept list pages follow the database: a change to any row a page was made from (written here
straight to the database, as another process would) is in the next answer, on SQLite and
PostgreSQL; the same answer is handed out again only while nothing it shows has changed."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import delete, insert, select, update

from sealane.api.kept_pages import KeptPages, kept_page
from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.service.core.context import ServiceContext
from sealane.service.core.paging import Page, PageRequest
from sealane.service.tracking.pages import ReadPage, Reads
from sealane.store.accounts import create_account
from sealane.store.database import make_engine, session_factory, transaction
from sealane.store.models import (
    Container,
    Party,
    Shipment,
    ShippingLine,
    TrackingRequest,
    TransportEvent,
    Vessel,
)
from sealane.store.reading import ReadLog, read_columns
from sealane.store.stamps import _watches, database_stamp
from tests.store.conftest import BACKENDS
from tests.toolkit import START
from tests.tracking.support import create_request, tick

from .kept_world import World, world_on


@pytest.fixture(params=BACKENDS)
def world(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[World]:
    with world_on(request, tmp_path) as found:
        yield found


SHIPMENTS_WITH_CONTAINERS = ("/v2/shipments", {"include": "containers", "page[size]": "30"})


def _by_id(document: Any, member: str = "data") -> dict[str, Any]:
    return {item["id"]: item for item in document.get(member, [])}


def test_kept_page__a_container_change_is_shown_with_its_shipment(world: World) -> None:
    before = world.kept(*SHIPMENTS_WITH_CONTAINERS)
    container = next(iter(_by_id(before, "included")))
    world.write(update(Container).where(Container.id == container).values(seal_number="SEAL-9"))
    after = world.get(*SHIPMENTS_WITH_CONTAINERS)
    assert _by_id(after, "included")[container]["attributes"]["seal_number"] == "SEAL-9"
    assert after["data"] == before["data"]


def test_kept_page__a_new_shipment_changes_the_total_and_the_page(world: World) -> None:
    url, params = "/v2/shipments", {"page[size]": "2"}
    before = world.kept(url, params)
    assert before["meta"]["total"] == 4
    create_request(world.client, world.key, "TESTKEPT0005")
    world.clock.advance(60)
    tick(world.app)
    after = world.get(url, params)
    assert after["meta"]["total"] == 5
    assert after["links"]["last"].endswith("page%5Bnumber%5D=3&page%5Bsize%5D=2")
    assert after["data"][0]["attributes"]["bill_of_lading_number"] == "TESTKEPT0005"


def test_kept_page__related_rows_are_followed(world: World) -> None:
    url, params = SHIPMENTS_WITH_CONTAINERS
    before = world.kept(url, params)
    shipment = before["data"][0]
    vessel_id = shipment["relationships"]["pod_vessel"]["data"]["id"]
    world.write(update(Vessel).where(Vessel.id == vessel_id).values(name="RENAMED MARINER"))
    after = _by_id(world.get(url, params))[shipment["id"]]
    assert after["attributes"]["pod_vessel_name"] == "RENAMED MARINER"

    world.kept(url, params)
    world.write(update(ShippingLine).where(ShippingLine.scac == "TEST").values(name="Renamed"))
    after = _by_id(world.get(url, params))[shipment["id"]]
    assert after["attributes"]["shipping_line_name"] == "Renamed"

    world.kept(url, params)
    account_id = world.one(select(Shipment.account_id).where(Shipment.id == shipment["id"]))[0]
    world.write(
        insert(Party).values(
            id="party-kept",
            account_id=account_id,
            company_name="Acme",
            created_at=START,
            updated_at=START,
        )
    )
    world.write(
        update(TrackingRequest)
        .where(TrackingRequest.shipment_id == shipment["id"])
        .values(customer_id="party-kept")
    )
    after = _by_id(world.get(url, params))[shipment["id"]]
    assert after["attributes"]["customer_name"] == "Acme"


def test_kept_page__transport_events_are_followed(world: World) -> None:
    url, params = "/v2/containers", {"page[size]": "30"}
    before = world.kept(url, params)
    container = before["data"][0]
    events = container["relationships"]["transport_events"]["data"]
    assert events
    first = events[0]["id"]
    row = world.one(
        select(*read_columns(TransportEvent.__table__)).where(TransportEvent.id == first)
    )
    copy = {
        **row._asdict(),
        "id": "event-kept",
        "sequence": 99,
        "timestamp": row.timestamp + timedelta(days=900),
    }
    world.write(insert(TransportEvent).values(**copy))
    after = _by_id(world.get(url, params))[container["id"]]
    assert [e["id"] for e in after["relationships"]["transport_events"]["data"]][-1] == "event-kept"

    world.kept(url, params)
    world.write(delete(TransportEvent).where(TransportEvent.id == "event-kept"))
    after = _by_id(world.get(url, params))[container["id"]]
    assert after["relationships"]["transport_events"]["data"] == events


def test_kept_page__a_change_undone_is_shown_each_time(world: World) -> None:
    url, params = "/v2/tracking_requests", dict[str, str]()
    before = world.kept(url, params)
    request = before["data"][0]
    shipment = request["relationships"]["tracked_object"]["data"]["id"]
    for tags in (["first"], ["second"], ["first"], None):
        world.write(update(Shipment).where(Shipment.id == shipment).values(tags=tags))
        shown = _by_id(world.get(url, params), "included")[shipment]["attributes"]["tags"]
        assert shown == (tags or [])
        assert world.get(url, params) == world.get(url, params)


def test_kept_page__kept_per_account_and_per_query(world: World) -> None:
    with transaction(world.app.state.sealane.sessions) as session:
        other = create_account(session, "Other Co", routing=False, now=START).secret
    url = "/v2/shipments"
    mine = world.kept(url, {})
    assert mine["meta"]["total"] == 4
    assert world.get(url, {}, key=other)["meta"]["total"] == 0
    second = world.get(url, {"page[size]": "3", "page[number]": "2"})
    assert len(second["data"]) == 1 and second["links"]["self"].endswith("page%5Bsize%5D=3")
    assert world.get(url, {"filter[number]": "TESTKEPT0002"})["meta"]["total"] == 1


def test_read_log__replay_sees_a_changed_row(world: World) -> None:
    statement = select(*read_columns(Shipment.__table__)).order_by(Shipment.id)
    log = ReadLog()
    with world.app.state.sealane.sessions() as session:
        rows = log.read(session.connection(), statement, {})
        mapped = session.execute(statement).all()
        assert [tuple(row) for row in rows] == [tuple(row) for row in mapped]
        assert rows[0].id == mapped[0].id and log.replay(session.connection())
    world.write(update(Shipment).where(Shipment.id == rows[-1].id).values(pod_voyage_number="X9"))
    with world.app.state.sealane.sessions() as session:
        assert not log.replay(session.connection())


def test_kept_pages__bounded_by_entries_and_weight() -> None:
    pages = KeptPages(max_entries=2, max_weight=1000)
    for key in ("a", "b", "c"):
        pages.keep(key, Reads(ReadLog()), b"x" * 100, None)
    assert len(pages) == 2 and pages.weight == 200
    pages.keep("big", Reads(ReadLog()), b"x" * 1001, None)  # never kept
    pages.keep("d", Reads(ReadLog()), b"x" * 950, None)  # the two before it go
    assert len(pages) == 1 and pages.weight == 950


def test_kept_page__unchanged_database_not_read_again_and_a_commit_elsewhere_seen(
    world: World,
) -> None:
    url, params = SHIPMENTS_WITH_CONTAINERS
    before = world.kept(url, params)
    unread = world.pages.unread
    for _ in range(3):
        assert world.get(url, params) == before
    assert world.pages.unread > unread  # nothing was committed: the rows were not read again
    shipment = before["data"][-1]["id"]
    world.write_elsewhere(update(Shipment).where(Shipment.id == shipment).values(tags=["far"]))
    after = _by_id(world.get(url, params))[shipment]
    assert after["attributes"]["tags"] == ["far"]


def test_database_stamp__changes_with_every_commit(world: World) -> None:
    def stamp() -> Any:
        with world.app.state.sealane.sessions() as session:
            return database_stamp(session.connection())

    first = stamp()
    assert first is not None and stamp() == first
    world.write(update(Shipment).values(pod_voyage_number="V1"))  # on a pooled connection
    second = stamp()
    assert second != first
    world.write_elsewhere(update(Shipment).values(pod_voyage_number="V2"))
    assert stamp() not in (first, second)


def test_kept_page__requests_that_miss_at_once_make_it_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'once.db'}"
    engine = make_engine(url)
    context = ServiceContext(
        Settings(database_url=url), engine, session_factory(engine), ManualClock(START)
    )
    pages, key = KeptPages(), ("acct", "shipments", "", "base")
    asked = 4
    everyone_waits = threading.Event()
    made: list[int] = []

    def read() -> ReadPage[Any]:
        made.append(1)
        assert everyone_waits.wait(timeout=60)  # the others are queued behind this request
        return ReadPage(Page((), 0, PageRequest()), Reads(ReadLog()))

    def ask() -> bytes:
        return kept_page(pages, key, context, read, lambda page: b"page")

    with ThreadPoolExecutor(asked) as pool:
        answers = [pool.submit(ask) for _ in range(asked)]
        while pages._making.get(key, (None, 0))[1] < asked:
            threading.Event().wait(0.01)
        everyone_waits.set()
        assert [answer.result() for answer in answers] == [b"page"] * asked
    assert made == [1] and pages.made == 1 and pages.reused == asked - 1
    assert not pages._making  # nothing left behind
    engine.dispose()


def test_database_stamp__not_repeated_after_the_engine_is_disposed_of(tmp_path: Path) -> None:
    """Regression: a new watch's ``data_version`` starts again low, so a page vouched for by the
    watch before ``dispose()`` was handed out after a commit when the new one counted as far."""
    url = f"sqlite:///{tmp_path / 'disposed.db'}"
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.exec_driver_sql("CREATE TABLE t (x INTEGER)")
    with engine.connect() as connection:
        before = database_stamp(connection)
    engine.dispose()  # its watch is closed; the next stamp comes from a new one
    other = make_engine(url)
    with other.begin() as connection:
        connection.exec_driver_sql("INSERT INTO t VALUES (1)")
    other.dispose()
    with engine.connect() as connection:
        assert database_stamp(connection) != before
    engine.dispose()


def test_database_stamp__none_from_a_watch_closed_meanwhile(tmp_path: Path) -> None:
    """A request that took the engine's watch just before ``dispose()`` closed it gets no stamp
    (its page is read as usual), not an error."""
    engine = make_engine(f"sqlite:///{tmp_path / 'closed.db'}")
    with engine.connect() as connection:
        assert database_stamp(connection) is not None
        watch = _watches[engine]
        engine.dispose()
        assert watch.version() is None
    engine.dispose()
