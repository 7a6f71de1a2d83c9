# Two commands: `make demo` runs the main job on the bundled sample, `make test` runs the suite.
# Both create the virtual environment they need (.venv) from Python 3.10+ and pip, and fetch
# the sdist whose own tests tests/test_langchain_suite.py runs (the tests use no network).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
ADAPTERS := $(wildcard adapters/*/pyproject.toml)

.PHONY: demo test fuzz lint typecheck bench clean

$(STAMP): pyproject.toml $(ADAPTERS)
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else "spansplit needs Python 3.10 or newer; set PYTHON=python3.x")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]" $(foreach a,$(ADAPTERS),-e $(dir $(a)))
	$(BIN)/python tests/fetch_sdists.py
	@touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python examples/demo.py

test: $(STAMP)
	$(BIN)/python -m pytest -q
	$(BIN)/ruff check src adapters tests examples benchmarks
	$(BIN)/mypy src adapters/langchain/src/langchain_spansplit
	cd adapters/llama_index && ../../$(BIN)/mypy --strict --explicit-package-bases llama_index

# The fuzz tests of tests/test_fuzz.py with many more examples than `make test` runs.
FUZZ_EXAMPLES ?= 5000
fuzz: $(STAMP)
	SPANSPLIT_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/python -m pytest -q tests/test_fuzz.py

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -r benchmarks/requirements.txt
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
