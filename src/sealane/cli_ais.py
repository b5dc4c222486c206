"""``sealane ais``: the commands that ingest AIS vessel positions (a TCP feed, UDP, a file).

The feeds' layers are imported when a command runs, so the parser costs nothing at start-up.
"""

from __future__ import annotations

import argparse
import os


def cmd_ais(args: argparse.Namespace) -> int:
    """``sealane ais connect | listen | replay``: ingest AIS sentences into the database."""
    from pathlib import Path

    from .config import Settings
    from .runtime import feed_context
    from .service.ingest import ais_feeds

    ctx = feed_context(Settings.from_env(os.environ, database_url=args.database))
    options = {"all_vessels": args.all_vessels, "batch_size": args.batch_size}
    if args.ais_command == "connect":
        report = ais_feeds.follow_tcp(ctx, args.address, **options)
    elif args.ais_command == "listen":
        report = ais_feeds.listen_udp(ctx, args.udp, **options)
    else:
        report = ais_feeds.replay_nmea(
            ctx,
            Path(args.file),
            speed=args.speed,
            shift_to_now=args.shift_to_now,
            from_start=args.from_start,
            **options,
        )
    print(report.summary())
    return 0


def add_ais_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
