import json

from helpers import assert_one_line_error

from rtoslab import elfsyms


def synthetic_events(elf):
    """Two threads switching through PendSV, a SysTick, a stimulus-driven IRQ1, and sleep."""
    syms = elfsyms.load(elf)
    a = next(o for o in syms.objects if o.name == "stack_a")
    b = next(o for o in syms.objects if o.name == "stack_b")
    msp = syms.initial_sp
    ev = [{"e": "start", "board": "vp-m0", "clock_hz": 48000000, "ram": 16384}]
    # stimulus pulses while IRQ1 is disabled: no entry follows them, none may be paired later
    ev += [{"e": "stim", "c": 20, "level": 1}, {"e": "stim", "c": 30, "level": 0},
           {"e": "stim", "c": 60, "level": 1}, {"e": "stim", "c": 70, "level": 0}]
    c = 100
    # main on MSP pends PendSV; the first switch goes to thread a
    ev += [{"e": "exc_entry", "c": c, "exc": 14, "sp": msp - 32},
           {"e": "switch", "c": c + 60, "from_psp": 0x20000080, "to_psp": a.end - 32, "low": 0x20000080},
           {"e": "exc_return", "c": c + 60, "exc": 14, "to": 0}]
    c += 60
    psp = {"stack_a": a.end - 32, "stack_b": b.end - 32}
    cur, other = "stack_a", "stack_b"
    for _ in range(10):
        c += 100                                    # the thread runs 100 cycles
        deep = psp[cur] - (40 if cur == "stack_a" else 400)
        ev.append({"e": "exc_entry", "c": c, "exc": 14, "sp": psp[cur] - 32})
        c += 50
        ev.append({"e": "switch", "c": c, "from_psp": psp[cur] - 32, "to_psp": psp[other] - 32, "low": deep})
        ev.append({"e": "exc_return", "c": c, "exc": 14, "to": 0})
        cur, other = other, cur
    # a stimulus edge taken by IRQ1 16 cycles later, tail-chaining into SysTick
    ev += [{"e": "stim", "c": c + 10, "level": 1},
           {"e": "exc_entry", "c": c + 26, "exc": 17, "sp": psp[cur] - 32},
           {"e": "tail_chain", "c": c + 60, "from": 17, "exc": 15},
           {"e": "exc_return", "c": c + 90, "exc": 15, "to": 0},
           {"e": "stim", "c": c + 95, "level": 0},
           {"e": "sleep", "c": c + 100},
           {"e": "wake", "c": c + 1100},
           {"e": "end", "c": c + 1200, "status": 0, "instructions": 900}]
    return ev


def write_events(path, ev):
    path.write_text("".join(json.dumps(e) + "\n" for e in ev))
    return path


def test_trace_from_events(cli, fixture_elfs, tmp_path):
    ev = write_events(tmp_path / "ev.jsonl", synthetic_events(fixture_elfs["plain"]))
    pf = tmp_path / "t.perfetto.json"
    js = tmp_path / "t.json"
    r = cli("trace", fixture_elfs["plain"], "--from-events", ev, "--perfetto", pf, "--json", js)
    assert r.status == 0, r
    assert "context switches: 11" in r.out
    assert "stack_a" in r.out and "stack_b" in r.out
    d = json.loads(js.read_text())
    th = {t["name"]: t for t in d["threads"]}
    assert th["stack_a"]["runs"] == 6 and th["stack_b"]["runs"] == 5
    assert th["stack_b"]["stack_high_water"] == 32 + 400 + 32 - 0 or th["stack_b"]["stack_high_water"] >= 400
    assert th["stack_a"]["stack_size"] == 512 and th["stack_b"]["stack_size"] == 1024
    lat = d["interrupt_latency"]["stimulus rise -> IRQ1"]
    assert lat["min"] == 16 and lat["n"] == 1
    assert 0 < d["cpu_load"] < 1 and d["sleep_cycles"] == 1000
    assert {h["name"] for h in d["handlers"]} == {"PendSV", "IRQ1", "SysTick"}
    # Perfetto / Chrome trace-event JSON: which thread ran when
    p = json.loads(pf.read_text())
    names = {e["args"]["name"] for e in p["traceEvents"] if e["ph"] == "M" and e["name"] == "thread_name"}
    assert "CPU: thread mode" in names and "thread stack_a" in names
    slices = [e for e in p["traceEvents"] if e["ph"] == "X" and e["tid"] == 1]
    assert {"stack_a", "stack_b", "sleep"} <= {e["name"] for e in slices}
    assert all(e["dur"] >= 0 and e["ts"] >= 0 for e in slices)


