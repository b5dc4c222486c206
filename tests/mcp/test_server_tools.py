"""Every tool over streamable HTTP with the SDK's client, against both backends: the API's own
endpoint (in-process application layer) and ``sealane mcp`` calling that API over HTTP."""

from __future__ import annotations

import anyio
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from tests.mcp.cases import CASES, Case
from tests.mcp.conftest import World, http_client

TOOLS = {
    "search_container",
    "track_container",
    "get_container",
    "get_shipment_details",
    "get_container_transport_events",
    "get_supported_shipping_lines",
    "list_shipments",
    "list_containers",
    "list_tracking_requests",
    "get_vessel_future_positions",
    "plan_sea_route",
    "compare_sea_routes",
    "get_container_route",
    "carrier_reliability",
    "lane_transit_times",
    "port_waiting_times",
}


#: The cases by tool and calling account: one client session runs each group.
GROUPS = sorted({(case.tool, case.as_b) for case in CASES})


async def run_cases(client: Client, world: World, cases: list[Case]) -> None:
    """Call each case's tool on ``client`` and check its answer, naming the case that fails."""
    for case in cases:
        result = await client.call_tool(case.tool, case.arguments(world))
        try:
            case.verify(result, world)
        except AssertionError as error:
            raise AssertionError(f"{case.tool} / {case.name}: {error}") from error


@pytest.mark.parametrize(
    ("tool", "as_b"), GROUPS, ids=[f"{t}{'-account_b' if b else ''}" for t, b in GROUPS]
)
def test_tool__answers_valid_and_invalid_arguments(
    tool: str, as_b: bool, mcp_url: str, world: World
) -> None:
    cases = [case for case in CASES if (case.tool, case.as_b) == (tool, as_b)]

    async def run() -> None:
        async with http_client(mcp_url, cases[0].key(world)) as client:
            await run_cases(client, world, cases)

    anyio.run(run)


def test_tools__listed_with_schemas(mcp_url: str, world: World) -> None:
    async def run() -> None:
        async with http_client(mcp_url, world.key_a) as client:
            tools = (await client.list_tools()).tools
        assert {tool.name for tool in tools} >= TOOLS
        for tool in tools:
            assert tool.description and tool.input_schema["type"] == "object"
            assert tool.output_schema is not None and tool.output_schema["type"] == "object"

    anyio.run(run)


def test_tool__unknown_name_is_tool_not_found(mcp_url: str, world: World) -> None:
    async def run() -> None:
        async with http_client(mcp_url, world.key_a) as client:
            with pytest.raises(MCPError) as raised:
                await client.call_tool("get_containers", {})
        assert raised.value.code == -32602
        assert "Unknown tool: get_containers" in str(raised.value)
        assert raised.value.error.data["code"] == "tool_not_found"

    anyio.run(run)
