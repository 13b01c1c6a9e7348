import xml.etree.ElementTree as ET

from helpers import all_checks, assert_one_line_error, spec, transcript


def test_check_all_pass_writes_junit(cli, fake_vp, tmp_path):
    a = spec(tmp_path / "a.elf", transcript("rtoslab", checks=all_checks()))
    junit = tmp_path / "junit.xml"
    r = cli("check", "--rtos", "rtoslab", "--elf", f"rtoslab={a}", "--junit", junit, "-q")
    assert r.status == 0, r
    root = ET.parse(junit).getroot()
    assert root.tag == "testsuites" and root.get("tests") == "9" and root.get("failures") == "0"
    suite = root.find("testsuite")
    assert suite.get("name") == "rtoslab@vp-m0"
    assert {c.get("name") for c in suite.findall("testcase")} >= {"check.priority_inversion", "check.isr_signal"}
    assert "pass" in r.out
    assert "9/9 passed" in r.out


def test_check_failure_missing_and_absent(cli, fake_vp, tmp_path):
    checks = all_checks(fail=("check.priority_inversion",))
    del checks["check.timeout"]                 # not reported: an error
    del checks["check.isr_signal"]              # absent with a reason: skipped
    a = spec(tmp_path / "a.elf", transcript("freertos", checks=checks,
                                            absent={"check.isr_signal": "no ISR-safe API in this port"}))
    junit = tmp_path / "j.xml"
    r = cli("check", "--rtos", "freertos", "--elf", f"freertos={a}", "--junit", junit, "-q")
    assert_one_line_error(r, 1)
    assert "did not pass" in r.err
    assert "6/8 passed (1 failed, 1 not reported, 1 absent (not counted))" in r.out
    root = ET.parse(junit).getroot()
    assert root.get("failures") == "1" and root.get("errors") == "1" and root.get("skipped") == "1"
    fail = [tc for tc in root.iter("testcase") if tc.find("failure") is not None][0]
    assert fail.get("name") == "check.priority_inversion"
    assert "wrong order" in fail.find("failure").get("message")


def test_check_firmware_fault_reports_every_check_and_fails(cli, fake_vp, tmp_path):
    a = spec(tmp_path / "a.elf", transcript("rtoslab", checks={"check.priority_order": (True, "ok")}, done=False),
             status=126, stderr="lock-up at pc=0x1234 in HardFault_Handler")
    junit = tmp_path / "j.xml"
    r = cli("check", "--rtos", "rtoslab", "--elf", f"rtoslab={a}", "--junit", junit, "-q")
    assert_one_line_error(r, 1)
    assert "locked up" in r.err
    root = ET.parse(junit).getroot()
    assert root.get("errors") == "8"       # the 8 checks it never reached
    assert "lock-up" in ET.tostring(root, encoding="unicode")


def test_check_bad_ids(cli, tmp_path):
    assert_one_line_error(cli("check", "--rtos", "ucos"), 2)
    assert_one_line_error(cli("check", "--board", "esp32"), 2)
