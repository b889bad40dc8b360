# Two commands for a new user: `make run` (the dashboard) and `make test` (the test suite).
# Each creates its own virtual environment in .venv on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-all bench venv train-venv artwork dataset clean

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

# The card artwork the training data is made from (Debian and npm packages; see datasets/README.md).
artwork: $(STAMP)
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends gnome-cards-data aisleriot kdegames-card-data-kf5 gimp-data \
	    librsvg2-bin fonts-dejavu-core fonts-liberation
	npm install --prefix data/npm @heruka_urgyen/react-playing-cards cardsJS svg-cards
	$(BIN)/pip install --quiet -e '.[dev,artwork]'
	$(BIN)/fantan dataset artwork

# The synthetic training set (git-ignored): 3,000 scenes, ~15-25 min on 2 cores.
dataset: $(STAMP)
	$(BIN)/fantan dataset make --images 3000 --seed 3 --out data/cards

clean:
	rm -rf $(VENV) .venv-train .pytest_cache
