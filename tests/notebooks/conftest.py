"""The kernel every notebook test runs on: this interpreter (``sys.executable``, the venv's
python). The fixture writes its own ``python3`` kernelspec to a temporary directory and puts it
first on ``JUPYTER_PATH``, so a user's or the system's kernelspecs cannot send a notebook to
another python."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest


@pytest.fixture
def venv_kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A ``python3`` kernelspec running this interpreter, found before any other."""
    spec_dir = tmp_path / "kernels" / "python3"
    spec_dir.mkdir(parents=True)
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (sealane tests)",
        "language": "python",
    }
    (spec_dir / "kernel.json").write_text(json.dumps(spec), encoding="utf-8")
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    return "python3"
