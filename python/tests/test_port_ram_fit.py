"""A port that needs more RAM than some boards have (manifest `ram_kib_min`, with the measured
`ram_why`): skipped with one line on those boards by `--rtos all`, one line and status 2 when
named, listed by `rtoslab peers --ready firmware --board` only where it fits (bench/tests/run.sh
builds and runs those). freertos-cmsis is the one today: 1308 bytes over the 16 KiB boards."""
from pathlib import Path

import pytest

from rtoslab import boards, ports, selection
from rtoslab.errors import BadInput


def test_freertos_cmsis_is_skipped_with_its_reason_on_the_16_kib_boards():
    notes = []
    sel = selection.resolve("all", "vp-m0", note=notes.append)
    assert "freertos-cmsis" not in sel.rtos and "freertos" in sel.rtos
    line = next(n for n in notes if "freertos-cmsis" in n)
    assert "needs 18 KiB of RAM, the board has 16" in line and "1308 bytes" in line
    with pytest.raises(BadInput, match="does not fit 'vp-m3'"):
        selection.resolve("freertos-cmsis", "vp-m3")


def test_freertos_cmsis_runs_on_the_64_kib_boards():
    for board in ("vp-m4", "qemu-mps2-an385"):
        assert boards.get(board).ram_kib >= 64
        assert not ports.get("freertos-cmsis").too_big_for(boards.get(board).ram_kib)
    assert "freertos-cmsis" in selection.resolve("all", "vp-m4").rtos


def test_a_minimum_without_its_reason_is_a_broken_manifest(tmp_path: Path):
    folder = tmp_path / "x"
    folder.mkdir()
    (folder / "port.toml").write_text('id = "x"\nname = "X"\nversion = "1"\nkind = "firmware"\n'
                                      'licence = "MIT"\nsummary = "s"\nconfiguration = "c"\n'
                                      'ram_kib_min = 32\n', encoding="utf-8")
    with pytest.raises(BadInput, match="ram_kib_min without ram_why"):
        ports._load(folder / "port.toml")
