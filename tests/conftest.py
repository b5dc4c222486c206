"""Run with xdist (``-n``), the tests are handed out a module at a time (``loadscope``).

xdist's default hands out single tests, so a module's tests end up on several workers and each
of them builds the module's module-scoped fixtures (a simulated fleet or voyage, a seeded world,
a started server) again. A whole module on one worker builds them once; with some 300 modules
the workers stay busy alike. Set here rather than as ``--dist`` in the options, which a run
without xdist (``-p no:xdist``) would refuse. (``xdist_group`` marks would group across
modules, but xdist cannot apply them under pytest 9.)
"""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """``--dist loadscope`` in place of xdist's default ``load`` (an explicit other kept)."""
    if getattr(config.option, "dist", None) == "load":
        config.option.dist = "loadscope"
