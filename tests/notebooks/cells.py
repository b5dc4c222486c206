"""Reading a notebook's saved or fresh outputs, and running it, for the notebook tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient

#: ``notebooks/`` of the checkout.
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def outputs(cell: Any) -> list[Any]:
    return list(cell.get("outputs", []))


def text(output: Any) -> str:
    """What an output shows as text: a stream's text or a result's ``text/plain``."""
    if output.get("output_type") == "stream":
        return str(output.get("text", ""))
    return str(output.get("data", {}).get("text/plain", ""))


def all_text(nb: Any) -> str:
    return "\n".join(text(o) for cell in nb.cells for o in outputs(cell))


def figures(nb: Any) -> int:
    return sum("image/png" in o.get("data", {}) for cell in nb.cells for o in outputs(cell))


def errors(nb: Any) -> list[Any]:
    return [o for cell in nb.cells for o in outputs(cell) if o.output_type == "error"]


def warnings_on_stderr(nb: Any) -> list[str]:
    stderr = [text(o) for cell in nb.cells for o in outputs(cell) if o.get("name") == "stderr"]
    return [s for s in stderr if "Warning" in s]


def saved_executed(nb: Any) -> bool:
    """Whether every code cell was saved with an execution count (the notebook was run)."""
    code_cells = [cell for cell in nb.cells if cell.cell_type == "code"]
    return bool(code_cells) and all(cell.get("execution_count") for cell in code_cells)


def execute(nb: Any, path: Path, kernel_name: str) -> None:
    """Run every cell of ``nb`` (read from ``path``) in a fresh kernel, in its own folder;
    raises ``CellExecutionError`` on the first failing cell."""
    client = NotebookClient(
        nb, kernel_name=kernel_name, timeout=120, resources={"metadata": {"path": str(path.parent)}}
    )
    client.execute()


def read(path: Path) -> Any:
    return nbformat.read(path, as_version=4)
