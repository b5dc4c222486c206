"""The ETA analysis notebook: saved with its outputs, and every cell runs in a fresh kernel."""

from __future__ import annotations

import sys

import nbformat
import pytest

from tests.notebooks import cells

NOTEBOOK = cells.NOTEBOOKS / "eta_analysis.ipynb"
MAX_BYTES = 1_500_000
FIGURES = 6


def test_notebook__saved_with_outputs_and_small() -> None:
    nb = cells.read(NOTEBOOK)
    assert cells.saved_executed(nb), "save the notebook executed"
    assert cells.figures(nb) == FIGURES
    assert "2026-12" in cells.all_text(nb)
    assert NOTEBOOK.stat().st_size < MAX_BYTES


@pytest.mark.slow
def test_notebook__executes(venv_kernel: str) -> None:
    nb = cells.read(NOTEBOOK)
    nb.cells.append(nbformat.v4.new_code_cell("import sys\nprint(sys.executable)"))
    cells.execute(nb, NOTEBOOK, venv_kernel)

    assert not cells.errors(nb)
    assert cells.text(cells.outputs(nb.cells[-1])[0]).strip() == sys.executable

    text = cells.all_text(nb)
    eta_line = next(line for line in text.splitlines() if line.startswith("ETA Rotterdam"))
    assert "2026-12" in eta_line
    assert "babalmandab -> suez -> gibraltar -> dover" in text
    assert "good_hope" in text
    assert "ETA at the POD now 2026-12" in text  # the itinerary section, vessel mid-leg
    assert "'current_vessel': 1, 'estimated_partial_leg': 1, 'estimated_full_legs': 1" in text
    p10 = next(line for line in text.splitlines() if line.startswith("P10 "))
    p90 = next(line for line in text.splitlines() if line.startswith("P90 "))
    assert p10.split()[1] <= eta_line.split()[2] <= p90.split()[1]  # the range, ordered
    assert "arrival 21 Mar" in text and "inside P10-P90 for" in text  # the held-out voyage
    assert cells.figures(nb) == FIGURES
    assert not cells.warnings_on_stderr(nb)
