"""The reliability tools and the compare-carriers prompt with the SDK's client, against both
backends, on shipments of an account of their own seeded with known times."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import anyio
import pytest

from sealane.clock import ManualClock
from sealane.store.database import make_engine, session_factory, transaction
from tests.mcp.conftest import World, http_client
from tests.service.reliability.seeding import T0, Voyage, seed, seed_call
from tests.toolkit import Scenario

#: Transit 30 to 35 days, drift 0 to 30 hours late (MAEU); two short voyages (ONEY).
VOYAGES = [
    *(Voyage("MAEU", "CNSHA", "DEHAM", 7 * k, (30 + k) * 24, 6 * k) for k in range(6)),
    Voyage("ONEY", "CNSHA", "DEHAM", 2, 26 * 24, -12),
    Voyage("ONEY", "CNSHA", "DEHAM", 9, 27 * 24, 60),
]


@pytest.fixture(scope="module")
def key(world: World) -> str:
    """An account of its own with the seeded voyages, and a port call at DEHAM (5 h wait)."""
    engine = make_engine(world.database_url)
    try:
        sessions = session_factory(engine)
        account = Scenario(sessions, ManualClock(T0)).account("Reliable Co", routing=False)
        with transaction(sessions) as session:
            for voyage in VOYAGES:
                seed(session, account.account_id, voyage)
            seed_call(session, "DEHAM", T0 + timedelta(days=40), 5)
    finally:
        engine.dispose()
    return account.secret


async def call(url: str, key: str, tool: str, arguments: dict[str, Any]) -> Any:
    async with http_client(url, key) as client:
        return await client.call_tool(tool, arguments)


def test_carrier_reliability__per_lane(mcp_url: str, key: str) -> None:
    result = anyio.run(call, mcp_url, key, "carrier_reliability", {"port_of_discharge": "deham"})
    assert not result.is_error, result.content
    out = result.structured_content
    assert [item["id"] for item in out["items"]] == ["MAEU-CNSHA-DEHAM", "ONEY-CNSHA-DEHAM"]
    maeu, oney = out["items"]
    assert maeu["shipments"] == 6 and maeu["on_time"] == 5
    assert maeu["transit_time"]["median_hours"] == 780.0
    assert maeu["eta_drift"]["p90_hours"] == 27.0
    assert oney["transit_time"] == {
        "n": 2,
        "median_hours": None,
        "p10_hours": None,
        "p90_hours": None,
        "mean_hours": 636.0,
    }
    assert out["paging"]["total"] == 2
    assert "MAEU CNSHA -> DEHAM: 6 arrived, on time 83%" in result.content[0].text


def test_lane_transit_times__by_carrier(mcp_url: str, key: str) -> None:
    arguments = {"port_of_lading": "CNSHA", "port_of_discharge": "DEHAM", "carrier": "ONEY"}
    result = anyio.run(call, mcp_url, key, "lane_transit_times", arguments)
    out = result.structured_content
    assert out["carriers"] == [
        {
            "carrier_scac": "ONEY",
            "shipments": 2,
            "transit_time": {
                "n": 2,
                "median_hours": None,
                "p10_hours": None,
                "p90_hours": None,
                "mean_hours": 636.0,
            },
        }
    ]
    assert "too few for percentiles" in result.content[0].text


def test_port_waiting_times__from_port_calls(mcp_url: str, key: str) -> None:
    result = anyio.run(call, mcp_url, key, "port_waiting_times", {"port": "DEHAM"})
    out = result.structured_content
    assert out["locode"] == "DEHAM"
    assert out["anchorage_waiting"]["n"] == 1
    assert out["anchorage_waiting"]["mean_hours"] == 5.0
    assert out["days"][0]["date"] == "2026-07-11"


@pytest.mark.parametrize(
    ("tool", "arguments", "field"),
    [
        ("carrier_reliability", {"carrier": "M*"}, "carrier"),
        ("carrier_reliability", {"since": "last week"}, "since"),
        ("carrier_reliability", {"tolerance_days": 40}, "tolerance_days"),
        (
            "lane_transit_times",
            {"port_of_lading": " ", "port_of_discharge": "DEHAM"},
            "port_of_lading",
        ),
    ],
)
def test_reliability_tools__bad_arguments(
    mcp_url: str, key: str, tool: str, arguments: dict[str, Any], field: str
) -> None:
    result = anyio.run(call, mcp_url, key, tool, arguments)
    assert result.is_error
    assert result.structured_content["error"]["field"] == field


def test_port_waiting_times__unknown_port(mcp_url: str, key: str) -> None:
    result = anyio.run(call, mcp_url, key, "port_waiting_times", {"port": "nowhere"})
    assert result.is_error
    assert result.structured_content["error"]["code"] == "not_found"


def test_carrier_reliability__another_account_sees_none_of_these(
    mcp_url: str, key: str, world: World
) -> None:
    result = anyio.run(
        call,
        mcp_url,
        world.key_b,
        "carrier_reliability",
        {"port_of_discharge": "DEHAM", "carrier": "MAEU"},
    )
    assert result.structured_content["items"] == []


def test_compare_carriers__prompt_names_the_tools(mcp_url: str, key: str) -> None:
    async def run() -> Any:
        async with http_client(mcp_url, key) as client:
            return await client.get_prompt(
                "compare-carriers", {"port_of_lading": "CNSHA", "port_of_discharge": "NLRTM"}
            )

    text = anyio.run(run).messages[0].content.text
    for tool in ("carrier_reliability", "lane_transit_times", "port_waiting_times"):
        assert tool in text
    assert "CNSHA -> NLRTM" in text
