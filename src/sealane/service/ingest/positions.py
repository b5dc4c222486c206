"""Vessel positions sent by an AIS provider's API (``POST /v2/vessel_positions``).

Positions are shared by every account (a vessel is the same ship for all), so writing them is a
permission of its own (``Account.ingest_enabled``), not part of the routing feature. The batch
is validated whole first: a client can correct its request, so every bad value is named by its
JSON pointer and nothing of a batch with errors is stored. Valid batches go through the same
pipeline as the radio feeds (match by MMSI, filter jumps, thin, store, follow tracked vessels).
"""

from __future__ import annotations

from typing import Any

from ...feeds.ais.batch import MAX_POSITIONS, RESOURCE_TYPE, BatchInvalid
from ...feeds.ais.ingest import IngestReport, IngestSettings, ingest_document
from ..access.gatekeeper import Caller
from ..core.context import ServiceContext
from ..core.errors import InvalidFields

# MAX_POSITIONS (the most in one batch) and RESOURCE_TYPE (each one's JSON:API type) are the
# batch's rules, offered to the API's body schema.
__all__ = ["MAX_POSITIONS", "RESOURCE_TYPE", "ingest_positions"]


def ingest_positions(
    ctx: ServiceContext,
    caller: Caller,
    document: Any,
    settings: IngestSettings | None = None,
) -> IngestReport:
    """Validate and store one batch (a decoded JSON body); counts of what it did.

    Raises :class:`~..core.errors.FeatureDisabled` when the account may not write positions, and
    :class:`~..core.errors.InvalidFields` naming every bad value when the batch has errors.
    """
    caller.require_ingest()
    try:
        return ingest_document(ctx.sessions, document, ctx.clock, settings)
    except BatchInvalid as invalid:
        problems = [(e.pointer, e.detail, e.code) for e in invalid.errors]
        raise InvalidFields(
            f"{len(problems)} invalid value(s) in the batch; nothing was stored", problems
        ) from None
