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

from typing import Any

from ...feeds.ais.batch import (
    MAX_ERRORS,
    MAX_POSITIONS,
    RESOURCE_TYPE,
    BatchInvalid,
    FieldError,
    parse_batch,
)
from ...feeds.ais.ingest import Ingestor, IngestReport, IngestSettings
from ...feeds.ais.reports import PositionReport
from ...feeds.ais.statics import POSITION_FEED, VesselStatic, store_statics
from ..access.gatekeeper import Caller
from ..core.context import ServiceContext
from ..core.engine import DIMENSION_BOUNDS_M
from ..core.errors import InvalidFields

# MAX_POSITIONS (the most in one batch) and RESOURCE_TYPE (each one's JSON:API type) are the
# batch's rules, offered to the API's body schema.
__all__ = ["DIMENSIONS", "MAX_POSITIONS", "RESOURCE_TYPE", "ingest_positions"]

#: The optional size attributes of a position, each with its largest value in metres.
DIMENSIONS: dict[str, float] = {
    "length_meters": DIMENSION_BOUNDS_M["length_m"],
    "beam_meters": DIMENSION_BOUNDS_M["beam_m"],
    "draught_meters": DIMENSION_BOUNDS_M["draft_m"],
}


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
    errors: list[FieldError] = []
    try:
        batch = parse_batch(document, ctx.clock.now())
    except BatchInvalid as invalid:
        batch, errors = None, list(invalid.errors)
    sizes = reported_sizes(document, batch.positions if batch else None, errors)
    if batch is None or errors:
        problems = [(e.pointer, e.detail, e.code) for e in errors[:MAX_ERRORS]]
        raise InvalidFields(
            f"{len(problems)} invalid value(s) in the batch; nothing was stored", problems
        )
    with ctx.writing() as session:
        ingestor = Ingestor(ctx.sessions, ctx.clock, settings)
        report = ingestor.ingest_in(session, batch.positions, batch.statics)
        store_statics(session, sizes)
    return report


def reported_sizes(
    document: Any, positions: list[PositionReport] | None, errors: list[FieldError]
) -> list[VesselStatic]:
    """The sizes the batch's items give, timed by their positions (``positions``: the batch's,
    one per item, None when it has errors); each bad size is added to ``errors``."""
    items = document.get("data") if isinstance(document, dict) else None
    if not isinstance(items, list) or len(items) > MAX_POSITIONS:
        return []
    sizes: list[VesselStatic] = []
    for index, item in enumerate(items):
        at = f"/data/{index}"
        if isinstance(item, dict) and ("attributes" in item or "type" in item):
            item, at = item.get("attributes"), f"{at}/attributes"
        if not isinstance(item, dict):
            continue  # the batch's own check names it
        given = {name: _metres(item, name, at, errors) for name in DIMENSIONS}
        if positions is None or all(value is None for value in given.values()):
            continue
        position = positions[index]
        sizes.append(
            VesselStatic(
                position.mmsi,
                position.time_s,
                POSITION_FEED,
                length_m=given["length_meters"],
                beam_m=given["beam_meters"],
                draught_m=given["draught_meters"],
            )
        )
    return sizes


def _metres(item: dict[str, Any], name: str, at: str, errors: list[FieldError]) -> float | None:
    """The item's size ``name`` in metres (None: not given); a bad one is added to ``errors``."""
    value = item.get(name)
    if value is None:
        return None
    most = DIMENSIONS[name]
    pointer = f"{at}/{name}"
    if not isinstance(value, int | float) or isinstance(value, bool):
        errors.append(FieldError(pointer, "must be a number of metres or null"))
        return None
    # compared, not converted: NaN and infinities fail the comparison, and an integer too large
    # for a float is refused instead of raising
    if not 0 < value <= most:
        errors.append(FieldError(pointer, f"must be above 0 and at most {most:g} m, got {value!r}"))
        return None
    return float(value)
