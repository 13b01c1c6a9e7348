# rtoslab: `make bench` runs the benchmarks, `make test` runs every test. Both set up
# what they need first (scripts/setup.sh is idempotent and quick once done).
SHELL := /bin/bash
.DEFAULT_GOAL := help
RTOSLAB := .venv/bin/rtoslab

.PHONY: help setup test bench bench-vp clean

help:
	@echo "make bench   run the benchmark suite (every RTOS whose sources are here, on the default board) and the simulator speed benchmark"
	@echo "make test    run every test: simulator, QEMU differential, kernel, suite, command line"
	@echo "make setup   install the toolchain, QEMU, Chromium, build the simulator, create .venv"

setup:
	@scripts/setup.sh

test: setup
	@scripts/test.sh

bench: setup
	@python3 vp/difftest/mips.py
	@$(RTOSLAB) run --rtos all --json results/latest.json

clean:
	rm -rf build results vp/target .venv
