"""What ``sealane ais connect | listen | replay`` run: a database, an ingest, a source."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.orm import Session, sessionmaker

from ...clock import SystemClock
from ...store.database import make_engine, session_factory
from ...store.migrate import upgrade
from .ingest import Ingestor, IngestSettings, VesselPolicy
from .pipeline import Pipeline, RunReport, replay_file
from .sources import parse_address, tcp_lines, udp_lines


def open_database(url: str) -> sessionmaker[Session]:
    """Sessions on ``url``, migrated to the newest schema."""
    engine = make_engine(url)
    upgrade(engine)
    return session_factory(engine)


def settings_for(all_vessels: bool) -> IngestSettings:
    """Ingest settings of the commands: every MMSI heard, or only vessels already known."""
    return IngestSettings(policy=VesselPolicy.ALL if all_vessels else VesselPolicy.KNOWN)


def connect(url: str, address: str, *, all_vessels: bool, batch_size: int) -> RunReport:
    """Follow a TCP NMEA feed at ``address`` (HOST:PORT) until interrupted."""
    pipeline = Pipeline(
        Ingestor(open_database(url), SystemClock(), settings_for(all_vessels)),
        batch_size=batch_size,
    )
    host, port = parse_address(address)
    return pipeline.run_live(tcp_lines(host, port))


def listen(url: str, address: str, *, all_vessels: bool, batch_size: int) -> RunReport:
    """Ingest the UDP datagrams sent to ``address`` (HOST:PORT) until interrupted."""
    pipeline = Pipeline(
        Ingestor(open_database(url), SystemClock(), settings_for(all_vessels)),
        batch_size=batch_size,
    )
    host, port = parse_address(address)
    return pipeline.run_live(udp_lines(host, port))


def replay(
    url: str,
    path: Path,
    *,
    speed: float,
    all_vessels: bool,
    batch_size: int,
    shift_to_now: bool,
    from_start: bool,
) -> RunReport:
    """Replay an NMEA file, resuming where a previous run of the same file stopped."""
    if not path.is_file():
        raise ValueError(f"no such file: {path}")
    return replay_file(
        open_database(url),
        path,
        clock=SystemClock(),
        speed=speed,
        shift_to_now=shift_to_now,
        from_start=from_start,
        batch_size=batch_size,
        settings=settings_for(all_vessels),
    )
