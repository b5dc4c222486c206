"""Class A and B position reports (types 1, 2, 3 and 18) read from pyais's bit vector.

pyais parses the sentence, checks it and de-armours the payload into a bit vector; building its
full message object (twenty fields and their enums) then costs more than everything else sealane
does with a report, and ingest needs eight fields. They are read here from that vector at the
offsets of ITU-R M.1371-5 (tables 45 and 46) and scaled exactly as pyais scales them, which a
test checks against pyais's own decoding. Other types go through pyais's ``decode()``.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

#: The types read here.
KINDS = frozenset({1, 2, 3, 18})


class BitVector(Protocol):
    """What is used of pyais's bit vectors."""

    def get_num(self, start: int, width: int, signed: bool = False) -> int: ...


class PositionFields(NamedTuple):
    """The fields of a position report, named and scaled as pyais names and scales them:
    degrees, knots, degrees; ``status`` is 15 (not defined) for class B."""

    mmsi: int
    status: int
    speed: float
    lon: float
    lat: float
    course: float
    heading: int
    second: int


#: The bits read: every field of both classes ends before bit 144.
_WIDTH = 144
#: Right shifts of (speed, longitude, latitude, course, heading, second) in the first 144 bits,
#: from their offsets (50, 61, 89, 116, 128, 137 in class A; 46, 57, 85, 112, 124, 133 in B).
_CLASS_A = (144 - 60, 144 - 89, 144 - 116, 144 - 128, 144 - 137, 144 - 143)
_CLASS_B = (144 - 56, 144 - 85, 144 - 112, 144 - 124, 144 - 133, 144 - 139)


def _degrees(raw: int, width: int) -> float:
    """A two's-complement ``width``-bit count of 1/10000 minute as degrees, rounded to 6
    decimals in integer arithmetic (as pyais does: ``round(raw / 600000, 6)``, without the
    decimal round trip)."""
    if raw >> (width - 1):
        raw -= 1 << width
    return ((10 * raw + 3) // 6) / 1e6


def read_position(bits: BitVector, kind: int) -> PositionFields:
    """The position fields of a type 1, 2, 3 or 18 report (``kind``) from its bit vector.

    One read of the first 144 bits, then shifts and masks, as the field table lays them out.
    """
    value = bits.get_num(0, _WIDTH)
    speed, lon, lat, course, heading, second = _CLASS_B if kind == 18 else _CLASS_A
    return PositionFields(
        (value >> 106) & 0x3FFFFFFF,
        15 if kind == 18 else (value >> 102) & 0xF,
        ((value >> speed) & 0x3FF) / 10.0,
        _degrees((value >> lon) & 0xFFFFFFF, 28),
        _degrees((value >> lat) & 0x7FFFFFF, 27),
        ((value >> course) & 0xFFF) / 10.0,
        (value >> heading) & 0x1FF,
        (value >> second) & 0x3F,
    )
