"""``sealane ais``: the commands that ingest AIS vessel positions (a TCP feed, AISStream, UDP,
a file).

The feeds' layers are imported when a command runs, so the parser costs nothing at start-up.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Protocol, TextIO

from .settings import settings_from


def cmd_ais(args: argparse.Namespace) -> int:
    """``sealane ais connect | listen | replay``: ingest AIS sentences into the database."""
    from pathlib import Path

    from ..runtime import feed_context
    from ..service.ingest import ais_feeds

    key = _api_key(args) if args.ais_command == "connect" else None
    ctx = feed_context(settings_from(args))
    options = {"all_vessels": args.all_vessels, "batch_size": args.batch_size}
    if key is not None:
        summary = ais_feeds.follow_aisstream(
            ctx, args.address, key, args.box, args.mmsi, insecure=args.insecure, **options
        ).summary()
    elif args.ais_command == "connect":
        summary = ais_feeds.follow_tcp(ctx, args.address, **options).summary()
    elif args.ais_command == "listen":
        summary = ais_feeds.listen_udp(ctx, args.udp, **options).summary()
    else:
        shown = ProgressLine(sys.stderr, enabled=args.progress)
        summary = ais_feeds.replay_nmea(
            ctx,
            Path(args.file),
            speed=args.speed,
            shift_to_now=args.shift_to_now,
            from_start=args.from_start,
            progress=shown,
            **options,
        ).summary()
        shown.close()
    print(summary)
    return 0


def _api_key(args: argparse.Namespace) -> str | None:
    """For a ws:// or wss:// address (AISStream), the key from the environment variable named
    by --api-key-env; never an argument itself, so it stays out of the process list and the
    shell's history. None for a TCP address, which takes none of AISStream's options."""
    name = args.api_key_env
    if not args.address.lower().startswith(("ws://", "wss://")):
        if name is not None or args.box or args.mmsi:
            raise ValueError("--api-key-env, --box and --mmsi are for ws:// or wss:// URLs")
        return None
    if name is None:
        raise ValueError("an AISStream URL needs --api-key-env NAME (the variable holding the key)")
    key = os.environ.get(name, "").strip()
    if not key:
        raise ValueError(f"the environment variable {name} (--api-key-env) is not set or empty")
    return key


class _Totals(Protocol):
    def progress_line(self) -> str: ...


class ProgressLine:
    """A replay's running totals on ``stream``, at most once per ``every_s`` seconds: redrawn
    in place on a terminal, one line each otherwise. ``enabled`` None means "when ``stream``
    is a terminal"."""

    def __init__(self, stream: TextIO, *, enabled: bool | None, every_s: float = 1.0) -> None:
        self.stream = stream
        self.tty = stream.isatty()
        self.enabled = self.tty if enabled is None else enabled
        self.every_s = every_s
        self.shown_at: float | None = None
        self.drawn = False

    def __call__(self, totals: _Totals) -> None:
        now = time.monotonic()
        if not self.enabled or (self.shown_at is not None and now - self.shown_at < self.every_s):
            return
        self.shown_at = now
        line = totals.progress_line()
        self.stream.write(f"\r{line}\x1b[K" if self.tty else f"{line}\n")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        """End the line redrawn in place, so the summary starts on a line of its own."""
        if self.drawn and self.tty:
            self.stream.write("\n")
            self.stream.flush()


def add_ais_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p_ais = commands.add_parser("ais", help="ingest AIS vessel positions (NMEA 0183, AISStream)")
    ais = p_ais.add_subparsers(dest="ais_command", required=True)
    p_connect = ais.add_parser(
        "connect", help="follow a TCP NMEA feed, or AISStream (wss://stream.aisstream.io/v0/stream)"
    )
    p_connect.add_argument("address", help="HOST:PORT of an NMEA feed, or a ws:// or wss:// URL")
    p_connect.add_argument(
        "--api-key-env",
        metavar="NAME",
        default=None,
        help="AISStream: the environment variable holding the API key (required for a URL)",
    )
    p_connect.add_argument(
        "--box",
        action="append",
        default=[],
        metavar="LON1,LAT1,LON2,LAT2",
        help="AISStream: an area's opposite corners in degrees (repeatable; default the world;"
        " --box=-10,... when it starts with a minus)",
    )
    p_connect.add_argument(
        "--mmsi",
        action="append",
        default=[],
        help="AISStream: only this vessel's messages, 9 digits (repeatable)",
    )
    p_connect.add_argument(
        "--insecure",
        action="store_true",
        help="AISStream: allow a ws:// URL, which sends the API key unencrypted (local tests)",
    )
    p_listen = ais.add_parser("listen", help="receive NMEA over UDP (AIS-catcher, rtl-ais, ...)")
    p_listen.add_argument("--udp", required=True, help="HOST:PORT to listen on")
    p_replay = ais.add_parser(
        "replay",
        help="replay an NMEA file (resumes where it stopped)",
        description="Replay an NMEA file into the database, resuming where the last replay of"
        " it stopped. Lines with tag-block times (\\c:...\\) are paced at their recorded"
        " times, in real time by default: a file spanning an hour takes an hour. Use --speed 0"
        " to replay as fast as possible, or --speed 60 for a recorded minute a second. Lines"
        " without a tag block are timed as they are read. Progress goes to stderr on a"
        " terminal (--progress to force it, --no-progress to hide it); the totals are printed"
        " at the end.",
    )
    p_replay.add_argument("file", help="NMEA file, tag-block times (\\c:...\\) if any")
    p_replay.add_argument(
        "--speed",
        type=float,
        default=1.0,
        help="times real time (default 1; 0: as fast as possible, no waiting)",
    )
    p_replay.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show the running totals on stderr about once a second (default: on a terminal)",
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
