# Two entry points for a fresh machine: `make demo` and `make test`. Each sets up .venv first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PYTEST_ARGS ?=
# Where `make demo` listens: `make demo PORT=8010 HOST=localhost`. Plain `=`, not `?=`: only the command line
# overrides them, never a shell's own HOST variable (zsh sets one to the machine's name).
HOST = 127.0.0.1
PORT = 8000
PASSKEYS =

.PHONY: demo test conformance lint typecheck bench guard-report stress clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

demo: $(BIN)/.installed
	@$(if $(PASSKEYS),,echo "Passkeys: 'make demo PASSKEYS=1' approves the transfer above 1,000 EUR with a passkey, and prints the link that enrolls one.")
	$(BIN)/askback demo --host $(HOST) --port $(PORT)$(if $(PASSKEYS), --passkeys)

test: $(BIN)/.installed
	$(BIN)/ruff check src tests bench docs
	$(BIN)/mypy
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# The official MCP conformance harness alone (it also runs inside `make test`): node 22 and the pinned harness
# come from the npm registry into ~/.cache/askback-conformance on first use (or $ASKBACK_CONFORMANCE_CACHE).
conformance: $(BIN)/.installed
	$(BIN)/python tests/conformance/run.py $(CONFORMANCE_ARGS)

# The benchmark against the official SDK and FastMCP (FastMCP goes in its own venv, bench/.venv-fastmcp):
# about fifteen minutes (the knobs and `--workers 2` are measured too; cold start when bench/coldstart.py exists);
# writes its tables, the profile and telemetry's cost into docs/benchmarks.md, and the guards' table into
# docs/security.md; prints the store's figures of docs/replicas.md and docs/scale.md (bench/stores.py,
# store_ops.py, claim_wait.py, capacity.py).
# `python bench/run.py --quick` is the two-minute version that only prints.
bench: $(BIN)/.installed
	$(BIN)/python bench/run.py
	$(BIN)/python bench/profile.py --write-doc
	$(BIN)/python bench/stores.py
	$(BIN)/python bench/store_ops.py
	$(BIN)/python bench/claim_wait.py
	$(BIN)/python bench/capacity.py
	if [ -f bench/coldstart.py ]; then $(BIN)/python bench/coldstart.py; fi
	$(BIN)/python bench/guard_report.py --write-doc
	$(BIN)/python -m bench.guard_cost
	$(BIN)/python -m bench.telemetry_cost --write-doc --baseline 910cdf84cd

# Both guards scored on every corpus in tests/corpora (blind figure first, then now): writes the table into
# docs/security.md. A few seconds.
guard-report: $(BIN)/.installed
	$(BIN)/python bench/guard_report.py --write-doc

# The reliability suite at full size (a reduced version runs inside `make test`): a few minutes.
stress: $(BIN)/.installed
	ASKBACK_STRESS=full $(BIN)/python -m pytest tests/stress -p no:cacheprovider $(PYTEST_ARGS)

lint: $(BIN)/.installed
	$(BIN)/ruff check src tests bench docs

typecheck: $(BIN)/.installed
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
