"""The one list-filter parser: ports by code, id or name and carriers by SCAC or name, and the
API, the MCP server and the web pages finding the same shipments for the same filter."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from fastapi.testclient import TestClient

from sealane import get_port
from sealane.mcp.list_tools import Filters, tracking_filter
from sealane.mcp.local import LocalAccount
from sealane.service.core.paging import PageRequest
from sealane.service.tracking.filters import (
    FilterTerms,
    TrackingFilter,
    UnknownTerm,
    Unresolved,
    parse_filter,
)
from sealane.vocabulary.statuses import ContainerStatus
from tests.web.conftest import Demo, make_demo, sign_in

AS_WRITTEN, LEFT_OUT = UnknownTerm.AS_WRITTEN, UnknownTerm.LEFT_OUT


@pytest.mark.parametrize("port", ["NLRTM", "nlrtm", get_port("NLRTM").id, "Rotterdam"])
def test_parse_filter__port_by_code_id_or_name(port: str) -> None:
    parsed = parse_filter(FilterTerms(port=port), unknown=LEFT_OUT)
    assert parsed.filter == TrackingFilter(pod_locode="NLRTM")
    assert parsed.unresolved == ()


@pytest.mark.parametrize(
    ("unknown", "kept"), [(AS_WRITTEN, "Atlantis"), (LEFT_OUT, None)], ids=["api/web", "mcp"]
)
def test_parse_filter__port_naming_nothing(unknown: UnknownTerm, kept: str | None) -> None:
    parsed = parse_filter(FilterTerms(port="Atlantis"), unknown=unknown)
    assert parsed.filter.pod_locode == kept
    assert parsed.unresolved == (Unresolved("port", "Atlantis", "no port has that name"),)


def test_parse_filter__unknown_code_kept_as_written_matches_it_alone() -> None:
    """An unknown 5-letter code filters by that code, as the API and the pages always did."""
    assert parse_filter(FilterTerms(port="XXXXX"), unknown=AS_WRITTEN).filter.pod_locode == "XXXXX"


@pytest.mark.parametrize(
    ("carrier", "found", "scac", "reason"),
    [
        ("maeu", (), "MAEU", None),
        ("Maersk", ("MAEU",), "MAEU", None),
        ("Nobody", (), None, "no carrier matches"),
        ("Shipping", ("MAEU", "ONEY"), None, "several carriers match"),
    ],
    ids=["scac", "one name", "no name", "several names"],
)
def test_parse_filter__carrier(
    carrier: str, found: tuple[str, ...], scac: str | None, reason: str | None
) -> None:
    parsed = parse_filter(FilterTerms(carrier=carrier), found, unknown=LEFT_OUT)
    assert parsed.filter.scac == scac
    assert parsed.unresolved == ((Unresolved("carrier", carrier, reason),) if reason else ())
    kept = parse_filter(FilterTerms(carrier=carrier), found, unknown=AS_WRITTEN).filter.scac
    assert kept == (scac or carrier)


def test_parse_filter__the_rest_passes_through() -> None:
    terms = FilterTerms(
        status=ContainerStatus.ON_SHIP,
        number="N1",
        request_number="R1",
        text="T",
        tracking_stopped=True,
    )
    parsed = parse_filter(terms, unknown=LEFT_OUT).filter
    assert parsed == TrackingFilter(
        status=ContainerStatus.ON_SHIP,
        number="N1",
        request_number="R1",
        text="T",
        tracking_stopped=True,
    )


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Demo:
    return make_demo(Path(tmp_path_factory.mktemp("filters")))


@pytest.fixture(scope="module")
def web(demo: Demo) -> Iterator[TestClient]:
    with TestClient(demo.app) as client:
        sign_in(client, demo.routing_key)
        yield client


def api_ids(web: TestClient, key: str, port: str | None, carrier: str | None) -> set[str]:
    query = {"page[size]": "100"}
    if port:
        query["filter[pod_locode]"] = port
    if carrier:
        query["filter[shipping_line_scac]"] = carrier
    response = web.get("/v2/shipments", params=query, headers={"Authorization": f"Token {key}"})
    assert response.status_code == 200, response.text
    return {item["id"] for item in response.json()["data"]}


def web_ids(web: TestClient, port: str | None, carrier: str | None) -> set[str]:
    query = {k: v for k, v in (("pod", port), ("carrier", carrier)) if v}
    html = web.get("/shipments", params=query).text
    return set(re.findall(r'data-label="Bill of lading"><a href="/shipments/([^"]+)"', html))


def mcp_ids(demo: Demo, port: str | None, carrier: str | None) -> set[str]:
    account = LocalAccount(demo.app.state.sealane.context, demo.routing)

    async def run() -> set[str]:
        filters = await tracking_filter(account, Filters(), None, port, carrier, None)
        document = await account.list_shipments(filters, PageRequest(1, 100), [])
        return {item["id"] for item in document["data"]}

    return anyio.run(run)


@pytest.mark.parametrize(
    ("port", "carrier"),
    [
        ("NLRTM", None),
        ("Rotterdam", None),
        (get_port("USNYC").id, None),
        ("new york", "test"),
        (None, "Sealane Test Carrier"),
    ],
)
def test_shells_agree(demo: Demo, web: TestClient, port: str | None, carrier: str | None) -> None:
    from_api = api_ids(web, demo.routing_key, port, carrier)
    assert from_api, "the demo has shipments for every filter here"
    assert web_ids(web, port, carrier) == from_api
    assert mcp_ids(demo, port, carrier) == from_api


def test_shells_agree__a_port_name_is_its_code(demo: Demo, web: TestClient) -> None:
    assert api_ids(web, demo.routing_key, "Rotterdam", None) == api_ids(
        web, demo.routing_key, "NLRTM", None
    )
