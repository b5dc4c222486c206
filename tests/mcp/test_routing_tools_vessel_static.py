"""The MCP future-positions tool sizes a vessel by what it reported, through a real
``sealane mcp --stdio`` process and the SDK's client, on a database of its own."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from mcp import Client

import sealane
from sealane.config import Settings
from sealane.runtime import build_runtime
from tests.mcp.conftest import World, stdio_params
from tests.toolkit import Scenario

IMO = "9811003"
#: A start in the Arabian Sea on the Shanghai -> Rotterdam leg (lon, lat), and the speed there.
ARABIAN_SEA = (60.1, 12.3)
SPEED_KN = 18.0


@pytest.fixture(scope="module")
def own_world(tmp_path_factory: pytest.TempPathFactory) -> World:
    """A routing account and a vessel in the Arabian Sea that reported a 21 m draught."""
    url = f"sqlite:///{tmp_path_factory.mktemp('mcp_static') / 'sealane.db'}"
    runtime = build_runtime(Settings(database_url=url))
    try:
        scenario = Scenario.on(runtime)
        key = scenario.account("Static Co", routing=True).secret
        scenario.vessel(
            name="Deep Static",
            imo=IMO,
            mmsi=None,
            longitude=ARABIAN_SEA[0],
            latitude=ARABIAN_SEA[1],
            nautical_speed_knots=SPEED_KN,
            navigational_heading_degrees=None,
            position_timestamp=None,
            draught_m=21.0,
            dimensions_source="ais",
        )
    finally:
        runtime.stop()
    return World(url, key, "", "", "", "", "", "")


def future(world: World, **arguments: Any) -> dict[str, Any]:
    async def run() -> dict[str, Any]:
        async with Client(stdio_params(world, world.key_a)) as client:
            result = await client.call_tool(
                "get_vessel_future_positions",
                {"vessel": IMO, "destination_port": "NLRTM", "previous_port": "CNSHA"} | arguments,
            )
        assert not result.is_error, result.content
        out: dict[str, Any] | None = result.structured_content
        assert out is not None
        return out

    return anyio.run(run)


def engine_positions(draft_m: float) -> int:
    found = sealane.future_positions(
        ARABIAN_SEA, "CNSHA", "NLRTM", speed_kn=SPEED_KN, draft_m=draft_m
    )
    return len(found.lons)


def test_future_positions__the_reported_draught_sizes_the_route(own_world: World) -> None:
    out = future(own_world)
    assert out["positions_total"] == engine_positions(draft_m=21.0)
    dimensions = out["vessel_dimensions"]
    assert (dimensions["source"], dimensions["draft_m"]) == ("reported", 21.0)
    assert (dimensions["sources"]["draft_m"], dimensions["reported_by"]) == ("reported", "ais")


def test_future_positions__an_argument_overrides_the_report(own_world: World) -> None:
    out = future(own_world, draft_m=12.5)
    assert out["positions_total"] == engine_positions(draft_m=12.5)
    assert out["positions_total"] < engine_positions(draft_m=21.0)  # through Suez
    dimensions = out["vessel_dimensions"]
    assert (dimensions["source"], dimensions["draft_m"]) == ("given", 12.5)