def test_trace_runs_the_simulator_and_passes_vcd(cli, fixture_elfs, fake_vp, tmp_path, monkeypatch):
    ev = synthetic_events(fixture_elfs["plain"])
    spec = tmp_path / "spec.json"
    log = tmp_path / "args.log"
    spec.write_text(json.dumps({"stdout": "fixture firmware\n", "status": 124, "events": ev,
                                "stderr": "cycle limit", "args_log": str(log)}))
    monkeypatch.setenv("FAKE_VP_SPEC", str(spec))
    vcd = tmp_path / "t.vcd"
    r = cli("trace", fixture_elfs["plain"], "--vcd", vcd, "--max-cycles", "5000", "--stimulus", "at=100")
    assert r.status == 0, r          # the cycle limit is how a firmware that never exits ends
    assert vcd.exists() and "cycle limit" in r.out
    argv = json.loads(log.read_text())
    # the VCD is rtoslab's own, written from the event trace (thread and handler signals)
    assert "--trace" in argv and "--vcd" not in argv
    assert "$var string 1 ! thread $end" in vcd.read_text()
    assert argv[argv.index("--stimulus") + 1] == "at=100"


def test_trace_of_a_faulting_firmware(cli, fixture_elfs, fake_vp, tmp_path, monkeypatch):
    ev = synthetic_events(fixture_elfs["fault"])[:8]
    ev.append({"e": "fault", "c": 5000, "pc": "0x00000240", "reason": "load from unmapped 0x60000000"})
    ev.append({"e": "exc_entry", "c": 5000, "exc": 3, "sp": 0x20000300})
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"stdout": "", "status": 126, "events": ev,
                                "stderr": "lock-up at pc=0x00000080 (Default_Handler)"}))
    monkeypatch.setenv("FAKE_VP_SPEC", str(spec))
    r = cli("trace", fixture_elfs["fault"], "--perfetto", tmp_path / "p.json")
    assert_one_line_error(r, 3)
    assert "lockup" in r.err
    assert "fault" in r.out and "unmapped" in r.out          # what was seen is still reported
    assert (tmp_path / "p.json").exists()


def test_trace_bad_input(cli, fixture_elfs, tmp_path):
    assert_one_line_error(cli("trace", tmp_path / "none.elf"), 2)
    (tmp_path / "x.elf").write_text("nope")
    assert_one_line_error(cli("trace", tmp_path / "x.elf"), 2)
    assert_one_line_error(cli("trace", fixture_elfs["plain"], "--board", "qemu-microbit"), 2)
    assert_one_line_error(cli("trace", fixture_elfs["plain"], "--board", "z80"), 2)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n" * 300)
    assert_one_line_error(cli("trace", fixture_elfs["plain"], "--from-events", bad), 2)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert_one_line_error(cli("trace", fixture_elfs["plain"], "--from-events", empty), 2)
    assert_one_line_error(cli("trace", fixture_elfs["plain"], "--from-events", tmp_path / "missing.jsonl"), 2)


def _objs(elf):
    syms = elfsyms.load(elf)
    a = next(o for o in syms.objects if o.name == "stack_a")
    b = next(o for o in syms.objects if o.name == "stack_b")
    return syms, a, b


