"""The ``sealane`` command line: routes and future positions from the engine.

Only the engine is imported here at module level, so ``sealane route`` starts fast; the service
commands import their layers when they run.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .routing import Route, RoutingError, route


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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: run one sub-command; engine errors print one line and exit with status 2."""
    args = build_parser().parse_args(argv)
    try:
        code: int = args.handler(args)
    except RoutingError as error:
        print(f"sealane: error: {error}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
