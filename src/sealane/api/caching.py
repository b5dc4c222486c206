"""HTTP caching of ``GET`` answers: an ``ETag`` on every 200, ``304 Not Modified`` when the
client already holds it, and the headers that tell caches whose copy it is.

The tag is weak (``W/"…"``, RFC 9110 section 8.8.1) and computed from the body bytes before any
content coding: the same document is the same tag, gzipped or not, which a strong tag would not
allow. ``If-None-Match`` is compared weakly, as section 13.1.2 says: ``*`` or any listed tag
that names the current body answers 304 with the tag and the caching headers and no body. Every
``GET`` answer (errors too) that does not say otherwise says ``Cache-Control: private,
no-cache`` — only the client itself may keep it, and it must ask again before reusing it, since
tracking changes at any time — and ``Vary: Authorization``, since the account chooses the body
(a 304 also ``Accept-Encoding``, which the compression outside adds to a 200). Errors get no
tag. A body streamed in several pieces is passed on untagged rather than held back whole.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Final

import anyio.to_thread
from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: What every ``GET`` answer under the prefix says about keeping it.
CACHE_CONTROL: Final = "private, no-cache"
#: The request header that decides whose body it is.
VARY: Final = "Authorization"
#: The request header that decides a body's coding: a 304 names it, as its 200 would have.
CODING_VARY: Final = "Accept-Encoding"
#: Bytes of the body's BLAKE2b digest in the tag (128 bits).
DIGEST_BYTES: Final = 16
#: Bodies of at least this many bytes are hashed on a worker thread, not the event loop's
#: (BLAKE2b reads about a byte a nanosecond: 256 kB is a quarter of a millisecond).
THREAD_MINIMUM: Final = 256 * 1024
#: Bodies whose tags are remembered (:class:`KnownTags`): how many, and their sizes.
KNOWN_TAGS: Final = 16
KNOWN_MINIMUM: Final = 16 * 1024
KNOWN_MAXIMUM: Final = 1024 * 1024
#: Headers of a 200 that a 304 repeats (RFC 9110 section 15.4.5); the rest describe the body.
KEPT_ON_304: Final = frozenset({b"cache-control", b"etag", b"vary", b"content-location", b"date"})


def entity_tag(body: bytes) -> str:
    """The weak entity tag of a body: a BLAKE2b digest of its bytes, in hex.

    >>> entity_tag(b"{}")
    'W/"2afb9b83f9314e5d029766197f539792"'
    """
    return f'W/"{hashlib.blake2b(body, digest_size=DIGEST_BYTES).hexdigest()}"'


def none_match(header: str, tag: str) -> bool:
    """Whether an ``If-None-Match`` value matches ``tag`` by weak comparison: ``*``, or a listed
    tag with the same opaque value (``W/`` or not). A malformed member matches nothing.

    >>> none_match('"a", W/"b"', 'W/"b"'), none_match("*", 'W/"b"'), none_match('"c"', 'W/"b"')
    (True, True, False)
    """
    if header.strip() == "*":
        return True
    wanted = _opaque(tag)
    return any(_opaque(member.strip()) == wanted for member in header.split(","))


def _opaque(tag: str) -> str | None:
    """The quoted part of an entity tag (``W/"x"`` and ``"x"`` both give ``"x"``), or None."""
    bare = tag[2:] if tag.startswith("W/") else tag
    if len(bare) < 2 or bare[0] != '"' or bare[-1] != '"' or '"' in bare[1:-1]:
        return None
    return bare


class KnownTags:
    """The tags of the last few large bodies sent, by the body object itself: a list page kept
    by the service (:mod:`sealane.service.tracking.pages`) is the same ``bytes`` object answer
    after answer, and hashing 200 kB again each time was a tenth of such an answer's cost. A
    body is found only if it is that very object (``is``), whose bytes cannot have changed."""

    def __init__(self, max_entries: int = KNOWN_TAGS) -> None:
        self.max_entries = max_entries
        self._known: OrderedDict[int, tuple[bytes, str]] = OrderedDict()

    def get(self, body: bytes) -> str | None:
        """The tag of ``body`` if it is one of the bodies remembered."""
        found = self._known.get(id(body))
        if found is None or found[0] is not body:
            return None
        self._known.move_to_end(id(body))
        return found[1]

    def add(self, body: bytes, tag: str) -> None:
        """Remember ``body``'s tag (the least recently used goes beyond ``max_entries``)."""
        self._known[id(body)] = (body, tag)
        self._known.move_to_end(id(body))
        while len(self._known) > self.max_entries:
            self._known.popitem(last=False)


