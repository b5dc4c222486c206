"""The milestone glossary is a view of the application layer's event table."""

from __future__ import annotations

from sealane.mcp.glossary import MILESTONES, glossary_markdown, label
from sealane.vocabulary.events import EVENTS, journey


def test_glossary__one_line_per_event_from_the_table() -> None:
    text = glossary_markdown()
    assert MILESTONES == EVENTS
    for term in EVENTS:
        row = f"| `{term.name}` | {term.label} | {term.meaning} |"
        assert text.count(f"`{term.name}`") == 1
        assert row in text
        if term.stage:
            assert f"| {term.stage} {row}" in text


def test_glossary__journey_then_others_in_order() -> None:
    lines = [line for line in glossary_markdown().splitlines() if line.startswith("| ")]
    names = [line.split("`")[1] for line in lines if "`" in line]
    others = [t.name for t in EVENTS if not t.stage]
    assert names == [t.name for t in journey()] + others


def test_label__the_tables_label() -> None:
    assert all(label(term.name) == term.label for term in EVENTS)
