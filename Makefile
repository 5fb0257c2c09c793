# `make test`: create .venv, install the package with every extra, run the test suite.
# The venv is built from a system interpreter when there is one, because the sandbox runs
# predictions as an unprivileged user who must be able to read the interpreter's files.
PYTHON ?= $(shell [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || command -v python3)
VENV ?= .venv

.PHONY: install test lint demo
install:
	[ -x $(VENV)/bin/python ] || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --upgrade pip
	$(VENV)/bin/python -m pip install -q -e '.[all,test]'

test: install
	$(VENV)/bin/ruff check src loaders tests bench
	$(VENV)/bin/python -m pytest

demo: install
	$(VENV)/bin/qce demo
