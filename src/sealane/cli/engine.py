"""The engine's commands of the ``sealane`` command line: ``route``, ``positions``, ``itinerary``.

They import only the engine, by its public names (``sealane.route``, ``sealane.itinerary``, ...),
so they start fast; :mod:`.commands` parses the arguments.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from .. import (
    InvalidVesselError,
    Route,
    Vessel,
    future_positions,
    itinerary,
    route,
    route_options,
)
from ..clock import utc_iso

if TYPE_CHECKING:
    from .. import Progress


def location_arg(text: str) -> str | tuple[float, float]:
    """A LOCODE/port id as given, or 'lon,lat' as a coordinate pair."""
    if "," in text:
        lon, lat = text.split(",", 1)
        try:
            return (float(lon), float(lat))
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a 'lon,lat' pair: {text!r}") from None
    return text


def add_vessel_arguments(parser: argparse.ArgumentParser) -> None:
    """``--draft``, ``--beam``, ``--length`` and ``--air-draft`` in metres: the passages a
    vessel does not fit are closed for its route (none given: the engine's default vessel)."""
    group = parser.add_argument_group("vessel dimensions, metres")
    for flag, what in (
        ("--draft", "draft"),
        ("--beam", "beam"),
        ("--length", "length overall"),
        ("--air-draft", "air draft (height above the waterline)"),
    ):
        group.add_argument(flag, type=float, default=None, metavar="M", help=what)


def _vessel(args: argparse.Namespace) -> Vessel:
    """The one vessel of the dimensions given on the command line; a bad one is a
    ``ValueError`` naming its option (``--draft``), which :func:`sealane.cli.main` prints."""
    try:
        return Vessel(args.draft, args.beam, args.length, args.air_draft)
    except InvalidVesselError as error:
        option = "--" + error.parameter.removesuffix("_m").replace("_", "-")
        raise ValueError(str(error).replace(error.parameter, option, 1)) from None


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
        zones = result.speed_profile(speed_kn).hours_by_zone()
        rows.append(("profile", ", ".join(f"{name} {h:,.1f} h" for name, h in zones.items())))
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
        vessel=_vessel(args),
    )
    if args.format == "geojson":
        feature = result.to_geojson()
        if args.speed is not None:
            feature["properties"]["duration_h"] = result.duration_h(args.speed)
        print(json.dumps(feature))
    else:
        print(_route_table(result, args.speed))
    return 0


def cmd_route_options(args: argparse.Namespace) -> int:
    """``sealane route-options ORIGIN DESTINATION``: the ways side by side, fastest first, each
    with its distance, time on the speed profile and passages (a table, or JSON)."""
    options = route_options(
        args.origin,
        args.destination,
        speed_kn=args.speed,
        avoid=args.avoid,
        allow_arctic=args.allow_arctic,
        vessel=_vessel(args),
    )
    if args.format == "json":
        rows = [
            {
                "option": option.label,
                "avoided": list(option.avoided),
                "distance_nm": round(option.distance_nm, 1),
                "duration_h": round(option.duration_h, 1),
                "speed_kn": option.speed_kn,
                "passages": list(option.passages),
            }
            for option in options
        ]
        print(json.dumps(rows))
        return 0
    width = max(len(option.label) for option in options)
    print(f"{'option':<{width}}  {'distance nm':>11}  {'hours':>7}  {'days':>5}  passages")
    for option in options:
        hours = option.duration_h
        print(
            f"{option.label:<{width}}  {option.distance_nm:>11,.1f}  {hours:>7,.1f}  "
            f"{hours / 24:>5.1f}  {', '.join(option.passages) or '-'}"
        )
    print(f"at {options[0].speed_kn:g} kn in open water, on the speed profile")
    return 0


def cmd_positions(args: argparse.Namespace) -> int:
    """``sealane positions``: a vessel's future positions as a table, CSV or GeoJSON."""
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
        vessel=_vessel(args),
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
    p10, p90 = positions.eta_range
    print(f"eta                 {stamps[-1]}")
    print(
        f"distance remaining  {positions.distance_remaining_nm:,.1f} nm"
        f" at {positions.speed_kn:g} kn"
    )
    print(f"eta range P10-P90   {utc_iso(p10)} to {utc_iso(p90)}")
    print(f"speed source        {positions.speed_source}")
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
    departed = datetime.fromisoformat(args.departed_at) if args.departed_at else None
    trip = itinerary(
        args.ports,
        speed_kn=args.speed,
        dwell_h=args.dwell,
        avoid=args.avoid,
        allow_arctic=args.allow_arctic,
        departed_at=departed,
        vessel=_vessel(args),
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
        return utc_iso(moment) if moment else "-"

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
