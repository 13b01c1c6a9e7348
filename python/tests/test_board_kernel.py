"""A board's [kernel] table (python/rtoslab/boards.py): the calibration of the rtoslab kernel,
passed to the build as K_CONFIG_ definitions; sleep_trim is one figure or one a profile."""
import pytest

from rtoslab import boards
from rtoslab.errors import BadInput


def _board_with(tmp_path, trim: str):
    src = (boards.ROOT / "bench" / "boards" / "vp-m0" / "board.toml").read_text()
    assert "\nsleep_trim = 25\n" in src
    d = tmp_path / "bench" / "boards" / "bad"
    d.mkdir(parents=True)
    (d / "board.toml").write_text(src.replace("\nsleep_trim = 25\n", f"\nsleep_trim = {trim}\n"))
    return boards.load(d / "board.toml", boards.ROOT)


def test_one_figure_serves_both_profiles():
    lines = boards.cmake_lines(boards.get("vp-m0"))
    assert "set(RTOSLAB_BOARD_SLEEP_TRIM_SIZE 25)" in lines
    assert "set(RTOSLAB_BOARD_SLEEP_TRIM_SPEED 25)" in lines


def test_a_figure_per_profile(tmp_path):
    b = _board_with(tmp_path, "{ size = 40, speed = 31 }")
    assert b.kernel["sleep_trim"] == {"size": 40, "speed": 31}
    lines = boards.cmake_lines(b)
    assert "set(RTOSLAB_BOARD_SLEEP_TRIM_SIZE 40)" in lines
    assert "set(RTOSLAB_BOARD_SLEEP_TRIM_SPEED 31)" in lines


def test_the_part_boards_have_one_a_profile():
    for bid in ("vp-stm32f0", "vp-stm32f103", "vp-stm32f407"):
        assert set(boards.get(bid).kernel["sleep_trim"]) == {"size", "speed"}, bid


@pytest.mark.parametrize("trim, message", [
    ("{ size = 40 }", r"sleep_trim: a table must have exactly the keys size, speed, not size$"),
    ("{ size = 40, speed = 31, fast = 2 }", r"exactly the keys size, speed, not fast, size, speed$"),
    ("{ size = 40, speed = -1 }", r"speed must not be negative$"),
    ("{ size = 40, speed = \"31\" }", r"speed must be int, not '31'$"),
    ("-3", r"sleep_trim must not be negative$"),
])
def test_a_bad_sleep_trim_is_one_line(tmp_path, trim, message):
    with pytest.raises(BadInput, match=message) as e:
        _board_with(tmp_path, trim)
    assert "\n" not in str(e.value)
