"""The README's quick tour runs as written: every command between its markers, in a folder of
its own (the checkout's .venv and build/ reachable from it, as at the top of a checkout after
`make setup`), each with status 0. About a minute when the images are built already (`make
test` builds them in its earlier stages), a few more the first time."""
import os
import re
import shutil
import subprocess

import pytest
from conftest import REPO, real_vp

pytestmark = pytest.mark.e2e

BEGIN, END = "<!-- quick-tour:begin -->", "<!-- quick-tour:end -->"


def tour_commands() -> list[str]:
    text = (REPO / "README.md").read_text()
    assert BEGIN in text and END in text, "README.md: the quick tour's markers are missing"
    block = text.split(BEGIN, 1)[1].split(END, 1)[0]
    m = re.search(r"```sh\n(.*?)```", block, re.S)
    assert m, "README.md: the quick tour is not one ```sh block"
    return [ln.strip() for ln in m.group(1).splitlines() if ln.strip() and not ln.strip().startswith("#")]


def test_the_tour_has_no_placeholder():
    cmds = tour_commands()
    assert cmds[0] == ". .venv/bin/activate"
    for c in cmds:
        assert "fw.elf" not in c and "myapp" not in c and "..." not in c, c
    # every result file a command reads (an argument, not an option's value) is written by a
    # command before it: compare's base.json included
    written = set()
    for c in cmds:
        words = c.split("#")[0].split()
        for prev, w in zip(words, words[1:]):
            if w.endswith(".json") and not prev.startswith("-"):
                assert w in written, f"{c}: reads {w}, which no command before it writes"
        written |= {w for prev, w in zip(words, words[1:]) if prev == "--json"}


@pytest.mark.skipif(real_vp() is None, reason="rtoslab-vp not built (make setup)")
@pytest.mark.skipif(not (REPO / ".venv" / "bin" / "activate").exists(), reason="no .venv (make setup)")
@pytest.mark.skipif(not all(shutil.which(t) for t in ("arm-none-eabi-gcc", "cmake", "ninja")),
                    reason="arm-none-eabi-gcc, cmake or ninja not installed")
def test_every_command_of_the_quick_tour_succeeds(tmp_path):
    (tmp_path / ".venv").symlink_to(REPO / ".venv")
    (REPO / "build").mkdir(exist_ok=True)
    (tmp_path / "build").symlink_to(REPO / "build")
    env = dict(os.environ, RTOSLAB_HISTORY=str(tmp_path / "history.sqlite"))
    env.pop("RTOSLAB_VP", None)
    for cmd in tour_commands():
        p = subprocess.run(["bash", "-c", f". .venv/bin/activate && {cmd}"], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=900)
        assert p.returncode == 0, f"{cmd}: status {p.returncode}\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}"
    for f in ("base.json", "r.json", "report.html", "junit.xml", "latency.json", "t.vcd", "t.json",
              "events.jsonl", "probe.vcd"):
        assert (tmp_path / f).stat().st_size > 0, f
