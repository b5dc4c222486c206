"""Fixtures of the MCP tests: one seeded database, a real ``sealane serve`` on it (the MCP endpoint
with the in-process backend), a real ``sealane mcp`` in front of that API (the remote backend),
and clients of the SDK connecting to either, or to a ``sealane mcp --stdio`` process."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from sealane.config import Settings
from sealane.demo import seed_demo
from sealane.runtime import build_runtime
from sealane.service.access.gatekeeper import Caller
from sealane.service.core.paging import PageRequest
from sealane.service.tracking.containers import list_containers
from sealane.service.tracking.filters import TrackingFilter
from tests.servers import environment, free_port, sealane_command, serving, wait_until_listening
from tests.toolkit import Scenario


@dataclass(frozen=True)
class World:
    """The seeded data: keys of a routing account (A, the demo's) and a plain one (B), and ids."""

    database_url: str
    key_a: str
    key_b: str
    container_a: str
    shipment_a: str
    container_b: str
    number_a: str
    number_b: str
    vessel_imo: str = "9811000"


def seed(database_url: str) -> World:
    """The demo (account A with tracked shipments and sailing vessels) and account B with one
    tracked shipment of its own."""
    runtime = build_runtime(Settings(database_url=database_url))
    try:
        keys = seed_demo(runtime)
        scenario = Scenario.on(runtime)
        plain = scenario.account("Other Co", routing=False)
        other = scenario.caller("Other Co")
        scenario.track("Other Co", "TESTOTHER001")
        scenario.tick()
        owner = Caller(keys[0][1].account_id, routing_enabled=True)
        mine = list_containers(runtime.context, owner, TrackingFilter(), PageRequest(1, 1)).items[0]
        theirs = list_containers(runtime.context, other, TrackingFilter(), PageRequest(1, 1))
        return World(
            database_url=database_url,
            key_a=keys[0][1].secret,
            key_b=plain.secret,
            container_a=mine.id,
            shipment_a=mine.shipment_id,
            container_b=theirs.items[0].id,
            number_a=mine.number,
            number_b=theirs.items[0].number,
        )
    finally:
        runtime.stop()


@pytest.fixture(scope="session")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    path = tmp_path_factory.mktemp("mcp") / "sealane.db"
    return seed(f"sqlite:///{path}")


@pytest.fixture(scope="session")
def api_base(world: World, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A ``sealane serve`` process on the seeded database: its API base (``.../v2``)."""
    log = tmp_path_factory.mktemp("logs") / "serve.log"
    with serving(world.database_url, log, env={"SEALANE_RATE_LIMIT_PER_MINUTE": "100000"}) as base:
        yield base


@pytest.fixture(scope="session")
def remote_mcp(api_base: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A ``sealane mcp`` process whose tools call the API of :func:`api_base`: its MCP URL."""
    import subprocess

    port = free_port()
    log = tmp_path_factory.mktemp("logs") / "mcp.log"
    env = environment({"SERVICE_API_BASE_URL": api_base})
    command = sealane_command("mcp", "--port", str(port))
    with log.open("wb") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, env=env)
        url = f"http://127.0.0.1:{port}/mcp"
        try:
            wait_until_listening(url, process, log)
            yield url
        finally:
            process.terminate()
            process.wait(timeout=15)


BACKENDS = ("local", "remote")


@pytest.fixture(params=BACKENDS)
def mcp_url(request: pytest.FixtureRequest, api_base: str) -> str:
    """The MCP URL of each backend: the API's own endpoint, and the remote-backend server."""
    if request.param == "local":
        return api_base.removesuffix("/v2") + "/mcp"
    url: str = request.getfixturevalue("remote_mcp")
    return url


@asynccontextmanager
async def http_client(url: str, key: str | None, scheme: str = "Bearer") -> AsyncIterator[Client]:
    """An SDK client over streamable HTTP, sending ``Authorization: <scheme> <key>``."""
    headers = {"Authorization": f"{scheme} {key}"} if key else {}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=60) as http,
        Client(streamable_http_client(url, http_client=http)) as client,
    ):
        yield client


def stdio_params(world: World, key: str | None) -> StdioServerParameters:
    """How to start ``sealane mcp --stdio`` on the seeded database, acting for ``key``."""
    command = sealane_command("mcp", "--stdio", "--database", world.database_url)
    limit = {"SEALANE_RATE_LIMIT_PER_MINUTE": "100000"}  # the account's calls of other tests count
    env = environment({**limit, "SERVICE_API_TOKEN": key} if key else limit)
    return StdioServerParameters(command=command[0], args=command[1:], env=env)