class ConditionalGet:
    """Tag ``GET`` answers under ``prefix`` and answer a matching ``If-None-Match`` with 304;
    bodies of ``thread_minimum`` bytes or more are hashed on a worker thread, and the tags of
    the last few bodies of :data:`KNOWN_MINIMUM` to :data:`KNOWN_MAXIMUM` bytes are remembered
    (:class:`KnownTags`)."""

    def __init__(self, app: ASGIApp, *, prefix: str, thread_minimum: int = THREAD_MINIMUM) -> None:
        self.app = app
        self.prefix = prefix
        self.thread_minimum = thread_minimum
        self.known = KnownTags()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] != "GET"
            or not scope["path"].startswith(self.prefix)
        ):
            await self.app(scope, receive, send)
            return
        condition = Headers(scope=scope).get("if-none-match")
        tagger = _Tagger(send, condition, self.thread_minimum, self.known)
        await self.app(scope, receive, tagger.send)


class _Tagger:
    """The ``send`` of one ``GET``: holds the start of a 200 until its body is known."""

    def __init__(
        self, send: Send, condition: str | None, thread_minimum: int, known: KnownTags
    ) -> None:
        self.downstream = send
        self.condition = condition
        self.thread_minimum = thread_minimum
        self.known = known
        self.start: Message | None = None

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = MutableHeaders(raw=message.setdefault("headers", []))
            if "cache-control" not in headers:  # a handler's own word stands
                headers["cache-control"] = CACHE_CONTROL
            headers.add_vary_header(VARY)
            if message["status"] != 200 or "etag" in headers:
                await self.downstream(message)
            else:
                self.start = message
            return
        start, self.start = self.start, None
        if start is None or message["type"] != "http.response.body":
            await self._pass(start, message)
            return
        if message.get("more_body", False):  # streamed: tagging would hold it back whole
            await self._pass(start, message)
            return
        body = message.get("body", b"")
        tag = await self._tag(body)
        headers = MutableHeaders(raw=start["headers"])
        headers["etag"] = tag
        if self.condition is not None and none_match(self.condition, tag):
            kept = [(k, v) for k, v in start["headers"] if k.lower() in KEPT_ON_304]
            # The 200 would have varied by its coding too (outside, gzip says so on the body).
            MutableHeaders(raw=kept).add_vary_header(CODING_VARY)
            await self.downstream({**start, "status": 304, "headers": kept})
            await self.downstream({"type": "http.response.body", "body": b""})
            return
        await self.downstream(start)
        await self.downstream(message)

    async def _tag(self, body: bytes) -> str:
        remembered = KNOWN_MINIMUM <= len(body) <= KNOWN_MAXIMUM and isinstance(body, bytes)
        tag = self.known.get(body) if remembered else None
        if tag is not None:
            return tag
        if len(body) < self.thread_minimum:
            tag = entity_tag(body)
        else:
            tag = await anyio.to_thread.run_sync(entity_tag, body)
        if remembered:
            self.known.add(body, tag)
        return tag

    async def _pass(self, start: Message | None, message: Message) -> None:
        if start is not None:
            await self.downstream(start)
        await self.downstream(message)
