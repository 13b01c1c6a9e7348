from helpers import samples_for, transcript

from rtoslab import protocol, stats


def test_parse_complete_transcript():
    text = transcript("freertos", absent={"thread.create_low": "FreeRTOS has no separate create and start"},
                      checks={"check.sem_counting": (True, "counted 5")}, probe=True)
    t = protocol.parse(text)
    assert t.version == 1 and t.rtos == "freertos" and t.clock_hz == 48_000_000
    assert t.config["tick_hz"] == "1000"
    assert t.done
    m = t.metrics["rhealstone.task_switch"]
    assert m.complete and len(m.samples) == 64 and m.cold == 2 and m.probe and m.index == 0
    assert t.absent["thread.create_low"].startswith("FreeRTOS has no")
    assert t.checks["check.sem_counting"].passed and t.checks["check.sem_counting"].detail == "counted 5"
    assert t.logs == ["boot: log line before the protocol"]


def test_cut_short_metric_is_incomplete_never_a_number():
    t = protocol.parse(transcript(cut_after="rhealstone.interrupt_latency", done=False))
    assert not t.done
    assert t.metrics["rhealstone.task_switch"].complete
    assert t.metrics["rhealstone.preemption"].complete
    cut = t.metrics["rhealstone.interrupt_latency"]
    assert not cut.complete and cut.samples   # some samples arrived, still not a number


def test_malformed_lines_are_warnings_not_errors():
    t = protocol.parse("@rtoslab x\n@metric a n=2 cold=0\n@s 1 zz\n@s 1 2\n@end a\n@end b\n@bogus\n"
                       "@check c maybe\n@done\n")
    assert t.done
    assert t.metrics["a"].complete and t.metrics["a"].samples == [1, 2]
    assert len(t.warnings) >= 4


def test_sample_count_mismatch():
    t = protocol.parse("@metric a unit=cycles n=3 cold=0\n@s 1 2\n@end a\n")
    assert not t.metrics["a"].complete and "n=3" in t.metrics["a"].problem


def test_stats_nearest_rank_and_cold():
    s = [100, 90] + list(range(1, 101))
    st = stats.metric_stats(s, cold=2)
    assert st["n"] == 100 and st["min"] == 1 and st["max"] == 100
    assert st["p50"] == 50 and st["p99"] == 99
    assert st["mean"] == 50.5
    assert abs(st["stdev"] - 29.011) < 0.01
    assert st["cold"]["n"] == 2 and st["cold"]["max"] == 100
    one = stats.summarize([7])
    assert one["stdev"] == 0 and one["p99"] == 7


def test_probe_pairing():
    ev = [{"e": "mark", "c": 0, "value": 0x52540001},
          {"e": "probe", "c": 10, "pins": 1, "changed": 1},
          {"e": "probe", "c": 12, "pins": 3, "changed": 2},     # another pin: ignored
          {"e": "probe", "c": 30, "pins": 2, "changed": 1},
          {"e": "mark", "c": 40, "value": 0x12345678},           # not a metric mark
          {"e": "probe", "c": 50, "pins": 3, "changed": 1},
          {"e": "probe", "c": 57, "pins": 2, "changed": 1}]
    assert stats.pair_probe_edges(ev) == {1: [20, 7]}


def test_samples_helper_is_deterministic():
    assert samples_for(10) == samples_for(10)


def test_probe_from_stim_and_reset():
    ev = [{"e": "mark", "c": 100, "value": 0x52540000},
          {"e": "probe", "c": 4000, "pins": 1, "changed": 1},     # from=reset: the rising edge
          {"e": "probe", "c": 4002, "pins": 0, "changed": 1},
          {"e": "mark", "c": 5000, "value": 0x52540001},
          {"e": "probe", "c": 5010, "pins": 1, "changed": 1},     # raised before arming
          {"e": "stim", "c": 5300, "level": 1},
          {"e": "stim", "c": 5340, "level": 0},
          {"e": "probe", "c": 5330, "pins": 0, "changed": 1},     # falling edge: 30 after the stimulus
          {"e": "probe", "c": 5400, "pins": 1, "changed": 1},
          {"e": "stim", "c": 5500, "level": 1},
          {"e": "probe", "c": 5522, "pins": 0, "changed": 1}]
    got = stats.pair_probe_edges(ev, {0: "reset", 1: "stim"})
    assert got == {0: [4000], 1: [30, 22]}


def test_signed_and_flagged_incomplete():
    t = protocol.parse("@metric timer.periodic_jitter unit=cycles n=3 cold=0 signed=1\n@s fffffffe 0 3\n"
                       "@end timer.periodic_jitter\n# rhealstone.preemption incomplete: timed out\n"
                       "@metric rhealstone.preemption unit=cycles n=0 cold=0 incomplete=1\n"
                       "@end rhealstone.preemption\n@probe rhealstone.preemption from=stim\n@done\n")
    assert t.metrics["timer.periodic_jitter"].samples == [-2, 0, 3]
    m = t.metrics["rhealstone.preemption"]
    assert not m.complete and m.problem == "timed out" and m.index == 1 and m.probe_from == "stim"
