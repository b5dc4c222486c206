"""The engine never imports the offline build: no module of ``sealane.routing`` outside
``build/`` names ``sealane.routing.build`` or any module in it."""

from __future__ import annotations

import ast
from pathlib import Path

import sealane.routing

ROUTING = Path(sealane.routing.__file__).parent
BUILD = "sealane.routing.build"


def build_imports(source: str, package: str) -> list[str]:
    """The modules and names imported by ``source`` (a module of ``package``) that lie in the
    build, relative imports resolved."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            names = [module, *(f"{module}.{alias.name}" for alias in node.names)]
        found += [name for name in names if name == BUILD or name.startswith(BUILD + ".")]
    return found


def engine_modules() -> dict[str, Path]:
    """Every module of ``sealane.routing`` outside ``build/``, by dotted package."""
    out: dict[str, Path] = {}
    for path in ROUTING.rglob("*.py"):
        parts = path.relative_to(ROUTING).parent.parts
        if "build" not in parts and path.name != "__main__.py":
            out[str(path)] = path
    return out


def test_engine__imports_nothing_from_the_build() -> None:
    leaks: dict[str, list[str]] = {}
    modules = engine_modules()
    assert len(modules) > 20
    for path in modules.values():
        package = ".".join(("sealane", "routing", *path.relative_to(ROUTING).parent.parts))
        if found := build_imports(path.read_text(encoding="utf-8"), package):
            leaks[str(path.relative_to(ROUTING))] = found
    assert leaks == {}


def test_build_imports__relative_and_absolute_imports_seen() -> None:
    assert build_imports("from .build import chains", "sealane.routing") == [
        BUILD,
        f"{BUILD}.chains",
    ]
    assert build_imports("from ..build.coast import coastline", "sealane.routing.data") == [
        f"{BUILD}.coast",
        f"{BUILD}.coast.coastline",
    ]
    assert build_imports("import sealane.routing.build.tags", "x") == [f"{BUILD}.tags"]
    assert build_imports("from .data import formats", "sealane.routing") == []
    assert build_imports("from .buildings import x", "sealane.routing") == []
