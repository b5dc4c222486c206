"""A vessel's dimensions, in metres: what decides which passages a route may use.

Each dimension is optional (``None``: not known, so no passage is closed for it). A given one
must be a finite number of metres above zero and no larger than its bound, set a little above
the largest ships built: Seawise Giant (458 m long, 24.6 m draft), the Prelude FLNG facility
(488 m long, 74 m beam) and the Oasis-class cruise ships (about 72 m air draft). Anything beyond
is a typo or a unit mix-up (feet, decimetres), not a ship, and raises
:class:`~sealane.routing.errors.InvalidVesselError` naming the parameter.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, fields

from .errors import InvalidVesselError

#: Largest accepted value of each dimension, metres (see the module docstring).
MAX_DRAFT_M = 30.0
MAX_BEAM_M = 80.0
MAX_LENGTH_M = 500.0
MAX_AIR_DRAFT_M = 100.0

#: Each dimension's bound, by field name.
BOUNDS_M: dict[str, float] = {
    "draft_m": MAX_DRAFT_M,
    "beam_m": MAX_BEAM_M,
    "length_m": MAX_LENGTH_M,
    "air_draft_m": MAX_AIR_DRAFT_M,
}


@dataclass(frozen=True, slots=True)
class Vessel:
    """A vessel's known dimensions in metres (``None`` where unknown), checked on creation.

    >>> Vessel(draft_m=14.5, beam_m=51)
    Vessel(draft_m=14.5, beam_m=51.0, length_m=None, air_draft_m=None)
    >>> Vessel(draft_m=-3)
    Traceback (most recent call last):
    ...
    sealane.routing.errors.InvalidVesselError: draft_m must be above 0 m, got -3
    """

    #: Deepest point below the waterline (the AIS "draught").
    draft_m: float | None = None
    #: Greatest width.
    beam_m: float | None = None
    #: Length overall.
    length_m: float | None = None
    #: Highest point above the waterline (masts, funnels, containers stacked on deck).
    air_draft_m: float | None = None

    def __post_init__(self) -> None:
        for name, bound in BOUNDS_M.items():
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, _metres(name, value, bound))

    @property
    def known(self) -> bool:
        """Whether any dimension is given."""
        return any(getattr(self, f.name) is not None for f in fields(self))


#: The vessel of a route given no dimensions: nothing known, nothing closed for its size.
UNKNOWN = Vessel()


def as_vessel(
    vessel: Vessel | None = None,
    draft_m: float | None = None,
    beam_m: float | None = None,
    length_m: float | None = None,
    air_draft_m: float | None = None,
) -> Vessel:
    """The one :class:`Vessel` of a call: ``vessel`` as given, or made once from the keyword
    dimensions that ``route``, ``future_positions`` and ``itinerary`` take as a shorthand
    (:data:`UNKNOWN` when neither is given). Both at once is an
    :class:`~sealane.routing.errors.InvalidVesselError`.

    >>> as_vessel(draft_m=12.5) == as_vessel(Vessel(draft_m=12.5))
    True
    """
    loose = (draft_m, beam_m, length_m, air_draft_m)
    if vessel is None:
        return UNKNOWN if all(value is None for value in loose) else Vessel(*loose)
    if not isinstance(vessel, Vessel):
        raise InvalidVesselError(f"vessel must be a Vessel, got {vessel!r}", parameter="vessel")
    if any(value is not None for value in loose):
        raise InvalidVesselError(
            "give the vessel's dimensions once: vessel= or draft_m=..., not both",
            parameter="vessel",
        )
    return vessel


def _metres(name: str, value: object, bound: float) -> float:
    """``value`` as a float of metres, or :class:`InvalidVesselError` naming ``name``."""
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise InvalidVesselError(
            f"{name} must be a number of metres, got {value!r}", parameter=name
        )
    metres = float(value)
    if not math.isfinite(metres):
        raise InvalidVesselError(f"{name} must be finite, got {value!r}", parameter=name)
    if metres <= 0.0:
        raise InvalidVesselError(f"{name} must be above 0 m, got {value!r}", parameter=name)
    if metres > bound:
        raise InvalidVesselError(
            f"{name} {metres:g} m is more than any ship's ({bound:g} m at most)", parameter=name
        )
    return metres
