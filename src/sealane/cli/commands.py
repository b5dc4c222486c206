"""The ``sealane`` command line: the argument parser, and ``sealane mcp`` (the engine's commands
are in :mod:`.engine`, the API's processes' in :mod:`.serve`, the background work's in
:mod:`.worker`, the accounts' in :mod:`.accounts`, the AIS feeds' in :mod:`.ais`).

Only the engine is imported here at module level, so ``sealane route`` starts fast; the service
commands import their layers when they run.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .. import RoutingError
from ..service.core.errors import ServiceError
from .accounts import add_account_commands
from .ais import add_ais_commands
from .engine import (
    add_vessel_arguments,
    cmd_itinerary,
    cmd_positions,
    cmd_route,
    cmd_route_options,
    location_arg,
)
from .serve import add_serve_commands, run_server
from .settings import settings_from, with_base_url
from .worker import add_worker_commands

__all__ = ["build_parser", "main"]


def cmd_mcp(args: argparse.Namespace) -> int:
    """``sealane mcp``: the MCP server over streamable HTTP (``/mcp``), or on stdio."""
    import anyio

    from ..mcp.apps import serve_stdio, standalone_app

    settings = settings_from(args)
    if args.stdio:
        if not settings.mcp_api_token:
            print("sealane: error: --stdio needs SERVICE_API_TOKEN (an API key)", file=sys.stderr)
            return 2
        anyio.run(serve_stdio, settings)
        return 0
    settings = with_base_url(settings, args)
    run_server(standalone_app(settings), args, settings)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every sub-command."""
    parser = argparse.ArgumentParser(prog="sealane", description="Sea routes and vessel positions.")
    commands = parser.add_subparsers(dest="command", required=True)

    p_route = commands.add_parser("route", help="shortest sea route between two ports or points")
    p_route.add_argument("origin", type=location_arg, help="LOCODE, port id or 'lon,lat'")
    p_route.add_argument("destination", type=location_arg, help="LOCODE, port id or 'lon,lat'")
    p_route.add_argument(
        "--avoid", action="append", default=[], help="passage to avoid (repeatable)"
    )
    p_route.add_argument(
        "--via",
        action="append",
        default=[],
        type=location_arg,
        help="waypoint: a port, 'lon,lat' or a passage to sail, e.g. suez (repeatable)",
    )
    p_route.add_argument("--allow-arctic", action="store_true", help="open the Arctic passages")
    p_route.add_argument("--speed", type=float, default=None, help="speed in knots for a duration")
    p_route.add_argument("--format", choices=["table", "geojson"], default="table")
    add_vessel_arguments(p_route)
    p_route.set_defaults(handler=cmd_route)

    p_options = commands.add_parser(
        "route-options",
        help="the shortest route and the best avoiding each major passage, fastest first",
    )
    p_options.add_argument("origin", type=location_arg, help="LOCODE, port id or 'lon,lat'")
    p_options.add_argument("destination", type=location_arg, help="LOCODE, port id or 'lon,lat'")
    p_options.add_argument(
        "--avoid", action="append", default=[], help="passage every option avoids (repeatable)"
    )
    p_options.add_argument("--allow-arctic", action="store_true", help="open the Arctic passages")
    p_options.add_argument("--speed", type=float, default=None, help="knots (default: 14)")
    p_options.add_argument("--format", choices=["table", "json"], default="table")
    add_vessel_arguments(p_options)
    p_options.set_defaults(handler=cmd_route_options)

    p_pos = commands.add_parser("positions", help="future positions of a vessel, one per minute")
    p_pos.add_argument("--lon", type=float, required=True, help="vessel longitude, degrees")
    p_pos.add_argument("--lat", type=float, required=True, help="vessel latitude, degrees")
    p_pos.add_argument("--previous-port", required=True, help="LOCODE or id of the last port")
    p_pos.add_argument("--port", required=True, help="LOCODE or id of the destination port")
    p_pos.add_argument("--speed", type=float, default=None, help="knots (default: service speed)")
    p_pos.add_argument("--start-time", default=None, help="ISO 8601 (default: now, UTC)")
    p_pos.add_argument("--step", type=float, default=60.0, help="seconds between positions")
    p_pos.add_argument("--avoid", action="append", default=[], help="passage to avoid (repeatable)")
    p_pos.add_argument("--allow-arctic", action="store_true", help="open the Arctic passages")
    p_pos.add_argument("--format", choices=["table", "csv", "geojson"], default="table")
    add_vessel_arguments(p_pos)
    p_pos.set_defaults(handler=cmd_positions)

    p_trip = commands.add_parser(
        "itinerary", help="a container's port calls: legs, distances and ETAs"
    )
    p_trip.add_argument("ports", nargs="+", help="LOCODEs or port ids, POL first, POD last")
    p_trip.add_argument("--speed", type=float, default=None, help="knots (default: 14)")
    p_trip.add_argument(
        "--dwell", type=float, default=24.0, help="hours at each transshipment port (24)"
    )
    p_trip.add_argument("--departed-at", default=None, help="ISO 8601 departure from the POL")
    p_trip.add_argument("--avoid", action="append", default=[], help="passage to avoid")
    p_trip.add_argument("--allow-arctic", action="store_true", help="open the Arctic passages")
    p_trip.add_argument(
        "--vessel", type=location_arg, default=None, help="'lon,lat' (or a port) of the vessel"
    )
    p_trip.add_argument("--leg", type=int, default=1, help="leg the vessel is on (1 = first)")
    p_trip.add_argument("--at", default=None, help="ISO 8601 time of --vessel (default: now)")
    p_trip.add_argument("--format", choices=["table", "geojson"], default="table")
    add_vessel_arguments(p_trip)
    p_trip.set_defaults(handler=cmd_itinerary)

    p_mcp = commands.add_parser("mcp", help="run the MCP server (HTTP, or stdio with --stdio)")
    p_mcp.add_argument("--stdio", action="store_true", help="read and answer on stdin/stdout")
    p_mcp.add_argument("--host", default="127.0.0.1")
    p_mcp.add_argument("--port", type=int, default=8001)
    p_mcp.add_argument("--database", default=None, help="database URL (local backend)")
    p_mcp.add_argument("--base-url", default=None, help="public API base for links (…/v2)")
    p_mcp.add_argument("--log-level", default="warning")
    p_mcp.set_defaults(handler=cmd_mcp)

    add_serve_commands(commands)
    add_worker_commands(commands)
    add_account_commands(commands)
    add_ais_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: run one sub-command. The one place where failures become the CLI's answer:
    the engine's errors (the engine's commands call the library itself), the application
    layer's (the service's commands) and bad values print one line and exit with status 2."""
    args = build_parser().parse_args(argv)
    try:
        code: int = args.handler(args)
    except (RoutingError, ServiceError, ValueError) as error:
        print(f"sealane: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into `head` and closed early: not an error
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - keeps interpreter shutdown quiet
        return 0
    return code