def test_trace_thread_mode_switches_idle_on_msp_and_time_per_thread(cli, fixture_elfs, tmp_path):
    """A kernel that switches synchronously in thread mode (`how: thread`) and idles in
    thread mode on MSP (exception switches to and from it), as example_blinky does."""
    syms, a, b = _objs(fixture_elfs["plain"])
    msp = syms.initial_sp
    ev = [{"e": "start", "c": 0, "board": "vp-m0", "clock_hz": 48000000, "ram": 16384},
          # main starts thread a (MSR CONTROL), a switches to b (mov sp, rX): thread mode
          {"e": "switch", "c": 100, "from_psp": msp - 40, "to_psp": a.end - 36, "low": msp - 48, "how": "thread"},
          {"e": "switch", "c": 300, "from_psp": a.end - 80, "to_psp": b.end - 36, "low": a.end - 120,
           "how": "thread"},
          # b blocks: PendSV returns to the idle loop on MSP
          {"e": "exc_entry", "c": 500, "exc": 14, "sp": b.end - 100},
          {"e": "exc_return", "c": 580, "exc": 14, "to": 0},
          {"e": "switch", "c": 580, "from_psp": b.end - 100, "to_psp": msp - 32, "low": b.end - 140,
           "how": "exception"},
          {"e": "sleep", "c": 590}, {"e": "wake", "c": 1590},
          {"e": "exc_entry", "c": 1600, "exc": 16, "sp": msp - 64},
          {"e": "tail_chain", "c": 1700, "from": 16, "exc": 14},
          {"e": "exc_return", "c": 1800, "exc": 14, "to": 0},
          {"e": "switch", "c": 1800, "from_psp": msp - 64, "to_psp": b.end - 100, "low": msp - 64,
           "how": "exception"},
          {"e": "exc_entry", "c": 1900, "exc": 14, "sp": b.end - 100},
          {"e": "exc_return", "c": 1980, "exc": 14, "to": 0},
          {"e": "switch", "c": 1980, "from_psp": b.end - 100, "to_psp": a.end - 80, "low": b.end - 100,
           "how": "exception"},
          {"e": "end", "c": 2100, "status": 0, "instructions": 500}]
    f = write_events(tmp_path / "ev.jsonl", ev)
    js = tmp_path / "t.json"
    r = cli("trace", fixture_elfs["plain"], "--from-events", f, "--json", js)
    assert r.status == 0, r
    assert "context switches: 5 (3 exception, 2 thread)" in r.out
    d = json.loads(js.read_text())
    assert d["context_switches"] == 5 and d["context_switches_by_kind"] == {"thread": 2, "exception": 3}
    th = {t["name"]: t for t in d["threads"]}
    assert (th["stack_a"]["runs"], th["stack_b"]["runs"], th["main (MSP)"]["runs"]) == (2, 2, 1)
    assert th["stack_a"]["cycles"] == 200 + 120 and th["stack_b"]["cycles"] == 200 + 100
    assert th["main (MSP)"]["cycles"] == 100 + 10 + 10  # before the first switch; idle around its sleep
    assert th["stack_a"]["stack_high_water"] == 120 and th["stack_b"]["stack_high_water"] == 140
    assert not th["stack_a"]["stack_overflow"] and not th["stack_b"]["stack_overflow"]


def test_trace_high_water_is_per_stack_and_overflow_is_reported(cli, fixture_elfs, tmp_path):
    """A frame pushed on another thread's stack is that thread's (a trace of an old simulator
    that missed a thread-mode switch must not push a's high-water above its size); only the
    `low` of a switch leaving from inside a stack can show it went below its bottom."""
    syms, a, b = _objs(fixture_elfs["plain"])
    assert b.end <= a.addr                               # b lies below a
    ev = [{"e": "start", "c": 0, "board": "vp-m0", "clock_hz": 48000000, "ram": 16384},
          {"e": "exc_entry", "c": 50, "exc": 14, "sp": a.end - 64},
          {"e": "exc_return", "c": 100, "exc": 14, "to": 0},
          {"e": "switch", "c": 100, "from_psp": syms.initial_sp - 32, "to_psp": a.end - 64,
           "low": syms.initial_sp - 32},
          # no switch event for a -> b (old simulator): b's frame is b's, not a's
          {"e": "exc_entry", "c": 200, "exc": 15, "sp": b.addr + 100},
          {"e": "exc_return", "c": 250, "exc": 15, "to": 0},
          {"e": "end", "c": 300, "status": 0, "instructions": 100}]
    f = write_events(tmp_path / "ev.jsonl", ev)
    js = tmp_path / "t.json"
    r = cli("trace", fixture_elfs["plain"], "--from-events", f, "--json", js)
    assert r.status == 0, r
    th = {t["name"]: t for t in json.loads(js.read_text())["threads"]}
    assert th["stack_a"]["stack_high_water"] == 64
    assert th["stack_b"]["stack_high_water"] == b.size - 100
    assert "OVERFLOW" not in r.out
    assert th["stack_b"]["runs"] == 0 and th["stack_a"]["runs"] == 1

    # a leaves from inside its stack having gone 16 bytes below its bottom: an overflow
    ev[-1:] = [{"e": "exc_entry", "c": 300, "exc": 14, "sp": a.addr + 8},
               {"e": "exc_return", "c": 350, "exc": 14, "to": 0},
               {"e": "switch", "c": 350, "from_psp": a.addr + 8, "to_psp": b.end - 40, "low": a.addr - 16,
                "how": "exception"},
               {"e": "end", "c": 400, "status": 0, "instructions": 100}]
    f = write_events(tmp_path / "ev2.jsonl", ev)
    r = cli("trace", fixture_elfs["plain"], "--from-events", f, "--json", js)
    assert r.status == 0, r
    th = {t["name"]: t for t in json.loads(js.read_text())["threads"]}
    assert th["stack_a"]["stack_overflow"] and th["stack_a"]["stack_high_water"] == a.size + 16
    assert not th["stack_b"]["stack_overflow"]
    assert "OVERFLOW" in r.out


