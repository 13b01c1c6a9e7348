"""Real boards: flash with a command, then read the console from a serial port (pyserial).

The flashing command comes from --flash-cmd or $RTOSLAB_FLASH, with {elf} replaced by the
image (e.g. 'openocd -f board/stm32f0discovery.cfg -c "program {elf} verify reset exit"');
the port from --port or $RTOSLAB_SERIAL (default /dev/ttyACM0), 115200 baud unless
$RTOSLAB_BAUD says otherwise. The run ends at '@done' or after the timeout.
"""
from __future__ import annotations

import os
import shlex
import subprocess
import time
from pathlib import Path

from ..errors import RtoslabError
from .base import Outcome, last_line


def run(image: Path, on_line, *, port: str | None = None, baud: int | None = None,
        flash_cmd: str | None = None, timeout: float | None = 600) -> Outcome:
    try:
        import serial  # pyserial
    except ImportError:  # pragma: no cover - it is a dependency
        raise RtoslabError("pyserial is not installed", status=4) from None
    port = port or os.environ.get("RTOSLAB_SERIAL", "/dev/ttyACM0")
    baud = baud or int(os.environ.get("RTOSLAB_BAUD", "115200"))
    flash_cmd = flash_cmd or os.environ.get("RTOSLAB_FLASH")
    if not flash_cmd:
        raise RtoslabError("no flashing command: set RTOSLAB_FLASH (with {elf}) for a real board", status=2)
    try:
        ser = serial.Serial(port, baud, timeout=0.5)
    except (serial.SerialException, OSError) as e:
        raise RtoslabError(f"cannot open serial port {port}: {e}", status=2) from None
    t0 = time.monotonic()
    with ser:
        ser.reset_input_buffer()
        cmd = shlex.split(flash_cmd.replace("{elf}", shlex.quote(str(image))))
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        except (OSError, subprocess.SubprocessError) as e:
            raise RtoslabError(f"flashing failed: {e}", status=4) from None
        if p.returncode != 0:
            raise RtoslabError(f"flashing failed: {last_line(p.stderr or p.stdout)}", status=4)
        buf = b""
        while True:
            if timeout and time.monotonic() - t0 > timeout:
                return Outcome(None, "timeout", f"no @done on {port} in {timeout:.0f} s", "", None,
                               time.monotonic() - t0)
            chunk = ser.read(256)
            if not chunk:
                continue
            buf += chunk
            while b"\n" in buf:
                raw, buf = buf.split(b"\n", 1)
                line = raw.decode("utf-8", "replace").rstrip("\r")
                on_line(line)
                if line.strip() == "@done":
                    return Outcome(0, "exit", "", "", None, time.monotonic() - t0)


def execute(job) -> tuple[Outcome, dict]:
    """One image of `rtoslab run`/`check` (runners/__init__.py): flash it, read the board's
    console from its serial port."""
    o = job.opts
    return run(job.image, job.on_line, port=o.port, flash_cmd=o.flash_cmd, timeout=o.timeout), {}
