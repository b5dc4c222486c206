"""Build hooks: the C extensions, and the shipped data copied into wheels as ``sealane/_data``."""

import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

#: Every shipped file of ``data/`` goes into the wheel (the engine's network, ports and land
#: mask; the service's carriers and terminals; the README of sources and licences).
DATA_SUFFIXES = (".npz", ".csv", ".json", ".geojson", ".md", ".nmea", ".gz")


class BuildPyWithData(build_py):
    """Copy ``data/`` into the built package so a wheel carries everything the engine loads."""

    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "sealane" / "_data"
        target.mkdir(parents=True, exist_ok=True)
        for source in sorted(Path("data").iterdir()):
            if source.is_file() and source.suffix in DATA_SUFFIXES:
                shutil.copy2(source, target / source.name)


setup(
    ext_modules=[
        Extension(
            "sealane.routing._search",
            sources=["src/sealane/routing/_search.c"],
            depends=["src/sealane/routing/_heap.h", "src/sealane/routing/_held.h"],
            extra_compile_args=["-O2"],
        ),
        Extension(
            "sealane.routing._hierarchy",
            sources=["src/sealane/routing/_hierarchy.c"],
            depends=["src/sealane/routing/_heap.h", "src/sealane/routing/_held.h"],
            extra_compile_args=["-O2"],
        ),
        Extension(
            "sealane.api._positions_json",
            sources=["src/sealane/api/_positions_json.c"],
            extra_compile_args=["-O2"],
        ),
        Extension(
            "sealane.api._records",
            sources=["src/sealane/api/_records.c"],
            extra_compile_args=["-O2"],
        ),
        Extension(
            "sealane.routing._geodesic",
            sources=["src/sealane/routing/_geodesic.c"],
            depends=["src/sealane/routing/_vincenty.h"],
            extra_compile_args=["-O2"],
        ),
        Extension(
            "sealane.routing._snapping",
            sources=["src/sealane/routing/_snapping.c"],
            extra_compile_args=["-O2"],
        ),
        Extension(
            "sealane.routing._network",
            sources=["src/sealane/routing/_network.c"],
            depends=[
                "src/sealane/routing/_vincenty.h",
                "src/sealane/routing/_network_arrays.h",
                "src/sealane/routing/_held.h",
                "src/sealane/routing/_trim.h",
            ],
            extra_compile_args=["-O2"],
        ),
    ],
    cmdclass={"build_py": BuildPyWithData},
)
