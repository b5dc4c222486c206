"""NMEA 0183 ``!AIVDM``/``!AIVDO`` lines to typed reports, with pyais doing the bit decoding.

Each line's checksum is checked, multi-sentence messages reassembled, and only the message types
sealane uses are decoded: positions (1, 2, 3, 18, 19, 27) and static data (5, 19, 24). The
common position reports (1, 2, 3, 18) are read by :mod:`.positionbits`, from the line itself
when it is a plain one-sentence report, else from pyais's bit vector; every other line is parsed
and decoded by pyais. Anything malformed is counted under a :class:`~.reports.Drop` reason,
never raised.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pyais.messages import AISSentence, NMEASentenceFactory

from ...tracking.numbers import imo_check_digit
from .framing import RunningXor, read_tag_block, sentence_xor
from .positionbits import ARMOUR, read_position, single_position
from .positionbits import KINDS as POSITION_KINDS
from .reports import Blank, Drop, PositionReport, StaticReport, eta_time_s

#: Message types decoded, with the fewest payload bits each needs to be whole.
MIN_BITS = {1: 168, 2: 168, 3: 168, 18: 168, 19: 312, 27: 96, 5: 420, 24: 160}
CLASS_A = frozenset({1, 2, 3})
#: Incomplete multi-sentence groups kept waiting for their other parts, at most.
MAX_PENDING_GROUPS = 256

_produce = NMEASentenceFactory.produce


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

    ``shift_s`` is added to every tag-block time (a replay moved to the present). A position
    report's own UTC second refines the receiver's time of its line, on the receiver's clock
    (before the shift): a tag-block time always, the time a line without one was given only
    when ``received_live`` (it came off the air just now). A replay times such lines as it
    reads them, minutes or years after their second was broadcast, so that time is kept as is.
    """

    def __init__(self, shift_s: float = 0.0, *, received_live: bool = True) -> None:
        self.shift_s = shift_s
        self.received_live = received_live
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
        live = self.received_live
        running = RunningXor([line for line, _received_s, _start in lines])
        offset = 0
        for line, received_s, start in lines:
            time_s, head, seen_s, refine = received_s, 0, None, live
            if line[:1] == b"\\":
                head, stamp = read_tag_block(line, offset, running)
                if stamp is not None:
                    time_s, seen_s, refine = stamp + shift, stamp, True
            expected = sentence_xor(line, head, offset, running)
            offset += len(line)
            body = line[head:] if head else line
            single = single_position(body, expected)
            if single is not None:
                report = position_of(single[1], single[0], time_s, out, seen_s, refine)
                if report is not None:
                    out.positions.append(report)
                continue
            try:
                sentence = _produce(body)
            except Exception:  # pyais raises several types for junk; all of them mean malformed
                drops[Drop.MALFORMED] += 1
                continue
            if not isinstance(sentence, AISSentence):
                drops[Drop.MALFORMED] += 1
                continue
            if expected is not None:  # pyais's own check is a Python loop over the bytes
                sentence.is_valid = sentence.checksum == expected
            if not sentence.is_valid:
                drops[Drop.BAD_CHECKSUM] += 1
                continue
            if sentence.frag_cnt > 1:
                whole = self._assemble(sentence, start, drops)
                if whole is None:
                    continue
                sentence = whole
            message(sentence, time_s, out, seen_s, refine)
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

    def _message(
        self, sentence: AISSentence, time_s: float, out: Decoded, seen_s: float | None, refine: bool
    ) -> None:
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
            message: Any = (
                read_position(sentence.bv, kind) if kind in POSITION_KINDS else sentence.decode()
            )
        except Exception:  # a payload pyais cannot read is malformed, whatever it raised
            out.drops[Drop.MALFORMED] += 1
            return
        if kind == 5 or kind == 24 or kind == 19:
            mmsi = message.mmsi
            if not 100_000_000 <= mmsi <= 999_999_999:
                out.drops[Drop.BAD_MMSI] += 1
                return
            if kind == 5:
                out.statics.append(_static5(message, mmsi, time_s))
                return
            if kind == 24:
                out.statics.append(_static24(message, mmsi, time_s))
                return
            out.statics.append(_static19(message, mmsi, time_s))
        report = position_of(message, kind, time_s, out, seen_s, refine)
        if report is not None:
            out.positions.append(report)


def position_of(
    message: Any,
    kind: int,
    time_s: float,
    out: Decoded,
    seen_s: float | None = None,
    refine: bool = True,
) -> PositionReport | None:
    """The position of a type 1, 2, 3, 18, 19 or 27 message, or None (counted) if unusable.

    ``time_s`` is the line's time; ``seen_s`` the same moment on the receiver's clock (None:
    ``time_s`` itself), which the report's UTC second refines unless ``refine`` is False (the
    line has no receiver time).
    """
    mmsi = message.mmsi
    if not 100_000_000 <= mmsi <= 999_999_999:
        out.drops[Drop.BAD_MMSI] += 1
        return None
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
        if second < 60 and refine:  # the report's own UTC second refines the receiver's time
            seen = time_s if seen_s is None else seen_s
            fix_s = seen - seen % 60 + second
            time_s += (fix_s - 60 if fix_s > seen + 2 else fix_s) - seen
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
        name=ais_text(message.shipname),
        callsign=ais_text(message.callsign),
        destination=ais_text(message.destination),
        ship_type=int(message.ship_type),
        to_bow_m=message.to_bow,
        to_stern_m=message.to_stern,
        to_port_m=message.to_port,
        to_starboard_m=message.to_starboard,
        draught_m=float(message.draught),
        eta_s=eta_time_s(message.month, message.day, message.hour, message.minute, time_s),
    )


def _static19(message: Any, mmsi: int, time_s: float) -> StaticReport:
    """The static half of a type 19 (extended class B position report)."""
    return StaticReport(
        mmsi,
        time_s,
        name=ais_text(message.shipname),
        ship_type=int(message.ship_type),
        to_bow_m=message.to_bow,
        to_stern_m=message.to_stern,
        to_port_m=message.to_port,
        to_starboard_m=message.to_starboard,
    )


def _static24(message: Any, mmsi: int, time_s: float) -> StaticReport:
    """Part A of a type 24 names the vessel; part B gives its type, call sign and dimensions."""
    if message.partno == 0:
        return StaticReport(mmsi, time_s, name=ais_text(message.shipname))
    return StaticReport(
        mmsi,
        time_s,
        callsign=ais_text(getattr(message, "callsign", None)),
        ship_type=int(message.ship_type),
        to_bow_m=getattr(message, "to_bow", None),
        to_stern_m=getattr(message, "to_stern", None),
        to_port_m=getattr(message, "to_port", None),
        to_starboard_m=getattr(message, "to_starboard", None),
    )


def valid_imo(value: int | None) -> str | None:
    """A 7-digit IMO number with a valid check digit, else None (many transponders send junk)."""
    if value is None or not 1_000_000 <= value <= 9_999_999:
        return None
    text = str(value)
    return text if imo_check_digit(text[:6]) == int(text[6]) else None


def ais_text(value: str | None) -> str | None:
    """AIS 6-bit text without its '@' padding and spaces; None when empty."""
    if not value:
        return None
    cleaned = value.replace("@", " ").strip()
    return cleaned or None
