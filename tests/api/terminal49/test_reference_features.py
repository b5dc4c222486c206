"""Reference data a Terminal49 client reads: carriers with their support and alternative SCACs,
terminal addresses, metro areas, a vessel's recorded positions, and parties."""

from __future__ import annotations

import csv

import pytest

from tests.api.jsonapi_asserts import assert_error

from . import document as t49
from .world import World, document


def lines(world: World) -> dict[str, dict[str, object]]:
    body = world.get("/shipping_lines", **{"page[size]": 100}).json()
    return {line["attributes"]["scac"]: line["attributes"] for line in body["data"]}


def test_shipping_lines__support_as_the_coverage_table_says(world: World) -> None:
    t49.require_document()
    found = lines(world)
    with (t49.REFERENCE / "shipping-line-support.csv").open(encoding="utf-8") as handle:
        table = list(csv.DictReader(handle))
    for row in table:
        scac = {"SEAL": "SEAU"}.get(row["SCAC"], row["SCAC"])
        if scac not in found or row["Support"] not in ("Yes", "Partial"):
            continue
        line = found[scac]
        assert line["bill_of_lading_tracking_support"] is True, scac
        containers = row["Support"] == "Yes"
        assert line["container_number_tracking_support"] is containers, scac
    assert found["KMTU"]["bill_of_lading_tracking_support"] is False  # not in the table
    assert all(
        found["TEST"][f"{kind}_tracking_support"]
        for kind in ("bill_of_lading", "booking_number", "container_number")
    )


def test_shipping_lines__alternative_scacs(world: World) -> None:
    assert lines(world)["SEAU"]["alternative_scacs"] == ["SEAL"]


def test_terminal__address_from_the_coverage_table(world: World) -> None:
    body = world.get("/terminals", **{"filter[port]": "USLAX", "page[size]": 100}).json()
    apm = next(t for t in body["data"] if t["attributes"]["firms_code"] == "W185")
    attributes = apm["attributes"]
    assert (attributes["nickname"], attributes["city"], attributes["state_abbr"]) == (
        "APMT",
        "Los Angeles",
        "CA",
    )
    port = world.get("/ports/USLAX").json()["data"]["attributes"]
    assert (attributes["state"], attributes["country"]) == ("California", port["country"])
    assert attributes["street"] is None and attributes["zip"] is None


@pytest.mark.parametrize("key", ["USLAX", "uslax"])
def test_metro_area__by_locode_and_by_id(world: World, key: str) -> None:
    area = world.get(f"/metro_areas/{key}").json()["data"]
    assert (area["type"], area["attributes"]["code"]) == ("metro_area", "USLAX")
    assert area["id"] != world.get("/ports/USLAX").json()["data"]["id"]
    assert world.get(f"/metro_areas/{area['id']}").json()["data"] == area


def test_metro_area__unknown_404(world: World) -> None:
    assert_error(world.get("/metro_areas/ZZZZZ"), 404)


def test_vessel__positions_in_the_window_oldest_first(world: World) -> None:
    url = f"/vessels/{world.ids['vessel']}"
    window = {
        "show_positions[from_timestamp]": "2026-12-10T00:00:00Z",
        "show_positions[to_timestamp]": "2026-12-20T00:00:00Z",
    }
    positions = world.get(url, **window).json()["data"]["attributes"]["positions"]
    stamps = [p["timestamp"] for p in positions]
    assert stamps and stamps == sorted(stamps)
    assert stamps[0] >= "2026-12-10T00:00:00Z" and stamps[-1] <= "2026-12-20T00:00:00Z"
    assert not any(p["estimated"] for p in positions)


@pytest.mark.parametrize(
    ("window", "parameter"),
    [
        (
            {
                "show_positions[from_timestamp]": "2026-12-20T00:00:00Z",
                "show_positions[to_timestamp]": "2026-12-10T00:00:00Z",
            },
            "show_positions[from_timestamp]",
        ),
        (
            {"show_positions[from_timestamp]": "2026-01-01T00:00:00Z"},
            "show_positions[from_timestamp]",
        ),
        ({"show_positions[to_timestamp]": "2026-12-20"}, "show_positions[to_timestamp]"),
    ],
    ids=["reversed", "longer-than-31-days", "no-time-zone"],
)
def test_vessel__bad_window_400(world: World, window: dict[str, str], parameter: str) -> None:
    response = world.get(f"/vessels/{world.ids['vessel']}", **window)
    assert_error(response, 400, parameter=parameter)


def test_parties__by_name_and_renamed(world: World) -> None:
    made = world.made("POST", "/parties", document("party", {"company_name": "  Zeta Freight "}))
    assert made["attributes"]["company_name"] == "Zeta Freight"
    names = [
        p["attributes"]["company_name"]
        for p in world.get("/parties", **{"page[size]": 100}).json()["data"]
    ]
    assert names == sorted(names)
    body = {"data": {"type": "party", "id": made["id"], "attributes": {"company_name": "Eta"}}}
    assert (
        world.send("PATCH", f"/parties/{made['id']}", body).json()["data"]["attributes"][
            "company_name"
        ]
        == "Eta"
    )


@pytest.mark.parametrize(
    "attributes", [{}, {"company_name": ""}, {"company_name": "x" * 201}, {"company_name": 5}]
)
def test_parties__bad_company_name_422(world: World, attributes: dict[str, object]) -> None:
    error = assert_error(world.send("POST", "/parties", document("party", attributes)), 422)
    assert error["source"] == {"pointer": "/data/attributes/company_name"}


def test_parties__unknown_attribute_422(world: World) -> None:
    body = document("party", {"company_name": "A", "vat": "1"})
    error = assert_error(world.send("POST", "/parties", body), 422, code="read_only")
    assert error["source"] == {"pointer": "/data/attributes/vat"}
