"""`rtoslab validate`: Arm's CMSIS-RTOS2 validation suite on an RTOS's CMSIS-RTOS2
implementation (docs/cmsis-rtos2.md).

Builds the image rv2-<rtos> for the board (bench/validation/CMakeLists.txt; the implementation
as python/rtoslab/cmsis_os2.py declares it), runs it on the simulator, prints the suite's own
report, the cases the configuration leaves out with the reason declared for each, and a last
line "<rtos> on <board>: N passed, M failed, K disabled (of T)". Exit status 0 only if no case
failed; a case that did not run without a declared reason counts as failed.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .errors import BadInput, FirmwareFailed, RtoslabError

# the suite's plain-text report (tf_report.c, PRINT_XML_REPORT 0): one TEST line per case, its
# verdict at the end of the line when it passed or did not run, else lines of failed asserts
_CASE = re.compile(r"^TEST\s+(\d+):\s+(\S+)\s*(PASSED|NOT EXECUTED)?\s*$")
_DETAIL = re.compile(r"^\s+\S+\s+\(\d+\)\s+\[(FAILED|WARNING)\]")
_SUMMARY = re.compile(r"^Test Summary: (\d+) Tests, (\d+) Executed, (\d+) Passed, (\d+) Failed, (\d+) Warnings")
FAILED_STATUS = 1


@dataclass
class Case:
    number: int
    name: str
    verdict: str = ""      # PASSED, FAILED, WARNING, NOT EXECUTED
    details: list[str] = field(default_factory=list)


@dataclass
class Report:
    cases: list[Case]
    summary: tuple[int, int, int, int, int] | None  # tests, executed, passed, failed, warnings


def parse(lines: list[str]) -> Report:
    """The suite's report as cases (verdicts) and its summary line."""
    cases: list[Case] = []
    summary = None
    for line in lines:
        m = _CASE.match(line)
        if m:
            cases.append(Case(int(m.group(1)), m.group(2), m.group(3) or ""))
            continue
        d = _DETAIL.match(line)
        if d and cases:
            c = cases[-1]
            c.details.append(line.strip())
            if c.verdict in ("", "WARNING"):
                c.verdict = "FAILED" if d.group(1) == "FAILED" or c.verdict == "FAILED" else "WARNING"
            continue
        s = _SUMMARY.match(line)
        if s:
            summary = tuple(int(g) for g in s.groups())
    for c in cases:
        if not c.verdict:
            c.verdict = "FAILED"  # (a case line without a verdict or a detail: cut short)
    return Report(cases, summary)


@dataclass
class Verdict:
    passed: int
    failed: int
    disabled: list[tuple[str, str]]        # (case, reason)
    undeclared: list[str]                  # did not run, no reason declared (counted as failed)
    failures: list[Case]
    total: int

    def line(self, rtos: str, board: str, profile: str = "size") -> str:
        where = board if profile == "size" else f"{board} ({profile} profile)"
        return (f"{rtos} on {where}: {self.passed} passed, {self.failed} failed, "
                f"{len(self.disabled)} disabled (of {self.total})")


def judge(report: Report, reasons: dict[str, str]) -> Verdict:
    passed = sum(c.verdict in ("PASSED", "WARNING") for c in report.cases)
    failures = [c for c in report.cases if c.verdict == "FAILED"]
    disabled, undeclared = [], []
    for c in report.cases:
        if c.verdict == "NOT EXECUTED":
            if c.name in reasons:
                disabled.append((c.name, reasons[c.name]))
            else:
                undeclared.append(c.name)
    return Verdict(passed, len(failures) + len(undeclared), disabled, undeclared, failures,
                   len(report.cases))


def execute(rtos: str, board_id: str, build: bool, timeout: float, echo, note,
            profile: str = "size") -> Verdict:
    """Build and run one validation image under a build profile (the suite's: size or speed);
    `echo(line)` prints the suite's report, `note(text)` progress. Raises RtoslabError (one
    line) when there is no verdict to give."""
    from . import boards, cmsis_os2
    from .build import build as build_image, build_dir, find_image
    from .manifest import repo_root
    from .peers import is_ready, HOW, SourcesMissing
    from .runners import vp as vp_runner
    root = repo_root()
    impl = cmsis_os2.get(rtos)
    board = boards.get(board_id)
    if board.runner != "vp" or board.layer != "lab":
        raise BadInput(f"board '{board_id}': the validation runs on the simulator's lab boards "
                       f"(`rtoslab boards --runner vp`): its test interrupts are the lab board's free lines")
    if not impl.runs_on(board.arch):
        raise BadInput(f"{rtos}'s CMSIS-RTOS2 does not build for {board_id} ({board.arch}; it builds for {impl.arch})")
    lack = [s.archive for s in impl.sources if not is_ready(s, root)]
    if lack:
        raise SourcesMissing(f"{rtos}: validation sources not available ({', '.join(lack)}): {HOW}")
    target = f"rv2-{rtos}"
    if build:
        note(f"building {target} for {board_id} ({profile} profile)")
        image = build_image(root, board_id, target, profile=profile)
    else:
        folder = build_dir(root, board_id, profile=profile)
        image = find_image(folder, target)
        if image is None:
            raise BadInput(f"no {target} image for {board_id} in {folder}: "
                           f"build it (drop --no-build)")
    vp = vp_runner.find_vp(root, build=build, note=note)
    note(f"running {image.name} on {board_id}")
    lines: list[str] = []

    def on_line(line: str) -> None:
        lines.append(line)
        echo(line)
    out = vp_runner.run(vp, image, board_id, on_line, timeout=timeout, max_cycles=20_000_000_000)
    report = parse(lines)
    if report.summary is None:
        raise FirmwareFailed(f"{target} on {board_id} stopped before the suite's summary: {out.message or out.kind}")
    if not out.ok:
        raise FirmwareFailed(f"{target} on {board_id}: {out.message or out.kind}")
    verdict = judge(report, dict(impl.disabled))
    tests, executed, passed, failed, _warn = report.summary
    if (tests, passed) != (verdict.total, verdict.passed) or failed != len(verdict.failures):
        raise RtoslabError(f"{target}: the report's summary ({tests} tests, {passed} passed, {failed} failed) "
                           f"does not match its case lines ({verdict.total}, {verdict.passed}, "
                           f"{len(verdict.failures)})", status=70)
    return verdict


def print_disabled(verdict: Verdict, echo) -> None:
    if verdict.disabled:
        echo(f"disabled by the configuration ({len(verdict.disabled)}):")
        for case, why in verdict.disabled:
            echo(f"  {case}: {why}")
    for case in verdict.undeclared:
        echo(f"  {case}: did not run, and no reason is declared for it (counted as failed)")


def implementations_for(spec: str | None, board_arch: str) -> list[str]:
    """--rtos: ids (comma-separated) or all (every implementation that builds for the board)."""
    from . import cmsis_os2
    if not spec or spec == "all":
        return [i.id for i in cmsis_os2.registry().values() if i.runs_on(board_arch)]
    ids = [r.strip() for r in spec.split(",") if r.strip()]
    for r in ids:
        cmsis_os2.get(r)
    return ids
