"""The simulated carrier's shipping lines: five made-up carriers with habits of their own.

Numbers of the test carrier ``TEST`` sail as planned. A number that begins with one of these
lines' SCACs (``TSTA0001234``) is that line's, and its voyage varies as the line runs: how late
it arrives against the carrier's first ETA (a mean and a spread, plus the congestion of the port
of discharge), how often cargo is rolled to the next sailing, how often it is transshipped. The
lines serve a few lanes each, so their reliability figures have samples to speak of; the same
number always gives the same voyage, so tests check the figures against these habits.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta


@dataclass(frozen=True, slots=True)
class LineHabits:
    """How a simulated line runs: mean and spread of its lateness against its first ETA (hours),
    and the chance a shipment is rolled to the next sailing or transshipped."""

    scac: str
    name: str
    late_mean_h: float
    late_sd_h: float
    roll_chance: float
    transship_chance: float


#: The lines, most punctual first (their rows are in ``data/shipping_lines.csv``).
LINES = (
    LineHabits("TSTA", "Sealane Test Atlas Line", 4.0, 14.0, 0.03, 0.15),
    LineHabits("TSTB", "Sealane Test Boreal Line", 10.0, 20.0, 0.05, 0.25),
    LineHabits("TSTC", "Sealane Test Cormorant Line", 22.0, 32.0, 0.09, 0.35),
    LineHabits("TSTD", "Sealane Test Dorado Line", 30.0, 40.0, 0.12, 0.45),
    LineHabits("TSTE", "Sealane Test Egret Line", 45.0, 55.0, 0.15, 0.30),
)
#: The lanes the lines serve, each with the mean extra delay (hours) its port of discharge's
#: congestion adds.
LANES = (
    ("CNSHA", "NLRTM", 6.0),
    ("CNSHA", "DEHAM", 10.0),
    ("CNNGB", "USLAX", 30.0),
    ("KRPUS", "USLGB", 24.0),
    ("CNYTN", "USNYC", 18.0),
)
#: How much later the next sailing leaves when cargo is rolled.
ROLL = timedelta(days=7)
#: How long before the missed sailing's departure the carrier says the cargo is rolled.
ROLL_NOTICE = timedelta(days=1)
#: The fastest a line makes up time: its legs take at least this share of their nominal hours.
FASTEST = 0.85

_BY_SCAC = {line.scac: line for line in LINES}


def line_of(number: str) -> LineHabits | None:
    """The line whose SCAC begins ``number`` (None: the test carrier's own number).

    >>> line_of("TSTE0000042").name, line_of("TEST-TR-SUCCEEDED")
    ('Sealane Test Egret Line', None)
    """
    return _BY_SCAC.get(number[:4].upper())
