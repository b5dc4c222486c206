"""The version is written once, in pyproject.toml; everything else reads the package metadata."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import sealane

ROOT = Path(__file__).resolve().parents[1]
SOURCE = Path(sealane.__file__).resolve().parent


def declared() -> str:
    with (ROOT / "pyproject.toml").open("rb") as file:
        return str(tomllib.load(file)["project"]["version"])


def test_version__is_pyprojects_through_the_metadata() -> None:
    """A stale install (pyproject changed, not reinstalled) fails here: ``make`` reinstalls."""
    assert sealane.__version__ == version("sealane") == declared()


def test_version__written_nowhere_else_in_the_package() -> None:
    literal = re.compile(rf"""["']{re.escape(declared())}["']""")
    holders = [
        str(path.relative_to(SOURCE))
        for path in SOURCE.rglob("*.py")
        if literal.search(path.read_text(encoding="utf-8"))
    ]
    assert holders == []


def test_version__not_looked_up_by_import_sealane() -> None:
    """The engine's cold start does not pay for importlib.metadata; the first use does."""
    code = (
        "import sys, sealane; print('importlib.metadata' in sys.modules);"
        " print(sealane.__version__ == sealane.__version__)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.split() == ["False", "True"]


def test_version__other_attributes_still_missing() -> None:
    assert not hasattr(sealane, "__no_such_attribute__")


def test_version__in_the_openapi_document(tmp_path: Path) -> None:
    from sealane.api.app import create_app
    from sealane.config import Settings

    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'sealane.db'}"))
    assert app.openapi()["info"]["version"] == declared()
