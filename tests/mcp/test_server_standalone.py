"""``sealane mcp --host --port`` on its own with the in-process backend (no API server), at
both addresses."""

from __future__ import annotations

import subprocess
from pathlib import Path

import anyio
import pytest

from tests.mcp.conftest import World, http_client
from tests.servers import environment, free_port, sealane_command, wait_until_listening


@pytest.mark.slow
def test_standalone__local_backend_at_both_paths(world: World, tmp_path: Path) -> None:
    port, log = free_port(), tmp_path / "mcp.log"
    command = sealane_command("mcp", "--port", str(port), "--database", world.database_url)
    env = environment({"SEALANE_RATE_LIMIT_PER_MINUTE": "100000"})
    with log.open("wb") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, env=env)
        try:
            wait_until_listening(f"http://127.0.0.1:{port}/mcp", process, log)

            async def run() -> None:
                for path in ("/mcp", "/api/mcp"):
                    async with http_client(f"http://127.0.0.1:{port}{path}", world.key_a) as client:
                        result = await client.call_tool("get_container", {"id": world.container_a})
                    assert not result.is_error and result.structured_content is not None
                    assert result.structured_content["id"] == world.container_a

            anyio.run(run)
        finally:
            process.terminate()
            process.wait(timeout=15)
