"""The ``sealane`` command line: the argument parser, and the service's commands (``serve``,
``mcp``, ``webhooks-worker``; the engine's are in :mod:`.cli_engine`, the AIS feeds' in
:mod:`.cli_ais`).

Only the engine is imported here at module level, so ``sealane route`` starts fast; the service
commands import their layers when they run.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from . import RoutingError
from .cli_accounts import add_account_commands
from .cli_ais import add_ais_commands
from .cli_engine import (
    add_vessel_arguments,
    cmd_itinerary,
    cmd_positions,
    cmd_route,
    location_arg,
)
from .service.core.errors import ServiceError

if TYPE_CHECKING:
    from .config import Settings

#: The interpreter's thread switch interval in the server, in seconds (Python's default is 5 ms).
#: A worker thread computing future positions holds the GIL between its numpy and C calls; with
#: 5 ms the event loop kept waiting for it while sending the response (a 25-day voyage measured
#: 0.3-3 ms slower than with 0.5 or 1 ms, which measured alike).
SERVER_SWITCH_INTERVAL_S = 0.0005


def _settings(args: argparse.Namespace) -> Settings:
    from .config import Settings

    return Settings.from_env(os.environ, database_url=getattr(args, "database", None))


def cmd_serve(args: argparse.Namespace) -> int:
    """``sealane serve``: run the API on uvicorn (``--demo`` seeds demo accounts and vessels,
    and replays the bundled AIS sample while it serves, unless ``SEALANE_AIS_DEMO=off``)."""
    from .api.app import create_app
    from .demo import add_ais_replay, seed_demo

    settings = _settings(args)
    _warn_private(settings)
    if args.base_url is None and "SEALANE_BASE_URL" not in os.environ:
        settings = replace(settings, base_url=f"http://{args.host}:{args.port}/v2")
    app = create_app(settings, poll_interval_s=args.poll_interval)
    if args.demo:
        keys = seed_demo(app.state.sealane)
        add_ais_replay(app.state.sealane, speed=settings.ais_demo_speed)
        _print_demo(settings, [(name, key.secret) for name, key in keys])
    sys.setswitchinterval(SERVER_SWITCH_INTERVAL_S)
    _run_server(app, args, settings)
    return 0


def cmd_mcp(args: argparse.Namespace) -> int:
    """``sealane mcp``: the MCP server over streamable HTTP (``/mcp``), or on stdio."""
    import anyio

    from .mcp.apps import serve_stdio, standalone_app

    settings = _settings(args)
    if args.stdio:
        if not settings.mcp_api_token:
            print("sealane: error: --stdio needs SERVICE_API_TOKEN (an API key)", file=sys.stderr)
            return 2
        anyio.run(serve_stdio, settings)
        return 0
    if args.base_url is not None:
        settings = replace(settings, base_url=args.base_url.rstrip("/"))
    elif "SEALANE_BASE_URL" not in os.environ:
        settings = replace(settings, base_url=f"http://{args.host}:{args.port}/v2")
    app = standalone_app(settings)
    _run_server(app, args, settings)
    return 0


def _run_server(app: Any, args: argparse.Namespace, settings: Settings) -> None:
    """Serve ``app`` on uvicorn, believing ``X-Forwarded-For`` only from the settings' trusted
    proxies (uvicorn's default believes any local client, who could then pick the address its
    wrong keys are counted against)."""
    import uvicorn

    trusted = list(settings.trusted_proxies)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        proxy_headers=bool(trusted),
        forwarded_allow_ips=trusted,
    )


def _print_demo(settings: Settings, keys: list[tuple[str, str]]) -> None:
    """The demo's tokens and a few requests to try."""
    base = settings.base_url
    print(f"sealane demo on {base} (database {settings.database_url})")
    for name, secret in keys:
        print(f"  {name:<18} token {secret}")
    token = keys[0][1]
    print(f"  try: curl -g -H 'Authorization: Token {token}' '{base}/vessels?filter[name]=aurora'")
    print(
        f"       curl --compressed -H 'Authorization: Token {token}' "
        f"'{base}/vessels/9811000/future_positions?port_id=NLRTM&previous_port_id=CNSHA'"
    )
    print(f"       curl -g -H 'Authorization: Token {token}' '{base}/shipments?include=containers'")
    sys.stdout.flush()


