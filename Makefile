# Two commands for a new user: `make run` (the dashboard) and `make test` (the test suite).
# Each creates its own virtual environment in .venv on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-all bench venv train-venv clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(BIN)/fantan serve

test: $(STAMP)
	$(BIN)/python -m pytest -m "not slow"

test-all: $(STAMP)
	$(BIN)/python -m pytest

# Training needs torch + ultralytics (several GB): a separate environment, see docs/TRAINING.md.
train-venv:
	$(PY) -m venv .venv-train
	.venv-train/bin/pip install --quiet --upgrade pip
	.venv-train/bin/pip install --quiet -e '.[dev,train]'

clean:
	rm -rf $(VENV) .venv-train .pytest_cache
