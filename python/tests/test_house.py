"""The house rules of issue 21, tried as a new contributor would: a board is one folder, a port
is one folder, and no board is named in code outside its own folder.

The two copy tests work on a copy of the repository (its tracked files), so that nothing in
the working tree changes: they copy one folder, change what a variant changes inside that
folder, and run the suite on it through the real tools (CMake, the Arm toolchain, the
simulator), with no other file touched."""
import json
import os
import shutil
import subprocess
import sys

import pytest
from conftest import REPO, real_vp

pytestmark = pytest.mark.e2e

VP = real_vp()
need_tools = pytest.mark.skipif(VP is None or not all(shutil.which(t) for t in ("arm-none-eabi-gcc", "cmake", "ninja")),
                                reason="the simulator, arm-none-eabi-gcc, cmake or ninja missing")


def repo_copy(dest):
    """The repository's tracked files (what a fresh clone has) under dest."""
    files = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True).stdout.split()
    for f in files:
        src = REPO / f
        if src.is_file():
            (dest / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / f)
    return dest


def rtoslab(root, *args):
    env = dict(os.environ, RTOSLAB_ROOT=str(root), RTOSLAB_VP=str(VP), RTOSLAB_PEERS_DIR=str(root / "none"))
    return subprocess.run([sys.executable, "-m", "rtoslab", *map(str, args)], cwd=root, env=env,
                          capture_output=True, text=True, timeout=900)


def metric(doc, rtos, mid):
    run = next(r for r in doc["runs"] if r["rtos"] == rtos)
    return next(m for m in run["results"] if m["id"] == mid), run


@need_tools
def test_a_new_board_is_one_copied_folder(tmp_path):
    """A variant of vp-m3 at 72 MHz: copy its folder, change the clock in its board.toml, run
    the suite on it. Nothing else is edited: CMake, the board's header and linker scripts, the
    simulator's profile and the runner all come from the folder."""
    root = repo_copy(tmp_path / "repo")
    shutil.copytree(root / "bench/boards/vp-m3", root / "bench/boards/vp-m3-72mhz")
    toml = root / "bench/boards/vp-m3-72mhz/board.toml"
    toml.write_text(toml.read_text().replace("clock_hz = 48_000_000", "clock_hz = 72_000_000"))
    listed = rtoslab(root, "boards", "--ids")
    assert "vp-m3-72mhz" in listed.stdout.split(), listed
    out = tmp_path / "r.json"
    r = rtoslab(root, "run", "--rtos", "rtoslab", "--board", "vp-m3-72mhz", "--tests", "rhealstone.task_switch",
                "--json", out, "--no-history", "-q")
    assert r.returncode == 0, r.stderr
    doc = json.loads(out.read_text())
    m, run = metric(doc, "rtoslab", "rhealstone.task_switch")
    assert run["board"] == "vp-m3-72mhz" and run["clock_hz"] == 72_000_000
    assert run["manifest"]["board_profile"]["core"] == "cortex-m3"
    assert m["n"] > 0 and m["p50"] > 0
    # the image says which board it was built for, from the generated header
    assert (root / "build/fw/vp-m3-72mhz/board/board_config.h").read_text().count('"vp-m3-72mhz"') == 1


@need_tools
def test_a_new_port_is_one_copied_folder(tmp_path):
    """The rtoslab port copied under a new id (its port.toml's id is the folder's name): it
    builds and runs as an RTOS of its own, and measures what the original measures."""
    root = repo_copy(tmp_path / "repo")
    shutil.copytree(root / "bench/ports/rtoslab", root / "bench/ports/rtoslab-copy")
    toml = root / "bench/ports/rtoslab-copy/port.toml"
    toml.write_text(toml.read_text().replace('id = "rtoslab"', 'id = "rtoslab-copy"')
                    .replace('name = "rtoslab"', 'name = "rtoslab (copy)"'))
    out = tmp_path / "r.json"
    r = rtoslab(root, "run", "--rtos", "rtoslab,rtoslab-copy", "--tests", "rhealstone.task_switch",
                "--json", out, "--no-history", "-q")
    assert r.returncode == 0, r.stderr
    doc = json.loads(out.read_text())
    orig, _ = metric(doc, "rtoslab", "rhealstone.task_switch")
    copy, run = metric(doc, "rtoslab-copy", "rhealstone.task_switch")
    assert run["rtos"] == "rtoslab-copy" and copy["samples"] == orig["samples"]


def test_no_board_is_named_outside_its_folder():
    """scripts/board_ids_in_code.py: at most two other files' code names a board id."""
    r = subprocess.run([sys.executable, str(REPO / "scripts/board_ids_in_code.py")], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout


def test_a_broken_board_file_disables_that_board_only(tmp_path):
    from rtoslab import boards
    root = tmp_path
    (root / "spec").mkdir()
    shutil.copy(REPO / "spec/contracts.toml", root / "spec/contracts.toml")
    for bid in ("vp-m0", "vp-m3"):
        shutil.copytree(REPO / "bench/boards" / bid, root / "bench/boards" / bid)
    t = root / "bench/boards/vp-m3/board.toml"
    t.write_text(t.read_text().replace('core = "cortex-m3"', 'core = "cortex-m7"'))
    assert list(boards.registry(root)) == ["vp-m0"]
    assert "core must be one of" in boards.broken(root)["vp-m3"]
    with pytest.raises(boards.BadInput, match="disabled"):
        boards.get("vp-m3", root)


def test_a_flash_system_field_out_of_range_is_one_line(tmp_path):
    """The flash system's fields (docs/board.md, "The flash systems") are checked like any
    other: a bad value disables that board with one line naming the field."""
    from rtoslab import boards
    root = tmp_path
    (root / "spec").mkdir()
    shutil.copy(REPO / "spec/contracts.toml", root / "spec/contracts.toml")
    for bid in ("vp-m0", "vp-stm32f103", "vp-stm32f407"):
        shutil.copytree(REPO / "bench/boards" / bid, root / "bench/boards" / bid)
    t = root / "bench/boards/vp-stm32f103/board.toml"
    t.write_text(t.read_text().replace("flash_line_bytes = 8", "flash_line_bytes = 32"))
    t = root / "bench/boards/vp-stm32f407/board.toml"
    t.write_text(t.read_text().replace('accelerator = "art"', 'accelerator = "cache"'))
    assert sorted(boards.registry(root)) == ["vp-m0"]
    broken = boards.broken(root)
    assert "flash_line_bytes must be one of 4, 8, 16, not 32" in broken["vp-stm32f103"]
    assert "accelerator must be one of none, prefetch, art" in broken["vp-stm32f407"]
    assert all("\n" not in why for why in broken.values())
    # the repository's own entry reaches the simulator whole
    assert boards.get("vp-stm32f407").simulator_args()[-6:-2] == [
        "--flash-line-bytes", "16", "--prefetch-blocks", "2"]
