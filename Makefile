# `make test`: create .venv, install the package with every extra, lint, run every test tier
# (one pytest-xdist worker per core, each test file in one worker, as the fast tier).
# `make test-fast`: the tier a contributor runs before every commit (no era environments, no
# upstream archives, no demo or release build; tests/conftest.py), one pytest-xdist worker per
# core, each test file in one worker (module fixtures are per file). `make lint`: ruff on all code.
# The venv is built from a system interpreter when there is one, because the sandbox runs
# predictions as an unprivileged user who must be able to read the interpreter's files.
# `make test-fast PY=3.10`: the same in .venv-3.10, from a Python 3.10 the sandbox's user can run
# (found by the package's own search, copied out of a closed home such as root's pyenv).
ifdef PY
PYTHON := $(shell PYTHONPATH=src python3 -m quantum_codegen_eval.execution.envs $(PY))
VENV ?= .venv-$(PY)
else
PYTHON ?= $(shell [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || command -v python3)
VENV ?= .venv
endif
# reinstalled only when the package's declaration or its version changes (the install is
# editable: source changes need none)
STAMP := $(VENV)/.qce-installed
LINTED := src loaders dataset_cards tests timing examples setup.py

.PHONY: install test test-fast lint demo
install: $(STAMP)

$(STAMP): pyproject.toml setup.py src/quantum_codegen_eval/__init__.py
	[ -x $(VENV)/bin/python ] || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --upgrade pip
	$(VENV)/bin/python -m pip install -q -e '.[all,test,docs,inspect,lm-eval]'
	touch $@

lint: install
	$(VENV)/bin/python -m ruff check $(LINTED)

test: lint
	$(VENV)/bin/python -m pytest --all -n auto --dist loadfile --durations=25

test-fast: lint
	$(VENV)/bin/python -m pytest -n auto --dist loadfile

demo: install
	$(VENV)/bin/qce demo
