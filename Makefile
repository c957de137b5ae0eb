PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install browser build test lint bench docs clean mutate

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
# The editable install (tests and every command run the working tree's code) goes through setuptools'
# import hook, because generator/ and verifier/ install inside punchboard; its one notice about that
# ("Editable installation … same name as your package") is informational and filtered out.
	PYTHONWARNINGS='ignore:Editable installation' $(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP) browser

# System tools the tests use (Debian packages; CI runs as root): the studio's browser test drives headless
# Chromium; PDFs are read back with poppler's pdffonts and pdftoppm, and checked with qpdf and Ghostscript.
browser:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null && command -v pdffonts >/dev/null \
	  && command -v qpdf >/dev/null && command -v gs >/dev/null || { \
	  command -v apt-get >/dev/null || { echo "chromium, chromium-driver, poppler-utils, qpdf or ghostscript is missing and apt-get is not available: install them with your system's package manager (the tests need them)" >&2; exit 1; }; \
	  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver poppler-utils qpdf ghostscript; }

# The bundled games declare the gaps their rulebooks really have (expected: in each setup.yaml);
# --allow-expected exits 1 only for a failure none of them declares, which fails the build.
# Byte-compile the tree the editable install runs from: where PYTHONDONTWRITEBYTECODE is set, Python never
# writes it, and every command compiled punchboard's sources again (0.55 s against 0.27 s for a one-card tweak).
build: $(STAMP)
	$(BIN)/python -m compileall -q punchboard generator verifier > /dev/null
	$(BIN)/punchboard build --out output
	$(BIN)/punchboard verify --out output --allow-expected
	@echo
	@echo "punchboard is installed in $(VENV)/. Run it as $(BIN)/punchboard (e.g. $(BIN)/punchboard init mygame),"
	@echo "or first 'source $(BIN)/activate' and then just punchboard. Docs: make docs, then open site/index.html."

# mypy cannot follow the package-dir mapping (generator/ and verifier/ install as punchboard.generator and
# punchboard.verifier), so it checks a tree of symbolic links laid out as installed, made anew each run;
# its messages name files under $(VENV)/typecheck/punchboard/. Settings: [tool.mypy] in pyproject.toml.
test: $(STAMP) browser
	$(BIN)/ruff check .
	rm -rf $(VENV)/typecheck && mkdir -p $(VENV)/typecheck/punchboard
	ln -s $(CURDIR)/punchboard/* $(VENV)/typecheck/punchboard/
	ln -s $(CURDIR)/generator $(VENV)/typecheck/punchboard/generator
	ln -s $(CURDIR)/verifier $(VENV)/typecheck/punchboard/verifier
	ln -s $(CURDIR)/layouts $(VENV)/typecheck/punchboard/layouts
	ln -s $(CURDIR)/components $(VENV)/typecheck/punchboard/games
	MYPYPATH=$(VENV)/typecheck $(BIN)/mypy --cache-dir $(VENV)/mypy-cache -p punchboard
	$(BIN)/vulture --min-confidence 100 punchboard generator verifier
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --site-dir $(VENV)/site-check
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python -m bench
	$(BIN)/python -m bench.readme

# Mutation testing, outside make test (10–30 min on 2 cores): small changes to the probability arithmetic, the
# grid, the bleed measurement and the loader's piece expansion, each run against the fast tests that cover it in a
# copy of the tree; prints each area's score and every survivor, fails below 85 % (tools/mutate.py, docs: internals).
mutate: $(STAMP)
	nice -n 10 $(BIN)/python tools/mutate.py --max 150

# The documentation site (MkDocs, Material theme) from docs/ into site/.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

clean:
	rm -rf $(VENV) output site .pytest_cache
