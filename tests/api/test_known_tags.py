"""Tags of large bodies are remembered by the body object itself: the same object gets its tag
without hashing, an equal or changed copy is hashed as any other body."""

from __future__ import annotations

from typing import Any

import anyio

from sealane.api import caching
from sealane.api.caching import ConditionalGet, KnownTags, entity_tag


def test_known_tags__only_the_same_object() -> None:
    known = KnownTags(max_entries=2)
    body = b"x" * 20_000
    known.add(body, "tag-1")
    assert known.get(body) == "tag-1"
    assert known.get(bytes(bytearray(body))) is None  # equal, but another object
    known.add(b"y" * 20_000, "tag-2")
    known.add(b"z" * 20_000, "tag-3")
    assert known.get(body) is None  # the least recently used went


def test_conditional_get__a_kept_body_tagged_once_a_new_one_hashed(
    monkeypatch: Any,
) -> None:
    hashed: list[int] = []

    def counting(body: bytes) -> str:
        hashed.append(len(body))
        return entity_tag(body)

    monkeypatch.setattr(caching, "entity_tag", counting)
    kept = b'{"data": "' + b"k" * 30_000 + b'"}'
    changed = b'{"data": "' + b"c" * 30_000 + b'"}'
    bodies = [kept, kept, changed, kept]

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": bodies.pop(0)})

    tags: list[bytes] = []

    async def send(message: Any) -> None:
        if message["type"] == "http.response.start":
            tags.append(dict(message["headers"])[b"etag"])

    async def receive() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    async def run() -> None:
        middleware = ConditionalGet(app, prefix="/v2")
        scope = {"type": "http", "method": "GET", "path": "/v2/x", "headers": []}
        for _ in range(4):
            await middleware(scope, receive, send)

    anyio.run(run)
    assert tags == [entity_tag(kept).encode()] * 2 + [entity_tag(changed).encode()] + [
        entity_tag(kept).encode()
    ]
    assert len(hashed) == 2  # the kept body once, the changed one once
