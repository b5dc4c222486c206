"""The milestone glossary: every event name of the interface document, what it means and where it
usually falls in a container's journey (the ``service://docs/milestone-glossary`` resource), as
the event table of the application layer states them."""

from __future__ import annotations

from ..vocabulary.events import EVENT_NAMES, EVENTS, event_label, journey

#: The glossary's rows: the event table (name, label, meaning, stage, category).
MILESTONES = EVENTS


def label(event: str) -> str:
    """A short readable label for an event name (see the event table)."""
    return event_label(event)


def glossary_markdown() -> str:
    """The glossary as Markdown: journey milestones in their usual order, then the other events."""
    steps = journey()
    others = [m for m in MILESTONES if not m.stage]
    lines = [
        "# Milestone glossary",
        "",
        "Event names of the tracking service, what each means, and the order in which they",
        "usually occur. Not every journey has every step: feeder, transshipment and rail",
        "events appear only when the container takes such a leg; steps with the same number",
        "can come in either order.",
        "",
        "## A container's journey, in the usual order",
        "",
        "| step | event | label | meaning |",
        "|---|---|---|---|",
    ]
    lines += [f"| {m.stage} | `{m.name}` | {m.label} | {m.meaning} |" for m in steps]
    lines += ["", "## Other events", "", "| event | label | meaning |", "|---|---|---|"]
    lines += [f"| `{m.name}` | {m.label} | {m.meaning} |" for m in others]
    lines += [
        "",
        "Container `current_status` follows the latest step: `new` before loading, `on_ship`",
        "from loading to arrival, `grounded` / `available` / `not_available` after discharge,",
        "`picked_up` after full out, `on_rail` inland, `delivered`, `empty_returned`.",
    ]
    return "\n".join(lines) + "\n"


def missing_names() -> list[str]:
    """Event names of the document without a glossary entry (none: both come from one table)."""
    listed = {m.name for m in MILESTONES}
    return [name for name in EVENT_NAMES if name not in listed]
