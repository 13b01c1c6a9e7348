"""The report's bounded reader (result_stream.py): short sample arrays exactly as stored, long
ones thinned to evenly spaced values with their cold samples kept, and every streamed value
checked, the ones thinning drops included."""
import json

import pytest
from helpers import result_doc_run

from rtoslab import result_stream, results
from rtoslab.errors import BadInput


def _write(tmp_path, samples, cold=0, probe=None):
    doc = results.new_document("x")
    run = result_doc_run("rtoslab", {"sem.signal_wake": [100, 101]})
    entry = run["results"][0]
    entry["samples"], entry["cold"] = samples, cold
    if probe is not None:
        entry["probe"] = {"p50": 1, "samples": probe}
    doc["runs"].append(run)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(doc))
    return path


@pytest.fixture
def small_limits(monkeypatch):
    monkeypatch.setattr(result_stream, "THIN_LIMIT", 16)
    monkeypatch.setattr(result_stream, "PLOT_POINTS", 8)
    monkeypatch.setattr(result_stream, "CHUNK", 5)


def test_a_short_array_is_read_exactly_as_json_load_reads_it(tmp_path):
    path = _write(tmp_path, [300, 301, 299, 5000], cold=1, probe=[7, 8])
    assert result_stream.load_thinned(path) == results.load(path)


def test_a_long_array_keeps_its_cold_samples_and_evenly_spaced_warm_ones(tmp_path, small_limits):
    samples = [9999, 9998] + list(range(1000, 2000))
    doc = result_stream.load_thinned(_write(tmp_path, samples, cold=2))
    kept = doc["runs"][0]["results"][0]["samples"]
    assert kept[:2] == [9999, 9998]
    warm = kept[2:]
    assert len(warm) == 8 and warm == sorted(warm)
    assert warm[0] == 1000 and warm[-1] >= 1900          # the whole range, not its start
    gaps = {b - a for a, b in zip(warm, warm[1:])}
    assert max(gaps) - min(gaps) <= 64                    # evenly spaced


@pytest.mark.parametrize("bad, what", [(-5, "negative"), (2 ** 64, "out of range"), ('"x"', "not a number"),
                                       ("[1]", "not a number")])
def test_a_bad_value_that_thinning_would_drop_is_still_refused(tmp_path, small_limits, bad, what):
    path = _write(tmp_path, list(range(1000, 1400)))
    text = path.read_text().replace("1333,", f"{bad},", 1)
    path.write_text(text)
    with pytest.raises(BadInput, match=what):
        result_stream.load_thinned(path)
    with pytest.raises(BadInput):                         # as the whole-file reader refuses it
        results.load(path)


def test_a_bad_probe_sample_is_refused(tmp_path, small_limits):
    with pytest.raises(BadInput, match="probe.samples"):
        result_stream.load_thinned(_write(tmp_path, [1, 2], probe=list(range(100)) + [-1]))


@pytest.mark.parametrize("text", ["", "{", '{"runs": [}', "[1, 2]", '{"schema": 1}', "NaN", '{"a": 1e400}'])
def test_malformed_files_are_one_line(tmp_path, text):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(BadInput) as e:
        result_stream.load_thinned(path)
    assert "\n" not in str(e.value)
