"""`rtoslab run --preset seed004` (seed 004's experiments as it defined them) and `--samples`
above the RAM (seed 003's 100 000, streamed): the options, the build folder, the CMake flags."""
import pytest

from rtoslab import build as buildmod
from rtoslab import run as runmod
from rtoslab.errors import BadInput


def test_the_preset_builds_in_its_own_folder_with_its_samples(tmp_path, monkeypatch):
    assert buildmod.build_dir(tmp_path, "vp-m0", 4096, preset="seed004") == \
        tmp_path / "build" / "fw" / "vp-m0-s4096-seed004"
    (tmp_path / "CMakeLists.txt").write_text("")
    calls = []
    monkeypatch.setattr(buildmod, "_need", str)
    monkeypatch.setattr(buildmod, "_log_run", lambda cmd, log, what: calls.append(cmd))
    buildmod.configure(tmp_path, "vp-m0", 4096, preset="seed004")
    buildmod.configure(tmp_path, "vp-m0")
    (preset, plain) = calls
    assert "-DRTOSLAB_PRESET=seed004" in preset and "-DRTOSLAB_BENCH_SAMPLES=4096" in preset
    assert not any("PRESET" in a for a in plain)


def test_the_preset_sets_seed_004s_samples_unless_told_otherwise():
    assert runmod.make_options("rtoslab", "vp-m0", preset="seed004").samples == 4096
    assert runmod.make_options("rtoslab", "vp-m0", preset="seed004", samples=1024).samples == 1024
    assert runmod.make_options("rtoslab", "vp-m0", samples=100000).samples == 100000
    with pytest.raises(BadInput, match="--preset"):
        runmod.make_options("rtoslab", "vp-m0", preset="seed005")


def test_an_unknown_preset_is_one_line_and_status_2(cli, tmp_path):
    r = cli("run", "--preset", "seed005", "--json", tmp_path / "r.json", "-q")
    assert r.status == 2, r
