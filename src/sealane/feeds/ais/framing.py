"""NMEA 0183 framing: tag blocks and checksums, with the XORs of a whole batch taken at once.

An NMEA 4 tag block (``\\c:1767225601*7A\\``) and the sentence behind it each end in a checksum,
the XOR of their bytes up to ``*``. Taken byte by byte in Python that is two loops per line;
:class:`RunningXor` makes one numpy pass over a batch, after which the XOR of any stretch of
any line is two lookups.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


class RunningXor:
    """The running XOR of lines laid end to end: ``xor(a, b)`` of bytes ``a`` to ``b`` (exclusive)
    of that concatenation.

    >>> lines = RunningXor([b"!AB*", b"xyz"])
    >>> lines.xor(1, 3) == ord("A") ^ ord("B"), lines.xor(4, 7) == ord("x") ^ ord("y") ^ ord("z")
    (True, True)
    """

    __slots__ = ("_prefix",)

    def __init__(self, lines: Sequence[bytes]) -> None:
        joined = np.frombuffer(b"".join(lines), dtype=np.uint8)
        #: Byte ``i`` is the XOR of the first ``i`` bytes.
        self._prefix = b"\x00" + np.bitwise_xor.accumulate(joined).tobytes()

    def xor(self, start: int, stop: int) -> int:
        """The XOR of the bytes from ``start`` up to, not including, ``stop``."""
        prefix = self._prefix
        return prefix[stop] ^ prefix[start]


def read_tag_block(line: bytes, offset: int, running: RunningXor) -> tuple[int, float | None]:
    """Where the sentence starts behind ``line``'s tag block, and the block's ``c:`` time in
    UNIX seconds (None when it has none or its checksum is wrong); ``offset`` is where ``line``
    starts in ``running``. ``c:`` in milliseconds (13 digits, some receivers) is read as such.
    """
    end = line.find(b"\\", 1)
    if end < 0:
        return len(line), None
    star = line.rfind(b"*", 1, end)
    if star < 0:
        return end + 1, None
    try:
        if int(line[star + 1 : end], 16) != running.xor(offset + 1, offset + star):
            return end + 1, None
    except ValueError:
        return end + 1, None
    at = line.find(b"c:", 1, star)
    if at < 0 or (at > 1 and line[at - 1] != 44):  # 44 is ','
        return end + 1, None
    stop = line.find(b",", at, star)
    digits = line[at + 2 : stop if stop >= 0 else star]
    if not digits.isdigit():
        return end + 1, None
    value = int(digits)
    return end + 1, value / 1000.0 if value > 100_000_000_000 else float(value)


def sentence_xor(line: bytes, head: int, offset: int, running: RunningXor) -> int | None:
    """The checksum the sentence starting at ``head`` should carry (the XOR between ``!`` and
    ``*``), or None when it does not look like ``!...*hh`` (then pyais is asked)."""
    if line[head : head + 1] != b"!":
        return None
    star = line.find(b"*", head + 1)
    if star < 0:
        return None
    return running.xor(offset + head + 1, offset + star)


def split_tag_block(line: bytes) -> tuple[bytes, float | None]:
    """The sentence behind an NMEA 4 tag block, and the block's ``c:`` time in UNIX seconds
    (see :func:`read_tag_block`).

    >>> split_tag_block(rb"\\s:r1,c:1767225601*7A\\!AIVDM,...")
    (b'!AIVDM,...', 1767225601.0)
    """
    head, stamp = read_tag_block(line, 0, RunningXor([line]))
    return line[head:], stamp
