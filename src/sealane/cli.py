"""The ``sealane`` command line: routes and future positions from the engine.

Only the engine is imported here at module level, so ``sealane route`` starts fast; the service
commands import their layers when they run.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from .cli_accounts import add_account_commands
from .routing import Route, RoutingError, route

if TYPE_CHECKING:
    from .config import Settings
    from .routing.progress import Progress

#: The interpreter's thread switch interval in the server, in seconds (Python's default is 5 ms).
#: A worker thread computing future positions holds the GIL between its numpy and C calls; with
#: 5 ms the event loop kept waiting for it while sending the response (a 25-day voyage measured
#: 0.3-3 ms slower than with 0.5 or 1 ms, which measured alike).
SERVER_SWITCH_INTERVAL_S = 0.0005


def _location(text: str) -> str | tuple[float, float]:
    """A LOCODE/port id as given, or 'lon,lat' as a coordinate pair."""
    if "," in text:
        lon, lat = text.split(",", 1)
        try:
            return (float(lon), float(lat))
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a 'lon,lat' pair: {text!r}") from None
    return text


def _route_table(result: Route, speed_kn: float | None) -> str:
    origin, destination = result.origin, result.destination
    rows = [
        (
            "from",
            origin.port.locode + " " + origin.port.name
            if origin.port
            else f"{origin.lon}, {origin.lat}",
        ),
        (
            "to",
            destination.port.locode + " " + destination.port.name
            if destination.port
            else f"{destination.lon}, {destination.lat}",
        ),
        ("distance", f"{result.distance_nm:,.1f} nm ({result.distance_km:,.1f} km)"),
        ("passages", ", ".join(result.passages) or "-"),
        ("points", str(result.coordinates.shape[0])),
    ]
    if speed_kn is not None:
        hours = result.duration_h(speed_kn)
        rows.append(("duration", f"{hours:,.1f} h ({hours / 24:,.2f} days) at {speed_kn:g} kn"))
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)


def cmd_route(args: argparse.Namespace) -> int:
    """``sealane route ORIGIN DESTINATION``: print a sea route as a table or GeoJSON."""
    result = route(
        args.origin,
        args.destination,
        avoid=args.avoid,
        via=args.via,
        allow_arctic=args.allow_arctic,
    )
    if args.format == "geojson":
        feature = result.to_geojson()
        if args.speed is not None:
            feature["properties"]["duration_h"] = result.duration_h(args.speed)
        print(json.dumps(feature))
    else:
        print(_route_table(result, args.speed))
    return 0


def cmd_positions(args: argparse.Namespace) -> int:
    """``sealane positions``: a vessel's future positions as a table, CSV or GeoJSON."""
    from .routing.voyage import future_positions

    start_time = datetime.fromisoformat(args.start_time) if args.start_time else None
    positions = future_positions(
        (args.lon, args.lat),
        args.previous_port,
        args.port,
        speed_kn=args.speed,
        start_time=start_time,
        step_s=args.step,
        avoid=args.avoid,
        allow_arctic=args.allow_arctic,
    )
    if args.format == "geojson":
        print(json.dumps(positions.to_geojson()))
        return 0
    stamps = positions.timestamps()
    rows = zip(
        stamps,
        positions.lats.tolist(),
        positions.lons.tolist(),
        positions.headings_deg.tolist(),
        strict=True,
    )
    if args.format == "csv":
        out = csv.writer(sys.stdout, lineterminator="\n")
        out.writerow(["timestamp", "latitude", "longitude", "heading"])
        out.writerows((t, f"{lat:.6f}", f"{lon:.6f}", f"{h:.2f}") for t, lat, lon, h in rows)
        return 0
    print(f"eta                 {stamps[-1]}")
    print(
        f"distance remaining  {positions.distance_remaining_nm:,.1f} nm"
        f" at {positions.speed_kn:g} kn"
    )
    print(f"passages            {', '.join(positions.route.passages) or '-'}")
    print(f"positions           {len(positions)} every {positions.step_s:g} s")
    print()
    print(f"{'timestamp':<21} {'latitude':>10} {'longitude':>11} {'heading':>8}")
    for t, lat, lon, h in rows:
        print(f"{t:<21} {lat:>10.5f} {lon:>11.5f} {h:>8.2f}")
    return 0


