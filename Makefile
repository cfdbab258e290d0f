# Two entry points: `make run` (the nightly on the embedded engine) and `make test` (the PR gate).
# Both create .venv and install the project on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run test pr-gate merge-gate nightly dashboard setup clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "environment missing: $(PYTHON) not found" >&2; exit 2; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

run: nightly

test: pr-gate

pr-gate: $(STAMP)
	$(BIN)/python -m pytest -n auto -q tests

merge-gate: pr-gate

nightly: $(STAMP)
	$(BIN)/nightly

dashboard: $(STAMP)
	$(BIN)/dashboard

clean:
	rm -rf $(VENV) site .pytest_cache
