"""The remote backend reads an account's features from ``GET /v2/account`` (real app, over
HTTP through httpx's ASGI transport), never from the answer to a made-up request."""

from __future__ import annotations

import anyio
import httpx
import pytest
from fastapi import FastAPI

from sealane.mcp.remote import RemoteBackend
from sealane.service.core.errors import FeatureDisabled
from tests.toolkit import Keys


def test_remote__routing_feature_read_from_the_account(app: FastAPI, keys: Keys) -> None:
    asked: list[str] = []

    async def log(request: httpx.Request) -> None:
        asked.append(request.url.path)

    async def run() -> None:
        backend = RemoteBackend("http://testserver/v2", cache_s=0)
        await backend.client.aclose()
        backend.client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), event_hooks={"request": [log]}
        )
        async with backend.client:
            routing = await backend.authorize(keys.routing, address="127.0.0.1")
            await routing.require_routing()  # no error: the feature is stated on
            plain = await backend.authorize(keys.plain, address="127.0.0.1")
            assert await plain.features() == {"routing": False, "ingest": False}
            with pytest.raises(FeatureDisabled):
                await plain.require_routing()

    anyio.run(run)
    assert asked == ["/v2/account", "/v2/account"]  # one question per key, nothing inferred
