"""The pages over HTTP: the list and its filters, the tracking page, bad input, scoping."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from sealane.service.core.paging import PageRequest
from sealane.service.tracking.filters import TrackingFilter
from sealane.service.tracking.shipments import list_shipments
from sealane.web.present import when

from .conftest import OTHER_NUMBER, Demo, csrf_of


def shipment_ids(html: str) -> list[str]:
    return re.findall(
        r'<th scope="row" data-label="Bill of lading"><a href="/shipments/([^"]+)"', html
    )


def test_list__every_row_says_what_the_issue_asks(routing_client: TestClient, demo: Demo) -> None:
    page = routing_client.get("/shipments")
    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    record = list_shipments(
        demo.app.state.sealane.context,
        demo.routing,
        TrackingFilter(number="TESTDEMO0002"),
        PageRequest(1, 1),
    ).items[0]
    eta = when(record.pod_eta_at, "America/Los_Angeles")
    assert eta is not None and eta.text.endswith(("PST", "PDT"))
    row = page.text.split("TESTDEMO0002", 1)[1].split("</tr>", 1)[0]
    expected = (
        "Sealane Test Carrier",
        "KRPUS → USLAX",
        "TEST Solstice 31",
        "ETA",
        eta.text,
        "On ship",
    )
    for text in expected:
        assert text in row
    assert '<td data-label="Containers">2</td>' in row


def test_list__only_the_accounts_own(routing_client: TestClient) -> None:
    assert OTHER_NUMBER not in routing_client.get("/shipments").text


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("q=TESTDEMO0001", {"TESTDEMO0001"}),
        ("q=tsTU 4712510", {"TESTDEMO0002"}),
        ("pod=NLRTM", {"TESTDEMO0001", "TESTBK0004"}),
        ("status=picked_up", {"TESTBK0019"}),
        ("carrier=test&pod=usnyc", {"TESTDEMO0003"}),
    ],
)
def test_list__filters(
    routing_client: TestClient, demo: Demo, query: str, expected: set[str]
) -> None:
    html = routing_client.get(f"/shipments?{query}").text
    numbers = set(re.findall(r'data-label="Bill of lading"><a href="[^"]+">([^<]+)<', html))
    bookings = {"TESTBK0004": "TEST4902497652", "TESTBK0019": "TEST6846904634"}
    assert numbers == {bookings.get(n, n) for n in expected}


def test_list__arriving_within_and_order(routing_client: TestClient, demo: Demo) -> None:
    """ETA order and the window agree with the application layer's records."""
    everything = list_shipments(
        demo.app.state.sealane.context, demo.routing, TrackingFilter(), PageRequest(1, 100)
    ).items
    now = demo.clock.now()
    due = sorted(
        (
            s
            for s in everything
            if s.pod_ata_at is None and s.pod_eta_at and 0 <= (s.pod_eta_at - now).days < 14
        ),
        key=lambda s: s.pod_eta_at or now,
    )
    html = routing_client.get("/shipments?arriving=14&sort=arrival").text
    assert shipment_ids(html) == [s.id for s in due]
    assert len(due) >= 1


@pytest.mark.parametrize(
    "query",
    [
        "status=sailing",
        "arriving=0",
        "arriving=x",
        "arriving=367",
        "sort=eta",
        "page=0",
        "q=" + "x" * 201,
    ],
)
def test_list__bad_filter_400_page(routing_client: TestClient, query: str) -> None:
    response = routing_client.get(f"/shipments?{query}")
    assert response.status_code == 400
    assert response.headers["content-type"].startswith("text/html")


def test_list__paging_keeps_filters(routing_client: TestClient) -> None:
    html = routing_client.get("/shipments?pod=NLRTM&page=1").text
    assert "Page 1 of" not in html  # one page only
    assert routing_client.get("/shipments?pod=NLRTM&page=2").status_code == 200


def test_list__search_is_escaped(routing_client: TestClient) -> None:
    attack = '"><script>alert(1)</script><img src=x onerror=alert(2)>'
    html = routing_client.get("/shipments", params={"q": attack}).text
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "onerror=alert(2)>" not in html


def test_pages__carry_a_strict_content_security_policy(routing_client: TestClient) -> None:
    headers = routing_client.get("/shipments").headers
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["x-frame-options"] == "DENY"
    assert headers["cache-control"] == "no-store"


def first_shipment(routing_client: TestClient, number: str = "TESTDEMO0002") -> str:
    html = routing_client.get(f"/shipments?q={number}").text
    return shipment_ids(html)[0]


