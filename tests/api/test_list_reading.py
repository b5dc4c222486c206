"""How lists are read and rendered: columns typed for reading give the mapped columns' values,
a page and its total come from one statement, and kept resource objects follow every change."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from sealane.jsonapi.reuse import RenderedResources
from sealane.service.tracking.loading import Loader
from sealane.store.accounts import create_account
from sealane.store.database import transaction
from sealane.store.models import Container, Shipment, TrackingRequest, TransportEvent
from sealane.store.reading import read_columns
from tests.store.conftest import BACKENDS, schema_url
from tests.toolkit import START, make_app
from tests.tracking.support import create_request, get_json, patch_json, tick


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A SQLite file, or a schema on the test PostgreSQL server."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'sealane.db'}"
        return
    server = request.getfixturevalue("postgres_url")
    with schema_url(server, request.getfixturevalue("postgres_admin")) as url:
        yield url


@pytest.fixture
def tracked(database_url: str) -> Iterator[tuple[FastAPI, TestClient, str]]:
    """An app on ``database_url`` whose account tracks three shipments (one pass)."""
    app = make_app(database_url, rate_limit_per_minute=100_000)
    with transaction(app.state.sealane.sessions) as session:
        key = create_account(session, "Reader Co", routing=False, now=START).secret
    with TestClient(app, raise_server_exceptions=False) as client:
        for number in ("TESTREAD0001", "TESTREAD0002", "TESTREAD0003"):
            create_request(client, key, number, ref_numbers=["PO-1"])
        tick(app)
        yield app, client, key
    app.state.sealane.engine.dispose()


@pytest.mark.parametrize("model", [Shipment, Container, TransportEvent, TrackingRequest])
def test_read_columns__the_values_of_the_mapped_columns(
    tracked: tuple[FastAPI, TestClient, str], model: type[Any]
) -> None:
    app = tracked[0]
    table = model.__table__
    with app.state.sealane.sessions() as session:
        mapped = {row.id: row._asdict() for row in session.execute(select(table))}
        read = {row.id: row._asdict() for row in session.execute(select(*read_columns(table)))}
    assert mapped, model  # something was tracked
    assert read == mapped
    moments = [v for row in read.values() for v in row.values() if hasattr(v, "tzinfo")]
    assert moments and all(v.utcoffset() is not None and not v.utcoffset() for v in moments)


def test_page__total_beside_the_rows_and_past_the_end(
    tracked: tuple[FastAPI, TestClient, str],
) -> None:
    _, client, key = tracked
    for url in ("/v2/shipments", "/v2/containers", "/v2/tracking_requests"):
        first = get_json(client, key, url, **{"page[size]": "2"})
        assert len(first["data"]) == 2, url
        total = first["meta"]["total"]
        assert total >= 3, url
        past = get_json(client, key, url, **{"page[size]": "2", "page[number]": "9"})
        assert past["data"] == [] and past["meta"]["total"] == total, url


def test_kept_objects__a_change_is_rendered(tracked: tuple[FastAPI, TestClient, str]) -> None:
    app, client, key = tracked
    kept: RenderedResources = app.state.rendered
    url, include = "/v2/shipments", {"include": "containers"}
    before = get_json(client, key, url, **include)
    rendered = kept.rendered
    again = get_json(client, key, url, **include)
    assert again == before
    assert kept.rendered == rendered  # nothing rendered twice: the page itself was kept
    assert app.state.pages.reused == 1
    shipment = before["data"][0]["id"]
    body = {"data": {"type": "shipment", "attributes": {"tags": ["changed"]}}}
    patch_json(client, key, f"/v2/shipments/{shipment}", body)
    after = get_json(client, key, url, **include)
    tags = {item["id"]: item["attributes"]["tags"] for item in after["data"]}
    assert tags[shipment] == ["changed"]
    assert before["included"] and after["included"] == before["included"]
    assert kept.reused > 0  # the unchanged resources were not rendered again


@pytest.mark.parametrize("rewritten", [True, 1.0], ids=["1 to true", "1 to 1.0"])
def test_kept_page__a_json_value_whose_type_alone_changed_is_shown(
    tracked: tuple[FastAPI, TestClient, str], rewritten: object
) -> None:
    """Another program rewrites a container's fees from ``1`` to a value Python finds equal
    (``True``, ``1.0``): the kept page and the kept resource objects show the new value."""
    app, client, key = tracked
    engine = app.state.sealane.engine

    def write_fees(amount: object) -> None:
        with engine.begin() as connection:
            fees = [{"type": "demurrage", "amount": amount}]
            connection.execute(update(Container).values(fees_at_pod_terminal=fees))

    def shown() -> list[object]:
        body = get_json(client, key, "/v2/containers")
        return [item["attributes"]["fees_at_pod_terminal"][0]["amount"] for item in body["data"]]

    write_fees(1)
    first = shown()
    assert first and first == [1] * len(first) and shown() == first
    assert app.state.pages.reused >= 1  # the second read was the kept page
    write_fees(rewritten)
    amounts = shown()
    assert amounts == [rewritten] * len(first)
    assert all(type(amount) is type(rewritten) for amount in amounts)


def test_rendered_resources__equal_record_same_object_else_rendered() -> None:
    kept = RenderedResources(max_entries=2)
    first = kept.resource(("t", "1"), ("record", 1), lambda: {"n": 1})
    assert kept.resource(("t", "1"), ("record", 1), lambda: {"n": 2}) is first
    assert kept.resource(("t", "1"), ("record", 2), lambda: {"n": 3}) == {"n": 3}
    kept.resource(("t", "2"), ("record", 1), lambda: {"n": 4})
    kept.resource(("t", "3"), ("record", 1), lambda: {"n": 5})
    assert len(kept) == 2  # the least recently used went
    assert kept.resource(("t", "1"), ("record", 2), lambda: {"n": 6}) == {"n": 6}


@pytest.mark.parametrize("other", [True, 1.0, {"n": True}], ids=["true", "1.0", "nested"])
def test_rendered_resources__a_record_equal_only_across_types_is_rendered(other: object) -> None:
    kept = RenderedResources()
    one = {"n": 1} if isinstance(other, dict) else 1
    kept.resource(("t", "1"), ("record", one), lambda: {"n": "first"})
    assert kept.resource(("t", "1"), ("record", other), lambda: {"n": "again"}) == {"n": "again"}


def test_loader__reads_what_the_session_has_not_flushed_yet(
    tracked: tuple[FastAPI, TestClient, str],
) -> None:
    app = tracked[0]
    with app.state.sealane.sessions() as session:
        shipment = session.scalars(select(Shipment)).first()
        assert shipment is not None
        shipment.tags = ["pending"]  # changed, not flushed: a query flushes it first
        (row,) = Loader(session).rows(Shipment, Shipment.id, [shipment.id])
        assert row.tags == ["pending"]
        session.rollback()