def test_the_empty_main_stack_is_main_not_the_object_that_starts_there():
    """A thread that leaves for the main stack's top (ktest_overflow's fatal path) goes to
    `main (MSP)`, not to the data object placed right above the main stack."""
    from rtoslab.elfsyms import Obj, SymbolMap
    from rtoslab.trace import MAIN, Analyzer
    syms = SymbolMap([Obj("starter_thread", 0x20000200, 28), Obj("stack_x", 0x20000400, 256)],
                     0x20000200, "EM_ARM", 0)
    an = Analyzer(syms)
    for ev in ({"e": "start", "c": 0, "board": "vp-m0", "clock_hz": 48000000},
               {"e": "switch", "c": 10, "from_psp": 0x20000100, "to_psp": 0x200004f0, "low": 0x200000f0,
                "how": "thread"},
               {"e": "switch", "c": 50, "from_psp": 0x200004e0, "to_psp": 0x20000200, "low": 0x200004d0,
                "how": "thread"},
               {"e": "end", "c": 80, "status": 0, "instructions": 40}):
        an.feed(ev)
    a = an.result()
    assert "starter_thread" not in a.threads
    assert a.threads[MAIN].runs == 1 and a.threads[MAIN].cycles == 10 + 30
    assert a.threads["stack_x"].runs == 1 and a.threads["stack_x"].cycles == 40
    assert a.threads["stack_x"].high_water == 0x30


def parse_vcd(text):
    """{signal name: [(time, value)]} and the header lines of a VCD."""
    ids, changes, head, t = {}, {}, [], 0
    body = False
    for line in text.splitlines():
        if not body:
            head.append(line)
            if line.startswith("$var"):
                _, _kind, _w, ident, name, _end = line.split()
                ids[ident] = name
                changes[name] = []
            body = line.startswith("$enddefinitions")
            continue
        if line.startswith("#"):
            t = int(line[1:])
        elif line[0] in "sb":
            value, ident = line[1:].split(" ")
            changes[ids[ident]].append((t, value))
        elif line[0] in "01":
            changes[ids[line[1:]]].append((t, line[0]))
    return changes, head, t


def test_vcd_shows_the_thread_and_the_handler_at_a_context_switch(cli, fixture_elfs, tmp_path):
    ev = synthetic_events(fixture_elfs["plain"])
    vcd = tmp_path / "t.vcd"
    r = cli("trace", fixture_elfs["plain"], "--from-events",
            write_events(tmp_path / "ev.jsonl", ev), "--vcd", vcd)
    assert r.status == 0, r
    changes, head, last = parse_vcd(vcd.read_text())
    assert "$timescale 1 ps $end" in head and any("48000000 Hz" in h for h in head)
    ps = 1e12 / 48e6
    first = int(head[0].split(" + ")[1].split()[0])     # the comment's cycle = time * f + first
    assert first == min(e["c"] for e in ev if "c" in e)

    def at(cycle):
        return round((cycle - first) * ps)
    # the second switch of the synthetic run: PendSV entered at 260 on stack_a, switch at 310
    thread = dict(changes["thread"])
    handler = dict(changes["handler"])
    assert handler[at(260)] == "PendSV" and handler[at(310)] == "-"
    assert thread[at(160)] == "stack_a" and thread[at(310)] == "stack_b"
    # between the entry and the switch the interrupted thread is still the running one
    assert not any(at(260) < t < at(310) for t, _ in changes["thread"])
    # the stimulus, the IRQ1 entry and its tail-chain into SysTick
    assert [v for _, v in changes["stim"]][-2:] == ["1", "0"]
    names = [v for _, v in changes["handler"]]
    assert "IRQ1" in names and names[names.index("IRQ1") + 1] == "SysTick"
    # the file ends at the run's last cycle
    end = next(e["c"] for e in ev if e["e"] == "end")
    assert last == at(end)
