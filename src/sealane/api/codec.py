"""The deflate library behind every gzip answer: ISA-L when it is installed, else zlib.

ISA-L (``isal``, in the ``service`` extra) writes the same format as zlib, several times faster:
measured on the 1.95 MB future-positions document in the answer's pieces, ISA-L level 1 took
1.5 ms for 11.4 % of the size where zlib level 1 took 6.2 ms for 12.9 % and zlib-ng's fastest
2.6 ms for 16.6 % (benchmarks/README.md, Table 5); the client's inflate (stdlib zlib) takes the
same time whichever made the stream. An install without ISA-L answers the same bytes through
the standard library's zlib, at a higher cost in CPU. Everything that deflates for the API
(:mod:`.compression`, :mod:`.offloaded`) goes through :data:`CODEC`.

Levels are ISA-L's, 0 (fastest) to 3; zlib is given the level of about the same ratio.

A document of fixed-width records (the future positions) has a deflater of its own,
:func:`records_piece` (``_records.c``): each record repeats most of the one before it, so a
match searched for at that one distance, written with deflate's fixed codes, costs the server
less than a general deflate and the client's inflate less too, for a stream about a quarter
larger (figures in benchmarks/README.md, Table 5).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Protocol, cast

#: What is deflated: bytes, or a view of a piece of them.
Buffer = bytes | memoryview

#: A gzip member's header (RFC 1952): deflate, no flags, no time, unknown OS.
GZIP_HEADER: Final = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
#: zlib's level for each of ISA-L's levels 0-3 (zlib's own 0 would store, not compress).
_ZLIB_LEVELS: Final = (1, 1, 4, 6)
#: The libraries tried, in order: the first that imports is used.
LIBRARIES: Final = ("isal.isal_zlib", "zlib")


class Compressor(Protocol):
    """A deflate stream (``compressobj``), as both libraries make it."""

    def compress(self, data: Buffer, /) -> bytes: ...
    def flush(self, mode: int = ..., /) -> bytes: ...


class _Library(Protocol):
    """What is used of a zlib-compatible module (``zlib``, ``isal.isal_zlib``)."""

    MAX_WBITS: int
    Z_SYNC_FLUSH: int
    Z_FINISH: int

    def compress(self, data: Buffer, /, level: int, wbits: int) -> bytes: ...
    def compressobj(self, level: int, method: int, wbits: int) -> Compressor: ...
    def crc32(self, data: Buffer, value: int = 0, /) -> int: ...


@dataclass(frozen=True)
class Codec:
    """Gzip and raw deflate with one library; ``name`` is its module's (``isal.isal_zlib``,
    ``zlib``)."""

    name: str
    library: _Library

    def level(self, level: int) -> int:
        """The library's level for ISA-L's ``level`` (0-3)."""
        if not 0 <= level <= 3:
            raise ValueError(f"level {level}: ISA-L's levels are 0 to 3")
        return level if self.name != "zlib" else _ZLIB_LEVELS[level]

    def gzip(self, data: Buffer, level: int) -> bytes:
        """``data`` as one whole gzip member."""
        return self.library.compress(data, self.level(level), 16 + self.library.MAX_WBITS)

    def gzip_stream(self, level: int) -> Compressor:
        """A stream writing one gzip member, flushed at will (``Z_SYNC_FLUSH``, ``Z_FINISH``)."""
        return self.library.compressobj(self.level(level), 8, 16 + self.library.MAX_WBITS)

    def raw_piece(self, piece: Buffer, level: int, final: bool) -> bytes:
        """``piece`` as a raw deflate stream: flushed to a byte boundary so that the next
        piece's stream can follow it (as pigz joins them), or finished when it is the last."""
        stream = self.library.compressobj(self.level(level), 8, -self.library.MAX_WBITS)
        flush = self.library.Z_FINISH if final else self.library.Z_SYNC_FLUSH
        return stream.compress(piece) + stream.flush(flush)

    def crc32(self, data: Buffer, value: int = 0) -> int:
        """The CRC-32 of ``data`` following ``value`` (unsigned)."""
        return self.library.crc32(data, value) & 0xFFFFFFFF

    @property
    def sync_flush(self) -> int:
        """The library's ``Z_SYNC_FLUSH``."""
        return self.library.Z_SYNC_FLUSH

    @property
    def finish(self) -> int:
        """The library's ``Z_FINISH``."""
        return self.library.Z_FINISH


def load(libraries: tuple[str, ...] = LIBRARIES) -> Codec:
    """The codec of the first of ``libraries`` that imports."""
    for name in libraries:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        return Codec(name, cast(_Library, module))
    raise ImportError(f"none of {', '.join(libraries)} can be imported")


#: The codec every gzip answer of the API is made with (tests may swap it).
CODEC: Codec = load()

_deflate_records: Callable[[Buffer, Buffer, int], bytes] | None
try:
    from ._records import deflate_records as _deflate_records
except ImportError:  # not compiled (a source checkout without a build): the codec's deflate
    _deflate_records = None


def records_piece(piece: Buffer, history: Buffer, width: int, level: int) -> bytes:
    """``piece`` of a document of records ``width`` bytes wide as a raw deflate stream flushed
    to a byte boundary (as :meth:`Codec.raw_piece`), each byte matched against the one
    ``width`` before it, in ``piece`` or at the end of ``history`` (what the stream held
    before it); without the compiled deflater, :data:`CODEC`'s at ``level``."""
    if _deflate_records is None:
        return CODEC.raw_piece(piece, level, False)
    return _deflate_records(piece, history, width)