def cmd_itinerary(args: argparse.Namespace) -> int:
    """``sealane itinerary POL [TS ...] POD``: legs, distances and ETAs as a table or GeoJSON,
    with the vessel of one leg at sea when ``--vessel`` is given."""
    from .routing.itinerary import itinerary

    departed = datetime.fromisoformat(args.departed_at) if args.departed_at else None
    trip = itinerary(
        args.ports,
        speed_kn=args.speed,
        dwell_h=args.dwell,
        avoid=args.avoid,
        allow_arctic=args.allow_arctic,
        departed_at=departed,
    )
    if args.vessel is not None:
        at = datetime.fromisoformat(args.at) if args.at else datetime.now(UTC)
        progress = trip.at_sea(args.leg - 1, args.vessel, at)
    else:
        progress = trip.at_port(0)
    if args.format == "geojson":
        print(json.dumps(progress.to_geojson()))
    else:
        print(_itinerary_table(progress, trip.dwell_h))
    return 0


def _itinerary_table(progress: Progress, dwell_h: tuple[float, ...]) -> str:
    """Summary lines, then one row per port call and one per leg."""

    def stamp(moment: datetime | None) -> str:
        return moment.strftime("%Y-%m-%dT%H:%M:%SZ") if moment else "-"

    legs, calls = progress.legs, progress.calls
    distance_nm = sum(leg.distance_nm for leg in legs)
    sailing_h = sum(leg.duration_h for leg in legs)
    lines = [
        "ports     " + " -> ".join(f"{c.port.locode} {c.port.name}" for c in calls),
        f"distance  {distance_nm:,.1f} nm",
        f"duration  {sailing_h:,.1f} h at sea + {sum(dwell_h):g} h in port"
        f" ({(sailing_h + sum(dwell_h)) / 24:,.2f} days)",
        f"eta       {stamp(progress.eta)}",
    ]
    if progress.underway is not None:
        vessel = progress.underway
        lines.append(
            f"vessel    {vessel.lon:.5f}, {vessel.lat:.5f} on leg {vessel.leg.sequence} at "
            f"{stamp(vessel.at)}, {vessel.remaining.distance_nm:,.1f} nm to go"
        )
    lines += ["", f"{'call':<5}{'label':<6}{'port':<6} {'arrival':<21} {'departure':<21} name"]
    for c in calls:
        lines.append(
            f"{c.sequence:<5}{c.label:<6}{c.port.locode:<6} {stamp(c.arrival_at):<21} "
            f"{stamp(c.departure_at):<21} {c.port.name}"
        )
    lines += ["", f"{'leg':<4}{'from':<6}{'to':<6}{'nm':>10}{'kn':>6}{'hours':>8}  passages"]
    for leg in legs:
        lines.append(
            f"{leg.sequence:<4}{leg.origin.locode:<6}{leg.destination.locode:<6}"
            f"{leg.distance_nm:>10,.1f}{leg.speed_kn:>6g}{leg.duration_h:>8,.1f}  "
            + (", ".join(leg.route.passages) or "-")
        )
    return "\n".join(lines)


def _settings(args: argparse.Namespace) -> Settings:
    from .config import Settings

    return Settings.from_env(os.environ, database_url=getattr(args, "database", None))


def cmd_serve(args: argparse.Namespace) -> int:
    """``sealane serve``: run the API on uvicorn (``--demo`` seeds demo accounts and vessels)."""
    import uvicorn

    from .api.app import create_app
    from .service.demo import seed_demo

    settings = _settings(args)
    _warn_private(settings)
    if args.base_url is None and "SEALANE_BASE_URL" not in os.environ:
        settings = replace(settings, base_url=f"http://{args.host}:{args.port}/v2")
    app = create_app(settings, poll_interval_s=args.poll_interval)
    if args.demo:
        keys = seed_demo(app.state.sealane)
        _print_demo(settings, [(name, key.secret) for name, key in keys])
    sys.setswitchinterval(SERVER_SWITCH_INTERVAL_S)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)
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
    import uvicorn

    if args.base_url is not None:
        settings = replace(settings, base_url=args.base_url.rstrip("/"))
    elif "SEALANE_BASE_URL" not in os.environ:
        settings = replace(settings, base_url=f"http://{args.host}:{args.port}/v2")
    app = standalone_app(settings)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)
    return 0


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

    from .service.runtime import build_runtime

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


