# sealane: `make run` and `make test` work on a fresh machine; they create .venv themselves.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp

.PHONY: setup bytecode run test test-quick lint format bench data clean

$(STAMP): pyproject.toml setup.py $(wildcard src/sealane/routing/*.c src/sealane/api/*.c)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

# Byte-compile the checkout's modules, as pip does for an installed package: where
# PYTHONDONTWRITEBYTECODE is set, every process would otherwise compile them again on import
# (about 45 ms of a cold start). Up-to-date files are skipped.
bytecode: $(STAMP)
	$(PY) -m compileall -q src

run: bytecode
	$(VENV)/bin/sealane serve --demo

test: bytecode
	$(PY) -m pytest -q -n auto

test-quick: bytecode
	$(PY) -m pytest -q -n auto -m "not slow"

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src tests benchmarks
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports
	$(VENV)/bin/vulture
	$(PY) scripts/check_test_mirror.py

format: $(STAMP)
	$(VENV)/bin/ruff format src tests benchmarks
	$(VENV)/bin/ruff check --fix src tests benchmarks

bench: bytecode
	$(PY) benchmarks/routes.py
	$(PY) benchmarks/positions.py
	$(PY) benchmarks/api.py
	$(PY) benchmarks/ais.py
	$(PY) benchmarks/itinerary.py
	$(PY) benchmarks/vessel.py
	$(PY) benchmarks/fleet.py --quick

# Rebuild data/marnet.npz, ports.csv, corridors.geojson and landmask.npz (offline, re-runnable;
# about 30 minutes). Needs Debian's gmt-gshhg-full for the GSHHG river and canal lines.
data: $(STAMP)
	@test -f /usr/share/gmt-gshhg/binned_river_f.nc || \
		{ echo "make data needs Debian's gmt-gshhg-full: apt-get install gmt-gshhg-full"; exit 1; }
	$(PY) -m sealane.routing.build

clean:
	rm -rf $(VENV) build src/*.egg-info src/sealane/routing/*.so src/sealane/api/*.so
