"""The two backends give the same structured outputs for the same calls: the in-process
application layer, and the API over HTTP mapped back from its JSON:API documents."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from tests.mcp.conftest import World, http_client

CALLS = [
    ("search_container", lambda w: {"query": w.number_a[:6]}),
    (
        "get_container",
        lambda w: {
            "id": w.container_a,
            "include": ["shipment", "pod_terminal", "transport_events"],
        },
    ),
    ("get_shipment_details", lambda w: {"id": w.shipment_a}),
    ("get_container_route", lambda w: {"id": w.container_a}),
    ("get_container_transport_events", lambda w: {"id": w.container_a}),
    ("list_shipments", lambda w: {"include_containers": True, "port": "NLRTM", "page_size": 3}),
    (
        "list_containers",
        lambda w: {"include": ["transport_events"], "carrier": "TEST", "page": 2, "page_size": 2},
    ),
    ("list_tracking_requests", lambda w: {"filters": {"scac": "TEST"}, "page_size": 4}),
    ("get_supported_shipping_lines", lambda w: {"search": "a", "page_size": 5}),
    ("plan_sea_route", lambda w: {"origin": "SGSIN", "destination": "USLAX", "speed_kn": 20}),
    ("compare_sea_routes", lambda w: {"origin": "CNSHA", "destination": "NLRTM"}),
]


@pytest.mark.parametrize(("tool", "arguments"), CALLS, ids=[c[0] for c in CALLS])
def test_backends__same_output(
    tool: str, arguments: Any, api_base: str, remote_mcp: str, world: World
) -> None:
    local_url = api_base.removesuffix("/v2") + "/mcp"

    async def call(url: str) -> dict[str, Any]:
        async with http_client(url, world.key_a) as client:
            result = await client.call_tool(tool, arguments(world))
        assert not result.is_error, result.content
        assert result.structured_content is not None
        return result.structured_content

    async def run() -> None:
        local, remote = await call(local_url), await call(remote_mcp)
        assert local == remote

    anyio.run(run)


def test_backends__same_future_positions(api_base: str, remote_mcp: str, world: World) -> None:
    """The vessel moves between the two calls (its start is now), so compare with coordinates
    given: the same start gives the same track."""
    arguments = {
        "vessel": world.vessel_imo,
        "destination_port": "NLRTM",
        "previous_port": "CNSHA",
        "start_longitude": 60.1,
        "start_latitude": 12.3,
        "track_points": 50,
    }

    async def call(url: str) -> dict[str, Any]:
        async with http_client(url, world.key_a) as client:
            result = await client.call_tool("get_vessel_future_positions", arguments)
        assert result.structured_content is not None
        return result.structured_content

    async def run() -> None:
        local = await call(api_base.removesuffix("/v2") + "/mcp")
        remote = await call(remote_mcp)
        assert local["positions_total"] == remote["positions_total"]
        assert abs(local["distance_remaining_nm"] - remote["distance_remaining_nm"]) <= 0.2
        for a, b in zip(local["track"], remote["track"], strict=True):
            assert abs(a["longitude"] - b["longitude"]) < 1e-3
            assert abs(a["latitude"] - b["latitude"]) < 1e-3

    anyio.run(run)
