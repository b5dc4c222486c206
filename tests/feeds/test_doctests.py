"""The doctests of the feeds modules."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "sealane.feeds.ais.decoding",
    "sealane.feeds.ais.sources",
    "sealane.feeds.ais.tracks",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), verbose=False)
    assert result.attempted >= 1 and result.failed == 0
