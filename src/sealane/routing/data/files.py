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
