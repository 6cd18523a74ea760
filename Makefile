# Two entry points, both of which build the virtualenv they need (.venv) on a fresh machine.
#   make demo   set up, then a short train-and-evaluate run on the default game
#   make test   set up, then the whole test suite: the quick suite, the docs site built and opened
#               in a headless Chromium (make test-docs), the integration smoke tests
#               (make test-integrations) from their own virtualenvs, the JAX environments' tests
#               (make test-jax, from .venv-jax), and the packaging checks
#               (make test-package: the wheel installed as users get it)
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
# torch first, CPU-only, so that nothing below pulls a CUDA build (gigabytes). --retries 0: where the
# index cannot be reached, pip takes torch from its own configuration (find-links) at once instead
# of retrying for a minute and a half.
TORCH_INDEX ?= https://download.pytorch.org/whl/cpu
TORCH := -m pip install -q --retries 0 torch --index-url $(TORCH_INDEX)

.PHONY: position-sets demo test test-quick test-slow docs test-docs test-serve setup clean integration-venvs test-integrations test-rllib test-marl test-package bench test-jax

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) $(TORCH)
	$(PY) -m pip install -q -e ".[train,test,serve]"
	touch $@

setup: $(VENV)/.installed

demo: setup
	$(VENV)/bin/mancala-marl demo

# The virtualenvs are built side by side (pip waits on the network most of the time), and the
# packaging checks, which mostly wait on pip too, run beside the quick suite; the two Chromium
# checks run side by side (84 -> 50 s). The integrations beside the JAX engines took longer than
# one after the other (357 s against 246: RLlib 5x slower beside XLA compiling on both cores).
# tests/jax runs from .venv-jax only (make test-jax).
# Each step prints how long it took (docs/install.md has CI's table of where the time goes).
timed = @start=$$(date +%s); $(MAKE) $(1); status=$$?; \
	echo "make test: $(2) took $$(( $$(date +%s) - start )) s"; exit $$status

test:
	$(call timed,-j4 setup integration-venvs .venv-jax/.installed $(VENV)/.docs-installed,the virtualenvs)
	$(call timed,-j2 --output-sync=target test-quick test-package,the quick suite and the packaging checks)
	$(call timed,-j2 --output-sync=target test-docs test-serve,the docs site and the web page in Chromium)
	$(call timed,test-integrations,the integrations)
	$(call timed,test-jax,the JAX engines)

# The tests that need no extra virtualenv, browser or network: the quick suite.
test-quick: setup
	$(PY) -m pytest -q -n 2 --durations=15 -m "not integration and not packaging and not docs and not browser and not slow" --ignore=tests/jax

# The checks that take minutes (pytest -m slow), left out of make test: the published Kalah(6,4)
# value from perfect play, our rules' Kalah(6,3) against the solver.
test-slow: setup
	$(PY) -m pytest -q -n 2 -m slow --ignore=tests/jax

# The docs site into docs/_build/html, strict: a broken link, reference or image fails the build.
$(VENV)/.docs-installed: pyproject.toml $(VENV)/.installed
	$(PY) -m pip install -q -e ".[docs]"
	touch $@

docs: $(VENV)/.docs-installed
	$(PY) -m sphinx -b html -W -n --keep-going -q docs docs/_build/html

# The built site in a headless Chromium (apt-get install chromium chromium-driver): every page
# renders, every image loads, no internal link is broken; screenshots in docs/_build/screenshots/.
test-docs: docs
	$(PY) -m pytest -q -p no:xdist -m docs tests/test_docs_site.py

# The page of `mancala-marl serve` in a headless Chromium: a whole game of every game played by
# clicking (tests/test_serve_browser.py); screenshots in docs/_build/screenshots/. Selenium comes
# with the docs' extra.
test-serve: $(VENV)/.docs-installed
	$(PY) -m pytest -q -p no:xdist -m browser tests/test_serve_browser.py

# Build the sdist and wheel, install the wheel into fresh virtualenvs (core only, then [train])
# and use it from outside the repository (tests/packaging/check_wheel.sh says what is checked).
test-package: setup
	TORCH_INDEX=$(TORCH_INDEX) $(PY) -m pytest -q -s tests/packaging

# Third-party MARL libraries (examples/, tests/integrations/, docs/integrations.md), kept out of
# .venv: Ray RLlib pins an older gymnasium, so it gets .venv-rllib; Tianshou, TorchRL and
# OpenSpiel share .venv-marl. Each installs the CPU torch first, like .venv.
.venv-rllib/.installed: EXTRAS = rllib,test
.venv-marl/.installed: EXTRAS = tianshou,torchrl,openspiel,test
.venv-%/.installed: pyproject.toml
	$(PYTHON) -m venv .venv-$*
	.venv-$*/bin/python -m pip install -q --upgrade pip
	.venv-$*/bin/python $(TORCH)
	.venv-$*/bin/python -m pip install -q -e ".[$(EXTRAS)]"
	touch $@

integration-venvs: .venv-rllib/.installed .venv-marl/.installed

# The JAX environments (mancala_marl.jax, tests/jax/, docs/jax.md) in a virtualenv of their own:
# jax, Pgx and mctx, no torch, and .venv stays free of jax.
.venv-jax/.installed: pyproject.toml
	$(PYTHON) -m venv .venv-jax
	.venv-jax/bin/python -m pip install -q --upgrade pip
	.venv-jax/bin/python -m pip install -q -e ".[jax,test]"
	touch $@

test-jax: .venv-jax/.installed
	.venv-jax/bin/python -m pytest -q -n 2 --durations=15 tests/jax

test-rllib: .venv-rllib/.installed
	.venv-rllib/bin/python -m pytest -q tests/integrations/test_rllib.py

test-marl: .venv-marl/.installed
	.venv-marl/bin/python -m pytest -q -n 2 tests/integrations/test_tianshou.py tests/integrations/test_torchrl.py tests/integrations/test_openspiel.py

test-integrations: test-rllib test-marl

# Speed against OpenSpiel/Shimmy/PettingZoo peers (docs/benchmarks.md); --quick for a smoke run.
bench: setup
	$(PY) -m pip install -q -e ".[bench]"
	$(PY) benchmarks/speed.py

# The labelled positions shipped in mancala_marl/endgame/sets/ (docs/perfect_play.md#labelled-positions):
# Kalah's database of 26 seeds in play (2.5 GiB in the cache, about 20 minutes to build), then under an
# hour of solving on two cores for each set (the empty-capture set its own 24-seed database, 10 minutes)
position-sets: setup
	$(VENV)/bin/mancala-marl positions kalah --build --count 5000 --db-seeds 26 --tt-bits 24 --out mancala_marl/endgame/sets/kalah.npz
	$(VENV)/bin/mancala-marl positions kalah:empty_capture=true --build --count 2000 --db-seeds 24 --tt-bits 24 --out mancala_marl/endgame/sets/kalah_empty_capture.npz
	$(VENV)/bin/mancala-marl positions oware --build --count 2000 --out mancala_marl/endgame/sets/oware_endgames.npz

clean:
	rm -rf $(VENV) .venv-rllib .venv-marl .venv-jax build *.egg-info docs/_build docs/_generated docs/games
