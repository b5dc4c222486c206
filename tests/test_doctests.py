"""Run the doctests of every module of the ``sealane`` package, found as the package stands.

Modules are found from the package's folders, not from a list: files move, and a new module's
examples run without anyone adding it here. ``pkgutil.walk_packages`` does not descend into a
namespace package (a folder of modules without ``__init__.py``); the walk below treats any such
folder as a package too, should one appear.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import sealane

#: Left out, with the reason.
SKIPPED = {
    # The offline pipeline: it needs the build extra and GSHHG, and the engine never imports it.
    "sealane.routing.build",
    # Alembic's scripts, loaded by Alembic from their paths; importing env.py runs migrations.
    "sealane.store.migrations",
}
#: Modules that must be found wherever files move (a check that the walk is not vacuous).
EXPECTED = {
    "sealane.routing.routes",
    "sealane.webhooks.signing",
    "sealane.api.compression",
    "sealane.tracking.numbers",
}


def skipped(name: str) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in SKIPPED)


def walk(folder: Path, package: str) -> Iterator[str]:
    """Dotted names of the modules in ``folder`` and its subfolders (``__main__`` left out: it
    runs a program when imported)."""
    for info in pkgutil.iter_modules([str(folder)], prefix=package + "."):
        if not skipped(info.name) and not info.name.endswith(".__main__"):
            yield info.name
            if info.ispkg:
                yield from walk(folder / info.name.rpartition(".")[2], info.name)
    for sub in sorted(folder.iterdir()):
        namespace = f"{package}.{sub.name}"
        if (
            sub.is_dir()
            and sub.name.isidentifier()
            and not (sub / "__init__.py").exists()
            and any(sub.glob("*.py"))
            and not skipped(namespace)
        ):
            yield from walk(sub, namespace)


MODULES = ["sealane", *sorted(walk(Path(sealane.__file__).parent, "sealane"))]


def test_doctests__modules_found() -> None:
    assert set(MODULES) >= EXPECTED
    assert not [name for name in MODULES if skipped(name)]
    for name in sorted(EXPECTED):
        examples = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
        assert examples.attempted >= 1, name


@pytest.mark.parametrize("name", MODULES)
def test_doctests__module(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctests failed in {name}"
