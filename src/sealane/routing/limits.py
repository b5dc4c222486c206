"""Passage limits: the largest vessel each canal, strait and port approach takes, and which of
them a given vessel does not fit.

The figures live in ``data/passage_limits.csv`` (sources in ``data/README.md``), one row per way
through a passage: the Panama Canal has two, its Neopanamax and its older Panamax locks, and a
vessel fits a passage when it fits any of its rows. A row's empty cell is a dimension with no
known limit, and an unknown dimension of the vessel is never refused. The table is read on the
first route with dimensions, so a cold start without them never reads it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import NamedTuple

from .data import data_dir
from .passages import Passage
from .vessel import Vessel

#: How each dimension is named in a refusal.
DIMENSION_NAMES: dict[str, str] = {
    "draft_m": "draft",
    "beam_m": "beam",
    "length_m": "length",
    "air_draft_m": "air draft",
}


class Refusal(NamedTuple):
    """One dimension of a vessel beyond a passage's limit, in metres.

    >>> str(Refusal(Passage.ELBE, "Elbe", "draft_m", 30.0, 15.4))
    'draft 30 m exceeds the 15.4 m of the Elbe'
    """

    passage: Passage
    #: The row that refused it (``Elbe``, ``Panama Canal's Neopanamax locks``).
    where: str
    #: The :class:`~.vessel.Vessel` field (``draft_m``, ``beam_m``, ...).
    dimension: str
    vessel_m: float
    limit_m: float

    def __str__(self) -> str:
        return (
            f"{DIMENSION_NAMES[self.dimension]} {self.vessel_m:g} m exceeds "
            f"the {self.limit_m:g} m of the {self.where}"
        )


@dataclass(frozen=True, slots=True)
class PassageLimit:
    """The largest vessel one way through a passage takes, metres (``None``: no limit)."""

    passage: Passage
    name: str
    draft_m: float | None
    beam_m: float | None
    length_m: float | None
    air_draft_m: float | None
    source: str

    def refusals(self, vessel: Vessel) -> tuple[Refusal, ...]:
        """Each known dimension of ``vessel`` beyond this limit (empty: the vessel fits)."""
        found = []
        for dimension in DIMENSION_NAMES:
            limit, size = getattr(self, dimension), getattr(vessel, dimension)
            if limit is not None and size is not None and size > limit:
                found.append(Refusal(self.passage, self.name, dimension, size, limit))
        return tuple(found)


@cache
def passage_limits() -> tuple[PassageLimit, ...]:
    """Every row of the shipped limits table, in its order."""
    from .data.formats import PASSAGE_LIMITS  # on first use, off the cold start

    rows = PASSAGE_LIMITS.read(data_dir() / PASSAGE_LIMITS.name)
    return tuple(
        PassageLimit(
            passage=Passage(row["passage"]),
            name=row["name"],
            draft_m=_metres(row["draft_m"]),
            beam_m=_metres(row["beam_m"]),
            length_m=_metres(row["length_m"]),
            air_draft_m=_metres(row["air_draft_m"]),
            source=row["source"],
        )
        for row in rows
    )


@lru_cache(maxsize=256)
def refusals(vessel: Vessel) -> tuple[Refusal, ...]:
    """Why ``vessel`` is kept out of each passage it fits no way through, passage by passage in
    the table's order; for a passage of several ways, those of the way it misses least.

    >>> [str(r) for r in refusals(Vessel(beam_m=55.0)) if r.passage == Passage.PANAMA]
    ["beam 55 m exceeds the 51.25 m of the Panama Canal's Neopanamax locks"]
    """
    by_passage: dict[Passage, list[tuple[Refusal, ...]]] = {}
    for limit in passage_limits():
        by_passage.setdefault(limit.passage, []).append(limit.refusals(vessel))
    found: list[Refusal] = []
    for ways in by_passage.values():
        if all(ways):  # no way through fits
            found.extend(sorted(ways, key=len)[0])  # stable: the first of the fewest
    return tuple(found)


def closed_to(vessel: Vessel) -> frozenset[Passage]:
    """The passages ``vessel`` does not fit.

    >>> sorted(p.value for p in closed_to(Vessel(draft_m=16.0)))
    ['corinth', 'elbe', 'great_belt', 'kiel', 'oresund', 'panama', 'torres']
    """
    return frozenset(refusal.passage for refusal in refusals(vessel))


def _metres(cell: str) -> float | None:
    return float(cell) if cell.strip() else None
