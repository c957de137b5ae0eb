PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install build test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# verify exits 1 when it finds a real gap in a rulebook (several bundled games have one,
# reported on purpose); only invalid input (exit 2) or a crash fails the build.
build: $(STAMP)
	$(BIN)/punchboard build --out output
	$(BIN)/punchboard verify --out output || [ $$? -eq 1 ]

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) output .pytest_cache
