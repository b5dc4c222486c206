"""Class A and B position reports (types 1, 2, 3 and 18) read straight from their bits.

Building pyais's sentence and message objects (a bit vector, twenty fields and their enums)
costs more than everything else sealane does with a report, and ingest needs eight fields. They
are read here at the offsets of ITU-R M.1371-5 (tables 45 and 46) and scaled exactly as pyais
scales them, which a test checks against pyais's own decoding: from pyais's bit vector, or, for
the common one-sentence ``!AIVDM``/``!AIVDO`` line, from the payload itself
(:func:`single_position`), with no pyais object at all. Other types go through pyais.
"""

from __future__ import annotations

import re
from binascii import a2b_base64
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
    """The position fields of a type 1, 2, 3 or 18 report (``kind``) from its bit vector."""
    return position_fields(bits.get_num(0, _WIDTH), kind)


#: The payload's 6-bit armour: ASCII 48-87 and 96-119 carry the values 0-63.
ARMOUR = bytes([*range(48, 88), *range(96, 120)])
#: The armour mapped onto base64's alphabet, so that ``binascii`` packs the six bits of each
#: character in C.
_TO_BASE64 = bytes.maketrans(
    ARMOUR,
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
)
#: A payload's first character for each type read here (0-63 armoured: 1 is '1', 18 is 'B').
_FIRST = {b"1": 1, b"2": 2, b"3": 3, b"B": 18}
#: Payload characters needed for the 168 bits of a whole report, read (144 bits), and the most
#: pyais accepts in a sentence (a longer one is malformed).
_WHOLE_CHARS, _READ_CHARS, _MAX_CHARS = 28, _WIDTH // 6, 200


#: A plain one-sentence ``!AIVDM``/``!AIVDO`` position report, whole: fragment count and
#: number 1, a sequence id of digits or none, an ASCII channel, a payload of 28-200 armoured
#: characters starting with a type read here, the fill bits 0-5 and a two-digit checksum.
_SINGLE = re.compile(
    rb"!AIVD[MO],1,1,[0-9]*,[\x00-\x2b\x2d-\x7f]*,([123B][0-W`-w]{%d,%d}),([0-5])\*([0-9A-Fa-f]{2})"
    % (_WHOLE_CHARS - 1, _MAX_CHARS - 1)
)


def single_position(sentence: bytes, checksum: int | None) -> tuple[int, PositionFields] | None:
    """``(kind, fields)`` of a one-sentence ``!AIVDM``/``!AIVDO`` position report whose
    checksum is ``checksum`` (the XOR taken of its bytes), read without pyais; None for any
    other line, which then goes through pyais's checks and their drop reasons unchanged.

    The line is checked by one regular expression (one call into C, where splitting it and
    testing each field took a dozen Python steps) and whole bits: 168 plus the fill bits.
    """
    found = _SINGLE.fullmatch(sentence) if checksum is not None else None
    if found is None:
        return None
    payload, fill, given = found.groups()
    if _WHOLE_CHARS * 6 + fill[0] - 48 > len(payload) * 6 or int(given, 16) != checksum:
        return None
    kind = _FIRST[payload[:1]]
    packed = a2b_base64(payload[:_READ_CHARS].translate(_TO_BASE64))
    return kind, position_fields(int.from_bytes(packed, "big"), kind)


def position_fields(value: int, kind: int) -> PositionFields:
    """The fields of a type 1, 2, 3 or 18 report (``kind``) from its first 144 bits as an
    integer (the first bit highest): shifts and masks, as the field table lays them out."""
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