def test_tracking_page__header_containers_and_timeline(routing_client: TestClient) -> None:
    html = routing_client.get(f"/shipments/{first_shipment(routing_client)}").text
    assert "<h1>Shipment TESTDEMO0002</h1>" in html
    assert "Pusan (KRPUS) → Tanjung Pelepas (MYTPP) → Los Angeles (USLAX)" in html
    assert "TEST Solstice 31" in html
    assert "Asia/Seoul" in html and "America/Los_Angeles" in html
    assert 'aria-current="true"' in html  # the first container is selected
    assert "Next expected:" in html
    assert html.count('<li class="actual') >= 3
    assert "Last free day" in html and "Holds" in html and "Fees" in html


def test_tracking_page__container_selected_by_query(routing_client: TestClient) -> None:
    shipment = first_shipment(routing_client)
    html = routing_client.get(f"/shipments/{shipment}").text
    containers = re.findall(rf'href="/shipments/{shipment}\?container=([^"]+)"', html)
    assert len(containers) == 2
    second = routing_client.get(f"/shipments/{shipment}?container={containers[1]}").text
    selected = re.search(r'container=([^"]+)" aria-current="true"', second)
    assert selected is not None and selected.group(1) == containers[1]


def test_tracking_page__unknown_container_404(routing_client: TestClient) -> None:
    response = routing_client.get(f"/shipments/{first_shipment(routing_client)}?container=nope")
    assert response.status_code == 404


@pytest.mark.parametrize("shipment_id", ["nope", "0" * 36, "%00", "x" * 5000])
def test_tracking_page__unknown_shipment_404_page(
    routing_client: TestClient, shipment_id: str
) -> None:
    response = routing_client.get(f"/shipments/{shipment_id}")
    assert response.status_code == 404
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    assert "<h1>Not found</h1>" in response.text


def test_tracking_page__another_accounts_shipment_404(
    routing_client: TestClient, demo: Demo
) -> None:
    other = list_shipments(
        demo.app.state.sealane.context, demo.plain, TrackingFilter(), PageRequest(1, 5)
    ).items[0]
    assert routing_client.get(f"/shipments/{other.id}").status_code == 404


def test_track__creates_a_request_and_shows_its_progress(
    routing_client: TestClient, demo: Demo
) -> None:
    form = routing_client.get("/track")
    response = routing_client.post(
        "/track",
        data={
            "csrf_token": csrf_of(form.text),
            "request_type": "bill_of_lading",
            "request_number": "TESTWEB0042",
            "scac": "TEST",
            "ref_numbers": "PO-1, PO-2",
        },
        follow_redirects=False,
    )
    assert response.status_code == 303
    progress = routing_client.get(response.headers["location"])
    assert "Pending" in progress.text and 'data-poll="5"' in progress.text
    demo.app.state.sealane.tracking.tick()
    found = routing_client.get(response.headers["location"]).text
    assert "Created" in found and "Open the shipment" in found


def test_track__bad_number_keeps_the_form(routing_client: TestClient) -> None:
    form = routing_client.get("/track")
    response = routing_client.post(
        "/track",
        data={
            "csrf_token": csrf_of(form.text),
            "request_type": "container",
            "request_number": "ABCU1234567",
            "scac": "TEST",
        },
    )
    assert response.status_code == 422
    assert "not a valid ISO 6346 container number" in response.text
    assert 'value="ABCU1234567"' in response.text


def test_track__without_csrf_token_403_and_nothing_made(routing_client: TestClient) -> None:
    response = routing_client.post(
        "/track",
        data={"request_type": "bill_of_lading", "request_number": "TESTNOCSRF", "scac": "TEST"},
    )
    assert response.status_code == 403
    assert "TESTNOCSRF" not in routing_client.get("/track").text


def test_track__form_too_large_413(routing_client: TestClient) -> None:
    response = routing_client.post(
        "/track",
        content=b"a=" + b"x" * 20_000,
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert response.status_code == 413


def test_unknown_page__html_404(client: TestClient) -> None:
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert response.headers["content-type"] == "text/html; charset=utf-8"


def test_api__unknown_path_stays_a_json_api_404(client: TestClient) -> None:
    response = client.get("/v2/no/such/page")
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/vnd.api+json"


def test_method__not_allowed_on_a_page_405_html(client: TestClient) -> None:
    response = client.delete("/shipments")
    assert response.status_code == 405
    assert response.headers["content-type"].startswith("text/html")


def test_home__goes_to_the_list(client: TestClient) -> None:
    assert client.get("/", follow_redirects=False).headers["location"] == "/shipments"