def cmd_webhooks_worker(args: argparse.Namespace) -> int:
    """``sealane webhooks worker``: deliver webhook notifications from the database, forever."""
    import time

    from .runtime import build_runtime

    settings = _settings(args)
    _warn_private(settings)
    worker = build_runtime(settings, webhook_lease_s=args.lease).webhooks
    try:
        while True:
            attempts = worker.run_once()
            if args.once:
                print(f"{attempts} delivery attempts")
                return 0
            if attempts == 0:
                time.sleep(args.interval)
    except KeyboardInterrupt:
        return 0
    finally:
        worker.close()


def _warn_private(settings: Settings) -> None:
    if settings.webhook_allow_private:
        print(
            "WARNING: SEALANE_WEBHOOK_ALLOW_PRIVATE is on: webhooks may call http and private "
            "addresses. Use it only for local development and tests.",
            file=sys.stderr,
        )


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
        "--via", action="append", default=[], type=location_arg, help="waypoint (repeatable)"
    )
    p_route.add_argument("--allow-arctic", action="store_true", help="open the Arctic passages")
    p_route.add_argument("--speed", type=float, default=None, help="speed in knots for a duration")
    p_route.add_argument("--format", choices=["table", "geojson"], default="table")
    add_vessel_arguments(p_route)
    p_route.set_defaults(handler=cmd_route)

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

    p_serve = commands.add_parser("serve", help="run the JSON:API service")
    p_serve.add_argument("--host", default="127.0.0.1")
    p_serve.add_argument("--port", type=int, default=8000)
    p_serve.add_argument(
        "--database", default=None, help="database URL (default sqlite:///./sealane.db)"
    )
    p_serve.add_argument("--base-url", default=None, help="public API base for links (…/v2)")
    p_serve.add_argument("--demo", action="store_true", help="seed demo accounts and vessels")
    p_serve.add_argument("--log-level", default="info")
    p_serve.add_argument(
        "--poll-interval", type=float, default=5.0, help="seconds between tracking polls (0: off)"
    )
    p_serve.set_defaults(handler=cmd_serve)

    p_mcp = commands.add_parser("mcp", help="run the MCP server (HTTP, or stdio with --stdio)")
    p_mcp.add_argument("--stdio", action="store_true", help="read and answer on stdin/stdout")
    p_mcp.add_argument("--host", default="127.0.0.1")
    p_mcp.add_argument("--port", type=int, default=8001)
    p_mcp.add_argument("--database", default=None, help="database URL (local backend)")
    p_mcp.add_argument("--base-url", default=None, help="public API base for links (…/v2)")
    p_mcp.add_argument("--log-level", default="warning")
    p_mcp.set_defaults(handler=cmd_mcp)

    p_webhooks = commands.add_parser("webhooks", help="webhook delivery")
    webhook_commands = p_webhooks.add_subparsers(dest="webhooks_command", required=True)
    p_worker = webhook_commands.add_parser("worker", help="run a delivery worker process")
    p_worker.add_argument("--database", default=None, help="database URL")
    p_worker.add_argument("--interval", type=float, default=1.0, help="seconds to wait when idle")
    p_worker.add_argument("--once", action="store_true", help="one pass, then exit")
    p_worker.add_argument(
        "--lease",
        type=float,
        default=120.0,
        help="seconds a claimed notification stays with this worker",
    )
    p_worker.set_defaults(handler=cmd_webhooks_worker)

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


if __name__ == "__main__":
    sys.exit(main())
