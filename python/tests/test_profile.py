"""The build profiles (`--profile size|speed`): the option, its build folder, the flags recorded."""
import shutil
from pathlib import Path

import pytest

from helpers import all_checks, default_metrics, probe_events, transcript
from rtoslab import build as buildmod
from rtoslab import manifest as mf
from rtoslab import results
from rtoslab import run as runmod
from rtoslab.ids import BOARDS
from test_run import images

REPO = Path(__file__).resolve().parents[2]


def test_the_profile_has_its_own_build_folder_and_size_keeps_todays(tmp_path):
    assert buildmod.build_dir(tmp_path, "vp-m0") == tmp_path / "build" / "fw" / "vp-m0"
    assert buildmod.build_dir(tmp_path, "vp-m0", profile="size") == tmp_path / "build" / "fw" / "vp-m0"
    assert buildmod.build_dir(tmp_path, "vp-m4", profile="speed") == tmp_path / "build" / "fw" / "vp-m4-speed"
    assert buildmod.build_dir(tmp_path, "vp-m0", 4096, "speed") == tmp_path / "build" / "fw" / "vp-m0-speed-s4096"


def test_configure_passes_the_profile_to_cmake_only_for_speed(tmp_path, monkeypatch):
    (tmp_path / "CMakeLists.txt").write_text("")
    calls = []
    monkeypatch.setattr(buildmod, "_need", str)
    monkeypatch.setattr(buildmod, "_log_run", lambda cmd, log, what: calls.append(cmd))
    buildmod.configure(tmp_path, "vp-m0")
    buildmod.configure(tmp_path, "vp-m0", profile="speed")
    size, speed = calls
    assert not any("RTOSLAB_PROFILE" in a for a in size)
    assert str(tmp_path / "build" / "fw" / "vp-m0") in size
    assert "-DRTOSLAB_PROFILE=speed" in speed and str(tmp_path / "build" / "fw" / "vp-m0-speed") in speed


def test_run_records_the_profile_and_shows_it(cli, fake_vp, tmp_path):
    m = default_metrics("rtoslab")
    args = images(tmp_path, rtoslab={"stdout": transcript("rtoslab", m, probe=True, checks=all_checks()),
                                    "events": probe_events(m)})
    out = tmp_path / "r.json"
    r = cli("run", "--rtos", "rtoslab", *args, "--json", out, "-q", "--profile", "speed")
    assert r.status == 0, r
    assert "profile speed" in r.out.splitlines()[0]
    run = results.load(out)["runs"][0]
    assert run["profile"] == "speed" and run["manifest"]["profile"] == "speed"
    r = cli("run", "--rtos", "rtoslab", *args, "--json", out, "-q")
    assert r.status == 0, r
    assert "profile size" in r.out.splitlines()[0]
    assert results.load(out)["runs"][0]["profile"] == "size"


def test_an_unknown_profile_is_bad_input(cli, fake_vp, tmp_path):
    r = cli("run", "--profile", "fast", "--json", tmp_path / "r.json", "-q")
    assert r.status == 2, r
    with pytest.raises(Exception, match="--profile"):
        runmod.make_options("rtoslab", "vp-m0", profile="fast")


need_fw = pytest.mark.skipif(not all(shutil.which(t) for t in ("arm-none-eabi-gcc", "cmake", "ninja")),
                             reason="arm-none-eabi-gcc, cmake or ninja not installed")


@need_fw
@pytest.mark.parametrize("profile, expect, absent", [
    ("speed", ["-O2", "-flto", "-fomit-frame-pointer", "-falign-functions=16"], ["-Os"]),
    ("size", ["-Os"], ["-O2", "-flto", "-falign-functions=16"]),
])
def test_a_real_build_records_its_profiles_flags(profile, expect, absent):
    """One RTOS (the bare-metal floor, the quickest) built by the real toolchain in the
    profile's folder: the flags the result file records are the image's own (DW_AT_producer;
    with LTO the compilation units' options, the link compiling again with the same)."""
    image = buildmod.build(REPO, "vp-m0", "bench-baremetal", profile=profile)
    assert image.parent == buildmod.build_dir(REPO, "vp-m0", profile=profile)
    opts = runmod.Options(rtos=["baremetal"], board=BOARDS["vp-m0"], profile=profile)
    facts = runmod.image_facts(REPO, opts, "baremetal", image)
    for flag in expect:
        assert flag in facts.flags and flag in facts.toolchain
    for flag in absent:
        assert flag not in facts.flags
    assert "-mcpu=cortex-m0" in facts.flags
    assert mf.producer_flags(image) == facts.flags
