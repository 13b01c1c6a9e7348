"""An application outside the tree, built with only the documented commands
(docs/application.md) and run on the simulator."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
VP = REPO / "vp" / "target" / "release" / "rtoslab-vp"

MAIN_C = r"""
#include "board.h"
#include "rtoslab/kernel.h"

static K_SEM_DEFINE(ping, 0, 0);

static void consumer(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++) {
        k_sem_wait(&ping, K_FOREVER);
        board_puts("pong\n");
    }
    board_exit(7);      /* the simulator's exit status is the firmware's */
}

static void producer(void *arg)
{
    (void)arg;
    for (;;) {
        k_sleep(K_USEC(100));
        k_sem_signal(&ping);
    }
}

K_THREAD_DEFINE(consumer_thread, 256, consumer, NULL, 2);
K_THREAD_DEFINE(producer_thread, 256, producer, NULL, 1);

int main(void)
{
    k_start();
}
"""

CMAKELISTS = f"""cmake_minimum_required(VERSION 3.20)
project(myapp C ASM)
add_subdirectory({REPO}/cmake/sdk rtoslab)
rtoslab_add_application(myapp SOURCES main.c)
"""


# the board recorded in the image (.note.rtoslab) is the one `rtoslab-vp run IMAGE` runs it on:
# the documented command needs no --board on the M4 either
@pytest.mark.e2e
@pytest.mark.parametrize("board,arch", [("vp-m0", ("v6S-M", "v6-M")), ("vp-m4", ("v7E-M",))])
def test_an_application_outside_the_tree_builds_and_runs(tmp_path, board, arch):
    for tool in ("arm-none-eabi-gcc", "cmake", "ninja"):
        if not shutil.which(tool):
            pytest.skip(f"{tool} not installed")
    if not VP.exists():
        pytest.skip("the simulator is not built (make setup)")
    app = tmp_path / "myapp"
    app.mkdir()
    (app / "main.c").write_text(MAIN_C)
    (app / "CMakeLists.txt").write_text(CMAKELISTS)
    build = app / "build"
    subprocess.run(["cmake", "-G", "Ninja", "-S", str(app), "-B", str(build),
                    f"-DCMAKE_TOOLCHAIN_FILE={REPO}/cmake/arm-none-eabi.cmake", f"-DRTOSLAB_BOARD={board}"],
                   check=True, capture_output=True)
    b = subprocess.run(["ninja", "-C", str(build)], capture_output=True, text=True)
    assert b.returncode == 0, b.stdout[-2000:]
    elf = build / "myapp.elf"
    # the application's own code is Thumb code for the board's core (the flags came with the target)
    dis = subprocess.run(["arm-none-eabi-objdump", "-d", str(elf)], capture_output=True, text=True).stdout
    assert "<consumer>:" in dis
    head = subprocess.run(["arm-none-eabi-readelf", "-A", str(elf)], capture_output=True, text=True).stdout
    assert any(f"Tag_CPU_arch: {a}" in head for a in arch), head
    notes = subprocess.run(["arm-none-eabi-readelf", "-n", str(elf)], capture_output=True, text=True).stdout
    assert ".note.rtoslab" in notes
    # the kernel's tests are targets of the project but not built by default
    assert not list(build.rglob("ktest_smoke.elf"))
    r = subprocess.run([str(VP), "run", str(elf), "--max-cycles", "10000000"], capture_output=True,
                       text=True, timeout=60)
    assert r.stdout == "pong\npong\npong\n" and r.returncode == 7, r
    # `rtoslab trace` runs it on the board it was built for and names its threads from the
    # kernel's thread table (K_THREAD_DEFINE), one row per thread
    js = build / "trace.json"
    t = subprocess.run([sys.executable, "-m", "rtoslab", "trace", str(elf), "--json", str(js)],
                       capture_output=True, text=True, timeout=120, env={**os.environ, "RTOSLAB_VP": str(VP)})
    assert t.returncode == 0 and f"myapp.elf on {board}" in t.stdout, t
    threads = {x["name"]: x for x in json.loads(js.read_text())["threads"]}
    assert {"consumer_thread", "producer_thread"} <= set(threads), threads
    assert not [n for n in threads if n.startswith("psp@")], threads
    assert threads["consumer_thread"]["runs"] >= 3 and threads["producer_thread"]["runs"] >= 3
    # QEMU cannot run a simulator board's image (another memory map and console): one line, status 2,
    # instead of QEMU's abort (134)
    q = subprocess.run([sys.executable, "-c", "from rtoslab.runners.qemu import main; raise SystemExit(main())",
                        str(elf)], capture_output=True, text=True, timeout=60)
    assert q.returncode == 2 and f"built for board '{board}'" in q.stderr, q
    assert len(q.stderr.strip().splitlines()) == 1, q.stderr
