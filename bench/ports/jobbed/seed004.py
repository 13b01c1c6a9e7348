#!/usr/bin/env python3
"""Seed 004's core-functionality table beside this project's figures (README.md, "Seed 004
beside this suite"; docs/results.md):

    .venv/bin/python bench/ports/jobbed/seed004.py JOBBED.json POSIX.json

JOBBED.json: `rtoslab run --rtos jobbed --board qemu-raspi2b --samples 4096 --json ...`;
POSIX.json: `rtoslab run --rtos posix --board host --samples 4096 --json ...`. The seed's
figures and the table are python/rtoslab/seed004.py (the report's "Seed 004" section too).
"""
import sys

from rtoslab.seed004 import main

if __name__ == "__main__":
    sys.exit(main(sys.argv))
