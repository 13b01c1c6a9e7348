"""A result file records every file built with other flags than the image's (manifest.py,
flag_exceptions): found in the image's DWARF, with the port manifest's reason."""
import shutil
import subprocess

import pytest

from rtoslab import manifest

GCC = "arm-none-eabi-gcc"


@pytest.fixture
def image(tmp_path):
    if not shutil.which(GCC):
        pytest.skip(f"{GCC} not installed")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.c").write_text("int helper(int);\nint main(void) { return helper(2); }\n")
    (tmp_path / "src" / "odd.c").write_text("int helper(int x) { return x * 3; }\n")
    common = ["-mcpu=cortex-m0", "-mthumb", "-g", "-O2", "-c"]
    subprocess.run([GCC, *common, "src/main.c", "-o", "main.o"], cwd=tmp_path, check=True)
    subprocess.run([GCC, *common, "-fno-inline", "-fno-common", "src/odd.c", "-o", "odd.o"], cwd=tmp_path,
                   check=True)
    subprocess.run([GCC, "-mcpu=cortex-m0", "-mthumb", "-nostdlib", "-Wl,-e,main", "main.o", "odd.o", "-o", "x.elf"],
                   cwd=tmp_path, check=True)
    return tmp_path / "x.elf"


def test_a_file_built_otherwise_is_recorded_with_its_reason(image, tmp_path):
    flags = manifest.producer_flags(image)
    assert "-O2" in flags
    main_flags = [f for f in flags if f not in ("-fno-inline", "-fno-common")]
    ex = manifest.flag_exceptions(image, main_flags, (("src/odd.c", "the reason"),), root=tmp_path)
    assert ex == [{"file": "src/odd.c", "added": ["-fno-common", "-fno-inline"], "removed": [],
                   "reason": "the reason"}]


def test_an_unexplained_exception_says_so_and_units_outside_the_build_are_not_recorded(image, tmp_path):
    flags = manifest.producer_flags(image)
    main_flags = [f for f in flags if f not in ("-fno-inline", "-fno-common")]
    (ex,) = manifest.flag_exceptions(image, main_flags, (), root=tmp_path)
    assert ex["file"] == "src/odd.c" and "not explained" in ex["reason"]
    assert manifest.flag_exceptions(image, main_flags, (), root=tmp_path / "elsewhere") == []
