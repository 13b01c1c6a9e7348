"""GDB on the simulator (issue 27): gdb-multiarch -batch against `rtoslab-vp run --gdb`.

On the fixture firmware (two threads, tests/fixtures/fw): break at main, read pc and sp, step,
a watchpoint that fires, continue to the exit, and the cycle count at exit equal to the run
without the debugger; a fault stops GDB with SIGSEGV and `monitor fault` names it, registers and RAM are written; Ctrl-C
(the protocol's 0x03) halts a core that runs forever; `rtoslab debug` drives the same.
About 10 s. Skipped with one line when gdb-multiarch is missing, except in CI (CI=true),
where it fails: `make setup` installs it.
"""
from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time

import pytest
from conftest import real_vp

VP = real_vp()
GDB = shutil.which("gdb-multiarch")
LISTENING = re.compile(r"waiting for GDB on (\S+):(\d+)")


@pytest.fixture(scope="module")
def tools():
    missing = [what for what, ok in (("rtoslab-vp (cargo build --release in vp/)", VP),
                                     ("gdb-multiarch (make setup installs it)", GDB)) if not ok]
    if missing:
        msg = f"the GDB tests need {' and '.join(missing)}"
        if os.environ.get("CI") == "true":
            pytest.fail(msg)
        pytest.skip(msg)
    return str(VP), GDB


