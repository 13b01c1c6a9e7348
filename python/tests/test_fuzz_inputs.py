"""Issue 25: a fuzz test over result files and port manifests (hypothesis, derandomized so that
CI is repeatable). A valid document with one part replaced by an arbitrary value, or a key
removed, goes through what every command does with it (load, compare, report, history); the
only failure allowed is one of rtoslab's own errors (one line, status 2), never an internal
error (status 70). 8 000 result files and 2 000 manifests: 10 000 cases."""
import copy
import json
import math
import shutil
from pathlib import Path

import pytest

from helpers import result_doc_run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rtoslab import compare, history, ports, report, results
from rtoslab.errors import RtoslabError

SETTINGS = dict(derandomize=True, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))

LEAF = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2 ** 70), max_value=2 ** 70),
                 st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8),
                 st.sampled_from([0, -1, 2 ** 63, 2 ** 64, 10 ** 400, "", "x", [], {}]))
VALUE = st.recursive(LEAF, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                    st.dictionaries(st.text(max_size=6), inner, max_size=3)),
                     max_leaves=6)
RAW_TOKENS = st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "[" * 3000 + "]" * 3000, "1" * 500])


def _base() -> dict:
    doc = results.new_document("x")
    doc["created"] = "2026-01-01T00:00:00+00:00"
    doc["run_id"] = "fuzz"
    run = result_doc_run("rtoslab", {"rhealstone.task_switch": list(range(60, 70)),
                                     "rhealstone.preemption": [5, 6, 7, 8]})
    run["latency_model"] = {"metric": "irq.to_thread", "deterministic": {k: 1 for k in report.PHASES},
                            "median": {k: 1 for k in report.PHASES}, "jitter": 1, "total_min": 6, "total_max": 7}
    run["results"][0]["probe"] = {"n": 8, "min": 1, "p50": 2, "mean": 2.0, "p99": 3, "max": 3, "stdev": 0.5,
                                  "overhead_p50": 60, "samples": [1, 2, 3]}
    doc["runs"].append(run)
    return doc


BASE = _base()


def _paths(node, prefix=()):
    """Every place in the document a value can be replaced or removed."""
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node[:3]):
            yield from _paths(v, prefix + (i,))


PATHS = [p for p in _paths(BASE) if p]


def _mutate(path, value, remove):
    doc = copy.deepcopy(BASE)
    node = doc
    for k in path[:-1]:
        node = node[k]
    if remove and isinstance(node, dict):
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return doc


def _exercise(text: str, db: Path) -> None:
    """What the commands do with a result file; an RtoslabError is a refusal, and fine."""
    try:
        doc = results.parse(text, "fuzz.json")
        compare.check_samples(doc, "fuzz.json")
        compare.diff(doc, copy.deepcopy(doc), 5.0)
        runs = [dict(r, _source="fuzz.json") for r in doc["runs"]]
        if runs:
            ctx = report.build_context(runs, [], None, "fuzz", plots=False)
            report.render_md(ctx, runs, None, Path("fuzz.md"))
        history.record(db, doc, "fuzz.json")
    except RtoslabError as e:
        assert e.status == 2, e
        assert "\n" not in str(e)


@settings(max_examples=8000, **SETTINGS)
@given(path=st.sampled_from(PATHS), value=VALUE, remove=st.booleans(), raw=st.one_of(st.none(), RAW_TOKENS))
def test_fuzz_result_files_never_an_internal_error(tmp_path_factory, path, value, remove, raw):
    doc = _mutate(path, value, remove)
    text = json.dumps(doc, default=str)
    if raw is not None:                       # what json.dumps cannot write: by hand, in a number's place
        text = text.replace("60", raw, 1)
    _exercise(text, _fast_folder(tmp_path_factory) / "fuzz-history.sqlite")


@pytest.fixture(scope="module", autouse=True)
def _remove_fast_folder(tmp_path_factory):
    yield
    shutil.rmtree(_fast_folder(tmp_path_factory), ignore_errors=True)


def _fast_folder(tmp_path_factory) -> Path:
    """Memory-backed where there is one: SQLite syncs every commit, 8 000 of them."""
    shm = Path("/dev/shm")
    if shm.is_dir():
        d = shm / f"rtoslab-fuzz-{tmp_path_factory.getbasetemp().name}"
        d.mkdir(exist_ok=True)
        return d
    return tmp_path_factory.getbasetemp()


MANIFEST = {"id": "demo", "name": "Demo", "version": "1", "kind": "firmware", "licence": "MIT",
            "summary": "s", "configuration": "c", "order": 5, "default": False, "arch": "armv6m",
            "thread_structs": ["tcb"], "werror": True, "origin": "here"}
SOURCE = {"archive": "a.tar.xz", "dir": "a", "upstream": "u", "ref": "r", "commit": "c", "sha256": "s"}
TOML_LEAF = st.one_of(st.booleans(), st.integers(min_value=-(2 ** 63), max_value=2 ** 63 - 1),
                      st.floats(allow_nan=True), st.text(max_size=6),
                      st.sampled_from(["firmware", "host", "", "demo"]))
TOML_VALUE = st.recursive(TOML_LEAF, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(list(SOURCE) + ["x"]), inner, max_size=3)),
    max_leaves=5)


def _toml(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, (int, str)):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {_toml(x)}" for k, x in v.items()) + "}"


@settings(max_examples=2000, **SETTINGS)
@given(key=st.sampled_from(list(MANIFEST) + ["source", "report", "extra"]), value=TOML_VALUE,
       remove=st.booleans(), source_key=st.sampled_from(list(SOURCE)), in_source=st.booleans())
def test_fuzz_port_manifests_never_an_internal_error(tmp_path_factory, key, value, remove, source_key, in_source):
    data = dict(MANIFEST)
    source = dict(SOURCE)
    target, k = (source, source_key) if in_source else (data, key)
    if remove:
        target.pop(k, None)
    else:
        target[k] = value
    text = "".join(f"{k} = {_toml(v)}\n" for k, v in data.items())
    if "source" not in data:
        text += "[[source]]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in source.items())
    folder = tmp_path_factory.getbasetemp() / "fuzz-ports" / "demo"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "port.toml").write_text(text)
    try:
        port = ports._load(folder / "port.toml")
    except RtoslabError as e:
        assert e.status == 2 and "\n" not in str(e), e
        return
    port.pin()
    port.runs_on("armv6-m")
    sorted([port, port], key=lambda p: (p.order, p.id))
