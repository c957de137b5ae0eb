PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install browser build test lint bench docs clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
# The editable install (tests and every command run the working tree's code) goes through setuptools'
# import hook, because generator/ and verifier/ install inside punchboard; its one notice about that
# ("Editable installation … same name as your package") is informational and filtered out.
	PYTHONWARNINGS='ignore:Editable installation' $(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP) browser

# The studio's browser test drives the system's headless Chromium (Debian packages; CI runs as root).
browser:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || { \
	  command -v apt-get >/dev/null || { echo "chromium and chromium-driver are missing and apt-get is not available: install them with your system's package manager (the studio's browser test needs them)" >&2; exit 1; }; \
	  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver; }

# verify exits 1 when it finds a real gap in a rulebook (several bundled games have one,
# reported on purpose); only invalid input (exit 2) or a crash fails the build.
# Byte-compile the tree the editable install runs from: where PYTHONDONTWRITEBYTECODE is set, Python never
# writes it, and every command compiled punchboard's sources again (0.55 s against 0.27 s for a one-card tweak).
build: $(STAMP)
	$(BIN)/python -m compileall -q punchboard generator verifier > /dev/null
	$(BIN)/punchboard build --out output
	$(BIN)/punchboard verify --out output || [ $$? -eq 1 ]
	@echo
	@echo "punchboard is installed in $(VENV)/. Run it as $(BIN)/punchboard (e.g. $(BIN)/punchboard init mygame),"
	@echo "or first 'source $(BIN)/activate' and then just punchboard. Docs: make docs, then open site/index.html."

test: $(STAMP) browser
	$(BIN)/ruff check .
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --site-dir $(VENV)/site-check
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python -m bench
	$(BIN)/python -m bench.readme

# The documentation site (MkDocs, Material theme) from docs/ into site/.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

clean:
	rm -rf $(VENV) output site .pytest_cache
