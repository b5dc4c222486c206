"""Where the engine's data files live (inside an installed wheel, or ``data/`` in a checkout),
and how the uncompressed ``.npz`` graph file is read straight into arrays (what its arrays are
is :mod:`.formats`' business)."""

from __future__ import annotations

import math
import struct
from functools import cache
from pathlib import Path
from typing import Literal

import numpy as np


@cache
def data_dir() -> Path:
    """The directory holding ``marnet.npz``, ``ports.csv`` and ``passages.json``."""
    packaged = Path(__file__).resolve().parents[2] / "_data"
    if (packaged / "ports.csv").exists():
        return packaged
    return Path(__file__).resolve().parents[4] / "data"


def mapped_npz(path: Path) -> dict[str, np.ndarray]:
    """The arrays of an uncompressed ``.npz`` file, each read straight from its place in the file
    into an aligned array (memory-mapped when the place is aligned), skipping the zip layer's
    chunked reads and checksums; members stored otherwise are read as usual."""
    import zipfile  # on first use, off the cold start

    out: dict[str, np.ndarray] = {}
    with zipfile.ZipFile(path) as archive, path.open("rb") as handle:
        for info in archive.infolist():
            name = info.filename.removesuffix(".npy")
            if info.compress_type != zipfile.ZIP_STORED:
                out[name] = np.load(archive.open(info))
                continue
            # The member's data follows its local header: 30 bytes, the name and an extra field.
            handle.seek(info.header_offset + 26)
            name_len, extra_len = struct.unpack("<HH", handle.read(4))
            start = info.header_offset + 30 + name_len + extra_len
            handle.seek(start)
            header = (
                np.lib.format.read_array_header_1_0
                if np.lib.format.read_magic(handle) == (1, 0)
                else np.lib.format.read_array_header_2_0
            )
            shape, fortran, dtype = header(handle)
            order: Literal["C", "F"] = "F" if fortran else "C"
            if dtype.hasobject:
                handle.seek(start)
                out[name] = np.lib.format.read_array(handle)
            elif handle.tell() % max(dtype.alignment, 1) == 0 and 0 not in shape:
                out[name] = np.asarray(
                    np.memmap(path, dtype, "r", offset=handle.tell(), shape=shape, order=order)
                )
            else:
                flat = np.empty(math.prod(shape), dtype=dtype)
                handle.readinto(flat.data.cast("B"))
                out[name] = flat.reshape(shape, order=order)
    return out


#: The boundary each member's array data starts on in a file :func:`write_aligned_npz` writes
#: (numpy pads an ``.npy`` header to it, so the data follows at the same alignment).
ALIGN = 64
#: The header id of the zip extra field that pads a member (the one Android's zipalign uses).
_PADDING_ID = 0xD935


def write_aligned_npz(path: Path, members: dict[str, np.ndarray]) -> None:
    """An uncompressed ``.npz`` whose every member's data starts on a 64-byte boundary of the
    file, padded by an extra field of the member's zip header: :func:`mapped_npz` then maps each
    array where it lies instead of copying it (``np.savez`` aligns a member to the ``.npy`` file,
    not to the archive). Any zip reader, ``np.load`` among them, reads it as usual.

    The file is written beside ``path`` and then renamed over it: a process that has the old
    file mapped keeps reading it (rewritten in place, its pages would change or vanish under
    it, a crash with SIGBUS)."""
    import os

    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        _write_members(partial, members)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def _write_members(path: Path, members: dict[str, np.ndarray]) -> None:
    import io
    import zipfile

    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED, allowZip64=True) as archive:
        for key, value in members.items():
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, np.asanyarray(value), allow_pickle=False)
            data = buffer.getvalue()
            info = zipfile.ZipInfo(f"{key}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_STORED
            # Local header: 30 bytes, the name, then the extra field (4 bytes and its padding).
            start = archive.fp.tell() if archive.fp is not None else 0
            pad = -(start + 30 + len(info.filename.encode()) + 4) % ALIGN
            info.extra = struct.pack("<HH", _PADDING_ID, pad) + bytes(pad)
            archive.writestr(info, data)
