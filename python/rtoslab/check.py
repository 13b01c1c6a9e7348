"""`rtoslab check`: the behaviour (conformance) tests, with JUnit XML for CI."""
from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import quoteattr, escape

from rich import box
from rich.console import Console
from rich.table import Table

from . import build as buildmod
from . import manifest as mf
from . import results as res
from .errors import RtoslabError
from .ids import CHECK_IDS
from .run import Options, execute


class ChecksFailed(RtoslabError):
    status = 1


def pick_kind(opts: Options) -> str:
    """check-<rtos> where the build has it, else the benchmark image (it reports @check too)."""
    if opts.images:
        return "bench"
    root = mf.repo_root()
    try:
        if all(buildmod.has_target(root, opts.board.id, f"check-{r}", opts.samples, opts.profile, opts.preset)
               for r in opts.rtos):
            return "check"
    except RtoslabError:
        pass
    return "bench"


def verdicts(run: dict) -> list[tuple[str, str, str]]:
    """[(check id, 'pass'|'fail'|'absent'|'missing', detail)] for one run."""
    got = {c["id"]: c for c in run.get("checks", [])}
    absent = {a["id"]: a.get("reason", "") for a in run.get("absent", [])}
    out = []
    for cid in list(CHECK_IDS) + sorted(set(got) - set(CHECK_IDS)):
        if cid in got:
            c = got[cid]
            out.append((cid, "pass" if c["passed"] else "fail", c.get("detail", "")))
        elif cid in absent:
            out.append((cid, "absent", absent[cid]))
        else:
            why = run.get("error") or "not reported by the firmware"
            out.append((cid, "missing", why))
    return out


def passed_line(runs: list[dict]) -> str:
    """'N/M passed' over every check of every run; absent checks (a service the RTOS lacks) are
    counted apart, never as passed."""
    counts = {"pass": 0, "fail": 0, "absent": 0, "missing": 0}
    for run in runs:
        for _cid, v, _detail in verdicts(run):
            counts[v] += 1
    ran = counts["pass"] + counts["fail"] + counts["missing"]
    words = {"fail": "failed", "missing": "not reported", "absent": "absent (not counted)"}
    extra = [f"{counts[k]} {w}" for k, w in words.items() if counts[k]]
    return f"{counts['pass']}/{ran} passed" + (f" ({', '.join(extra)})" if extra else "")


def junit(doc: dict) -> str:
    suites = []
    tot = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for run in doc["runs"]:
        name = f"{run['rtos']}@{run['board']}"
        cases = []
        n = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        for cid, v, detail in verdicts(run):
            n["tests"] += 1
            attrs = f'classname={quoteattr(name)} name={quoteattr(cid)} time="0"'
            if v == "pass":
                body = f"<system-out>{escape(detail)}</system-out>" if detail else ""
            elif v == "fail":
                n["failures"] += 1
                body = f"<failure message={quoteattr(detail or 'failed')}>{escape(detail)}</failure>"
            elif v == "absent":
                n["skipped"] += 1
                body = f"<skipped message={quoteattr(detail)}/>"
            else:
                n["errors"] += 1
                body = f"<error message={quoteattr(detail)}>{escape(detail)}</error>"
            cases.append(f"    <testcase {attrs}>{body}</testcase>")
        for k in tot:
            tot[k] += n[k]
        props = "".join(f'<property name={quoteattr(k)} value={quoteattr(str(v))}/>'
                        for k, v in (("rtos_version", run.get("rtos_version")), ("board", run["board"]),
                                     ("toolchain", run.get("toolchain"))))
        suites.append(f'  <testsuite name={quoteattr(name)} tests="{n["tests"]}" failures="{n["failures"]}" '
                      f'errors="{n["errors"]}" skipped="{n["skipped"]}">\n    <properties>{props}</properties>\n'
                      + "\n".join(cases) + "\n  </testsuite>")
    head = (f'<testsuites name="rtoslab check" tests="{tot["tests"]}" failures="{tot["failures"]}" '
            f'errors="{tot["errors"]}" skipped="{tot["skipped"]}">')
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + head + "\n" + "\n".join(suites) + "\n</testsuites>\n"


def execute_check(opts: Options, junit_path: Path | None, out: Console, err: Console,
                  quiet: bool = False) -> dict:
    opts.kind = pick_kind(opts)
    report = execute(opts, out, err, quiet=quiet, show_table=False)
    doc = report.doc
    if junit_path:
        res.atomic_write(junit_path, junit(doc))
    t = Table(box=box.SIMPLE_HEAD, title=f"rtoslab check on {opts.board.id}", title_justify="left")
    t.add_column("check")
    runs = doc["runs"]
    for run in runs:
        t.add_column(run["rtos"])
    rows = {}
    bad = []
    style = {"pass": "[green]pass[/]", "fail": "[red]FAIL[/]", "absent": "[yellow]absent[/]",
             "missing": "[red]missing[/]"}
    for run in runs:
        for cid, v, detail in verdicts(run):
            rows.setdefault(cid, {})[run["rtos"]] = style[v]
            if v in ("fail", "missing"):
                bad.append(f"{run['rtos']}: {cid} {'failed' if v == 'fail' else 'missing'}"
                           + (f" ({detail})" if detail else ""))
    for cid, cols in rows.items():
        t.add_row(cid, *[cols.get(r["rtos"], "") for r in runs])
    out.print(t)
    out.print(passed_line(runs), highlight=False)
    if junit_path:
        out.print(f"junit: {junit_path}", highlight=False)
    if report.write_problem:
        report.raise_for_failures()
    if report.failures:
        raise ChecksFailed(report.failures[0])
    if bad:
        raise ChecksFailed(f"{len(bad)} check(s) did not pass: {bad[0]}")
    return doc
