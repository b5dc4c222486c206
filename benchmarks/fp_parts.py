"""Two parts of a future-positions answer timed alone: the deflate library, the vessel look-up.

Run ``.venv/bin/python benchmarks/fp_parts.py`` (``--runs N``, default 40). It starts
``sealane serve`` (as ``benchmarks/api.py`` does) only to take three documents as the server
writes them, without gzip: Table 5's future positions (1.95 MB) and two list pages; then, in
this process:

- **Deflate**: each candidate library and level deflates each document as the server would (the
  positions in the answer's pieces, 32 KiB then 512 KiB, each a raw stream flushed to a byte
  boundary; a list page whole), and the standard library's zlib inflates the output, as httpx
  does (a bigger output costs the client more). Candidates: zlib 1 and 6, ISA-L (``isal``) 0-3,
  and zlib-ng (``zlib_ng``, not a dependency) 1-4 and 6 when importable; for the positions,
  also the deflater of fixed-width records the server uses for them (``records``,
  ``sealane.api._records``: each byte matched against the one a record back, deflate's fixed
  codes). The runs alternate between candidates; min and median of each.
  (``PYTHONPATH=DIR`` with ``pip install --target DIR zlib-ng`` brings it in for a run.)
- **Vessel look-up**: ``find_vessel`` (what the future-positions operations read per request)
  and the plain ``sqlite3`` query, hot (back to back) and cold (after 32 MB of memory traffic,
  as after an answer of megabytes).

It asserts nothing about timings.
"""

from __future__ import annotations

import argparse
import importlib
import sqlite3
import statistics
import tempfile
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import numpy as np

from _util import machine_lines, render_table
from api import FP_START, add_vessel, fp_requests, running_service
from sealane.api._records import deflate_records
from sealane.api.codec import CODEC, GZIP_HEADER
from sealane.api.offloaded import FIRST_PIECE, PIECE
from sealane.store.database import make_engine
from sealane.store.vessels import _BY_ID_OR_IMO, find_vessel

LIST_PAGES = {
    "webhook notification examples": "/webhook_notifications/examples",
    "ports, 100 a page": "/ports?page[size]=100",
}
CANDIDATES = [("zlib", 1), ("zlib", 6), *(("isal.isal_zlib", n) for n in range(4))]
CANDIDATES += [("zlib_ng.zlib_ng", n) for n in (1, 2, 3, 4, 6)]


def documents() -> dict[str, bytes]:
    """The three documents, as the server writes them (identity encoding)."""
    found: dict[str, bytes] = {}
    with running_service() as service:
        headers = {**service.auth, "Accept-Encoding": "identity"}
        url, params = fp_requests(service)["future_positions"]
        found["future positions (Table 5)"] = httpx.get(
            url, params=params, headers=headers, timeout=60.0
        ).content
        for name, path in LIST_PAGES.items():
            found[name] = httpx.get(service.base_url + path, headers=headers, timeout=60).content
    return found


def pieces(body: bytes) -> Iterator[memoryview]:
    """``body`` in the pieces the server deflates (``FIRST_PIECE``, then ``PIECE`` each)."""
    view = memoryview(body)
    yield view[:FIRST_PIECE]
    for at in range(FIRST_PIECE, len(view), PIECE):
        yield view[at : at + PIECE]


def record_width(body: bytes) -> int:
    """Bytes from one position record of ``body`` to the next."""
    first = body.index(b'{"latitude"')
    return body.index(b'{"latitude"', first + 1) - first


def records_deflater(body: bytes) -> bytes:
    """A gzip member of the positions ``body`` as the server makes it: in its pieces, each
    deflated against the record before it (``_records.c``), the CRC by the server's codec."""
    out, crc, history, width = [GZIP_HEADER], 0, memoryview(b""), record_width(body)
    for piece in pieces(body):
        out.append(deflate_records(piece, history, width))
        crc, history = CODEC.crc32(piece, crc), piece
    size = len(body) & 0xFFFFFFFF
    out.append(b"\x03\x00" + crc.to_bytes(4, "little") + size.to_bytes(4, "little"))
    return b"".join(out)


def deflater(library: Any, level: int, in_pieces: bool) -> Callable[[bytes], bytes]:
    """A gzip member of ``body`` by ``library`` at ``level``: whole, or in the server's pieces."""

    def whole(body: bytes) -> bytes:
        return bytes(library.compress(body, level, 31))

    def piecewise(body: bytes) -> bytes:
        out, crc = [GZIP_HEADER], 0
        for piece in pieces(body):
            stream = library.compressobj(level, 8, -15)
            out.append(stream.compress(piece) + stream.flush(library.Z_SYNC_FLUSH))
            crc = library.crc32(piece, crc)
        size = len(body) & 0xFFFFFFFF
        out.append(
            b"\x03\x00" + (crc & 0xFFFFFFFF).to_bytes(4, "little") + size.to_bytes(4, "little")
        )
        return b"".join(out)

    return piecewise if in_pieces else whole


