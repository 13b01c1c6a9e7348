import sqlite3

from helpers import assert_one_line_error
from test_report import make_results


def test_compare_no_change(cli, tmp_path):
    a = make_results(tmp_path / "a.json")
    r = cli("compare", a, a)
    assert r.status == 0, r
    lines = [ln for ln in r.out.splitlines() if ln.strip()]
    assert lines[0].startswith("no regression past 5%") and " 0 worse" in lines[0]
    assert "change of" not in r.out          # nothing changed: no (empty) table


def test_compare_leads_with_its_verdict_and_lists_only_what_changed(cli, tmp_path):
    import json
    from rtoslab.stats import STAT_KEYS, metric_stats
    a = make_results(tmp_path / "a.json")
    doc = json.loads(a.read_text())
    res = doc["runs"][0]["results"][0]
    moved = res["id"]
    res["samples"] = [v + 50 for v in res["samples"]]
    got = metric_stats(res["samples"], int(res.get("cold", 0)))
    res.update({k: got[k] for k in STAT_KEYS})
    b = tmp_path / "b.json"
    b.write_text(json.dumps(doc))
    r = cli("compare", a, b, "--threshold", "1000")
    assert r.status == 0, r
    lines = [ln for ln in r.out.splitlines() if ln.strip()]
    assert lines[0].startswith("no regression past 1000%"), lines[0]
    listed = [ln for ln in lines if ln.lstrip().startswith(doc["runs"][0]["rtos"] + "@")]
    assert len(listed) == 1 and moved in listed[0], r.out
    r = cli("compare", a, b)
    assert r.status == 1 and r.out.splitlines()[0].startswith("REGRESSION past 5%"), r


def _with_metric(src, dst, mid: str, samples: list[int]):
    """A copy of result file src with metric mid's samples (a signed error may be negative)."""
    import json
    from rtoslab.stats import STAT_KEYS, metric_stats
    doc = json.loads(src.read_text())
    run = doc["runs"][0]
    entry = dict(next(r for r in run["results"] if r["id"] != mid))      # a valid entry's shape
    run["results"] = [r for r in run["results"] if r["id"] != mid]
    entry.update({"id": mid, "samples": samples, "signed": min(samples) < 0})
    entry.update({k: v for k, v in metric_stats(samples, int(entry.get("cold", 0))).items() if k in STAT_KEYS})
    run["results"].append(entry)
    dst.write_text(json.dumps(doc))
    return dst


def test_compare_follows_the_contract_direction(cli, tmp_path):
    a = make_results(tmp_path / "a.json")
    # a signed error (direction zero) from -60 to +10 cycles: smaller in size, an improvement
    # even though the value went up
    e1 = _with_metric(a, tmp_path / "e1.json", "stimulus.pulse.20us", [-60] * 8)
    e2 = _with_metric(a, tmp_path / "e2.json", "stimulus.pulse.20us", [10] * 8)
    r = cli("compare", e1, e2)
    assert r.status == 0 and "better" in r.out, r
    r = cli("compare", e2, e1)
    assert r.status == 1 and "stimulus.pulse.20us" in r.err, r
    # a measurement that is not a cost (direction none): shown as changed, never a regression
    w1 = _with_metric(a, tmp_path / "w1.json", "time.idle_window", [1000] * 8)
    w2 = _with_metric(a, tmp_path / "w2.json", "time.idle_window", [5000] * 8)
    r = cli("compare", w1, w2)
    assert r.status == 0 and "time.idle_window" in r.out and "REGRESSION" not in r.out, r


