"""The MCP server: ``tools/call get_container`` over HTTP against the same use case in process,
and tool calls per second with 8 concurrent clients.

Run ``.venv/bin/python benchmarks/mcp_server.py`` (``--calls N`` per latency run,
``--duration S`` of the load run, ``--clients``, ``--processes``). It seeds a fresh SQLite
file with the demo (tracked shipments), starts ``sealane serve`` on it (the MCP endpoint is
``/mcp`` there) and prints two tables:

1. latency of one call, each side measured in this one process, one after the other: the
   application layer's ``get_container`` (with its shipment) called directly, the API's
   ``GET /v2/containers/{id}?include=shipment`` with httpx, and the MCP tool with the SDK's
   client over streamable HTTP (one session, warm);
   and the same tool call sent as plain JSON-RPC with httpx (the server's share without the
   SDK client's own work: it checks each result against the tool's output schema);
2. tool calls per second and their latency with ``--clients`` sessions at once, spread over
   ``--processes`` client processes so the client side is not one interpreter's GIL.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import httpx
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from _util import fmt, fmt_ms, machine_lines, render_table
from api import free_port, percentile, samples_ms, stop_server, wait_ready
from sealane.config import Settings
from sealane.demo import seed_demo
from sealane.runtime import Runtime, build_runtime
from sealane.service.access.gatekeeper import Caller
from sealane.service.core.paging import PageRequest
from sealane.service.tracking.containers import get_container, list_containers
from sealane.service.tracking.filters import TrackingFilter

HOST = "127.0.0.1"


def seeded(database_url: str) -> tuple[Runtime, Caller, str, str]:
    """The demo seeded into ``database_url``: runtime, caller, its key and one container id."""
    runtime = build_runtime(Settings(database_url=database_url, rate_limit_per_minute=10**9))
    key = seed_demo(runtime)[0][1]
    caller = Caller(key.account_id, routing_enabled=True)
    page = list_containers(runtime.context, caller, TrackingFilter(), PageRequest(1, 1))
    return runtime, caller, key.secret, page.items[0].id


def start_server(database_url: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    """``sealane serve`` on ``port`` without pollers or rate limit (the MCP endpoint included)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SEALANE_", "SERVICE_"))}
    env["SEALANE_RATE_LIMIT_PER_MINUTE"] = str(10**9)
    command = [sys.executable, "-m", "sealane.cli", "serve", "--host", HOST, "--port", str(port)]
    command += ["--database", database_url, "--poll-interval", "0", "--log-level", "warning"]
    with log.open("wb") as output:
        return subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, env=env)


async def mcp_samples_ms(url: str, key: str, container_id: str, calls: int) -> list[float]:
    """Milliseconds of ``calls`` sequential ``get_container`` tool calls on one warm session."""
    headers = {"Authorization": f"Bearer {key}"}
    found: list[float] = []
    async with (
        httpx2.AsyncClient(headers=headers, timeout=60) as http,
        Client(streamable_http_client(url, http_client=http)) as client,
    ):
        for index in range(calls + 3):  # the first calls list the tools and compile schemas
            start = time.perf_counter()
            result = await client.call_tool("get_container", {"id": container_id})
            elapsed = (time.perf_counter() - start) * 1e3
            assert not result.is_error, result.content
            if index >= 3:
                found.append(elapsed)
    return found


async def load(
    url: str, key: str, container_id: str, sessions: int, duration_s: float
) -> list[float]:
    """Latencies (ms) of the calls ``sessions`` concurrent sessions make in ``duration_s``."""
    latencies: list[float] = []

    async def one() -> None:
        headers = {"Authorization": f"Bearer {key}"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=60) as http,
            Client(streamable_http_client(url, http_client=http)) as client,
        ):
            await client.call_tool("get_container", {"id": container_id})  # warm-up
            await barrier.wait()
            deadline = time.perf_counter() + duration_s
            while time.perf_counter() < deadline:
                start = time.perf_counter()
                result = await client.call_tool("get_container", {"id": container_id})
                latencies.append((time.perf_counter() - start) * 1e3)
                assert not result.is_error

    barrier = asyncio.Barrier(sessions)
    await asyncio.gather(*(one() for _ in range(sessions)))
    return latencies