def cmd_ais(args: argparse.Namespace) -> int:
    """``sealane ais connect | listen | replay``: ingest AIS sentences into the database."""
    from pathlib import Path

    from .feeds.ais import commands

    url = _settings(args).database_url
    options = {"all_vessels": args.all_vessels, "batch_size": args.batch_size}
    if args.ais_command == "connect":
        report = commands.connect(url, args.address, **options)
    elif args.ais_command == "listen":
        report = commands.listen(url, args.udp, **options)
    else:
        report = commands.replay(
            url,
            Path(args.file),
            speed=args.speed,
            shift_to_now=args.shift_to_now,
            from_start=args.from_start,
            **options,
        )
    print(report.summary())
    return 0


def _add_ais_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p_ais = commands.add_parser("ais", help="ingest AIS (NMEA 0183) vessel positions")
    ais = p_ais.add_subparsers(dest="ais_command", required=True)
    p_connect = ais.add_parser("connect", help="follow a TCP NMEA feed")
    p_connect.add_argument("address", help="HOST:PORT of the feed")
    p_listen = ais.add_parser("listen", help="receive NMEA over UDP (AIS-catcher, rtl-ais, ...)")
    p_listen.add_argument("--udp", required=True, help="HOST:PORT to listen on")
    p_replay = ais.add_parser("replay", help="replay an NMEA file (resumes where it stopped)")
    p_replay.add_argument("file", help="NMEA file, tag-block times (\\c:...\\) if any")
    p_replay.add_argument(
        "--speed", type=float, default=1.0, help="times real time (0: as fast as possible)"
    )
    p_replay.add_argument(
        "--shift-to-now", action="store_true", help="move the recorded times to start now"
    )
    p_replay.add_argument(
        "--from-start", action="store_true", help="ignore the saved checkpoint of this file"
    )
    for sub in (p_connect, p_listen, p_replay):
        sub.add_argument("--database", default=None, help="database URL")
        sub.add_argument(
            "--all-vessels",
            action="store_true",
            help="track every MMSI heard (default: only vessels already in the database)",
        )
        sub.add_argument("--batch-size", type=int, default=5000, help="sentences per commit")
        sub.set_defaults(handler=cmd_ais)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every sub-command."""
    parser = argparse.ArgumentParser(prog="sealane", description="Sea routes and vessel positions.")
    commands = parser.add_subparsers(dest="command", required=True)

    p_route = commands.add_parser("route", help="shortest sea route between two ports or points")
    p_route.add_argument("origin", type=_location, help="LOCODE, port id or 'lon,lat'")
    p_route.add_argument("destination", type=_location, help="LOCODE, port id or 'lon,lat'")
    p_route.add_argument(
        "--avoid", action="append", default=[], help="passage to avoid (repeatable)"
    )
    p_route.add_argument(
        "--via", action="append", default=[], type=_location, help="waypoint (repeatable)"
    )
    p_route.add_argument("--allow-arctic", action="store_true", help="open the Arctic passages")
    p_route.add_argument("--speed", type=float, default=None, help="speed in knots for a duration")
    p_route.add_argument("--format", choices=["table", "geojson"], default="table")
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
        "--vessel", type=_location, default=None, help="'lon,lat' (or a port) of the vessel"
    )
    p_trip.add_argument("--leg", type=int, default=1, help="leg the vessel is on (1 = first)")
    p_trip.add_argument("--at", default=None, help="ISO 8601 time of --vessel (default: now)")
    p_trip.add_argument("--format", choices=["table", "geojson"], default="table")
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
    _add_ais_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: run one sub-command; engine errors print one line and exit with status 2."""
    args = build_parser().parse_args(argv)
    try:
        code: int = args.handler(args)
    except (RoutingError, ValueError) as error:
        print(f"sealane: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into `head` and closed early: not an error
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - keeps interpreter shutdown quiet
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
