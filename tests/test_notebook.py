"""The ETA analysis notebook: saved with its outputs, and every cell runs in a fresh kernel.

The kernel is this interpreter (``sys.executable``, i.e. the venv's python): the test writes its own
``python3`` kernelspec to a temporary directory and puts it first on ``JUPYTER_PATH``, so a user's
or the system's kernelspecs cannot send the notebook to another python.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "eta_analysis.ipynb"
MAX_BYTES = 1_500_000
FIGURES = 4


def _outputs(cell: Any) -> list[Any]:
    return list(cell.get("outputs", []))


def _text(output: Any) -> str:
    """What an output shows as text: a stream's text or a result's ``text/plain``."""
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


def test_notebook__saved_with_outputs_and_small() -> None:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    code_cells = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert code_cells
    assert all(cell.get("execution_count") for cell in code_cells), "save the notebook executed"
    assert _figures(nb) == FIGURES
    assert "2026-12" in _all_text(nb)
    assert NOTEBOOK.stat().st_size < MAX_BYTES


@pytest.mark.slow
def test_notebook__executes(venv_kernel: str) -> None:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell("import sys\nprint(sys.executable)"))
    client = NotebookClient(
        nb,
        kernel_name=venv_kernel,
        timeout=120,
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )
    client.execute()  # raises CellExecutionError on the first failing cell

    errors = [o for cell in nb.cells for o in _outputs(cell) if o.output_type == "error"]
    assert not errors
    assert _text(_outputs(nb.cells[-1])[0]).strip() == sys.executable

    text = _all_text(nb)
    eta_line = next(line for line in text.splitlines() if line.startswith("ETA Rotterdam"))
    assert "2026-12" in eta_line
    assert "babalmandab -> suez -> gibraltar -> dover" in text
    assert "good_hope" in text
    assert "ETA at the POD now 2026-12" in text  # the itinerary section, vessel mid-leg
    assert "'current_vessel': 1, 'estimated_partial_leg': 1, 'estimated_full_legs': 1" in text
    assert _figures(nb) == FIGURES

    stderr = [_text(o) for cell in nb.cells for o in _outputs(cell) if o.get("name") == "stderr"]
    assert not [s for s in stderr if "Warning" in s], stderr
