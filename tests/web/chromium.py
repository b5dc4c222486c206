"""Debian's Chromium and ChromeDriver for the browser tests, and axe-core for accessibility.

Like :mod:`tests.pg` for PostgreSQL: ``/usr/bin/chromium`` and ``/usr/bin/chromedriver`` are
installed with ``apt-get install chromium chromium-driver`` when missing and we are root
(otherwise the browser tests are skipped, loudly). Selenium drives that browser through that
driver by path: no browser or driver is ever downloaded. axe-core comes from the npm registry,
installed once with npm into a cache directory (``~/.cache/sealane-tests``), never into the
repository.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
APT_ENV = {"DEBIAN_FRONTEND": "noninteractive", "NEEDRESTART_MODE": "a"}
APT_INSTALL = (
    "apt-get",
    "-o",
    "DPkg::Lock::Timeout=300",
    "install",
    "-y",
    "--no-install-recommends",
    "chromium",
    "chromium-driver",
)
AXE_VERSION = "4.10.3"
#: Chromium's switches for a test run: no sandbox (root), no GPU, and no traffic of its own
#: (updates, sync, field trials, safe browsing), so the only requests are the pages'.
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-features=Translate,OptimizationHints,MediaRouter",
    "--metrics-recording-only",
    "--password-store=basic",
    "--force-color-profile=srgb",
    "--hide-scrollbars",
)
#: Seconds spent setting up (shown in the pytest summary).
timings: dict[str, float] = {}


def _run(argv: tuple[str, ...] | list[str], *, timeout: float, **kwargs: object) -> str | None:
    try:
        done = subprocess.run(  # type: ignore[call-overload]
            argv, capture_output=True, text=True, timeout=timeout, check=False, **kwargs
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"{' '.join(argv)}: {error}"
    if done.returncode == 0:
        return None
    return f"{' '.join(argv)} exited with {done.returncode}:\n{(done.stdout + done.stderr)[-3000:]}"


def ensure_chromium() -> tuple[Path, Path]:
    """(chromium, chromedriver), installed with apt when missing (root only; else a skip)."""
    if CHROMIUM.exists() and CHROMEDRIVER.exists():
        return CHROMIUM, CHROMEDRIVER
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.skip(
            "!!! browser tests NOT RUN: /usr/bin/chromium or /usr/bin/chromedriver missing and "
            "they cannot be installed here (run as root, or `apt-get install chromium "
            "chromium-driver`) !!!"
        )
    env = {**os.environ, **APT_ENV}
    started = time.perf_counter()
    failure = _run(APT_INSTALL, timeout=900, env=env)
    if failure is not None:  # stale package lists: update once, then retry
        failure = _run(("apt-get", "-o", "DPkg::Lock::Timeout=300", "update"), timeout=600, env=env)
        if failure is None:
            failure = _run(APT_INSTALL, timeout=900, env=env)
    timings["apt-get install chromium chromium-driver"] = time.perf_counter() - started
    if failure is not None or not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        pytest.fail(f"could not install Chromium for the browser tests:\n{failure}", pytrace=False)
    return CHROMIUM, CHROMEDRIVER


def cache_dir() -> Path:
    """Where test tools fetched from a registry are kept between runs."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "sealane-tests"


def ensure_axe() -> str:
    """The source of axe-core's ``axe.min.js`` (npm-installed into the cache when missing)."""
    prefix = cache_dir() / f"axe-core-{AXE_VERSION}"
    script = prefix / "node_modules" / "axe-core" / "axe.min.js"
    if not script.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("!!! accessibility test NOT RUN: npm is needed to install axe-core !!!")
        prefix.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        argv = (npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund")
        failure = _run((*argv, f"axe-core@{AXE_VERSION}"), timeout=600)
        timings[f"npm install axe-core@{AXE_VERSION}"] = time.perf_counter() - started
        if failure is not None or not script.exists():
            pytest.fail(f"could not install axe-core with npm:\n{failure}", pytrace=False)
    return script.read_text(encoding="utf-8")


def new_profile() -> str:
    """A fresh, empty user data directory for one browser."""
    return tempfile.mkdtemp(prefix="sealane-chromium-")


def summary() -> str | None:
    """One line on what the setup installed, or None."""
    if not timings:
        return None
    return "Browser test setup: " + ", ".join(f"{k} {v:.1f} s" for k, v in timings.items())
