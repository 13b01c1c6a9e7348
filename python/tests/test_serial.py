"""The serial runner (real boards), against a pseudo-terminal standing in for the board's USB
serial port: flash with a command, then read the console until @done."""
import os
import threading
import time

from helpers import assert_one_line_error, spec, transcript

from rtoslab import results


def _board(master_fd, text, flashed):
    """A board that prints its console once it has been flashed (the runner empties the port's
    input before flashing, so anything printed earlier would be lost, as on a real board)."""
    def run():
        deadline = time.monotonic() + 60
        while not flashed.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        for line in text.splitlines():
            os.write(master_fd, (line + "\r\n").encode())
    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def test_serial_run_real_board(cli, tmp_path):
    master, slave = os.openpty()
    try:
        img = spec(tmp_path / "bench-freertos.elf", "")
        flashed = tmp_path / "flashed"
        t = _board(master, transcript("freertos", board="stm32f0-discovery") + "after done: not read\n", flashed)
        r = cli("run", "--board", "stm32f0-discovery", "--rtos", "freertos", "--elf", f"freertos={img}",
                "--port", os.ttyname(slave), "--flash-cmd", f"cp {{elf}} {flashed}", "--json",
                tmp_path / "s.json", "-q", "--no-history", "--timeout", "120")
        t.join()
        assert r.status == 0, r
        assert flashed.exists()                                   # the flashing command ran on the image
        run = results.load(tmp_path / "s.json")["runs"][0]
        assert run["board"] == "stm32f0-discovery" and len(run["results"]) == 8
        assert run["manifest"]["board_profile"]["runner"] == "serial"
    finally:
        os.close(master)
        os.close(slave)


def test_serial_errors(cli, tmp_path):
    img = spec(tmp_path / "bench-freertos.elf", "")
    common = ["run", "--board", "stm32f0-discovery", "--rtos", "freertos", "--elf", f"freertos={img}",
              "--json", tmp_path / "s.json", "-q", "--no-history"]
    r = cli(*common, "--port", tmp_path / "no-such-tty", "--flash-cmd", "true")
    assert_one_line_error(r, 2)
    assert "serial port" in r.err
    master, slave = os.openpty()
    try:
        r = cli(*common, "--port", os.ttyname(slave), "--flash-cmd", "false {elf}")
        assert_one_line_error(r, 4)
        assert "flashing failed" in r.err
        r = cli(*common, "--port", os.ttyname(slave), "--flash-cmd", "true", "--timeout", "1")
        assert_one_line_error(r, 3)
        assert "@done" in r.err
    finally:
        os.close(master)
        os.close(slave)
