"""NMEA 0183 ``!AIVDM``/``!AIVDO`` lines to typed reports, with pyais doing the bit decoding.

Each line is parsed by pyais, its checksum checked, multi-sentence messages reassembled, and
only the message types sealane uses are decoded: positions (1, 2, 3, 18, 19, 27) and static data
(5, 19, 24). Anything malformed is counted under a :class:`~.reports.Drop` reason, never raised.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import reduce
from operator import xor
from typing import Any

from pyais.messages import AISSentence, NMEASentenceFactory

from ...tracking.numbers import imo_check_digit
from .reports import Blank, Drop, PositionReport, StaticReport

#: Message types decoded, with the fewest payload bits each needs to be whole.
MIN_BITS = {1: 168, 2: 168, 3: 168, 18: 168, 19: 312, 27: 96, 5: 420, 24: 160}
CLASS_A = frozenset({1, 2, 3})
#: Incomplete multi-sentence groups kept waiting for their other parts, at most.
MAX_PENDING_GROUPS = 256

_produce = NMEASentenceFactory.produce
#: The payload's 6-bit armour uses ASCII 48-87 and 96-119 only.
ARMOUR = bytes([*range(48, 88), *range(96, 120)])


@dataclass
class Decoded:
    """The reports decoded from some lines, and counts of what was dropped or blanked."""

    positions: list[PositionReport] = field(default_factory=list)
    statics: list[StaticReport] = field(default_factory=list)
    drops: Counter[str] = field(default_factory=Counter)
    blanks: Counter[str] = field(default_factory=Counter)
    #: Sentences read, and messages of types sealane does not use (base stations, ...).
    sentences: int = 0
    ignored: int = 0


class SentenceDecoder:
    """Decodes lines in order; keeps unfinished multi-sentence messages between calls.

    ``shift_s`` is added to every time (a replay moved to the present).
    """

    def __init__(self, shift_s: float = 0.0) -> None:
        self.shift_s = shift_s
        self._pending: dict[tuple[Any, ...], dict[int, AISSentence]] = {}
        self._starts: dict[tuple[Any, ...], int] = {}

    def pending_start(self) -> int | None:
        """The smallest ``start`` of a line whose message still waits for parts (None: none)."""
        return min(self._starts.values(), default=None)

    def decode(self, lines: Sequence[tuple[bytes, float, int]]) -> Decoded:
        """Decode ``(line, received_at_s, start)`` triples.

        ``received_at_s`` (UNIX seconds, UTC) times a line without a tag block; ``start`` is an
        opaque position of the line in its source (a byte offset), see :meth:`pending_start`.
        """
        out = Decoded(sentences=len(lines))
        drops, shift, message = out.drops, self.shift_s, self._message
        for line, received_s, start in lines:
            time_s = received_s
            if line[:1] == b"\\":
                line, stamp = split_tag_block(line)
                if stamp is not None:
                    time_s = stamp + shift
            try:
                sentence = _produce(line)
            except Exception:  # pyais raises several types for junk; all of them mean malformed
                drops[Drop.MALFORMED] += 1
                continue
            if not isinstance(sentence, AISSentence):
                drops[Drop.MALFORMED] += 1
                continue
            if not sentence.is_valid:
                drops[Drop.BAD_CHECKSUM] += 1
                continue
            if sentence.frag_cnt > 1:
                whole = self._assemble(sentence, start, drops)
                if whole is None:
                    continue
                sentence = whole
            message(sentence, time_s, out)
        return out

    def _assemble(self, part: AISSentence, start: int, drops: Counter[str]) -> AISSentence | None:
        """Add one part of a multi-sentence message; the whole message once every part is in."""
        key = (part.seq_id, part.channel, part.frag_cnt, part.talker_id)
        group = self._pending.get(key)
        if group is not None and part.frag_num == 1 and 1 in group:
            drops[Drop.FRAGMENT_MISSING] += 1  # a new message began before the last one ended
            group = None
        if group is None:
            if len(self._pending) >= MAX_PENDING_GROUPS:
                oldest = next(iter(self._pending))
                del self._pending[oldest], self._starts[oldest]
                drops[Drop.FRAGMENT_MISSING] += 1
            group = self._pending[key] = {}
            self._starts[key] = start
        group[part.frag_num] = part
        if len(group) < part.frag_cnt:
            return None
        del self._pending[key], self._starts[key]
        return AISSentence.assemble_from_iterable([group[n] for n in sorted(group)])

    def _message(self, sentence: AISSentence, time_s: float, out: Decoded) -> None:
        kind = sentence.ais_id
        needed = MIN_BITS.get(kind)
        if needed is None:
            out.ignored += 1
            return
        payload = sentence.payload
        if payload.translate(None, ARMOUR):
            out.drops[Drop.MALFORMED] += 1
            return
        if len(payload) * 6 - sentence.fill_bits < needed:
            out.drops[Drop.TRUNCATED] += 1
            return
        try:
            message: Any = sentence.decode()
        except Exception:  # a payload pyais cannot read is malformed, whatever it raised
            out.drops[Drop.MALFORMED] += 1
            return
        mmsi = message.mmsi
        if not 100_000_000 <= mmsi <= 999_999_999:
            out.drops[Drop.BAD_MMSI] += 1
            return
        if kind == 5:
            out.statics.append(_static5(message, mmsi, time_s))
        elif kind == 24:
            out.statics.append(_static24(message, mmsi, time_s))
        else:
            if kind == 19:
                out.statics.append(StaticReport(mmsi, time_s, name=_text(message.shipname)))
            report = _position(message, kind, mmsi, time_s, out)
            if report is not None:
                out.positions.append(report)


def _position(
    message: Any, kind: int, mmsi: int, time_s: float, out: Decoded
) -> PositionReport | None:
    """The position of a type 1, 2, 3, 18, 19 or 27 message, or None (counted) if unusable."""
    lon, lat = message.lon, message.lat
    if lon == 181.0 or lat == 91.0:
        out.drops[Drop.POSITION_UNAVAILABLE] += 1
        return None
    if not (-90.0 <= lat <= 90.0 and -180.0 <= lon <= 180.0):
        out.drops[Drop.POSITION_OUT_OF_RANGE] += 1
        return None
    if lon == 180.0:
        lon = -180.0
    speed, course = message.speed, message.course
    heading: int | None
    status: int | None
    if kind == 27:  # whole knots and degrees; 63 kn and 511 degrees mean "not available"
        speed_unavailable, heading, status = speed >= 63, None, int(message.status)
        course_unavailable = course >= 360
    else:
        speed_unavailable = speed >= 102.3
        course_unavailable = course >= 360.0
        heading = message.heading
        if heading >= 360:
            out.blanks[Blank.HEADING] += 1
            heading = None
        status = int(message.status) if kind in CLASS_A else None
        second = message.second
        if second < 60:  # the report's own UTC second refines the receiver's time
            fix_s = time_s - time_s % 60 + second
            time_s = fix_s - 60 if fix_s > time_s + 2 else fix_s
    if speed_unavailable:
        out.blanks[Blank.SPEED] += 1
        speed = None
    if course_unavailable:
        out.blanks[Blank.COURSE] += 1
        course = None
    return PositionReport(mmsi, time_s, lon, lat, speed, course, heading, status)


def _static5(message: Any, mmsi: int, time_s: float) -> StaticReport:
    return StaticReport(
        mmsi,
        time_s,
        imo=valid_imo(message.imo),
        name=_text(message.shipname),
        callsign=_text(message.callsign),
        destination=_text(message.destination),
    )


def _static24(message: Any, mmsi: int, time_s: float) -> StaticReport:
    if message.partno == 0:
        return StaticReport(mmsi, time_s, name=_text(message.shipname))
    return StaticReport(mmsi, time_s, callsign=_text(getattr(message, "callsign", None)))


def valid_imo(value: int | None) -> str | None:
    """A 7-digit IMO number with a valid check digit, else None (many transponders send junk)."""
    if value is None or not 1_000_000 <= value <= 9_999_999:
        return None
    text = str(value)
    return text if imo_check_digit(text[:6]) == int(text[6]) else None


def _text(value: str | None) -> str | None:
    """AIS 6-bit text without its '@' padding and spaces; None when empty."""
    if not value:
        return None
    cleaned = value.replace("@", " ").strip()
    return cleaned or None


def split_tag_block(line: bytes) -> tuple[bytes, float | None]:
    """The sentence behind an NMEA 4 tag block, and the block's ``c:`` time in UNIX seconds.

    The time is None when the block has none or its checksum is wrong; ``c:`` in milliseconds
    (13 digits, some receivers) is read as such.

    >>> split_tag_block(rb"\\s:r1,c:1767225601*7A\\!AIVDM,...")
    (b'!AIVDM,...', 1767225601.0)
    """
    end = line.find(b"\\", 1)
    if end < 0:
        return b"", None
    rest = line[end + 1 :]
    star = line.rfind(b"*", 1, end)
    if star < 0:
        return rest, None
    body = line[1:star]
    try:
        if int(line[star + 1 : end], 16) != reduce(xor, body, 0):
            return rest, None
    except ValueError:
        return rest, None
    at = body.find(b"c:")
    if at < 0 or (at and body[at - 1] != 44):  # 44 is ','
        return rest, None
    stop = body.find(b",", at)
    digits = body[at + 2 : stop if stop >= 0 else len(body)]
    if not digits.isdigit():
        return rest, None
    value = int(digits)
    return rest, value / 1000.0 if value > 100_000_000_000 else float(value)
