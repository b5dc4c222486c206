"""The speed profile notebook: saved with its outputs, and every cell runs in a fresh kernel."""

from __future__ import annotations

import nbformat
import pytest

from tests.notebooks import cells

NOTEBOOK = cells.NOTEBOOKS / "speed_profile.ipynb"
MAX_BYTES = 500_000
FIGURES = 3


def test_notebook__saved_with_outputs_and_small() -> None:
    nb = cells.read(NOTEBOOK)
    assert cells.saved_executed(nb), "save the notebook executed"
    assert cells.figures(nb) == FIGURES
    assert "ETA Rotterdam 2026-12" in cells.all_text(nb)
    assert NOTEBOOK.stat().st_size < MAX_BYTES


@pytest.mark.slow
def test_notebook__executes(venv_kernel: str) -> None:
    nb = cells.read(NOTEBOOK)
    nb.cells.append(nbformat.v4.new_code_cell("print(len(waiting), len(canal))"))
    cells.execute(nb, NOTEBOOK, venv_kernel)

    assert not cells.errors(nb)
    text = cells.all_text(nb)
    assert "h on the speed profile" in text and "one a minute" in text
    # The wait at Suez: 540 minutes on one point; the canal at convoy speed for hours.
    waiting, canal = map(int, cells.text(cells.outputs(nb.cells[-1])[0]).split())
    assert waiting == 539 and canal > 600
    assert "avoiding suez" in text and "good_hope" in text
    assert cells.figures(nb) == FIGURES
    assert not cells.warnings_on_stderr(nb)
