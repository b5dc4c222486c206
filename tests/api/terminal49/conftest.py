"""The world every test of this package reads: built once (about 20 s), on its own database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from . import document as t49
from .world import World, build_world


@pytest.fixture(scope="package")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    t49.require_document()
    yield from build_world(Path(tmp_path_factory.mktemp("terminal49")))
