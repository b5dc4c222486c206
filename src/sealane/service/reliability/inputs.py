"""What a reliability question is asked about: a carrier, a lane, a window, a tolerance, checked
once into a parameter object that every shell builds the same way."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from ..core.errors import InvalidInput
from ..reference.ports import known_port

#: The on-time tolerance when none is asked for: arrival within a day of the first ETA.
DEFAULT_TOLERANCE = timedelta(days=1)
MAX_TOLERANCE = timedelta(days=30)
_SCAC = re.compile(r"[A-Za-z0-9]{2,4}")
_LOCODE = re.compile(r"[A-Za-z]{2}[A-Za-z0-9]{3}")


@dataclass(frozen=True, slots=True)
class Window:
    """Arrivals (or discharges, or port calls) from ``since`` (inclusive) to ``until``
    (exclusive); None leaves that end open."""

    since: datetime | None = None
    until: datetime | None = None

    def __post_init__(self) -> None:
        if self.since is not None and self.until is not None and self.until <= self.since:
            raise InvalidInput("until must be later than since", field="until")


@dataclass(frozen=True, slots=True)
class LaneQuery:
    """Which lanes to measure: a carrier (SCAC), ports of lading and discharge (UN/LOCODEs),
    each None for all, the window of arrival and the on-time tolerance."""

    carrier: str | None = None
    port_of_lading: str | None = None
    port_of_discharge: str | None = None
    window: Window = Window()
    tolerance: timedelta = DEFAULT_TOLERANCE

    @classmethod
    def of(
        cls,
        *,
        carrier: str | None = None,
        port_of_lading: str | None = None,
        port_of_discharge: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        tolerance_days: float | None = None,
    ) -> LaneQuery:
        """Checked from a shell's parsed values (blank text is absent); a bad value is
        :class:`InvalidInput` naming it."""
        tolerance = DEFAULT_TOLERANCE if tolerance_days is None else _tolerance(tolerance_days)
        return cls(
            carrier=scac(carrier, "carrier"),
            port_of_lading=locode(port_of_lading, "port_of_lading"),
            port_of_discharge=locode(port_of_discharge, "port_of_discharge"),
            window=Window(since, until),
            tolerance=tolerance,
        )


def scac(value: str | None, field: str) -> str | None:
    """A carrier's SCAC, upper case (None for blank)."""
    if value is None or not value.strip():
        return None
    if not _SCAC.fullmatch(value.strip()):
        raise InvalidInput(f"{field} must be a SCAC (2 to 4 letters or digits)", field=field)
    return value.strip().upper()


def locode(value: str | None, field: str) -> str | None:
    """A port's UN/LOCODE (a port id is read as its port's), upper case; a code the engine does
    not know is taken as written when it has a LOCODE's shape (carriers name such places)."""
    if value is None or not value.strip():
        return None
    port = known_port(value.strip())
    if port is not None:
        return port.locode
    if not _LOCODE.fullmatch(value.strip()):
        raise InvalidInput(
            f"{field} must be a UN/LOCODE or a port id", field=field, code="unknown_port"
        )
    return value.strip().upper()


def _tolerance(days: float) -> timedelta:
    if not 0 <= days <= MAX_TOLERANCE.days:
        raise InvalidInput(
            f"the on-time tolerance must be 0 to {MAX_TOLERANCE.days} days", field="tolerance_days"
        )
    return timedelta(days=days)
