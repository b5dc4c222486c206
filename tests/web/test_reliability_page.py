"""The reliability page: its charts and table from seeded shipments, each account its own,
bad input as an error page, and the links to it from the shipment list and a tracking page."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from sealane.store.database import transaction
from tests.service.reliability.seeding import T0, Voyage, seed, seed_call

from .conftest import Demo, make_demo

#: Six MAEU voyages (transit 30-35 days, 0-30 hours late, re-estimated once) and two ONEY.
VOYAGES = [
    *(
        Voyage("MAEU", "CNSHA", "DEHAM", 7 * k, (30 + k) * 24, 6 * k, voyages=("1E", "1E"))
        for k in range(6)
    ),
    Voyage("ONEY", "CNSHA", "DEHAM", 2, 26 * 24, -12, voyages=("7W",)),
    Voyage("ONEY", "CNSHA", "DEHAM", 9, 27 * 24, 60, voyages=("8W",)),
]
PAGE = "/reliability?pol=CNSHA&pod=DEHAM"


def seed_reliability(demo: Demo) -> None:
    """The voyages in the demo's routing account, and two port calls at DEHAM."""
    with transaction(demo.app.state.sealane.sessions) as session:
        for voyage in VOYAGES:
            seed(session, demo.routing.account_id, voyage)
        seed_call(session, "DEHAM", T0 + timedelta(days=40), 5)
        seed_call(session, "DEHAM", T0 + timedelta(days=41), 9)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Demo:
    made = make_demo(tmp_path_factory.mktemp("reliability"))
    seed_reliability(made)
    return made


def charts(html: str) -> list[str]:
    """The titles of the page's charts (unescaped)."""
    return [
        title.replace("&#39;", "'")
        for title in re.findall(r'<svg class="chart".*?<title id="[^"]+">([^<]+)</title>', html)
    ]


def test_page__four_charts_and_the_figures(routing_client: TestClient) -> None:
    page = routing_client.get(PAGE)
    assert page.status_code == 200
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert charts(page.text) == [
        "On-time share by carrier and lane",
        "Transit time, actual departure to actual arrival (days): P10 to P90, median marked",
        "ETA error by days before arrival (hours; above zero: arrived later than estimated)",
        "Vessels' anchorage waiting at DEHAM by day (hours; median, or mean under 5)",
    ]
    row = page.text.split("MAEU CNSHA → DEHAM</th>", 1)[1].split("</tr>", 1)[0]
    # transit 30..35 days: median 32.5 (P10 30.5, P90 34.5); on time 0..24 hours late of 0..30
    assert "32.5 d (30.5\u201334.5)" in row
    assert "83% (5/6, within 24 h)" in row
    oney = page.text.split("ONEY CNSHA → DEHAM</th>", 1)[1].split("</tr>", 1)[0]
    assert "n 2, mean 26.5 d" in oney
    assert "2 calls, mean 7.0 h" in page.text


def test_page__tolerance_and_carrier(routing_client: TestClient) -> None:
    page = routing_client.get(PAGE + "&carrier=oney&tolerance=3")
    assert "ONEY CNSHA → DEHAM" in page.text and "MAEU CNSHA" not in page.text
    assert "100% (2/2, within 72 h)" in page.text


def test_page__another_account_sees_none_of_it(plain_client: TestClient) -> None:
    page = plain_client.get(PAGE)
    assert page.status_code == 200
    assert "MAEU" not in page.text and "No arrived shipments match" in page.text


@pytest.mark.parametrize(
    "query", ["carrier=M*", "pol=not+a+port", "since=yesterday", "tolerance=40", "tolerance=nan"]
)
def test_page__bad_input_is_a_400_page(routing_client: TestClient, query: str) -> None:
    page = routing_client.get(f"/reliability?{query}")
    assert page.status_code == 400
    assert "<svg" not in page.text


def test_page__needs_signing_in(client: TestClient) -> None:
    response = client.get(PAGE, follow_redirects=False)
    assert response.status_code == 303
    assert "/sign-in" in response.headers["location"]


def test_links__from_the_list_and_a_tracking_page(routing_client: TestClient) -> None:
    listing = routing_client.get("/shipments")
    assert 'href="/reliability"' in listing.text
    first = re.search(r'<a href="(/shipments/[^"?]+)">', listing.text)
    assert first is not None
    tracking = routing_client.get(first.group(1)).text
    link = re.search(r'href="(/reliability\?pol=[A-Z0-9]{5}&amp;pod=[A-Z0-9]{5})"', tracking)
    assert link is not None and "How reliable is this lane?" in tracking
    assert routing_client.get(link.group(1).replace("&amp;", "&")).status_code == 200


def test_charts__no_script_and_no_other_host(routing_client: TestClient, tmp_path: Path) -> None:
    html = routing_client.get(PAGE).text
    svgs = re.findall(r"<svg class=\"chart\".*?</svg>", html, flags=re.S)
    assert len(svgs) == 4
    for svg in svgs:
        assert "<script" not in svg and "style=" not in svg and "href" not in svg
