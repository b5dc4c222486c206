"""Store AIS reports: match vessels by MMSI, filter and thin their tracks, follow tracked vessels.

One call of :meth:`Ingestor.ingest` is one transaction: the batch's track points, latest
positions, learnt MMSIs, port calls, events and the source's checkpoint commit together, so a
process killed mid-batch loses only that uncommitted batch, which a file replay reads again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from ...clock import Clock
from ...store.database import transaction
from ...store.models import Vessel
from .batch import parse_batch
from .portcalls import FollowReport, FollowRules, VesselFollower
from .reports import Drop, PositionReport, StaticReport
from .statics import store_reports
from .storage import (
    create_vessels,
    ensure_position_months,
    load_tracks,
    save_checkpoint,
    store_positions,
)
from .tracks import Track, TrackRules, Verdict, judge


class VesselPolicy(StrEnum):
    """Which MMSIs get a track: only vessels already in the database, or every one heard."""

    KNOWN = "known"
    ALL = "all"


@dataclass(frozen=True, slots=True)
class IngestSettings:
    """How the ingest filters, stores and follows (see each part's own rules)."""

    tracks: TrackRules = field(default_factory=TrackRules)
    follow: FollowRules = field(default_factory=FollowRules)
    policy: VesselPolicy = VesselPolicy.KNOWN
    #: Seconds (monotonic) an unknown MMSI or IMO is remembered as unknown.
    cache_ttl_s: float = 60.0
    #: Seconds the vessels' track states are kept before being read again (None: for good,
    #: right for the only writer of positions; an ingestor serving requests beside other
    #: processes that store positions reads them again now and then).
    track_ttl_s: float | None = None


@dataclass
class IngestReport:
    """What a batch (or a whole run) did; ``drops`` and ``blanks`` count by reason."""

    positions: int = 0
    statics: int = 0
    stored: int = 0
    thinned: int = 0
    vessels_moved: int = 0
    mmsi_learned: int = 0
    drops: Counter[str] = field(default_factory=Counter)
    blanks: Counter[str] = field(default_factory=Counter)
    follow: FollowReport = field(default_factory=FollowReport)

    def counts(self) -> dict[str, int]:
        """Every count as a flat mapping (for a response's ``meta``)."""
        flat = {
            name: getattr(self, name)
            for name in ("positions", "statics", "stored", "thinned", "vessels_moved")
        }
        flat["mmsi_learned"] = self.mmsi_learned
        for name in ("arrivals", "departures", "events", "estimates"):
            flat[name] = getattr(self.follow, name)
        flat.update({f"dropped_{k}": v for k, v in sorted(self.drops.items())})
        flat.update({f"blanked_{k}": v for k, v in sorted(self.blanks.items())})
        return flat

    def add(self, other: IngestReport) -> None:
        """Add ``other``'s counts to these."""
        for name in ("positions", "statics", "stored", "thinned", "vessels_moved", "mmsi_learned"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.drops.update(other.drops)
        self.blanks.update(other.blanks)
        for name in ("arrivals", "departures", "events", "estimates"):
            setattr(self.follow, name, getattr(self.follow, name) + getattr(other.follow, name))


class Ingestor:
    """Ingests batches; caches track state between them (see :attr:`IngestSettings.track_ttl_s`).

    Not for two threads at once: a caller sharing one between threads holds a lock around each
    batch, and calls :meth:`forget` when a transaction it ran :meth:`ingest_in` in fails.
    """

    def __init__(
        self, sessions: sessionmaker[Session], clock: Clock, settings: IngestSettings | None = None
    ) -> None:
        self.sessions = sessions
        self.clock = clock
        self.settings = settings or IngestSettings()
        self._tracks: dict[int, Track] = {}
        self._unknown: dict[int, float] = {}
        self._months: set[tuple[int, int]] = set()
        self._tracks_read_at = clock.monotonic()
        self._follower = VesselFollower(self.settings.follow)

    def ingest(
        self,
        positions: Sequence[PositionReport],
        statics: Sequence[StaticReport] = (),
        *,
        checkpoint: tuple[str, int] | None = None,
    ) -> IngestReport:
        """Store one batch in one transaction, with ``(source, position)`` as its checkpoint."""
        self.prepare(positions)
        try:
            with transaction(self.sessions) as session:
                report = self.ingest_in(session, positions, statics)
                if checkpoint is not None:
                    save_checkpoint(session, checkpoint[0], checkpoint[1], self.clock.now())
        except BaseException:
            self.forget()  # the cache may hold what was rolled back
            raise
        return report

    def prepare(self, positions: Sequence[PositionReport]) -> None:
        """Make the monthly partitions the batch's points go to (PostgreSQL), each month once
        per ingestor; before the batch's transaction, never inside it (see
        :func:`.storage.ensure_position_months`)."""
        self._months = ensure_position_months(
            self.sessions,
            (p.time_s for p in positions),
            self._months,
            self.clock.now().timestamp(),
        )

    def forget(self) -> None:
        """Drop every cached state; it is read again from the database."""
        self._tracks.clear()
        self._unknown.clear()
        self._tracks_read_at = self.clock.monotonic()

    def ingest_in(
        self,
        session: Session,
        positions: Sequence[PositionReport],
        statics: Sequence[StaticReport] = (),
    ) -> IngestReport:
        """The batch's work inside the caller's transaction."""
        report = IngestReport(positions=len(positions), statics=len(statics))
        ttl = self.settings.track_ttl_s
        if ttl is not None and self.clock.monotonic() - self._tracks_read_at > ttl:
            self.forget()
        if statics:
            self._learn(session, statics, report)
            store_reports(session, statics)
        self._resolve(session, {p.mmsi for p in positions})
        tracks, rules, drops = self._tracks, self.settings.tracks, report.drops
        points: list[tuple[str, PositionReport]] = []
        #: Each vessel's newest accepted report, stored or thinned: where the vessel is now
        #: (thinning keeps the history short; it does not hold the position back).
        latest: dict[str, PositionReport] = {}
        before: dict[str, tuple[float, float] | None] = {}
        for p in positions:
            track = tracks.get(p.mmsi)
            if track is None:
                drops[Drop.UNKNOWN_VESSEL] += 1
                continue
            if track.vessel_id not in before:
                known = track.last_s is not None
                before[track.vessel_id] = (track.last_lon, track.last_lat) if known else None
            verdict = judge(track, p, rules)
            if verdict is Verdict.STORE:
                points.append((track.vessel_id, p))
                latest[track.vessel_id] = p
            elif verdict is Verdict.THIN:
                report.thinned += 1
                latest[track.vessel_id] = p
            elif verdict is Verdict.STALE:
                drops[Drop.STALE] += 1
            else:
                drops[Drop.IMPLAUSIBLE_JUMP] += 1
        store_positions(session, points, latest)
        report.stored, report.vessels_moved = len(points), len(latest)
        self._follow(session, points, before, report)
        return report

    def _resolve(self, session: Session, mmsis: set[int]) -> None:
        """Load the tracks of MMSIs not cached (and, with policy ALL, create their vessels)."""
        now = self.clock.monotonic()
        ttl = self.settings.cache_ttl_s
        wanted = {
            m
            for m in mmsis
            if m not in self._tracks and now - self._unknown.get(m, -ttl - 1.0) > ttl
        }
        if not wanted:
            return
        found = load_tracks(session, wanted)
        missing = wanted - found.keys()
        if missing and self.settings.policy is VesselPolicy.ALL:
            create_vessels(session, missing)
            found.update(load_tracks(session, missing))
            missing = wanted - found.keys()
        for mmsi in missing:
            self._unknown[mmsi] = now
        for mmsi in found:
            self._unknown.pop(mmsi, None)
        self._tracks.update(found)

    def _learn(
        self, session: Session, statics: Sequence[StaticReport], report: IngestReport
    ) -> None:
        """Give vessels known by IMO number the MMSI their type 5 reports announce."""
        by_imo = {
            s.imo: s.mmsi for s in statics if s.imo is not None and s.mmsi not in self._tracks
        }
        if not by_imo:
            return
        rows = session.execute(
            select(Vessel.id, Vessel.imo, Vessel.mmsi).where(Vessel.imo.in_(sorted(by_imo)))
        ).all()
        for vessel_id, imo, mmsi in rows:
            if imo is None:
                continue
            heard = str(by_imo[imo])
            if mmsi == heard:
                continue
            session.execute(update(Vessel).where(Vessel.id == vessel_id).values(mmsi=heard))
            self._unknown.pop(by_imo[imo], None)
            report.mmsi_learned += 1

    def _follow(
        self,
        session: Session,
        points: list[tuple[str, PositionReport]],
        before: dict[str, tuple[float, float] | None],
        report: IngestReport,
    ) -> None:
        """Hand the new points of the vessels carrying tracked shipments to the follower (port
        calls, events, ETA): which vessels those are is one query for the whole batch."""
        mine: dict[str, list[PositionReport]] = {}
        for vessel_id, p in points:
            mine.setdefault(vessel_id, []).append(p)
        if mine:
            self._follower.follow_batch(session, mine, before, self.clock.now(), report.follow)


def ingest_batch(
    sessions: sessionmaker[Session],
    positions: Sequence[PositionReport],
    clock: Clock,
    statics: Sequence[StaticReport] = (),
    settings: IngestSettings | None = None,
) -> IngestReport:
    """One batch with an ingestor of its own, no state kept between calls (tests, one-off
    loads; the API and the feeds keep theirs across batches)."""
    return Ingestor(sessions, clock, settings).ingest(positions, statics)


def ingest_document(
    sessions: sessionmaker[Session],
    document: Any,
    clock: Clock,
    settings: IngestSettings | None = None,
) -> IngestReport:
    """Validate a decoded JSON body of ``POST /v2/vessel_positions`` and ingest it.

    Raises :class:`~.batch.BatchInvalid` (every bad field by JSON pointer) and stores nothing
    when the body has errors.
    """
    batch = parse_batch(document, clock.now())
    return ingest_batch(sessions, batch.positions, clock, batch.statics, settings)
