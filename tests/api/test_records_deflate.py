"""The deflater of documents of fixed-width records (``_records.c``, :func:`codec.records_piece`):
any inflater reads what it writes, piece after piece, whatever the bytes; the positions document
comes out a fraction of its size; without the compiled module the codec's deflate stands in."""

from __future__ import annotations

import gzip
import itertools
import random
import zlib
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient

from sealane.api import codec
from sealane.api._records import deflate_records
from sealane.api.positions_json import PositionsJson
from sealane.routing.voyage import future_positions
from sealane.store.models import Vessel
from tests.toolkit import Keys, auth

from .test_compression import VOYAGE, raw_get, voyage_url

#: A sync flush: the empty stored block every piece ends with.
SYNC = b"\x00\x00\xff\xff"
#: The end of a raw stream made of flushed pieces: an empty final block.
FINAL = b"\x03\x00"


@pytest.fixture(scope="module")
def vessel_track() -> PositionsJson:
    """A voyage's positions document (Hong Kong to Jebel Ali, about 16,000 positions)."""
    start = datetime(2026, 1, 1, tzinfo=UTC)
    voyage = future_positions((113.9, 22.3), "HKHKG", "AEJEA", speed_kn=18, start_time=start)
    return PositionsJson(voyage, head=b'{"data":{"positions":', tail=b"}}")


def deflated(pieces: list[bytes], width: int) -> bytes:
    """``pieces`` deflated one after the other, each against the one before, and the stream
    ended."""
    out, history = [], b""
    for piece in pieces:
        out.append(deflate_records(piece, history, width))
        history = piece
    return b"".join(out) + FINAL


def inflated(stream: bytes) -> bytes:
    """What the standard library's inflate makes of a whole raw ``stream`` (checking it ends)."""
    inflater = zlib.decompressobj(-zlib.MAX_WBITS)
    data = inflater.decompress(stream)
    assert inflater.eof and not inflater.unused_data
    return data


def records(count: int, rng: random.Random) -> bytes:
    """Records of one width whose digits change a few at a time, like positions a minute
    apart."""
    lat, lon = 22.3, 113.9
    rows = []
    for minute in range(1, count + 1):
        lat += rng.uniform(-0.01, 0.01)
        lon += rng.uniform(0, 0.02)
        rows.append(b'{"lat":%11.6f,"lon":%11.6f,"t":"%05d"},' % (lat, lon, minute))
    return b"".join(rows)


def split(data: bytes, rng: random.Random) -> list[bytes]:
    """``data`` cut at random places (some pieces empty, some one byte)."""
    cuts = sorted(rng.randrange(len(data) + 1) for _ in range(rng.randrange(1, 12)))
    edges = [0, *cuts, len(data)]
    return [data[a:b] for a, b in itertools.pairwise(edges)]


@pytest.mark.parametrize("seed", range(20))
def test_records__inflate_to_the_same_bytes_in_any_pieces(seed: int) -> None:
    rng = random.Random(seed)
    data = records(rng.randrange(1, 3000), rng)
    width = data.index(b"},") + 2
    assert inflated(deflated(split(data, rng), width)) == data


@pytest.mark.parametrize("width", [1, 2, 3, 7, 119, 4096, 32768])
def test_any_bytes__inflate_to_themselves(width: int) -> None:
    rng = random.Random(width)
    noise = rng.randbytes(5000)  # every byte value: literals of 8 and 9 bits
    repeats = rng.randbytes(width) * 5 + bytes(70_000)  # matches of every length, then long runs
    data = noise + repeats + noise[:100]
    assert inflated(deflated(split(data, rng), width)) == data


def test_runs__every_length_split_into_valid_matches() -> None:
    # A run of n bytes equal to the byte before: matches of 3..258 bytes, never a rest of 1 or 2.
    for n in range(0, 1100):
        data = b"a" + b"b" * n
        assert inflated(deflated([data], 1)) == data, n


def test_piece__ends_on_a_sync_flush_and_starts_a_block_not_the_last() -> None:
    out = deflate_records(b"x" * 300, b"", 1)
    assert out.endswith(SYNC)
    assert out[0] & 0b111 == 0b010  # BFINAL 0, fixed Huffman codes
    assert inflated(deflate_records(b"", b"", 5) + FINAL) == b""


def test_history__only_its_last_width_bytes_are_matched() -> None:
    history = b"0123456789" * 4
    data = b"0123456789" * 3
    out = deflate_records(data, history, 10)
    assert inflated(deflated([history], 10)[: -len(FINAL)] + out + FINAL) == history + data
    assert len(out) < len(deflate_records(data, b"", 10))  # the first ten bytes matched too


@pytest.mark.parametrize("width", [0, -1, 32769])
def test_width__outside_deflate_s_distances_refused(width: int) -> None:
    with pytest.raises(ValueError, match="width"):
        deflate_records(b"abc", b"", width)


def test_positions__a_fraction_of_the_document(vessel_track: PositionsJson) -> None:
    pieces = list(vessel_track.pieces(first_bytes=32 * 1024, piece_bytes=512 * 1024))
    stream = deflated(pieces, vessel_track.record_width)
    whole = vessel_track.whole()
    assert inflated(stream) == whole
    assert len(stream) < len(whole) / 5  # the keys and the unchanged digits are matches


def test_without_the_compiled_module__the_codec_deflates(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(codec, "_deflate_records", None)
    data = records(500, random.Random(1))
    out = codec.records_piece(data, b"", 99, 1)
    assert out == codec.CODEC.raw_piece(data, 1, False)
    assert inflated(out + FINAL) == data


def test_future_positions__gzip_answer_made_by_records_deflate(
    client: TestClient, keys: Keys, vessel: Vessel, monkeypatch: pytest.MonkeyPatch
) -> None:
    used: list[int] = []

    def counted(piece: bytes, history: bytes, width: int) -> bytes:
        used.append(width)
        return deflate_records(piece, history, width)

    monkeypatch.setattr(codec, "_deflate_records", counted)
    headers = auth(keys.routing)
    plain = client.get(voyage_url(vessel), params=VOYAGE, headers=headers)
    response, wire = raw_get(
        client, voyage_url(vessel), {**headers, "Accept-Encoding": "gzip"}, params=VOYAGE
    )
    assert response.headers["content-encoding"] == "gzip"
    assert gzip.decompress(wire) == plain.content
    first = plain.content.index(b'{"latitude"')
    width = plain.content.index(b'{"latitude"', first + 1) - first
    assert len(used) > 2 and set(used) == {width}
