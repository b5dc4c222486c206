"""The fixtures every test package shares, built from :mod:`tests.toolkit`: a real app on a new
SQLite file with a manual clock (``app``, ``client``, ``keys`` of a routing and a plain account,
a ``vessel``), and one app per module for read-only tests (``shared_app``, ...).

Run with xdist (``-n``), the tests are handed out a module at a time (``loadscope``).

xdist's default hands out single tests, so a module's tests end up on several workers and each
of them builds the module's module-scoped fixtures (a simulated fleet or voyage, a seeded world,
a started server) again. A whole module on one worker builds them once; with some 300 modules
the workers stay busy alike. Set here rather than as ``--dist`` in the options, which a run
without xdist (``-p no:xdist``) would refuse. (``xdist_group`` marks would group across
modules, but xdist cannot apply them under pytest 9.)
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from sealane.clock import ManualClock
from sealane.config import Settings
from sealane.store.models import Vessel
from tests.toolkit import START, Keys, make_app, make_keys, make_settings, make_vessel


def pytest_configure(config: pytest.Config) -> None:
    """``--dist loadscope`` in place of xdist's default ``load`` (an explicit other kept)."""
    if getattr(config.option, "dist", None) == "load":
        config.option.dist = "loadscope"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings on a new SQLite file (a copy of a migrated one: ``tests.templates``)."""
    return make_settings(tmp_path / "sealane.db")


@pytest.fixture
def app(settings: Settings, clock: ManualClock) -> FastAPI:
    return make_app(settings, clock=clock)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture
def keys(app: FastAPI) -> Keys:
    return make_keys(app)


@pytest.fixture
def vessel(app: FastAPI) -> Vessel:
    """A vessel in the Arabian Sea bound from Shanghai to Rotterdam, last seen at START."""
    return make_vessel(app)


@pytest.fixture(scope="module")
def shared_app(tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    """One app per test module, for read-only tests (creating an app costs about 0.3 s; on a
    copy of a prepared database, as :func:`settings`, much less)."""
    path = tmp_path_factory.mktemp("shared") / "sealane.db"
    return make_app(path, rate_limit_per_minute=100_000)


@pytest.fixture(scope="module")
def shared_client(shared_app: FastAPI) -> Iterator[TestClient]:
    """A client of :func:`shared_app`; tests using it must not change the database."""
    with TestClient(shared_app, raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def shared_keys(shared_app: FastAPI) -> Keys:
    """Keys of a routing and a plain account in :func:`shared_app`."""
    return make_keys(shared_app, "Shared ")
