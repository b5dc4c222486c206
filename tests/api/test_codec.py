"""The deflate library behind gzip answers: ISA-L when installed, the standard zlib without it;
either way the answers inflate, with the standard library, to the identity bytes."""

from __future__ import annotations

import gzip
import subprocess
import sys
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from isal import isal_zlib

from sealane.api import codec
from sealane.api.codec import Codec, load
from sealane.api.compression import GzipMiddleware
from sealane.store.models import Vessel
from tests.toolkit import Keys, auth

from .test_compression import MEDIUM, VOYAGE, bare_app, raw_get, sent_messages, voyage_url

#: A few kB of JSON-like text, compressible.
TEXT = b"".join(b'{"id":%d,"name":"vessel %d","speed":18.5},' % (i, i * 7) for i in range(2000))


def _refuse(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("ISA-L used while the fallback is in force")


@pytest.fixture
def zlib_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[Codec]:
    """The API's codec as an install without ISA-L has it, and ISA-L's functions made to fail,
    so that an answer that still reaches for them fails the test."""
    monkeypatch.setitem(sys.modules, "isal", None)
    monkeypatch.setitem(sys.modules, "isal.isal_zlib", None)
    fallback = load()
    monkeypatch.setattr(codec, "CODEC", fallback)
    for name in ("compress", "compressobj", "crc32"):
        monkeypatch.setattr(isal_zlib, name, _refuse)
    yield fallback


def test_load__isal_when_installed_else_zlib(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load().name == "isal.isal_zlib"
    assert codec.CODEC.name == "isal.isal_zlib"
    monkeypatch.setitem(sys.modules, "isal", None)
    monkeypatch.setitem(sys.modules, "isal.isal_zlib", None)
    assert load().name == "zlib"
    with pytest.raises(ImportError, match="none of"):
        load(("isal.isal_zlib", "no_such_deflate_library"))


def test_import__the_api_without_isal_uses_zlib() -> None:
    """The API imports and gzips with ISA-L hidden (a core install, or a platform without it)."""
    script = (
        "import gzip, sys\n"
        "sys.modules['isal'] = None\n"
        "import sealane.api.app\n"
        "from sealane.api import codec, compression\n"
        "assert 'isal.isal_zlib' not in sys.modules or sys.modules['isal.isal_zlib'] is None\n"
        "body = b'sealane ' * 5000\n"
        "assert gzip.decompress(codec.CODEC.gzip(body, 1)) == body\n"
        "print(codec.CODEC.name)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "zlib"


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_codecs__same_bytes_after_stdlib_inflate(level: int) -> None:
    fallback = load(("zlib",))
    for made in (codec.CODEC, fallback):
        assert gzip.decompress(made.gzip(TEXT, level)) == TEXT
        stream = made.gzip_stream(level)
        joined = stream.compress(TEXT[:5000]) + stream.flush(made.sync_flush)
        joined += stream.compress(TEXT[5000:]) + stream.flush(made.finish)
        assert gzip.decompress(joined) == TEXT
        raw = made.raw_piece(TEXT[:7000], level, False) + made.raw_piece(TEXT[7000:], level, True)
        assert zlib.decompress(raw, -zlib.MAX_WBITS) == TEXT
        assert made.crc32(TEXT[7000:], made.crc32(TEXT[:7000])) == zlib.crc32(TEXT)


def test_levels__isal_levels_given_to_zlib_as_its_own() -> None:
    fallback = load(("zlib",))
    assert [fallback.level(n) for n in range(4)] == [1, 1, 4, 6]  # zlib's 0 would only store
    assert [codec.CODEC.level(n) for n in range(4)] == [0, 1, 2, 3]
    for bad in (-1, 4, 9):
        with pytest.raises(ValueError, match="0 to 3"):
            fallback.level(bad)


def test_fallback__list_page_gzipped_whole(
    zlib_only: Codec, client: TestClient, keys: Keys
) -> None:
    plain = client.get(MEDIUM, headers={**auth(keys.plain), "Accept-Encoding": "identity"})
    response, wire = raw_get(client, MEDIUM, {**auth(keys.plain), "Accept-Encoding": "gzip"})
    assert response.headers["content-encoding"] == "gzip"
    assert int(response.headers["content-length"]) == len(wire) < len(plain.content) / 3
    assert gzip.decompress(wire) == plain.content


def test_fallback__future_positions_deflated_on_the_worker(
    zlib_only: Codec, client: TestClient, keys: Keys, vessel: Vessel
) -> None:
    headers = auth(keys.routing)
    plain = client.get(voyage_url(vessel), params=VOYAGE, headers=headers)
    assert len(plain.content) > 1024 * 1024  # the offloaded path, in pieces
    response, wire = raw_get(
        client, voyage_url(vessel), {**headers, "Accept-Encoding": "gzip"}, params=VOYAGE
    )
    assert response.status_code == 200
    assert response.headers["content-encoding"] == "gzip"
    assert gzip.decompress(wire) == plain.content


def test_fallback__streamed_and_large_whole_bodies(zlib_only: Codec) -> None:
    chunks = [TEXT[i : i + 16384] for i in range(0, len(TEXT), 16384)]
    for app in (
        GzipMiddleware(bare_app([], chunks), stream_minimum_size=4096),  # streamed
        GzipMiddleware(bare_app([], [TEXT]), stream_minimum_size=4096, piece_size=8192),
    ):
        sent = sent_messages(app)
        assert (b"content-encoding", b"gzip") in sent[0]["headers"]
        assert gzip.decompress(b"".join(m.get("body", b"") for m in sent[1:])) == TEXT
