# Course tasks. Every target creates the virtual environment it needs.
#   make grade   release, autograde the submissions (samples if none), feedback, grades.csv, table
#   make test    the project's tests (pytest), including the browser tests when Chromium is there
#   make release regenerate release/ from source/ with nbgrader generate_assignment
#   make lab     JupyterLab from the course root (Spanish by default: ajustes_jupyterlab/)
#   make bench   benchmarks (not tests): autograde cost per submission, hidden-test time, widgets

PYTHON ?= python3
VENV   := .venv
BIN    := $(CURDIR)/$(VENV)/bin
export PATH := $(BIN):$(PATH)

ASSIGNMENTS := $(notdir $(patsubst %/,%,$(dir $(wildcard source/*/*.ipynb))))

.PHONY: grade test release lab bench clean venv

$(VENV)/.installed: requirements.txt pyproject.toml $(wildcard ajustes_jupyterlab/*.toml ajustes_jupyterlab/*/*.json)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

venv: $(VENV)/.installed

grade: $(VENV)/.installed
	$(BIN)/python scripts/grade.py

release: $(VENV)/.installed
	for a in $(ASSIGNMENTS); do $(BIN)/nbgrader generate_assignment $$a --force || exit 1; done

lab: $(VENV)/.installed
	$(BIN)/jupyter lab

test: $(VENV)/.installed-dev
	$(BIN)/python -m pytest

bench: $(VENV)/.installed-dev
	$(BIN)/python scripts/bench_hidden_tests.py
	$(BIN)/python scripts/bench_autograde.py
	$(BIN)/python scripts/bench_widgets.py

clean:
	rm -rf submitted autograded/*/ feedback grades.csv gradebook.db .nbgrader.log
