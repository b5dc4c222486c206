"""Prompts and resources over streamable HTTP against both backends, and the glossary's
coverage of every event name of the interface document."""

from __future__ import annotations

import anyio
import pytest
from mcp.shared.exceptions import MCPError

from sealane.mcp.glossary import MILESTONES, missing_names
from sealane.vocabulary.events import EVENT_NAMES
from tests.mcp.cases import UNKNOWN
from tests.mcp.conftest import World, http_client

PROMPTS = {"track-shipment", "check-demurrage", "analyze-delays", "compare-carriers"}


def test_prompts__listed_and_each_names_its_tools(mcp_url: str, world: World) -> None:
    async def run() -> None:
        async with http_client(mcp_url, world.key_a) as client:
            listed = {p.name: p for p in (await client.list_prompts()).prompts}
            assert set(listed) == PROMPTS
            assert [a.name for a in listed["track-shipment"].arguments or []] == [
                "container_number",
                "carrier",
            ]
            track = await client.get_prompt(
                "track-shipment", {"container_number": "TSTU1000019", "carrier": "TEST"}
            )
            demurrage = await client.get_prompt(
                "check-demurrage", {"container_id": world.container_a}
            )
            delays = await client.get_prompt("analyze-delays", {"container_id": world.container_a})
        texts = [m.messages[0].content.text for m in (track, demurrage, delays)]  # type: ignore[union-attr]
        assert "search_container" in texts[0] and "track_container" in texts[0]
        assert "TSTU1000019" in texts[0] and "'TEST'" in texts[0]
        assert "get_container" in texts[1] and "pickup_lfd" in texts[1]
        assert world.container_a in texts[1]
        assert "get_container_transport_events" in texts[2] and "get_container_route" in texts[2]

    anyio.run(run)


def test_prompt__bad_container_id_is_refused(mcp_url: str, world: World) -> None:
    async def run() -> None:
        async with http_client(mcp_url, world.key_a) as client:
            with pytest.raises(MCPError, match="container_id must be a UUID"):
                await client.get_prompt("check-demurrage", {"container_id": "nope"})

    anyio.run(run)


def test_resources__container_summary_and_glossary(mcp_url: str, world: World) -> None:
    async def run() -> None:
        async with http_client(mcp_url, world.key_a) as client:
            listed = [r.uri for r in (await client.list_resources()).resources]
            templates = (await client.list_resource_templates()).resource_templates
            container = await client.read_resource(f"service://container/{world.container_a}")
            glossary = await client.read_resource("service://docs/milestone-glossary")
        assert [str(uri) for uri in listed] == ["service://docs/milestone-glossary"]
        assert [t.uri_template for t in templates] == ["service://container/{id}"]
        text = container.contents[0].text  # type: ignore[union-attr]
        assert text.startswith("# Container TSTU")
        for part in (
            "## Milestones",
            "Holds:",
            "Fees:",
            "ETA at port of discharge",
            "Vessel loaded",
        ):
            assert part in text
        words = glossary.contents[0].text  # type: ignore[union-attr]
        assert all(f"`{name}`" in words for name in EVENT_NAMES)

    anyio.run(run)


@pytest.mark.parametrize("which", ["unknown", "another account's", "not a uuid"])
def test_resource__container_not_readable(which: str, mcp_url: str, world: World) -> None:
    key = {"unknown": UNKNOWN, "another account's": world.container_b, "not a uuid": "x1"}[which]

    async def run() -> None:
        async with http_client(mcp_url, world.key_a) as client:
            with pytest.raises(MCPError) as raised:
                await client.read_resource(f"service://container/{key}")
        expected = "not_found" if which != "not a uuid" else "invalid"
        assert expected in str(raised.value)

    anyio.run(run)


def test_glossary__every_event_name_once_in_journey_order() -> None:
    assert missing_names() == []
    names = [m.name for m in MILESTONES]
    assert len(names) == len(set(names)) == len(EVENT_NAMES)
    stages = {m.name: m.stage for m in MILESTONES}
    t = "container.transport."
    order = ["empty_out", "full_in", "vessel_loaded", "vessel_departed", "vessel_arrived"]
    order += ["vessel_discharged", "available", "full_out", "empty_in"]
    assert [stages[t + n] for n in order] == sorted(stages[t + n] for n in order)