def load_process(args: tuple[str, str, str, int, float]) -> list[float]:
    """One client process of the load run."""
    return asyncio.run(load(*args))


def latency_table(
    runtime: Runtime, caller: Caller, base: str, key: str, cid: str, calls: int
) -> str:
    """Table 1: one call, three ways, in this process."""
    direct = samples_ms(lambda: get_container(runtime.context, caller, cid, ["shipment"]), calls)
    with httpx.Client(headers={"Authorization": f"Token {key}"}, timeout=60) as client:
        api = samples_ms(lambda: client.get(f"{base}/v2/containers/{cid}?include=shipment"), calls)
    tool = asyncio.run(mcp_samples_ms(f"{base}/mcp", key, cid, calls))
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call"}
    call["params"] = {"name": "get_container", "arguments": {"id": cid}}
    headers = {"Authorization": f"Bearer {key}", "Accept": "application/json, text/event-stream"}
    headers["MCP-Protocol-Version"] = "2025-11-25"
    with httpx.Client(headers=headers, timeout=60) as client:
        raw = samples_ms(lambda: client.post(f"{base}/mcp", json=call).raise_for_status(), calls)
    p50 = percentile(direct, 50)
    rows = []
    for name, values in (
        ("application layer, in process", direct),
        ("API GET over HTTP (httpx)", api),
        ("MCP tools/call over HTTP (plain JSON-RPC, httpx)", raw),
        ("MCP tools/call over HTTP (SDK client)", tool),
    ):
        mid = percentile(values, 50)
        rows.append([name, fmt_ms(mid), fmt_ms(percentile(values, 90)), fmt(mid / p50, 1, "x")])
    title = f"get_container with its shipment, {calls} calls each (ms)"
    return render_table(title, ["way", "p50", "p90", "p50 / in process"], rows)


def load_table(base: str, key: str, cid: str, clients: int, processes: int, seconds: float) -> str:
    """Table 2: tool calls per second with ``clients`` concurrent sessions."""
    shares = [
        clients // processes + (1 if i < clients % processes else 0) for i in range(processes)
    ]
    jobs = [(f"{base}/mcp", key, cid, n, seconds) for n in shares if n]
    start = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(len(jobs)) as pool:
        found = [ms for part in pool.map(load_process, jobs) for ms in part]
    wall = time.perf_counter() - start
    rows = [
        [
            f"{clients} sessions in {len(jobs)} processes",
            fmt(len(found) / seconds, 0),
            fmt_ms(percentile(found, 50)),
            fmt_ms(percentile(found, 90)),
            fmt_ms(percentile(found, 99)),
        ]
    ]
    title = f"tools/call get_container under load, {seconds:g} s (wall {wall:.1f} s with start-up)"
    return render_table(title, ["clients", "calls/s", "p50 ms", "p90 ms", "p99 ms"], rows)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--calls", type=int, default=300, help="calls per latency run")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds of the load run")
    parser.add_argument("--clients", type=int, default=8, help="concurrent MCP sessions")
    parser.add_argument("--processes", type=int, default=2, help="client processes")
    args = parser.parse_args(argv)
    print("\n".join(machine_lines(["sealane", "mcp", "fastapi", "uvicorn", "sqlalchemy"])))
    with tempfile.TemporaryDirectory(prefix="sealane-bench-mcp-") as tmp:
        database_url = f"sqlite:///{Path(tmp) / 'bench.db'}"
        runtime, caller, key, cid = seeded(database_url)
        port, log = free_port(), Path(tmp) / "server.log"
        base = f"http://{HOST}:{port}"
        process = start_server(database_url, port, log)
        try:
            ready = wait_ready(process, base + "/v2", log)
            print(f"server  : pid {process.pid} on {base}, ready after {ready:.1f} s\n")
            print(latency_table(runtime, caller, base, key, cid, args.calls))
            print(load_table(base, key, cid, args.clients, args.processes, args.duration))
        finally:
            stop_server(process)
            runtime.stop()


if __name__ == "__main__":
    main()
