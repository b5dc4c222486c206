"""Run the doctests of every engine module (the offline build step is skipped)."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import sealane.routing

ROUTING_DIR = Path(sealane.routing.__file__).parent
SKIPPED = {"build", "__init__"}
MODULES = sorted(
    f"sealane.routing.{path.stem}" for path in ROUTING_DIR.glob("*.py") if path.stem not in SKIPPED
)


def test_doctests__modules_found() -> None:
    assert {"sealane.routing.routes", "sealane.routing.geodesy"} <= set(MODULES)
    routes = importlib.import_module("sealane.routing.routes")
    assert doctest.testmod(routes, verbose=False).attempted >= 3


@pytest.mark.parametrize("name", MODULES)
def test_doctests__module(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctests failed in {name}"
