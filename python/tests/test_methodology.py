"""docs/methodology.md names, for every metric id of the contract, the seed whose definition it
follows and where its interval starts and stops (the table "Which seed defines each metric")."""
import re
from pathlib import Path

from rtoslab import ids

ROOT = Path(__file__).resolve().parents[2]
# placeholders the table writes for a family's last part: `stimulus.pulse.W`, `scale.prio_wake.nN`
PLACEHOLDERS = {"W", "nN", "X", "*"}


def seed_table() -> list[list[str]]:
    doc = (ROOT / "docs" / "methodology.md").read_text()
    part = doc.split("### Which seed defines each metric", 1)[1].split("\n### ", 1)[0]
    rows = [ln for ln in part.splitlines() if ln.startswith("| `")]
    return [[c.strip() for c in ln.strip().strip("|").split("|")] for ln in rows]


def covers(name: str, mid: str) -> bool:
    head, _, last = name.rpartition(".")
    if last in PLACEHOLDERS:
        return mid.startswith(head + ".") and (last == "*" or "." not in mid[len(head) + 1:])
    return name == mid


def test_every_metric_id_has_a_seed_row_with_start_and_stop():
    rows = seed_table()
    assert len(rows) > 20
    for cells in rows:
        assert len(cells) == 4 and all(cells), f"row without seed, start or stop: {cells}"
    missing = []
    for mid in ids.METRIC_IDS:
        if not any(covers(n, mid) for cells in rows for n in re.findall(r"`([^`]+)`", cells[0])):
            missing.append(mid)
    assert not missing, f"docs/methodology.md has no seed row for {missing}"


def test_the_matcher_is_exact():
    assert covers("stimulus.pulse.W", "stimulus.pulse.20us")
    assert not covers("stimulus.pulse.W", "stimulus.pulse_error")
    assert covers("tm.*", "tm.memory") and not covers("irq.latency_worst", "irq.latency_worst.timer")