def run_deflate(found: dict[str, bytes], runs: int) -> None:
    """The deflate table of each document."""
    libraries: dict[str, ModuleType] = {}
    for name in dict.fromkeys(name for name, _ in CANDIDATES):
        try:
            libraries[name] = importlib.import_module(name)
        except ImportError:
            print(f"{name}: not importable, left out")
    for title, body in found.items():
        in_pieces = title.startswith("future")
        made = {
            (name, level): deflater(libraries[name], level, in_pieces)
            for name, level in CANDIDATES
            if name in libraries
        }
        if in_pieces:
            made[("records", 0)] = records_deflater
        outputs = {key: deflate(body) for key, deflate in made.items()}
        for key, output in outputs.items():
            assert zlib.decompressobj(31).decompress(output) == body, key
        deflating: dict[tuple[str, int], list[float]] = {key: [] for key in made}
        inflating: dict[tuple[str, int], list[float]] = {key: [] for key in made}
        for _ in range(runs):
            for key, deflate in made.items():
                start = time.perf_counter()
                deflate(body)
                deflating[key].append((time.perf_counter() - start) * 1e3)
                inflate = zlib.decompressobj(31)
                start = time.perf_counter()
                inflate.decompress(outputs[key])
                inflating[key].append((time.perf_counter() - start) * 1e3)
        rows = []
        for key in made:
            size = len(outputs[key])
            rows.append(
                [
                    f"{key[0].rpartition('.')[2]} {key[1]}",
                    f"{min(deflating[key]):.3f} / {statistics.median(deflating[key]):.3f}",
                    f"{size:,}",
                    f"{size / len(body) * 100:.1f} %",
                    f"{min(inflating[key]):.3f} / {statistics.median(inflating[key]):.3f}",
                    f"{min(deflating[key]) + min(inflating[key]):.3f}",
                ]
            )
        headers = ["library level", "deflate ms min / p50", "bytes", "of the body"]
        headers += ["zlib inflate ms min / p50", "sum of mins"]
        how = "in the answer's pieces" if in_pieces else "whole"
        print(render_table(f"{title}: {len(body):,} bytes, {how}, {runs} runs", headers, rows))


def run_lookup(runs: int) -> None:
    """``find_vessel`` against the plain sqlite3 query, hot and cold."""
    with tempfile.TemporaryDirectory(prefix="sealane-parts-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'parts.db'}"
        vessel_id = add_vessel(url, FP_START, number=2)
        engine = make_engine(url)
        plain = sqlite3.connect(Path(tmp) / "parts.db", check_same_thread=False)
        columns = ", ".join(column.name for column in _BY_ID_OR_IMO.selected_columns)
        sql = (
            f"SELECT {columns} FROM vessels WHERE id = ?1 OR imo = ?1 ORDER BY id = ?1 DESC LIMIT 1"
        )
        traffic = np.zeros(4_000_000)

        def churn() -> None:
            traffic[:] += 1.0

        calls: dict[str, Callable[[], object]] = {
            "find_vessel": lambda: find_vessel(engine, vessel_id),
            "sqlite3 alone, same query": lambda: plain.execute(sql, (vessel_id,)).fetchone(),
        }
        rows = []
        for name, call in calls.items():
            cells = [name]
            for before in (None, churn):
                times = []
                for _ in range(runs * 10):
                    if before is not None:
                        before()
                    start = time.perf_counter()
                    call()
                    times.append((time.perf_counter() - start) * 1e6)
                cells.append(f"{min(times):.0f} / {statistics.median(times):.0f}")
            rows.append(cells)
        engine.dispose()
        plain.close()
    headers = ["look-up", "hot us min / p50", "cold us min / p50"]
    print(render_table(f"Vessel look-up, {runs * 10} calls each", headers, rows))


def main() -> None:
    """Take the documents, then time both parts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=40, help="runs of each candidate (40)")
    runs = max(parser.parse_args().runs, 1)
    for line in machine_lines(["sealane", "isal", "zlib-ng", "sqlalchemy"]):
        print(line)
    run_deflate(documents(), runs)
    run_lookup(runs)


if __name__ == "__main__":
    main()