def test_compare_regression_exit_1(cli, tmp_path):
    a = make_results(tmp_path / "a.json")
    b = make_results(tmp_path / "b.json", shift=20)      # every metric 20 cycles slower, kernel bigger
    r = cli("compare", a, b, "--threshold", "5")
    assert r.status == 1, r
    assert "REGRESSION" in r.out and "rhealstone.task_switch" in r.out
    lines = [ln for ln in r.err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "regression" in lines[0]
    # past a generous threshold nothing counts
    r = cli("compare", a, b, "--threshold", "1000")
    assert r.status == 0, r
    # the other way round is an improvement
    r = cli("compare", b, a)
    assert r.status == 0 and "better" in r.out


def test_compare_stat_choice_and_bad_input(cli, tmp_path):
    a = make_results(tmp_path / "a.json")
    assert cli("compare", a, a, "--stat", "p99").status == 0
    assert_one_line_error(cli("compare", a, a, "--stat", "p42"), 2)
    assert_one_line_error(cli("compare", a, tmp_path / "missing.json"), 2)
    (tmp_path / "bad.json").write_text("{")
    assert_one_line_error(cli("compare", a, tmp_path / "bad.json"), 2)
    assert_one_line_error(cli("compare", a, a, "--threshold", "-3"), 2)
    c = make_results(tmp_path / "c.json", rtoses=("baremetal",))
    r = cli("compare", a, c)
    assert_one_line_error(r, 2)
    assert "in common" in r.err


def test_compare_throughput_higher_is_better():
    from rtoslab.compare import diff
    base = {"runs": [{"rtos": "x", "board": "b", "results": [
        {"id": "tm.cooperative", "p50": 1000}, {"id": "rhealstone.task_switch", "p50": 100}]}]}
    new = {"runs": [{"rtos": "x", "board": "b", "results": [
        {"id": "tm.cooperative", "p50": 800}, {"id": "rhealstone.task_switch", "p50": 80}]}]}
    d = diff(base, new, 5)
    reg = {r["id"] for r in d["regressions"]}
    assert reg == {"tm.cooperative"}


def test_history_over_commits(cli, tmp_path):
    db = tmp_path / "h.sqlite"
    a = make_results(tmp_path / "a.json")
    b = make_results(tmp_path / "b.json", shift=10)
    r = cli("history", "--db", db, "--add", a, "--add", b)
    assert r.status == 0, r
    assert "2 run(s) added" in r.out
    r = cli("history", "--db", db, "--add", a)           # the same file twice: no duplicates
    assert "0 run(s) added" in r.out
    r = cli("history", "--db", db)
    assert r.status == 0 and r.out.count("abc123") == 4
    r = cli("history", "rhealstone.task_switch", "--db", db, "--rtos", "rtoslab")
    assert r.status == 0, r
    assert "%" in r.out and "63" in r.out
    r = cli("history", "size.flash.kernel", "--db", db)
    assert r.status == 0 and "1810" in r.out


def test_history_bad_input(cli, tmp_path):
    assert_one_line_error(cli("history", "--db", tmp_path / "none.sqlite"), 2)
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"this is not a database" * 100)
    assert_one_line_error(cli("history", "--db", bad), 2)
    db = tmp_path / "h.sqlite"
    cli("history", "--db", db, "--add", make_results(tmp_path / "a.json"))
    r = cli("history", "no.such.metric", "--db", db)
    assert_one_line_error(r, 2)
    assert_one_line_error(cli("history", "--db", db, "--rtos", "vxworks"), 2)
    assert_one_line_error(cli("history", "--db", db, "--add", tmp_path / "missing.json"), 2)
    assert sqlite3.connect(db).execute("select count(*) from runs").fetchone()[0] == 2


def test_compare_refuses_a_file_whose_statistics_disagree_with_its_samples(cli, tmp_path):
    import json
    a = make_results(tmp_path / "a.json")
    doc = json.loads(a.read_text())
    entry = doc["runs"][0]["results"][0]
    assert entry["samples"], "the fixture carries its samples"
    entry["p50"] = entry["p50"] - 7          # a better median than the samples give
    (tmp_path / "t.json").write_text(json.dumps(doc))
    r = cli("compare", a, tmp_path / "t.json")
    assert_one_line_error(r, 2)
    assert f"{entry['id']}: the stored p50" in r.err and "refused" in r.err
    # a sample edited instead: the same
    doc = json.loads(a.read_text())
    doc["runs"][0]["results"][0]["samples"][-1] += 100000
    (tmp_path / "s.json").write_text(json.dumps(doc))
    assert_one_line_error(cli("compare", tmp_path / "s.json", a), 2)
