"""The API's positions array written straight to JSON bytes, every record the same width: the
API shell's wire format of the engine's :class:`~sealane.Positions` columns.

The compiled renderer (``_positions_json.c``) writes it when it was built, else its numpy twin
:func:`_positions_json_numpy`, which documents the format and is the oracle the tests compare the
renderer with.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final, Protocol

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
TimeArray = npt.NDArray[np.datetime64]
SecondsArray = npt.NDArray[np.int64]


class Written(Protocol):
    """What is written of :class:`~sealane.Positions`: its columns and its whole seconds."""

    @property
    def lats(self) -> FloatArray: ...
    @property
    def lons(self) -> FloatArray: ...
    @property
    def headings_deg(self) -> FloatArray: ...
    def seconds(self) -> TimeArray: ...


#: One record of the API's position array, with the widths of its fields (``_`` marks a field).
_TEMPLATE = (
    b'{"latitude":___________,"longitude":___________,"heading":_______,'
    b'"timestamp":"____________________","estimated":true},'
)
_LAT, _LON, _HEADING, _TIME = (
    _TEMPLATE.index(key) + len(key)
    for key in (b'"latitude":', b'"longitude":', b'"heading":', b'"timestamp":"')
)


class Renderer(Protocol):
    """Signature shared by the compiled renderer and :func:`_positions_json_numpy`."""

    def __call__(
        self,
        lats: FloatArray,
        lons: FloatArray,
        headings: FloatArray,
        seconds: SecondsArray,
        head: bytes,
        tail: bytes,
        /,
    ) -> bytes: ...


class RowsRenderer(Protocol):
    """Signature shared by the compiled ``render_rows`` and :func:`_rows_json_numpy`."""

    def __call__(
        self,
        lats: FloatArray,
        lons: FloatArray,
        headings: FloatArray,
        seconds: SecondsArray,
        start: int,
        stop: int,
        head: bytes,
        tail: bytes,
        /,
    ) -> bytes: ...


def positions_json(positions: Written, *, head: bytes = b"", tail: bytes = b"") -> bytes:
    """Serialise positions as the API's JSON array, written between ``head`` and ``tail``.

    Every record has the same width: numbers are written with fixed decimals (latitude and
    longitude to 1e-6 degrees, about 0.1 m; heading to 0.01 degree) and padded on the left with
    spaces, which JSON allows before a value; timestamps are whole UTC seconds
    (:meth:`.positions.Positions.seconds`). ``head`` and
    ``tail`` splice the array into an enclosing document without another copy of it. Raises
    ``ValueError`` for a NaN coordinate or heading, or a year outside 0000-9999.
    """
    return PositionsJson(positions, head=head, tail=tail).whole()


class PositionsJson:
    """The bytes :func:`positions_json` writes, whole or in pieces of whole records.

    A server can send the first piece before the rest is written: ``b"".join(doc.pieces(...))``
    equals ``doc.whole()`` byte for byte. The columns are read once, here.

    >>> import numpy as np
    >>> from types import SimpleNamespace
    >>> track = SimpleNamespace(lats=np.array([1.0, 2.0]), lons=np.array([3.0, 4.0]),
    ...     headings_deg=np.array([90.0, 90.0]),
    ...     seconds=lambda: np.array([0, 60], dtype="datetime64[s]"))
    >>> doc = PositionsJson(track, head=b'{"p":', tail=b"}")
    >>> pieces = list(doc.pieces(first_bytes=1, piece_bytes=1))
    >>> len(pieces), b"".join(pieces) == doc.whole(), len(doc) == len(doc.whole())
    (2, True, True)
    """

    #: Bytes in every record (its comma included): records of one width repeat most of the one
    #: before them, which a deflater can use.
    record_width: Final = len(_TEMPLATE)

    def __init__(self, positions: Written, *, head: bytes = b"", tail: bytes = b"") -> None:
        self._seconds = positions.seconds().astype(np.int64)
        columns = (positions.lats, positions.lons, positions.headings_deg)
        self._lats, self._lons, self._headings = (
            np.ascontiguousarray(c, dtype=np.float64) for c in columns
        )
        self.head, self.tail = head, tail
        #: Positions (records) in the array.
        self.count = int(self._lats.size)

    def __len__(self) -> int:
        """Bytes of the whole document."""
        body = 1 + self.count * self.record_width if self.count else 2
        return len(self.head) + body + len(self.tail)

    def whole(self) -> bytes:
        """The document in one piece (:func:`positions_json`)."""
        columns = (self._lats, self._lons, self._headings, self._seconds)
        return _render_json(*columns, self.head, self.tail)

    def rows(self, start: int, stop: int) -> bytes:
        """Records ``start`` to ``stop - 1``: the piece from the first record opens with ``head``
        and ``[``, the piece to the last closes with ``]`` and ``tail``. Raises ``ValueError``
        for rows outside the array, and as :func:`positions_json` does."""
        if self.count == 0 and start == stop == 0:
            return self.whole()
        head = self.head + b"[" if start == 0 else b""
        tail = self.tail if stop == self.count else b""
        columns = (self._lats, self._lons, self._headings, self._seconds)
        return _render_rows(*columns, start, stop, head, tail)

    def pieces(self, *, first_bytes: int, piece_bytes: int) -> Iterator[bytes]:
        """The document in pieces of whole records, each written when asked for: about
        ``first_bytes`` of them first (with ``head``), then about ``piece_bytes`` each; at
        least one record a piece, and one piece for an empty array."""
        if self.count == 0:
            yield self.whole()
            return
        width = self.record_width
        stop = min(max(1, (first_bytes - len(self.head)) // width), self.count)
        yield self.rows(0, stop)
        step = max(1, piece_bytes // width)
        for start in range(stop, self.count, step):
            yield self.rows(start, min(start + step, self.count))


def _rows_json_numpy(
    lats: FloatArray,
    lons: FloatArray,
    headings: FloatArray,
    seconds: SecondsArray,
    start: int,
    stop: int,
    head: bytes,
    tail: bytes,
    /,
) -> bytes:
    """``head`` + records ``start`` to ``stop - 1`` of the array + ``tail``, without the array's
    ``[``; each record ends in ``,`` but the array's last, in ``]``: the twin of the compiled
    ``render_rows``, cut from what :func:`_positions_json_numpy` writes for those rows."""
    n = lats.size
    if not 0 <= start <= stop <= n:
        raise ValueError(f"rows {start}..{stop} outside 0..{n}")
    rows = slice(start, stop)
    array = _positions_json_numpy(lats[rows], lons[rows], headings[rows], seconds[rows], b"", b"")
    records = array[1:] if stop > start else b""
    if records and stop < n:
        records = records[:-1] + b","
    return head + records + tail


def _positions_json_numpy(
    lats: FloatArray,
    lons: FloatArray,
    headings: FloatArray,
    seconds: SecondsArray,
    head: bytes,
    tail: bytes,
    /,
) -> bytes:
    """``head + [records] + tail`` column-wise in numpy: the twin of the compiled renderer.

    Latitudes, longitudes and headings are in degrees, ``seconds`` are Unix seconds (UTC). The
    records are rows of one byte matrix that is a view into the output buffer, filled from a
    template and then one digit column at a time.
    """
    n = lats.size
    if not lons.size == headings.size == seconds.size == n:
        raise ValueError("columns differ in length")
    if n == 0:
        return head + b"[]" + tail
    width, start = len(_TEMPLATE), len(head) + 1
    end = start + n * width  # the last record's "," becomes "]"
    buffer = np.empty(end + len(tail), dtype=np.uint8)
    buffer[: start - 1] = np.frombuffer(head, dtype=np.uint8)
    buffer[start - 1] = ord("[")
    out = buffer[start:end].reshape(n, width)
    out[:] = np.frombuffer(_TEMPLATE, dtype=np.uint8)
    lons = np.round(lons, 6)
    lons[lons >= 180.0] -= 360.0  # keep [-180, 180) after rounding
    with np.errstate(invalid="ignore"):  # an infinite heading becomes NaN, rejected below
        headings = np.round(headings, 2) % 360.0
    for column, problem in (
        (lats, "latitude is NaN"),
        (lons, "longitude is NaN"),
        (headings, "heading is NaN or infinite"),
    ):
        if np.isnan(column).any():
            raise ValueError(f"row {np.flatnonzero(np.isnan(column))[0]}: {problem}")
    _write_fixed(out, _LAT, lats, 3, 6)
    _write_fixed(out, _LON, lons, 3, 6)
    _write_fixed(out, _HEADING, headings, 3, 2)
    _write_time(out, _TIME, seconds)
    buffer[end - 1] = ord("]")
    buffer[end:] = np.frombuffer(tail, dtype=np.uint8)
    return buffer.tobytes()


def _write_fixed(
    out: npt.NDArray[np.uint8], at: int, values: FloatArray, int_digits: int, decimals: int
) -> None:
    """Write ``values`` as right-aligned fixed-point text into columns ``at`` onwards.

    The field is ``1 + int_digits + 1 + decimals`` wide: a sign slot, the integer digits (leading
    zeros blanked), the point and the decimals. ``int_digits + decimals`` must be at most 9.
    """
    top = float(10 ** (int_digits + decimals) - 1)
    scaled = np.minimum(np.rint(np.abs(values) * 10**decimals), top).astype(np.uint32)
    point = at + 1 + int_digits
    ten = np.uint32(10)
    rest = scaled
    for column in range(point + decimals, point, -1):
        rest, digit = np.divmod(rest, ten)
        out[:, column] = digit + ord("0")
    out[:, point] = ord(".")
    whole = rest  # the integer part
    for column in range(point - 1, at, -1):
        rest, digit = np.divmod(rest, ten)
        out[:, column] = digit + ord("0")
    out[:, at] = ord(" ")
    shown = np.ones(values.size, dtype=np.int8)  # digits in the integer part
    for k in range(1, int_digits):
        shown += whole >= 10**k
    for k in range(1, int_digits):  # blank the leading zeros
        out[shown <= k, point - 1 - k] = ord(" ")
    negative = np.flatnonzero((values < 0) & (scaled > 0))
    out[negative, point - 1 - shown[negative]] = ord("-")


def _write_time(out: npt.NDArray[np.uint8], at: int, seconds: SecondsArray) -> None:
    """Write Unix ``seconds`` as ``YYYY-MM-DDTHH:MM:SSZ`` into the 20 columns from ``at``.

    Dates are worked out once per distinct day (a voyage spans a few dozen) by the
    proleptic-Gregorian era arithmetic of Hinnant's ``civil_from_days`` and spread to the rows.
    """
    days, second_of_day = np.divmod(seconds, 86_400)
    unique_days, row_day = np.unique(days, return_inverse=True)
    out[:, at : at + 10] = _civil_dates(unique_days)[row_day]
    rest = second_of_day.astype(np.uint32)
    ten = np.uint32(10)
    for column, base in ((at + 18, 60), (at + 15, 60), (at + 12, 24)):  # seconds, minutes, hours
        rest, value = np.divmod(rest, np.uint32(base))
        tens, ones = np.divmod(value, ten)
        out[:, column] = ones + ord("0")
        out[:, column - 1] = tens + ord("0")
    for offset, char in ((10, "T"), (13, ":"), (16, ":"), (19, "Z")):
        out[:, at + offset] = ord(char)


def _civil_dates(days: npt.NDArray[np.int64]) -> npt.NDArray[np.uint8]:
    """``YYYY-MM-DD`` of each day number (days since 1970-01-01), as rows of 10 bytes.

    Raises ``ValueError`` for a year outside 0000-9999, which four digits cannot show.
    """
    z = days + 719_468
    era = z // 146_097
    doe = z - era * 146_097
    yoe = (doe - doe // 1460 + doe // 36_524 - doe // 146_096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = np.where(mp < 10, mp + 3, mp - 9)
    year = yoe + era * 400 + (month <= 2)
    if year.size and (year.min() < 0 or year.max() > 9999):
        raise ValueError("timestamp's year is outside 0000-9999")
    text = np.empty((days.size, 10), dtype=np.uint8)
    for offset, value, width in ((0, year, 4), (5, month, 2), (8, day, 2)):
        for d in range(width):
            text[:, offset + width - 1 - d] = ord("0") + (value // 10**d) % 10
    text[:, 4] = text[:, 7] = ord("-")
    return text


def _fixed(values: FloatArray, int_digits: int, decimals: int) -> npt.NDArray[np.uint8]:
    """``values`` as fixed-point text rows (what :func:`_write_fixed` writes), for tests.

    >>> bytes(_fixed(np.array([-4.25]), 3, 2)[0])
    b'  -4.25'
    """
    out = np.zeros((values.size, 2 + int_digits + decimals), dtype=np.uint8)
    _write_fixed(out, 0, values, int_digits, decimals)
    return out


def _iso_seconds(times: TimeArray) -> npt.NDArray[np.uint8]:
    """``times`` as ``YYYY-MM-DDTHH:MM:SSZ`` rows (what :func:`_write_time` writes), for tests."""
    out = np.zeros((times.size, 20), dtype=np.uint8)
    _write_time(out, 0, times.astype("datetime64[s]").astype(np.int64))
    return out


def _compiled() -> tuple[Renderer, RowsRenderer]:
    try:
        from sealane.api import _positions_json as _render
    except ImportError:  # pragma: no cover - exercised only where no compiler was available
        return _positions_json_numpy, _rows_json_numpy
    renderer: Renderer = _render.render
    rows: RowsRenderer = _render.render_rows
    return renderer, rows


_render_json, _render_rows = _compiled()
