"""Vessel positions sent by an AIS provider's API (``POST /v2/vessel_positions``).

Positions are shared by every account (a vessel is the same ship for all), so writing them is a
permission of its own (``Account.ingest_enabled``), not part of the routing feature. The batch
is validated whole first: a client can correct its request, so every bad value is named by its
JSON pointer and nothing of a batch with errors is stored. Valid batches go through the same
pipeline as the radio feeds (match by MMSI, filter jumps, thin, store, follow tracked vessels).

An item may also give the vessel's size (``length_meters``, ``beam_meters``,
``draught_meters``; null or absent: not given). Unlike AIS's codes, a value here is meant: one
that is not a number of metres above 0 and within the routing engine's bound (500 m, 80 m,
30 m) is a 422 naming it. Given sizes are stored on the vessel like AIS static data (see
:mod:`sealane.feeds.ais.statics`), newest first, in the batch's transaction.
"""

from __future__ import annotations

import threading
import weakref
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from ...feeds.ais.batch import (
    DIMENSIONS,
    MAX_ERRORS,
    MAX_POSITIONS,
    RESOURCE_TYPE,
    BatchInvalid,
    parse_batch,
)
from ...feeds.ais.ingest import Ingestor, IngestReport, IngestSettings
from ...feeds.ais.statics import store_statics
from ..access.gatekeeper import Caller
from ..core.context import ServiceContext
from ..core.errors import InvalidFields

# DIMENSIONS (the optional sizes and their bounds in metres), MAX_POSITIONS (the most in one
# batch) and RESOURCE_TYPE (each one's JSON:API type) are the batch's rules, offered to the API's
# body schema.
__all__ = ["DIMENSIONS", "MAX_POSITIONS", "RESOURCE_TYPE", "ingest_positions"]


class SharedIngestor:
    """The one :class:`Ingestor` of a service's requests, kept across them: the vessels' track
    states, the months made and the MMSIs known to be unknown are read once, not per request.

    Requests come on several threads: one batch at a time goes through it. Other processes (more
    API processes, a radio feed) store positions too, so it reads the track states again every
    :attr:`IngestSettings.cache_ttl_s`, and drops them when a batch's transaction fails.
    """

    def __init__(self, ctx: ServiceContext) -> None:
        settings = IngestSettings(track_ttl_s=IngestSettings().cache_ttl_s)
        self.ingestor = Ingestor(ctx.sessions, ctx.clock, settings)
        self.lock = threading.Lock()


_SHARED: weakref.WeakKeyDictionary[sessionmaker[Session], SharedIngestor] = (
    weakref.WeakKeyDictionary()
)
_SHARING = threading.Lock()


def shared_ingestor(ctx: ServiceContext) -> SharedIngestor:
    """The ingestor of ``ctx``'s requests (made at the first), kept as long as its sessions."""
    with _SHARING:
        shared = _SHARED.get(ctx.sessions)
        if shared is None:
            shared = _SHARED[ctx.sessions] = SharedIngestor(ctx)
        return shared


def ingest_positions(ctx: ServiceContext, caller: Caller, document: Any) -> IngestReport:
    """Validate and store one batch (a decoded JSON body); counts of what it did.

    Raises :class:`~..core.errors.FeatureDisabled` when the account may not write positions, and
    :class:`~..core.errors.InvalidFields` naming every bad value when the batch has errors.
    """
    caller.require_ingest()
    try:
        batch = parse_batch(document, ctx.clock.now())
    except BatchInvalid as invalid:
        problems = [(e.pointer, e.detail, e.code) for e in invalid.errors[:MAX_ERRORS]]
        raise InvalidFields(
            f"{len(problems)} invalid value(s) in the batch; nothing was stored", problems
        ) from None
    shared = shared_ingestor(ctx)
    with shared.lock:
        ingestor = shared.ingestor
        ingestor.prepare(batch.positions)
        try:
            with ctx.writing() as session:
                report = ingestor.ingest_in(session, batch.positions, batch.statics)
                store_statics(session, batch.sizes)
        except BaseException:
            ingestor.forget()  # its cache may hold what was rolled back
            raise
    return report
