"""The layering of the code, checked on the source: shells never touch the database directly.

Shells (``api``, ``mcp``, ``web``, ``cli``) parse input, call the application layer and render;
only the application layer and the domain packages below it import SQLAlchemy or the store. The
engine (``routing``) imports nothing of the service, and JSON:API rendering no web framework.
The application layer imports no renderer and not the runtime that wires it (the runtime passes
renderers in), tracking none of the feeds that implement its carriers, configuration nothing.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import sealane

PACKAGE = Path(sealane.__file__).parent
SHELLS = ("api", "mcp", "web", "cli.py", "cli_accounts.py", "cli_engine.py")
#: (where, modules it must not import, exceptions): a module name covers the modules below it.
RULES = (
    (
        SHELLS,
        (
            "sqlalchemy",
            "sealane.store",
            "sealane.tracking.carrier_sync",
            "sealane.tracking.recording",
            "sealane.tracking.changes",
        ),
        (),
    ),
    (("routing",), ("fastapi", "starlette", "sqlalchemy", "mcp", "sealane"), ("sealane.routing",)),
    (("jsonapi",), ("fastapi", "starlette", "sqlalchemy", "sealane.store"), ()),
    (
        ("service",),
        (
            "fastapi",
            "starlette",
            "sealane.api",
            "sealane.mcp",
            "sealane.web",
            "sealane.jsonapi",
            "sealane.runtime",
            "sealane.demo",
        ),
        (),
    ),
    (("tracking",), ("sealane.feeds", "sealane.service", "sealane.webhooks"), ()),
    (("config",), ("sealane",), ("sealane.config",)),
)


def _under(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def imported_modules(path: Path) -> set[str]:
    """Every module a source file imports, relative imports resolved to absolute names."""
    module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                name = f"{base}.{node.module}" if node.module else base
            else:
                name = node.module or ""
            found.add(name)
            found.update(f"{name}.{alias.name}" for alias in node.names)
    return found


def sources(place: str) -> list[Path]:
    """The Python files of a subpackage or a single module of sealane."""
    target = PACKAGE / place
    if target.suffix == ".py":
        return [target] if target.exists() else []
    return sorted(target.rglob("*.py"))


def violations(
    places: tuple[str, ...], banned: tuple[str, ...], allowed: tuple[str, ...] = ()
) -> list[str]:
    """``file: module`` for every import in ``places`` of a banned module."""
    return [
        f"{path.relative_to(PACKAGE)}: {name}"
        for place in places
        for path in sources(place)
        for name in sorted(imported_modules(path))
        if _under(name, banned) and not _under(name, allowed)
    ]


@pytest.mark.parametrize(("places", "banned", "allowed"), RULES, ids=[r[0][0] for r in RULES])
def test_layers__no_forbidden_import(
    places: tuple[str, ...], banned: tuple[str, ...], allowed: tuple[str, ...]
) -> None:
    assert violations(places, banned, allowed) == []


def test_layers__checker_sees_a_shell_importing_the_store(tmp_path: Path) -> None:
    """The check itself can fail: a router that imports SQLAlchemy or the store is caught."""
    router = PACKAGE / "api" / "routers" / "_layering_probe.py"
    router.write_text(
        "from sqlalchemy import select\nfrom ...store.models import Shipment\n", encoding="utf-8"
    )
    try:
        found = violations(("api",), ("sqlalchemy", "sealane.store"))
    finally:
        router.unlink()
    assert found == [
        "api/routers/_layering_probe.py: sealane.store.models",
        "api/routers/_layering_probe.py: sealane.store.models.Shipment",
        "api/routers/_layering_probe.py: sqlalchemy",
        "api/routers/_layering_probe.py: sqlalchemy.select",
    ]


def test_imported_modules__resolves_relative_imports() -> None:
    names = imported_modules(PACKAGE / "api" / "routers" / "shipments.py")
    assert "sealane.service.tracking.shipments" in names or "sealane.service" in names
    assert "sealane.api.params" in names
