"""The import contract (``[tool.importlinter]`` in pyproject.toml, run by ``make lint``): it holds
on the tree, and it fails when a module breaks it.

A failure is shown on a copy of the package's Python files under ``tmp_path`` with one import
added, checked by ``lint-imports`` in a process whose ``PYTHONPATH`` puts the copy first: the
source tree itself is never written to, so parallel test workers never see a probe module.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import sealane

PACKAGE = Path(sealane.__file__).parent
CONFIG = PACKAGE.parents[1] / "pyproject.toml"
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(source_root: Path, *contracts: str) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` with the project's contracts (only ``contracts`` when given) on the
    ``sealane`` package found in ``source_root``."""
    command = [str(LINT_IMPORTS), "--config", str(CONFIG), "--no-cache", "--no-logo"]
    for contract in contracts:
        command += ["--contract", contract]
    env = {**os.environ, "PYTHONPATH": str(source_root)}
    return subprocess.run(
        command, cwd=source_root, env=env, capture_output=True, text=True, timeout=300
    )


def package_copy(tmp_path: Path) -> Path:
    """A copy of the package's Python sources (no data, no compiled extensions) under
    ``tmp_path``; returns the directory holding the copied ``sealane``."""
    root = tmp_path / "src"
    for source in PACKAGE.rglob("*.py"):
        if "__pycache__" in source.parts:
            continue
        target = root / "sealane" / source.relative_to(PACKAGE)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    return root


def add_import(root: Path, module: str, line: str) -> None:
    """Append ``line`` (an import) to the copied module ``module`` (path below ``sealane``),
    creating the module when it does not exist."""
    path = root / "sealane" / module
    before = path.read_text(encoding="utf-8") if path.exists() else ""
    path.write_text(before + "\n" + line + "\n", encoding="utf-8")


def test_import_contract__kept_by_the_tree() -> None:
    done = lint_imports(PACKAGE.parent)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_import_contract__broken_by_a_router_importing_the_store(tmp_path: Path) -> None:
    root = package_copy(tmp_path)
    add_import(root, "api/routers/probe.py", "from ...store.models import Shipment  # noqa")
    done = lint_imports(root, "shells")
    assert done.returncode == 1
    assert "shells use the application layer and the engine's public names only BROKEN" in (
        done.stdout
    )
    assert "sealane.api.routers.probe -> sealane.store.models (l.2)" in done.stdout


@pytest.mark.parametrize(
    ("contract", "module", "line", "reported"),
    [
        (
            "shells",
            "web/pages/probe.py",
            "import sqlalchemy",
            "sealane.web.pages.probe -> sqlalchemy",
        ),
        (
            "shells",
            "mcp/probe.py",
            "from ..routing.ports import registry",
            "sealane.mcp.probe -> sealane.routing.ports",
        ),
        (
            "engine-alone",
            "routing/probe.py",
            "from ..store import models",
            "sealane.routing.probe -> sealane.store.models",
        ),
        (
            "service-no-web",
            "service/search.py",
            "import fastapi",
            "sealane.service.search -> fastapi",
        ),
    ],
    ids=["web-sqlalchemy", "mcp-engine-submodule", "engine-store", "service-fastapi"],
)
def test_import_contract__broken_by_a_forbidden_import(
    tmp_path: Path, contract: str, module: str, line: str, reported: str
) -> None:
    root = package_copy(tmp_path)
    add_import(root, module, line)
    done = lint_imports(root, contract)
    assert done.returncode == 1
    assert reported in done.stdout


def test_import_contract__broken_by_two_packages_importing_each_other(tmp_path: Path) -> None:
    """feeds.ais and feeds.dcsa importing each other: no layer names them, the acyclic
    contract still fails."""
    root = package_copy(tmp_path)
    add_import(root, "feeds/ais/reports.py", "from ..dcsa import events as _dcsa  # noqa")
    add_import(root, "feeds/dcsa/events.py", "from ..ais import reports as _ais  # noqa")
    done = lint_imports(root, "acyclic")
    assert done.returncode == 1
    assert "No cycles are allowed in sealane.feeds." in done.stdout
    assert "- .dcsa -> .ais (1 import)" in done.stdout


def test_import_contract__broken_by_a_lower_layer_importing_a_higher_one(tmp_path: Path) -> None:
    root = package_copy(tmp_path)
    add_import(root, "store/accounts.py", "from ..service.core import errors  # noqa")
    done = lint_imports(root, "layers")
    assert done.returncode == 1
    assert "sealane.store.accounts -> sealane.service.core.errors" in done.stdout
