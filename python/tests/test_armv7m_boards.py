"""The ARMv7-M QEMU boards (qemu-mps2-an385, qemu-mps2-an386): registered as boards, run by
`rtoslab-qemu` with the project's deterministic command line, and matched to the ports whose
manifest names armv7m among their architectures."""
from pathlib import Path

import pytest

from rtoslab import boards, ids, ports, selection
from rtoslab.errors import BadInput
from rtoslab.runners import qemu


@pytest.mark.parametrize("board,machine", [("qemu-mps2-an385", "mps2-an385"),
                                           ("qemu-mps2-an386", "mps2-an386")])
def test_the_command_line_names_the_machine_with_icount(board, machine, capsys):
    assert qemu.main(["--print", "--board", board, "fw.elf"]) == 0
    line = capsys.readouterr().out.split()
    assert line[line.index("-M") + 1] == machine
    assert line[line.index("-icount") + 1] == boards.get(board).qemu["icount"]
    assert "-serial" not in line  # the console is the CMSDK UART on stdio


def test_the_board_comes_from_the_build_folder():
    assert qemu.board_of(Path("build/fw/qemu-mps2-an386/bench-freertos.elf")) == "qemu-mps2-an386"
    assert qemu.board_of(Path("build/fw/qemu-mps2-an385-4096/bench-freertos.elf")) == "qemu-mps2-an385"


def test_an_unknown_board_is_a_usage_error(capsys):
    assert qemu.main(["--board", "qemu-mps2-an999", "fw.elf"]) == 2
    assert "qemu-mps2-an385" in capsys.readouterr().err


def test_a_port_runs_on_each_architecture_its_manifest_names():
    port = ports.Port(id="x", name="X", version="1", kind="firmware", licence="MIT", summary="s",
                      configuration="c", directory=Path("."), arch="armv6m armv7m")
    assert port.runs_on("armv6-m") and port.runs_on("armv7-m")
    assert not port.runs_on("armv7-a") and not port.runs_on("host")
    alone = ports.Port(id="y", name="Y", version="1", kind="firmware", licence="MIT", summary="s",
                       configuration="c", directory=Path("."))
    assert alone.runs_on("armv6-m") and not alone.runs_on("armv7-m")


def test_all_on_an_armv7m_board_is_the_ports_that_build_for_it():
    board = ids.get_board("qemu-mps2-an385")
    assert board.arch == "armv7-m" and not board.cycle_exact
    every, _ = selection.parse_rtos("all", board)
    assert {"rtoslab", "freertos", "baremetal"} <= set(every)
    assert "jobbed" not in every and "posix" not in every
    for rtos in every:
        assert "armv7m" in ports.get(rtos).arch.split()
    with pytest.raises(BadInput):
        selection.check_pair("jobbed", board)