def plain_run(vp: str, elf, *args) -> tuple[int, str]:
    p = subprocess.run([vp, "run", str(elf), "--stats", *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stderr


def cycles(stderr: str) -> int:
    m = re.search(r"cycles=(\d+) instructions=(\d+)", stderr)
    assert m, stderr
    return int(m.group(1))


def serve(vp: str, elf, *args) -> tuple[subprocess.Popen, str, int]:
    """rtoslab-vp run ELF --gdb 127.0.0.1:0: the process and the address it listens on."""
    p = subprocess.Popen([vp, "run", str(elf), "--stats", "--gdb", "127.0.0.1:0", *args],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stderr.readline()
    m = LISTENING.search(line)
    assert m, line
    return p, m.group(1), int(m.group(2))


def gdb_batch(gdb: str, elf, host: str, port: int, *commands: str) -> str:
    cmd = [gdb, "-batch", "-nx", str(elf), "-ex", f"target remote {host}:{port}"]
    for c in commands:
        cmd += ["-ex", c]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return p.stdout + p.stderr


@pytest.mark.parametrize("board", ["vp-m0", "vp-m4"])
def test_break_step_watch_continue_and_the_same_cycles(tools, fixture_elfs, board):
    vp, gdb = tools
    elf = fixture_elfs["plain"]
    status, err = plain_run(vp, elf, "--board", board)
    assert status == 0, err
    sim, host, port = serve(vp, elf, "--board", board)
    out = gdb_batch(gdb, elf, host, port,
                    "break main", "continue",
                    "info symbol $pc", "p/x $sp",
                    "stepi", "info symbol $pc",
                    "p/x $primask", "p/x $control",
                    *(["p $s0", "p/x $fpscr", "p/x $basepri"] if board == "vp-m4" else []),
                    "watch nsamples", "continue",
                    "delete", "continue")
    s_out, s_err = sim.communicate(timeout=60)
    assert "Breakpoint 1, main ()" in out, out
    assert "main in section .text" in out, out           # pc at main
    assert re.search(r"\$1 = 0x2000[0-9a-f]{4}", out), out  # sp in RAM
    assert "main + 2 in section .text" in out, out       # one Thumb instruction further
    assert "Hardware watchpoint 2: nsamples" in out and "Old value = 0" in out and "New value = 1" in out, out
    assert re.search(r"in thread_b \(\)", out), out       # the store that fired is thread B's
    if board == "vp-m4":
        assert "$5 = 0" in out and "$6 = 0x0" in out, out  # s0, fpscr at reset
    assert "exited normally" in out, out
    assert sim.returncode == 0, s_err
    assert "fixture firmware" in s_out
    assert cycles(s_err) == cycles(err), (s_err, err)


def test_a_fault_stops_gdb_and_is_shown(tools, fixture_elfs):
    vp, gdb = tools
    elf = fixture_elfs["fault"]
    status, err = plain_run(vp, elf, "--max-cycles", "200000")
    assert status == 124, err
    sim, host, port = serve(vp, elf, "--max-cycles", "200000")
    out = gdb_batch(gdb, elf, host, port, "continue", "monitor fault", "bt",
                    "set $r7 = 0x1234", "p/x $r7", "set var nsamples = 77", "p nsamples",   # writes
                    "continue", "continue")
    _, s_err = sim.communicate(timeout=60)
    assert "Program received signal SIGSEGV" in out, out
    assert "4-byte read at 0x60000000: unmapped address" in out, out   # monitor fault
    assert "thread_b ()" in out, out                                    # bt through the exception frame
    assert "$1 = 0x1234" in out and "$2 = 77" in out, out
    assert "SIGXCPU" in out and "exited with code 0174" in out, out     # the cycle limit, then status 124
    assert "HardFault entered at cycle" in s_err
    assert sim.returncode == 124 and cycles(s_err) == 200000 == cycles(err)


def _packet(data: bytes) -> bytes:
    return b"$" + data + b"#" + f"{sum(data) % 256:02x}".encode()


def _reply(s: socket.socket) -> bytes:
    """The next packet's payload (acks skipped; the packet acknowledged)."""
    buf = b""
    while not re.search(rb"\$([^#]*)#..", buf):
        chunk = s.recv(4096)
        assert chunk, buf
        buf += chunk
    payload = re.search(rb"\$([^#]*)#..", buf).group(1)
    s.sendall(b"+")
    return payload


def test_ctrl_c_halts_a_core_that_runs_forever(tools, fixture_elfs):
    vp, _ = tools
    sim, host, port = serve(vp, fixture_elfs["fault"])   # its HardFault handler loops for ever
    with socket.create_connection((host, port), timeout=30) as s:
        s.sendall(b"+" + _packet(b"?"))
        assert _reply(s).startswith((b"S05", b"T05"))
        s.sendall(_packet(b"c"))
        time.sleep(0.3)
        s.sendall(b"\x03")
        # the fault's own stop comes first (SIGSEGV = 0b), then the interrupt after continuing
        first = _reply(s)
        if first.startswith((b"S0b", b"T0b")):
            s.sendall(_packet(b"c"))
            time.sleep(0.3)
            s.sendall(b"\x03")
            first = _reply(s)
        assert first.startswith((b"S02", b"T02")), first
        s.sendall(_packet(b"k"))
    _, s_err = sim.communicate(timeout=60)
    assert "killed by GDB" in s_err and sim.returncode == 124, s_err


def test_rtoslab_debug_runs_gdb_on_the_image(tools, fixture_elfs, tmp_path):
    vp, _ = tools
    env = dict(os.environ, RTOSLAB_VP=vp)
    p = subprocess.run([sys.executable, "-m", "rtoslab", "debug", "--elf", str(fixture_elfs["plain"]), "--",
                        "-batch", "-nx", "-ex", "break thread_a", "-ex", "continue", "-ex", "monitor cycles",
                        "-ex", "delete", "-ex", "continue"],
                       capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert "Breakpoint 1, thread_a ()" in p.stdout, p.stdout + p.stderr
    assert "cycles=" in p.stdout + p.stderr and "exited normally" in p.stdout, p.stdout + p.stderr
    assert p.returncode == 0, p.stderr


def test_a_bad_gdb_address_is_one_line(fixture_elfs):
    if VP is None:
        pytest.skip("rtoslab-vp not built (cargo build --release in vp/)")
    elf = str(fixture_elfs["plain"])
    for args, says in ((["--gdb", "abc"], "bad --gdb 'abc'"), (["--gdb", "70000"], "bad --gdb '70000'"),
                       (["--gdb", "0", "--itrace", "/dev/null"], "--gdb and --itrace cannot be used together")):
        p = subprocess.run([str(VP), "run", elf, *args], capture_output=True, text=True, timeout=60)
        assert p.returncode == 2 and p.stderr.count("\n") == 1 and says in p.stderr, (args, p.stderr)
