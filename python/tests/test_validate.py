"""`rtoslab validate` (python/rtoslab/validate.py) and the CMSIS-RTOS2 declarations
(python/rtoslab/cmsis_os2.py): the report's parsing and verdict, the registry, bad input.
The validation runs themselves are a stage of make test (scripts/test.sh, "validate")."""
import re
from pathlib import Path

import pytest

from rtoslab import cmsis_os2, validate
from rtoslab.errors import BadInput

REPO = Path(__file__).resolve().parents[2]

# The suite's plain-text report, as tf_report.c prints it (a failed case: its TEST line without
# a verdict, then one line per failed assertion)
REPORT = """CMSIS-RTOS2 Test Suite   Nov 29 2026   06:08:29

TEST 01: TC_osKernelInitialize_1          PASSED
TEST 11: TC_osKernelSuspend_1             NOT EXECUTED
TEST 24: TC_osThreadGetName_1
  RV2_Thread.c (425) [FAILED]
  RV2_Thread.c (430) [FAILED]
TEST 25: TC_osThreadGetId_1               PASSED
TEST 26: TC_osThreadGetState_1            NOT EXECUTED

Test Summary: 5 Tests, 3 Executed, 2 Passed, 1 Failed, 0 Warnings.
Test Result: FAILED
""".splitlines()


def test_the_report_parses_into_cases_and_its_summary():
    r = validate.parse(REPORT)
    assert [(c.number, c.name, c.verdict) for c in r.cases] == [
        (1, "TC_osKernelInitialize_1", "PASSED"), (11, "TC_osKernelSuspend_1", "NOT EXECUTED"),
        (24, "TC_osThreadGetName_1", "FAILED"), (25, "TC_osThreadGetId_1", "PASSED"),
        (26, "TC_osThreadGetState_1", "NOT EXECUTED")]
    assert r.cases[2].details == ["RV2_Thread.c (425) [FAILED]", "RV2_Thread.c (430) [FAILED]"]
    assert r.summary == (5, 3, 2, 1, 0)


def test_a_case_that_did_not_run_needs_a_declared_reason():
    v = validate.judge(validate.parse(REPORT), {"TC_osKernelSuspend_1": "the clock does not stop"})
    assert (v.passed, v.failed, v.total) == (2, 2, 5)  # the failed case, and the undeclared one
    assert v.disabled == [("TC_osKernelSuspend_1", "the clock does not stop")]
    assert v.undeclared == ["TC_osThreadGetState_1"]
    assert v.line("demo", "vp-x") == "demo on vp-x: 2 passed, 2 failed, 1 disabled (of 5)"
    assert v.line("demo", "vp-x", "speed") == "demo on vp-x (speed profile): 2 passed, 2 failed, 1 disabled (of 5)"


def test_a_report_cut_short_fails_its_last_case():
    r = validate.parse(REPORT[:5])
    assert r.summary is None and r.cases[-1].verdict == "FAILED"


def test_the_three_implementations_are_declared_once_each():
    reg = cmsis_os2.registry(REPO)
    assert list(reg) == ["rtoslab", "freertos", "rtx5"]
    assert reg["rtoslab"].folder == REPO / "bench/ports/rtoslab"
    assert reg["rtx5"].folder == REPO / "bench/validation/rtx5"  # (until bench/ports/rtx5 is in)
    for impl in reg.values():
        assert (impl.folder / "cmsis_os2.cmake").is_file(), impl.id
        assert {s.dir for s in impl.sources} >= {"cmsis-rtos2-validation", "cmsis6"}
        assert all(why.strip() for _, why in impl.disabled), impl.id


def test_the_disabled_cases_are_cases_of_the_suite():
    """Each declared case is one of the suite's (its list in cmsis_rv2.c), when extracted."""
    src = REPO / "build/peers/cmsis-rtos2-validation/Source/cmsis_rv2.c"
    if not src.is_file():
        pytest.skip("the validation suite is not extracted (make setup)")
    names = set(re.findall(r"TCD\s*\(\s*(TC_\w+)", src.read_text()))
    assert len(names) == 161
    for impl in cmsis_os2.registry(REPO).values():
        assert {c for c, _ in impl.disabled} <= names, impl.id


def test_a_declaration_with_an_unknown_key_is_one_line(tmp_path):
    d = tmp_path / "bench/validation/demo"
    d.mkdir(parents=True)
    (d / "cmsis_os2.toml").write_text('id = "demo"\nname = "Demo"\narch = "armv6m"\n[cmsis_os2]\n'
                                      'implementation = "x"\nconfig = "Source/Config"\nconfg = "typo"\n')
    (tmp_path / "bench/ports").mkdir(parents=True)
    with pytest.raises(BadInput, match="cmsis_os2.toml: not a valid CMSIS-RTOS2 declaration"):
        cmsis_os2.registry(tmp_path)


def test_validate_rejects_an_rtos_without_an_implementation_and_a_board_off_the_simulator(cli):
    r = cli("validate", "--rtos", "threadx", "--board", "vp-m3")
    assert r.status == 2 and "threadx' has no CMSIS-RTOS2 implementation" in r.err
    assert len(r.err.strip().splitlines()) == 1
    r = cli("validate", "--rtos", "rtoslab", "--board", "qemu-mps2-an385")
    assert r.status == 2 and "the simulator's lab boards" in r.err
    r = cli("validate", "--rtos", "rtoslab", "--board", "nosuch")
    assert r.status == 2 and "unknown board id 'nosuch'" in r.err
