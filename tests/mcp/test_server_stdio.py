"""A real ``sealane mcp --stdio`` process with the SDK's client: the same tool cases as over HTTP,
both resources and each prompt, acting for the account of ``SERVICE_API_TOKEN``."""

from __future__ import annotations

import subprocess

import anyio
import pytest
from mcp import Client

from tests.mcp.cases import CASES
from tests.mcp.conftest import World, stdio_params
from tests.mcp.test_server_tools import TOOLS, run_cases
from tests.servers import environment, sealane_command


@pytest.mark.slow
def test_stdio__every_tool_resource_and_prompt(world: World) -> None:
    async def run() -> None:
        async with Client(stdio_params(world, world.key_a)) as client:
            assert {t.name for t in (await client.list_tools()).tools} >= TOOLS
            await run_cases(client, world, [case for case in CASES if not case.as_b])
            glossary = await client.read_resource("service://docs/milestone-glossary")
            summary = await client.read_resource(f"service://container/{world.container_a}")
            prompts = [p.name for p in (await client.list_prompts()).prompts]
            arguments = {
                "track-shipment": {"container_number": "TSTU1000019"},
                "compare-carriers": {"port_of_lading": "CNSHA", "port_of_discharge": "NLRTM"},
            }
            for name in prompts:
                given = arguments.get(name, {"container_id": world.container_a})
                assert (await client.get_prompt(name, given)).messages
        assert "vessel_departed" in glossary.contents[0].text  # type: ignore[union-attr]
        assert "## Milestones" in summary.contents[0].text  # type: ignore[union-attr]
        assert sorted(prompts) == [
            "analyze-delays",
            "check-demurrage",
            "compare-carriers",
            "track-shipment",
        ]

    anyio.run(run)


def test_stdio__account_without_routing_gets_tool_errors(world: World) -> None:
    async def run() -> None:
        async with Client(stdio_params(world, world.key_b)) as client:
            await run_cases(client, world, [case for case in CASES if case.as_b])

    anyio.run(run)


def test_stdio__refuses_to_start_without_a_key(world: World) -> None:
    done = subprocess.run(
        sealane_command("mcp", "--stdio", "--database", world.database_url),
        capture_output=True,
        text=True,
        timeout=120,
        env=environment(),
        check=False,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2
    assert "SERVICE_API_TOKEN" in done.stderr
