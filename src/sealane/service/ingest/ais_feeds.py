"""AIS sentences from the air, stored as vessel positions (``sealane ais connect | listen |
replay``): a TCP NMEA feed or AISStream's WebSocket feed followed, the UDP datagrams sent to an
address received, or an NMEA file replayed from where a previous run of it stopped.

Each runs until its source ends or the operator interrupts it, committing every ``batch_size``
sentences, and returns the counts of what it did. With ``all_vessels`` every MMSI heard is
tracked; otherwise only vessels already in the database.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from ...feeds.ais.aisstream import AISStreamClient, StreamReport
from ...feeds.ais.aisstream_subscription import (
    WORLD,
    Subscription,
    check_url,
    parse_box,
    parse_mmsi,
)
from ...feeds.ais.ingest import Ingestor, IngestSettings, VesselPolicy
from ...feeds.ais.pipeline import Pipeline, ProgressHook, RunReport, replay_file
from ...feeds.ais.sources import parse_address, tcp_lines, udp_lines
from ..core.context import ServiceContext
from ..core.errors import InvalidInput
from .ais_counts import RunCounter

_T = TypeVar("_T")


def follow_tcp(
    ctx: ServiceContext, address: str, *, all_vessels: bool, batch_size: int
) -> RunReport:
    """Follow the TCP NMEA feed at ``address`` (HOST:PORT) until interrupted."""
    host, port = _address(address)
    return _pipeline(ctx, all_vessels, batch_size).run_live(tcp_lines(host, port))


def follow_aisstream(
    ctx: ServiceContext,
    url: str,
    api_key: str,
    boxes: Sequence[str],
    mmsis: Sequence[str],
    *,
    all_vessels: bool,
    batch_size: int,
    insecure: bool = False,
) -> StreamReport:
    """Follow AISStream at ``url`` (wss://, or ws:// when ``insecure``) until interrupted,
    subscribed with ``api_key`` to the ``LON1,LAT1,LON2,LAT2`` ``boxes`` (none: the world) and,
    if any, only the 9-digit ``mmsis``; reconnects with backoff whenever the connection drops."""
    if not api_key:
        raise InvalidInput("the AISStream API key is empty", field="api_key")
    wanted = Subscription(
        api_key,
        tuple(_valid(parse_box, box, "box") for box in boxes) or (WORLD,),
        tuple(dict.fromkeys(_valid(parse_mmsi, mmsi, "mmsi") for mmsi in mmsis)),
    )
    ingestor = Ingestor(ctx.sessions, ctx.clock, _settings(all_vessels))
    url = _valid(check_url, url, "url")
    if url.lower().startswith("ws://") and not insecure:
        raise InvalidInput(
            "ws:// would send the API key unencrypted: use wss://, or --insecure", field="url"
        )
    client = AISStreamClient(url, wanted, ingestor, batch_size=batch_size, insecure=insecure)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C: run() commits what it received
        asyncio.run(client.run())
    RunCounter(ctx.metrics)(client.report.run)  # the metrics learn its counts when it ends
    return client.report


def listen_udp(
    ctx: ServiceContext, address: str, *, all_vessels: bool, batch_size: int
) -> RunReport:
    """Store the UDP datagrams sent to ``address`` (HOST:PORT) until interrupted."""
    host, port = _address(address)
    return _pipeline(ctx, all_vessels, batch_size).run_live(udp_lines(host, port))


def replay_nmea(
    ctx: ServiceContext,
    path: Path,
    *,
    speed: float,
    shift_to_now: bool,
    from_start: bool,
    all_vessels: bool,
    batch_size: int,
    progress: ProgressHook | None = None,
) -> RunReport:
    """Replay the NMEA file at ``path`` at ``speed`` times the recorded pace (0: at once),
    resuming where a previous run of the same file stopped unless ``from_start``;
    ``shift_to_now`` moves the recorded times so that the first line is now. ``progress`` is
    told the totals after each batch and about once a second while the replay waits."""
    if not path.is_file():
        raise InvalidInput(f"no such file: {path}", field="file")
    counter = RunCounter(ctx.metrics)  # the metrics learn the counts as the replay goes

    def told(report: RunReport) -> None:
        counter(report)
        if progress is not None:
            progress(report)

    report = replay_file(
        ctx.sessions,
        path,
        clock=ctx.clock,
        speed=speed,
        shift_to_now=shift_to_now,
        from_start=from_start,
        batch_size=batch_size,
        settings=_settings(all_vessels),
        progress=told,
    )
    counter(report)
    return report


def _settings(all_vessels: bool) -> IngestSettings:
    """Every MMSI heard, or only the vessels already known."""
    return IngestSettings(policy=VesselPolicy.ALL if all_vessels else VesselPolicy.KNOWN)


def _pipeline(ctx: ServiceContext, all_vessels: bool, batch_size: int) -> Pipeline:
    ingestor = Ingestor(ctx.sessions, ctx.clock, _settings(all_vessels))
    pipeline = Pipeline(ingestor, batch_size=batch_size)
    pipeline.on_commit = RunCounter(ctx.metrics)  # the metrics learn each batch's counts
    return pipeline


def _address(address: str) -> tuple[str, int]:
    try:
        return parse_address(address)
    except ValueError as error:
        raise InvalidInput(str(error), field="address") from None


def _valid(parse: Callable[[str], _T], text: str, name: str) -> _T:
    """``parse(text)``, its ValueError as the caller's bad ``name``."""
    try:
        return parse(text)
    except ValueError as error:
        raise InvalidInput(str(error), field=name) from None
