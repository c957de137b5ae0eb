PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install browser build test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP) browser

# The studio's browser test drives the system's headless Chromium (Debian packages; CI runs as root).
browser:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || { \
	  command -v apt-get >/dev/null || { echo "chromium and chromium-driver are missing and apt-get is not available: install them with your system's package manager (the studio's browser test needs them)" >&2; exit 1; }; \
	  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver; }

# verify exits 1 when it finds a real gap in a rulebook (several bundled games have one,
# reported on purpose); only invalid input (exit 2) or a crash fails the build.
build: $(STAMP)
	$(BIN)/punchboard build --out output
	$(BIN)/punchboard verify --out output || [ $$? -eq 1 ]

test: $(STAMP) browser
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) output .pytest_cache
