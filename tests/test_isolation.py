"""``import sealane`` is the engine alone: no web, database or MCP layers, no build-time tools."""

from __future__ import annotations

import subprocess
import sys
import textwrap

#: Service-layer packages the engine must never import.
SERVICE_PACKAGES = ("fastapi", "sqlalchemy", "mcp")
#: Only the offline build step (``sealane.routing.build``) may use these.
BUILD_PACKAGES = ("scipy", "searoute", "timezonefinder", "shapely", "networkx")

SCRIPT = textwrap.dedent(
    """
    import sys

    BLOCKED = set(sys.argv[1].split(","))


    class Block:
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in BLOCKED:
                raise ImportError(f"import of {name} blocked by the isolation test")
            return None


    sys.meta_path.insert(0, Block())
    import sealane
    import sealane.cli

    result = sealane.route("CNSHA", "NLRTM")
    assert 10_000 < result.distance_nm < 11_000, result.distance_nm
    watched = BLOCKED | set(sys.argv[2].split(","))
    leaked = sorted(m for m in sys.modules if m.partition(".")[0] in watched)
    assert not leaked, leaked
    print("isolated")
    """
)


def run_isolated(
    blocked: tuple[str, ...], watched: tuple[str, ...]
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", SCRIPT, ",".join(blocked), ",".join(watched)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_import_sealane__works_without_service_packages() -> None:
    done = run_isolated(SERVICE_PACKAGES, BUILD_PACKAGES)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "isolated"


def test_import_sealane__blocker_is_effective() -> None:
    """The harness itself can fail: blocking numpy must break the import."""
    done = run_isolated(("numpy",), ())
    assert done.returncode != 0
    assert "blocked by the isolation test" in done.stderr


def test_import_sealane__loads_no_service_modules() -> None:
    code = (
        "import sys, sealane; "
        f"print(sorted(m for m in sys.modules if m.partition('.')[0] in {SERVICE_PACKAGES!r}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
