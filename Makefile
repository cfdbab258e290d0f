# Two entry points: `make run` (the nightly on the embedded engine) and `make test` (the PR gate).
# Both create .venv and install the project on first use. The gates themselves are defined once,
# in .ci/gate; these targets only call it. Note that make exits 2 on any failed recipe: run
# .ci/gate directly for its exact exit code (0 pass, 1 fail, 2 environment missing).
PYTHON ?= python3
export PYTHON
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

# The pyasc-dev oracle of `make conformance` lives in a virtualenv of its own (it ships a package named asc too).
PYASC_DEV_VENV ?= $(HOME)/.cache/asc-embedded/pyasc-dev

.PHONY: run test pr-gate merge-gate nightly dashboard conformance mutation setup clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "environment missing: $(PYTHON) not found" >&2; exit 2; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e '.[dev,cluster]'
	touch $(STAMP)

setup: $(STAMP)

run: nightly

test: pr-gate

pr-gate:
	.ci/gate pr

merge-gate:
	.ci/gate merge

nightly:
	.ci/gate nightly

dashboard: $(STAMP)
	$(BIN)/dashboard

# Differential conformance against pyasc-dev (docs/conformance.md); exact exit code: run $(BIN)/conformance.
# Then the surface reports (asctile, v1), a fixed-budget differential fuzz and what pyasc-dev's compiler says of
# each corpus kernel (verdicts, on-chip memory); every step runs, the worst status is kept.
FUZZ_EXAMPLES ?= 40
conformance: $(STAMP)
	@rc=0; \
	$(BIN)/conformance --setup --venv "$(PYASC_DEV_VENV)" --json .conformance/report.json || rc=$$?; \
	$(BIN)/conformance-surface --venv "$(PYASC_DEV_VENV)" --json .conformance/surface.json || rc=$$?; \
	$(BIN)/python -m asc_harness.conform.surface_v1 --venv "$(PYASC_DEV_VENV)" --json .conformance/surface_v1.json || rc=$$?; \
	$(BIN)/conformance-fuzz --venv "$(PYASC_DEV_VENV)" --examples $(FUZZ_EXAMPLES) --json .conformance/fuzz.json || rc=$$?; \
	$(BIN)/python -m asc_harness.conform.compile_check --venv "$(PYASC_DEV_VENV)" --json .conformance/compile.json || rc=$$?; \
	exit $$rc

# Mutation testing (not part of `make test`): one module at a time, MUTATION_MIN minutes each; scores in
# .mutation/report.md. MUTATION_ARGS passes more options, e.g. MUTATION_ARGS="--only memory_plan --sample 40".
MUTATION_MIN ?= 20
mutation: $(STAMP)
	$(BIN)/python tests/mutation/mutation.py --budget-min $(MUTATION_MIN) $(MUTATION_ARGS)

clean:
	rm -rf $(VENV) site .pytest_cache .conformance .mutation
