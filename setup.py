"""Build hooks: the C extensions, and the shipped data copied into wheels as ``sealane/_data``."""

import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

DATA_FILES = ("marnet.npz", "ports.csv", "landmask.npz", "passages.json", "README.md")


class BuildPyWithData(build_py):
    """Copy ``data/`` into the built package so a wheel carries everything the engine loads."""

    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "sealane" / "_data"
        target.mkdir(parents=True, exist_ok=True)
        for name in DATA_FILES:
            source = Path("data") / name
            if source.exists():
                shutil.copy2(source, target / name)


setup(
    ext_modules=[
        Extension(
            "sealane.routing._search",
            sources=["src/sealane/routing/_search.c"],
            extra_compile_args=["-O2"],
        ),
        Extension(
            "sealane.routing._render",
            sources=["src/sealane/routing/_render.c"],
            extra_compile_args=["-O2"],
        ),
    ],
    cmdclass={"build_py": BuildPyWithData},
)
