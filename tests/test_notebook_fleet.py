"""The fleet notebook: saved with its outputs, and every cell runs in a fresh kernel (the venv's
python, through a kernelspec of the test's own; see ``test_notebook.py``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "fleet_etas.ipynb"
MAX_BYTES = 1_000_000
FIGURES = 3


def _outputs(cell: Any) -> list[Any]:
    return list(cell.get("outputs", []))


def _text(output: Any) -> str:
    if output.get("output_type") == "stream":
        return str(output.get("text", ""))
    return str(output.get("data", {}).get("text/plain", ""))


def _all_text(nb: Any) -> str:
    return "\n".join(_text(o) for cell in nb.cells for o in _outputs(cell))


def _figures(nb: Any) -> int:
    return sum("image/png" in o.get("data", {}) for cell in nb.cells for o in _outputs(cell))


@pytest.fixture
def venv_kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A ``python3`` kernelspec running this interpreter, found before any other."""
    spec_dir = tmp_path / "kernels" / "python3"
    spec_dir.mkdir(parents=True)
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (sealane tests)",
        "language": "python",
    }
    (spec_dir / "kernel.json").write_text(json.dumps(spec), encoding="utf-8")
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    return "python3"


def _check(nb: Any) -> None:
    text = _all_text(nb)
    assert "3,000 vessels, 2,994 with an ETA" in text
    assert "equal: True" in text
    assert "vessels due at Rotterdam" in text
    assert "9 arrivals recorded within 60 h" in text
    assert "failed rows: 0" in text
    assert _figures(nb) == FIGURES


def test_fleet_notebook__saved_with_outputs_and_small() -> None:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    code_cells = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert code_cells and all(cell.get("execution_count") for cell in code_cells)
    _check(nb)
    assert NOTEBOOK.stat().st_size < MAX_BYTES


@pytest.mark.slow
def test_fleet_notebook__executes(venv_kernel: str) -> None:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = NotebookClient(
        nb, kernel_name=venv_kernel, timeout=120,
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )  # fmt: skip
    client.execute()  # raises CellExecutionError on the first failing cell
    assert not [o for cell in nb.cells for o in _outputs(cell) if o.output_type == "error"]
    _check(nb)
    stderr = [_text(o) for cell in nb.cells for o in _outputs(cell) if o.get("name") == "stderr"]
    assert not [s for s in stderr if "Warning" in s], stderr
