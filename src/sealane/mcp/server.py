"""The MCP server object: the tools, prompts and resources on the SDK's ``MCPServer``, and the
backend chosen from the settings (the local application layer, or the API at
``SERVICE_API_BASE_URL``)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from functools import cache
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, ToolAnnotations

from .. import __version__
from ..config import Settings
from . import (
    container_route_tools,
    list_tools,
    prompts,
    reliability_tools,
    resources,
    routing_tools,
    search_tools,
    tracking_tools,
)
from .backend import Backend
from .calls import McpState
from .remote import RemoteBackend

INSTRUCTIONS = (
    "Container tracking: find a container or shipment by number with search_container, start "
    "tracking with track_container, then read it with get_container, "
    "get_shipment_details and get_container_transport_events. Lists take page and page_size. "
    "Vessel ETAs (get_vessel_future_positions), container routes (get_container_route) and "
    "route planning (plan_sea_route, compare_sea_routes) need the account's routing feature. "
    "Carrier and lane "
    "reliability (carrier_reliability, lane_transit_times) and port waiting "
    "(port_waiting_times) come from the account's own tracked shipments."
)
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
#: (function, title, read only): the tools in the order they are listed.
TOOLS: list[tuple[Callable[..., Any], str, bool]] = [
    (search_tools.search_container, "Find containers and shipments by number", True),
    (search_tools.track_container, "Start tracking a container", False),
    (tracking_tools.get_container, "Get a container", True),
    (tracking_tools.get_shipment_details, "Get a shipment and its containers", True),
    (tracking_tools.get_container_transport_events, "Event timeline of a container", True),
    (tracking_tools.get_supported_shipping_lines, "Carriers and their SCAC codes", True),
    (list_tools.list_shipments, "List shipments", True),
    (list_tools.list_containers, "List containers", True),
    (list_tools.list_tracking_requests, "List tracking requests", True),
    (container_route_tools.get_container_route, "Multi-leg route of a container", True),
    (routing_tools.get_vessel_future_positions, "A vessel's ETA and future track", True),
    (routing_tools.plan_sea_route, "Plan a sea route", True),
    (routing_tools.compare_sea_routes, "Compare sea routes side by side", True),
    (reliability_tools.carrier_reliability, "Carrier reliability per lane", True),
    (reliability_tools.lane_transit_times, "Transit times of a lane by carrier", True),
    (reliability_tools.port_waiting_times, "Anchorage waiting and dwell at a port", True),
]
PROMPTS: list[tuple[Callable[..., Any], str]] = [
    (prompts.track_shipment, "track-shipment"),
    (prompts.check_demurrage, "check-demurrage"),
    (prompts.analyze_delays, "analyze-delays"),
    (prompts.compare_carriers, "compare-carriers"),
]


class KnownToolsOnly:
    """Middleware answering a call of an unknown tool with the protocol's tool-not-found error
    (JSON-RPC ``-32602``, ``Unknown tool: NAME``) before the SDK looks for it."""

    def __init__(self, names: set[str]) -> None:
        self.names = names

    async def __call__(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        if ctx.method == "tools/call":
            name = (ctx.params or {}).get("name")
            if name not in self.names:
                raise MCPError(
                    INVALID_PARAMS,
                    f"Unknown tool: {str(name)[:100]}",
                    {"code": "tool_not_found", "tools": sorted(self.names)},
                )
        return await call_next(ctx)


@contextmanager
def _logging_left_alone() -> Iterator[None]:
    """Undo what the SDK's server does to the root logger (``basicConfig`` with a rich handler
    whose highlighted tracebacks took seconds per logged error): logging is the entry point's."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        yield
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)


def build_server(state: McpState) -> MCPServer[McpState]:
    """The MCP server sharing ``state`` (backend and fallback key) with every handler."""

    @asynccontextmanager
    async def lifespan(_server: MCPServer[McpState]) -> AsyncIterator[McpState]:
        yield state

    tools = registered_tools()
    with _logging_left_alone():
        server: MCPServer[McpState] = MCPServer(
            "sealane",
            title="sealane container tracking",
            instructions=INSTRUCTIONS,
            version=__version__,
            lifespan=lifespan,
            tools=list(tools),
            middleware=[KnownToolsOnly({tool.name for tool in tools})],
            log_level="WARNING",
        )
    for fn, name in PROMPTS:
        server.prompt(name=name)(fn)
    server.resource(
        resources.CONTAINER_URI,
        name="container",
        title="Container summary",
        mime_type="text/markdown",
    )(resources.container_resource)
    server.resource(
        resources.GLOSSARY_URI,
        name="milestone-glossary",
        title="Milestone glossary",
        mime_type="text/markdown",
    )(resources.glossary)
    return server


@cache
def registered_tools() -> tuple[Tool, ...]:
    """The tools with their schemas, built once per process (it takes a good part of a second;
    every app and test builds a server)."""
    return tuple(
        Tool.from_function(fn, title=title, annotations=READ_ONLY if read_only else None)
        for fn, title, read_only in TOOLS
    )


def backend_for(settings: Settings, local: Callable[[], Backend]) -> Backend:
    """The remote backend when ``SERVICE_API_BASE_URL`` is set, else ``local()``."""
    if settings.mcp_api_base_url:
        return RemoteBackend(settings.mcp_api_base_url, cache_s=settings.auth_cache_seconds)
    return local()
