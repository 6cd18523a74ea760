# Two entry points, both of which build the virtualenv they need (.venv) on a fresh machine.
#   make demo   set up, then a short train-and-evaluate run on the default game
#   make test   set up, then the whole test suite
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: demo test setup clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	# The CPU wheel of torch first, so that nothing below pulls a CUDA build.
	$(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -e ".[train,test]"
	touch $@

setup: $(VENV)/.installed

demo: setup
	$(VENV)/bin/mancala-marl demo

test: setup
	$(PY) -m pytest -q -n 2

clean:
	rm -rf $(VENV) build *.egg-info
