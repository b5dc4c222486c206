"""Lists read by key (issue 41): a client following ``links.next`` sees every row that stayed in
place once and none twice while rows are inserted, updated and deleted between its pages;
``meta.total`` counts the account's rows; search by part of a number finds the account's own
shipments and containers only; bookkeeping commits leave kept pages kept. On SQLite and
PostgreSQL, with rows written straight to the tables (many, quickly)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import delete, insert, text, update

from sealane.clock import ManualClock
from sealane.store.accounts import create_account
from sealane.store.database import make_engine, transaction
from sealane.store.models import Container, Shipment, TrackingRequest
from sealane.store.models.base import new_id
from tests.store.conftest import BACKENDS, schema_url
from tests.toolkit import START, auth, make_app
from tests.tracking.support import get_json

#: Shipments of the account under test, and of its neighbour.
MINE, THEIRS = 47, 13


@dataclass
class Paged:
    app: FastAPI
    client: TestClient
    url: str
    mine: str
    theirs: str
    mine_key: str
    theirs_key: str

    def write(self, *statements: Any) -> None:
        """Commit ``statements`` on another engine, as another process would."""
        engine = make_engine(self.url)
        try:
            with engine.begin() as connection:
                for statement in statements:
                    connection.execute(statement)
        finally:
            engine.dispose()


def _shipment(account: str, n: int, **values: Any) -> dict[str, Any]:
    # every third shipment shares its moment with the one before: ties are ordered by id
    moment = START + timedelta(minutes=n - n % 3 // 2)
    return {
        "id": new_id(),
        "account_id": account,
        "bill_of_lading_number": f"PGBL{account[:4].upper()}{n:06d}",
        "booking_number": None,
        "ref_numbers": [f"PO-{n:04d}"],
        "transshipment_locodes": [],
        "shipping_line_scac": "MAEU",
        "port_of_lading_locode": "CNSHA",
        "port_of_discharge_locode": "NLRTM" if n % 2 else "USLAX",
        "carrier_request_type": "bill_of_lading",
        "carrier_number": f"PGBL{n:06d}",
        "carrier_epoch": START,
        "created_at": moment,
        "updated_at": moment,
        **values,
    }


def _container(account: str, shipment: dict[str, Any], n: int) -> dict[str, Any]:
    return {
        "id": new_id(),
        "account_id": account,
        "shipment_id": shipment["id"],
        "number": f"PGCU{n:07d}",
        "equipment_type": "dry",
        "equipment_length": 40,
        "equipment_height": "standard",
        "weight_in_lbs": 1000,
        "ref_numbers": [],
        "fees_at_pod_terminal": [],
        "holds_at_pod_terminal": [],
        "created_at": shipment["created_at"],
        "updated_at": shipment["updated_at"],
    }


@pytest.fixture(params=BACKENDS)
def paged(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Paged]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'paged.db'}"
        yield from _world(url)
        return
    server = request.getfixturevalue("postgres_url")
    with schema_url(server, request.getfixturevalue("postgres_admin")) as url:
        yield from _world(url)


def _world(url: str) -> Iterator[Paged]:
    app = make_app(url, clock=ManualClock(START), rate_limit_per_minute=100_000)
    try:
        with transaction(app.state.sealane.sessions) as session:
            mine = create_account(session, "Mine", routing=False, now=START)
            theirs = create_account(session, "Theirs", routing=False, now=START)
        shipments = [_shipment(mine.account_id, n) for n in range(MINE)]
        shipments += [_shipment(theirs.account_id, 1000 + n) for n in range(THEIRS)]
        containers = [_container(s["account_id"], s, n) for n, s in enumerate(shipments)]
        requests = [
            {
                "id": new_id(),
                "account_id": s["account_id"],
                "request_type": "bill_of_lading",
                "request_number": s["carrier_number"],
                "scac": "MAEU",
                "status": "created",
                "ref_numbers": [],
                "tags": [],
                "shipment_id": s["id"],
                "created_at": s["created_at"],
                "updated_at": s["updated_at"],
            }
            for s in shipments
        ]
        world = Paged(
            app,
            TestClient(app),
            url,
            mine.account_id,
            theirs.account_id,
            mine.secret,
            theirs.secret,
        )
        world.write(
            insert(Shipment).values(shipments),
            insert(Container).values(containers),
            insert(TrackingRequest).values(requests),
        )
        with world.client:
            yield world
    finally:
        app.state.sealane.engine.dispose()


def _next(document: Any) -> tuple[str, dict[str, str]] | None:
    link = document["links"].get("next")
    if link is None:
        return None
    parts = urlsplit(link)
    return parts.path, {k: v[0] for k, v in parse_qs(parts.query).items()}


def _ids(document: Any) -> list[str]:
    return [item["id"] for item in document["data"]]


@pytest.mark.parametrize("path", ["/v2/shipments", "/v2/containers", "/v2/tracking_requests"])
def test_keyset__following_next_links_gives_every_row_once_in_order(
    paged: Paged, path: str
) -> None:
    everything = get_json(paged.client, paged.mine_key, path, **{"page[size]": "100"})
    assert everything["meta"]["total"] == MINE
    assert len(everything["data"]) == MINE
    seen: list[str] = []
    found: tuple[str, dict[str, str]] | None = (path, {"page[size]": "10"})
    pages = 0
    while found is not None:
        document = get_json(paged.client, paged.mine_key, found[0], **found[1])
        assert document["meta"]["total"] == MINE
        seen += _ids(document)
        pages += 1
        found = _next(document)
        if found is not None:
            assert found[1]["page[number]"] == str(pages + 1)
            assert "page[after]" in found[1]
    assert seen == _ids(everything)
    assert pages == 5


def test_keyset__rows_changed_between_pages_none_skipped_or_repeated(paged: Paged) -> None:
    params = {"page[size]": "10"}
    first = get_json(paged.client, paged.mine_key, "/v2/shipments", **params)
    order = _ids(get_json(paged.client, paged.mine_key, "/v2/shipments", **{"page[size]": "100"}))
    seen = _ids(first)
    # between pages: a new shipment (the newest), one seen and one not yet seen updated (both
    # move to the front), one not yet seen deleted
    later = START + timedelta(days=1)
    new = _shipment(paged.mine, 900, created_at=later, updated_at=later)
    touched_seen, touched_unseen, deleted = order[3], order[25], order[30]
    paged.write(
        insert(Shipment).values([new]),
        update(Shipment)
        .where(Shipment.id.in_([touched_seen, touched_unseen]))
        .values(updated_at=later),
        delete(Container).where(Container.shipment_id == deleted),
        update(TrackingRequest)
        .where(TrackingRequest.shipment_id == deleted)
        .values(shipment_id=None),
        delete(Shipment).where(Shipment.id == deleted),
    )
    found = _next(first)
    while found is not None:
        document = get_json(paged.client, paged.mine_key, found[0], **found[1])
        seen += _ids(document)
        found = _next(document)
    assert len(seen) == len(set(seen)), "a row was shown twice"
    untouched = [key for key in order if key not in (touched_seen, touched_unseen, deleted)]
    assert [key for key in seen if key in untouched] == untouched, "a row was skipped"
    assert deleted not in seen and new["id"] not in seen


def test_by_number__the_same_rows_as_by_key_while_nothing_changes(paged: Paged) -> None:
    by_key = get_json(paged.client, paged.mine_key, "/v2/shipments", **{"page[size]": "10"})
    for number in (2, 3):
        found = _next(by_key)
        assert found is not None
        by_key = get_json(paged.client, paged.mine_key, found[0], **found[1])
        by_number = get_json(
            paged.client,
            paged.mine_key,
            "/v2/shipments",
            **{"page[size]": "10", "page[number]": str(number)},
        )
        assert _ids(by_number) == _ids(by_key)
        assert by_number["meta"]["total"] == MINE


def test_totals__per_account_and_after_an_insert(paged: Paged) -> None:
    theirs = get_json(paged.client, paged.theirs_key, "/v2/shipments")
    assert theirs["meta"]["total"] == THEIRS
    assert {item["id"] for item in theirs["data"]}.isdisjoint(
        _ids(get_json(paged.client, paged.mine_key, "/v2/shipments", **{"page[size]": "100"}))
    )
    paged.write(insert(Shipment).values([_shipment(paged.mine, 901)]))
    assert get_json(paged.client, paged.mine_key, "/v2/shipments")["meta"]["total"] == MINE + 1
    assert get_json(paged.client, paged.theirs_key, "/v2/shipments")["meta"]["total"] == THEIRS


def test_search__part_of_a_number_within_the_account(paged: Paged) -> None:
    def numbers(key: str, path: str, **params: str) -> set[str]:
        document = get_json(paged.client, key, path, **{"page[size]": "100", **params})
        field = "bill_of_lading_number" if path == "/v2/shipments" else "number"
        return {item["attributes"][field] for item in document["data"]}

    prefix = f"PGBL{paged.mine[:4].upper()}"
    assert numbers(paged.mine_key, "/v2/shipments", q="00004") == {
        f"{prefix}000004",
        f"{prefix}000040",
        f"{prefix}000041",
        f"{prefix}000042",
        f"{prefix}000043",
        f"{prefix}000044",
        f"{prefix}000045",
        f"{prefix}000046",
    }
    # by a part of a container number (PGCU0000012 is shipment 12's), any case
    assert numbers(paged.mine_key, "/v2/shipments", q="cu000001") == {
        f"{prefix}{n:06d}" for n in range(10, 20)
    }
    # by a reference number, whole
    assert numbers(paged.mine_key, "/v2/shipments", **{"filter[number]": "po-0007"}) == {
        f"{prefix}000007"
    }
    # the neighbour's shipment 1003 (container PGCU0000050) is not found from this account
    assert numbers(paged.mine_key, "/v2/shipments", q="001003") == set()
    assert numbers(paged.mine_key, "/v2/containers", **{"filter[number]": "PGCU0000050"}) == set()
    assert numbers(paged.theirs_key, "/v2/containers", **{"filter[number]": "PGCU0000050"}) == {
        "PGCU0000050"
    }
    # a container by its shipment's bill of lading number
    assert numbers(
        paged.mine_key, "/v2/containers", **{"filter[number]": f"{prefix.lower()}000008"}
    ) == {"PGCU0000008"}


def test_page_after__not_a_key_is_refused_with_the_parameter_named(paged: Paged) -> None:
    for bad in ("nothing-here", "AAAA"):
        response = paged.client.get(
            "/v2/shipments", params={"page[after]": bad}, headers=auth(paged.mine_key)
        )
        assert response.status_code == 400, response.text
        assert response.json()["errors"][0]["source"] == {"parameter": "page[after]"}


def test_kept_page__bookkeeping_commits_leave_it_kept(paged: Paged) -> None:
    pages = paged.app.state.pages
    get_json(paged.client, paged.mine_key, "/v2/shipments")
    for second in range(3):
        paged.write(
            text(
                "INSERT INTO rate_limit_counts (key, second, count) VALUES ('x', :s, 1)"
            ).bindparams(s=second)
        )
        unread = pages.unread
        get_json(paged.client, paged.mine_key, "/v2/shipments")
        assert pages.unread == unread + 1, "a bookkeeping commit sent the page to be read again"
    paged.write(update(Shipment).where(Shipment.account_id == paged.mine).values(tags=["x"]))
    unread, made = pages.unread, pages.made
    document = get_json(paged.client, paged.mine_key, "/v2/shipments")
    assert pages.unread == unread and pages.made == made + 1
    assert document["data"][0]["attributes"]["tags"] == ["x"]
