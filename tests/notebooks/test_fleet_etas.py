"""The fleet notebook: saved with its outputs, and every cell runs in a fresh kernel."""

from __future__ import annotations

from typing import Any

import pytest

from tests.notebooks import cells

NOTEBOOK = cells.NOTEBOOKS / "fleet_etas.ipynb"
MAX_BYTES = 1_000_000
FIGURES = 3


def _check(nb: Any) -> None:
    text = cells.all_text(nb)
    # Two rows are refused on purpose (row 7 names NLRTN, row 8 lies at 10 E 50 N); one more,
    # drawn 0.05 degrees off a track by the coast, lands ashore.
    assert "3,000 vessels, 2,997 with an ETA; errors: {'on_land': 2, 'unknown_port': 1}" in text
    assert "equal: True" in text
    assert "vessels due at Rotterdam" in text
    assert "9 arrivals recorded within 60 h" in text
    assert "failed rows: 0" in text
    assert cells.figures(nb) == FIGURES


def test_fleet_notebook__saved_with_outputs_and_small() -> None:
    nb = cells.read(NOTEBOOK)
    assert cells.saved_executed(nb)
    _check(nb)
    assert NOTEBOOK.stat().st_size < MAX_BYTES


@pytest.mark.slow
def test_fleet_notebook__executes(venv_kernel: str) -> None:
    nb = cells.read(NOTEBOOK)
    cells.execute(nb, NOTEBOOK, venv_kernel)
    assert not cells.errors(nb)
    _check(nb)
    assert not cells.warnings_on_stderr(nb)
