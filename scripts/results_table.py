#!/usr/bin/env python3
"""Print the tables of docs/results.md from a result file of `rtoslab run --json FILE`:
    .venv/bin/python scripts/results_table.py FILE              the suite table (p50 / max per RTOS)
    .venv/bin/python scripts/results_table.py FILE --configs    each RTOS's version, pin and settings
    .venv/bin/python scripts/results_table.py FILE --goals      rtoslab's goals of issue 11, met or not
    .venv/bin/python scripts/results_table.py FILE --cores FILE2 [FILE3]
                      the hot paths' p50 of each RTOS from one core to the next (e.g. vp-m0, vp-m3, vp-m4)
    .venv/bin/python scripts/results_table.py FILE --readme
                      the README's table and its ranking sentence, generated from the file
    .venv/bin/python scripts/results_table.py FILE --hartstone
                      Hartstone's breakdown points per series and RTOS: utilisation (%) and the series' unit
    .venv/bin/python scripts/results_table.py FILE --seeds
                      the metrics measured as seeds 001, 002 and 003 defined them (issue 28): p50 per RTOS
    .venv/bin/python scripts/results_table.py FILE --moves FILE2
                      per RTOS, how much the second board moves its hot paths (e.g. a flash system
                      against the same core at zero wait states): the ratio of p50s, median and range
    .venv/bin/python scripts/results_table.py FILE --profiles FILE2
                      the same from one build profile to the next (size, speed), with each row's leader
    .venv/bin/python scripts/results_table.py FILE [FILE2 ...] --api-cost
                      the hot paths of each RTOS natively and through CMSIS-RTOS2 (its `<id>-cmsis` port)
                      side by side, per board: p50s and the API layer's cost in cycles
    .venv/bin/python scripts/results_table.py FILE --ranking [FILE2 ...]
                      the README's ranking sentence alone, one per file
    .venv/bin/python scripts/results_table.py FILE --live-profiles FILE2
                      the `--profiles` table's live-register rows (`<id>.live`) only
    .venv/bin/python scripts/results_table.py FILE --live-summary FILE2 [FILE3 ...]
                      per file (board, profile): how many `.live` rows rtoslab leads, and the others' leaders
    .venv/bin/python scripts/results_table.py FILE --not-met [FILE2 ...]
                      rtoslab's goal rows another RTOS wins, per file (board, profile): leader and gap
    .venv/bin/python scripts/results_table.py FILE --leader-changes FILE2
                      the hot paths whose leader differs between the two files (boards or profiles)
    .venv/bin/python scripts/results_table.py FILE --energy
                      the energy table (idle, duty cycle, battery days, charge per switch) per RTOS
RTOSes in the port registry's order, metrics in the order of docs/methodology.md."""
import json
import sys

from rtoslab.contract import HOT_PATHS, HOT_PATHS_LIVE
from rtoslab.ids import higher_is_better, metric_order
from rtoslab.ports import registry
from rtoslab.standing import is_ranked

# The hot paths (spec/contracts.toml, docs/methodology.md "Hot paths") and their live-register
# variants (`<id>.live`): every ranking claim is about these, and the throughputs (tm.*),
# higher is better.
HOT = HOT_PATHS + HOT_PATHS_LIVE
# The README's table: the hot paths a reader compares first, the latency, a delay and a throughput.
README_ROWS = ("rhealstone.task_switch", "rhealstone.task_switch.seed002", "rhealstone.preemption",
               "rhealstone.interrupt_latency",
               "rhealstone.semaphore_shuffle", "rhealstone.deadlock_break", "rhealstone.message_passing",
               "sem.signal_wake", "sem.wait_block", "mutex.lock_uncontended", "mutex.unlock",
               "mutex.lock_contended", "irq.to_thread", "timer.delay_error.10us", "tm.cooperative")
# A row's stand-in where an RTOS cannot measure the row's own definition but the seeds' one
# (the cell shows it with a note): Contiki-NG has no thread to switch, seed 002 timed its
# PROCESS_PAUSE() hand-off between two processes.
README_STANDINS = {"rhealstone.task_switch": "rhealstone.task_switch.seed002"}
README_STANDIN_NOTE = ("¹ {who}: no thread to switch; the figure is `rhealstone.task_switch.seed002` (the next "
                       "row), seed 002's `PROCESS_PAUSE()` hand-off between two processes. A protothread switch "
                       "saves no registers and changes no stack: the pausing process returns to the scheduler "
                       "loop, which calls the next one's function.")
FLOOR = "baremetal"
# The @config keys shown in the configuration table, in this order, when a port prints them.
CONFIG_KEYS = ("kernel", "tickless", "tick_hz", "time_hz", "assertions", "checks", "preemption",
               "time_slicing", "mutex", "allocation", "timer_context", "isr_api", "delay_rounding", "idle")


def load(path):
    try:
        with open(path) as f:
            runs = {r["rtos"]: r for r in json.load(f)["runs"]}
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"results_table.py: {path}: not a result file of `rtoslab run --json` ({e})")
    order = [r for r in registry() if r in runs] + sorted(set(runs) - set(registry()))
    by = {n: {m["id"]: m for m in runs[n]["results"]} for n in order}
    for n in order:
        for a in runs[n].get("absent", []):
            by[n].setdefault(a["id"], {"absent": a.get("reason", "")})
    return runs, order, by


def cell(m):
    if m is None:
        return ""
    if "absent" in m:
        return "absent"
    return f"{m['p50']} / {m['max']}"


def suite_table(runs, names, by):
    ids = sorted(dict.fromkeys(i for n in names for i in by[n]), key=metric_order)
    print("| metric (p50 / max) | " + " | ".join(registry()[n].name if n in registry() else n
                                               for n in names) + " |")
    print("|---|" + "---|" * len(names))
    for i in ids:
        print(f"| `{i}` | " + " | ".join(cell(by[n].get(i)) for n in names) + " |")


def configs_table(runs, names):
    reg = registry()
    print("| RTOS | version | source (pinned) | licence | configuration |")
    print("|---|---|---|---|---|")
    for n in names:
        r, p = runs[n], reg.get(n)
        cfg = r.get("config", {})
        items = "; ".join(f"{k}: {cfg[k]}" for k in CONFIG_KEYS if k in cfg)
        src = r.get("rtos_source") or (p.pin() if p else "")
        print(f"| {p.name if p else n} | {r.get('rtos_version', '')} | {src} | "
              f"{p.licence if p else ''} | {items or (p.configuration if p else '')} |")


def goal_rows(names, by):
    """rtoslab's goal rows (the hot paths, then its tm.* throughputs): (metric, rtoslab's p50,
    the best other RTOS as (p50, id) or None, at or better than every RTOS, the floor's p50 or
    None)."""
    mine = by.get("rtoslab", {})
    floor = by.get(FLOOR, {})
    peers = [n for n in names if n not in ("rtoslab", FLOOR, "posix") and is_ranked(n)]
    tm = sorted((i for i in mine if i.startswith("tm.")), key=metric_order)
    for i in HOT + tuple(tm):
        m = mine.get(i)
        if not m or "absent" in m:
            continue
        hib = higher_is_better(i)
        vals = [(by[n][i]["p50"], n) for n in peers if i in by[n] and "absent" not in by[n][i]]
        best = (max if hib else min)(vals) if vals else None
        lead = best is None or (m["p50"] >= best[0] if hib else m["p50"] <= best[0])
        f = floor.get(i)
        yield i, m["p50"], best, lead, (f["p50"] if f and "absent" not in f else None)


def goals_table(runs, names, by):
    print("| metric | rtoslab | best other RTOS | floor | at or better than every RTOS | within 10 % of the floor |")
    print("|---|---|---|---|---|---|")
    for i, mine, best, lead, f in goal_rows(names, by):
        near = ""
        if f is not None and not higher_is_better(i):
            near = "yes" if mine <= 1.10 * f else f"no ({mine / f:.2f}×)"
        elif f is not None:
            near = "yes" if mine >= f / 1.10 else f"no ({f / mine:.2f}×)"
        print(f"| `{i}` | {mine} | {f'{best[0]} ({best[1]})' if best else '-'} | "
              f"{f if f is not None else '-'} | {'yes' if lead else 'no'} | {near} |")


def gap(i, mine, best):
    """How far rtoslab's figure is from the best other's: cycles more, or a ratio of
    operations; "met" when it is at or better."""
    if higher_is_better(i):
        return f"{best / mine:.2f}× fewer ops" if mine < best else "met"
    return f"+{mine - best} cycles" if mine > best else "met"


def not_met_table(paths):
    """Across result files (a board and a profile each): every goal row where another RTOS is
    better than rtoslab, with the leader's p50 and the gap, and per file the count."""
    reg = registry()
    print("| board, profile | metric | rtoslab | leader | gap |")
    print("|---|---|---|---|---|")
    counts = []
    for path in paths:
        runs, names, by = load(path)
        some = next(iter(runs.values()))
        where = f"`{some.get('board', '?')}` {some.get('profile', 'size')}"
        rows = [(i, mine, best) for i, mine, best, lead, _ in goal_rows(names, by) if not lead]
        counts.append(f"{where} {len(rows)}")
        for i, mine, (v, n) in rows:
            print(f"| {where} | `{i}` | {mine} | {reg[n].name if n in reg else n} {v} | {gap(i, mine, v)} |")
    print(f"\nRows not met: {'; '.join(counts)}.")


def leader(names, by, i):
    """The RTOS with the best p50 of metric i (the floor and Linux threads not competing)."""
    have = [(by[n][i]["p50"], n) for n in names if n not in ("baremetal", "posix") and is_ranked(n)
            and "p50" in by[n].get(i, {})]
    if not have:
        return "—"
    best = (max if higher_is_better(i) else min)(v for v, _ in have)
    reg = registry()
    return ", ".join(reg[n].name if n in reg else n for v, n in have if v == best)


def cores_table(paths, key="board"):
    """One row per hot path, one column per RTOS: its p50 on each board (or build profile:
    key="profile", with each file's leader), joined by arrows."""
    loaded = [load(p) for p in paths]
    boards = [next(iter(r.values())).get(key, p) for (r, _, _), p in zip(loaded, paths)]
    names = [n for n in loaded[0][1] if n != "posix"
             and all(n in names_k for _, names_k, _ in loaded[1:])]
    reg = registry()
    ids = [i for i in HOT[:5] + ("rhealstone.interrupt_latency",) + HOT[5:] + ("tm.cooperative", "tm.preemptive")
           if any(i in by for _, _, b in loaded for by in b.values())]
    ids = sorted(dict.fromkeys(ids), key=metric_order)
    lead = key == "profile"
    print(f"| metric (p50, cycles: {' → '.join(boards)}) | "
          + " | ".join(reg[n].name if n in reg else n for n in names)
          + (" | leader |" if lead else " |"))
    print("|---|" + "---|" * (len(names) + lead))
    for i in ids:
        cells = []
        for n in names:
            ms = [b[n].get(i) for _, _, b in loaded]
            if all(m is None or "absent" in m for m in ms):
                cells.append("—")
            else:
                cells.append(" → ".join("absent" if m and "absent" in m else str(m["p50"]) if m else "—"
                                        for m in ms))
        if lead:
            ls = [leader(names, b, i) for _, _, b in loaded]
            cells.append(ls[0] if len(set(ls)) == 1 else "**" + " → ".join(ls) + "**")
        print(f"| `{i}` | " + " | ".join(cells) + " |")


def _num(v) -> str:
    return f"{v:,}".replace(",", " ")


def readme_table(runs, names, by):
    """The README's table (p50; — where the RTOS lacks the service) and, below it, the ranking
    sentence over the hot paths and the throughputs, both from the same file."""
    reg = registry()
    names = [n for n in names if n != "posix"]
    heads = [reg[n].name if n in reg else n for n in names]
    print("| metric (p50, cycles) | " + " | ".join(heads) + " |")
    print("|---|" + "---|" * len(names))
    stood_in = []
    for i in README_ROWS:
        cells = []
        for n in names:
            m = by[n].get(i)
            alt = by[n].get(README_STANDINS.get(i, ""))
            if (m is None or "absent" in m) and alt and "absent" not in alt:
                cells.append(_num(alt["p50"]) + " ¹")
                stood_in.append(reg[n].name if n in reg else n)
            else:
                cells.append("—" if m is None or "absent" in m else _num(m["p50"]))
        print(f"| `{i}` | " + " | ".join(cells) + " |")
    print()
    if stood_in:
        print(README_STANDIN_NOTE.format(who=", ".join(stood_in)))
        print()
    print(ranking_sentence(runs, names, by))


def ranking_sentence(runs, names, by, rtos="rtoslab"):
    """Where `rtos` stands against every other RTOS (not the floor) on the hot paths and the
    throughputs of the file: the count, and each metric it does not lead with the leader."""
    mine = by.get(rtos, {})
    peers = [n for n in names if n not in (rtos, FLOOR) and is_ranked(n)]
    reg = registry()
    lost, led, ids = [], 0, []
    for i in HOT + tuple(sorted((i for i in mine if i.startswith("tm.")), key=metric_order)):
        m = mine.get(i)
        if not m or "absent" in m:
            continue
        vals = [(by[n][i]["p50"], n) for n in peers if i in by[n] and "absent" not in by[n][i]]
        if not vals:
            continue
        ids.append(i)
        hib = higher_is_better(i)
        best = (max if hib else min)(vals)
        if (m["p50"] >= best[0]) if hib else (m["p50"] <= best[0]):
            led += 1
        else:
            who = ", ".join(reg[n].name if n in reg else n for v, n in vals if v == best[0])
            lost.append(f"`{i}` ({who} {_num(best[0])} against {_num(m['p50'])})")
    board = next(iter(runs.values())).get("board", "?")
    profile = next(iter(runs.values())).get("profile", "size")
    head = (f"Generated from this run (`scripts/results_table.py FILE --readme`): on {board}, profile "
            f"{profile}, {reg[rtos].name if rtos in reg else rtos} is at or ahead of every other RTOS on "
            f"{led} of the {len(ids)} hot paths and throughputs they share")
    return head + (": it does not lead on " + "; ".join(lost) + "." if lost else ".")


HARTSTONE = (("ph1", "frequency", "Hz"), ("ph2", "frequency", "Hz"), ("ph3", "workload", "kcycles/s"),
             ("ph4", "tasks", "tasks"), ("pn", "workload", "kcycles/s"), ("ah", "workload", "kcycles/s"),
             ("sh", "workload", "kcycles/s"))


def hartstone_table(runs, names, by):
    """Per Hartstone series, each RTOS's breakdown point: the work's share of the CPU (%) and
    the series' own unit; "absent" where the RTOS cannot run the series."""
    reg = registry()
    names = [n for n in names if any(k.startswith("hartstone.") for k in by[n])]
    print("| series (utilisation %, own unit) | " + " | ".join(reg[n].name if n in reg else n for n in names) + " |")
    print("|---|" + "---|" * len(names))
    for series, suffix, unit in HARTSTONE:
        cells = []
        for n in names:
            u, v = by[n].get(f"hartstone.{series}.utilisation"), by[n].get(f"hartstone.{series}.{suffix}")
            if u is None or "absent" in u or v is None or "absent" in v:
                cells.append("absent")
            else:
                cells.append(f"{u['p50'] / 10:.1f} % ({_num(v['p50'])} {unit})")
        print(f"| `{series}` | " + " | ".join(cells) + " |")


SEED_IDS = ("rhealstone.task_switch", "rhealstone.task_switch.seed002", "rhealstone.message_passing.seed001",
            "rhealstone.message_throughput.seed001", "mutex.lock_uncontended", "mutex.unlock",
            "mutex.lock_unlock.seed003", "sem.signal_wake", "sem.signal_wake.seed003")


def seeds_table(runs, names, by):
    """The seeds' own definitions beside the suite's: p50 per RTOS (— where absent)."""
    reg = registry()
    print("| metric (p50) | " + " | ".join(reg[n].name if n in reg else n for n in names) + " |")
    print("|---|" + "---|" * len(names))
    for i in SEED_IDS:
        cells = []
        for n in names:
            m = by[n].get(i)
            cells.append("—" if m is None or "absent" in m else _num(m["p50"]))
        unit = next((by[n][i].get("unit") for n in names if i in by[n] and "unit" in by[n][i]), "cycles")
        print(f"| `{i}` ({unit}) | " + " | ".join(cells) + " |")


def moves_table(base, other):
    """Per RTOS: its hot paths' p50 on `other` over `base` (time paths; tm.* inverted, so above
    1 is slower everywhere), the median, the smallest and the largest, and the path of each."""
    (_, names, by0), (runs1, _, by1) = load(base), load(other)
    b0, b1 = next(iter(load(base)[0].values()))["board"], next(iter(runs1.values()))["board"]
    reg = registry()
    print(f"| RTOS | hot paths | {b1} / {b0}, median | smallest | largest |")
    print("|---|---|---|---|---|")
    for n in names:
        if n not in by1:
            continue
        ratios = []
        for i in HOT + ("tm.cooperative", "tm.preemptive"):
            m0, m1 = by0[n].get(i), by1[n].get(i)
            if not m0 or not m1 or "absent" in m0 or "absent" in m1 or not m0["p50"] or not m1["p50"]:
                continue
            r = m1["p50"] / m0["p50"]
            ratios.append((1 / r if higher_is_better(i) else r, i))
        if not ratios:
            continue
        ratios.sort()
        med = ratios[len(ratios) // 2][0] if len(ratios) % 2 else \
            (ratios[len(ratios) // 2 - 1][0] + ratios[len(ratios) // 2][0]) / 2
        name = reg[n].name if n in reg else n
        print(f"| {name} | {len(ratios)} | {med:.3f} | {ratios[0][0]:.3f} (`{ratios[0][1]}`) "
              f"| {ratios[-1][0]:.3f} (`{ratios[-1][1]}`) |")


# The API layer (docs/cmsis-rtos2.md): a port `<id>-cmsis` is <id> through CMSIS-RTOS2.
API_SUFFIX = "-cmsis"


def api_cost_table(paths):
    """Per board and RTOS with a `<id>-cmsis` run in the same file: each hot path's p50 natively
    and through CMSIS-RTOS2, and the difference (the API layer's cycles)."""
    reg = registry()
    print("| board | RTOS | metric | native p50 | through CMSIS-RTOS2 p50 | API layer |")
    print("|---|---|---|---:|---:|---:|")
    for path in paths:
        runs, names, by = load(path)
        for n in names:
            api = n + API_SUFFIX
            if n.endswith(API_SUFFIX) or api not in by:
                continue
            board = runs[n]["board"]
            name = reg[n].name if n in reg else n
            for i in HOT:
                m0, m1 = by[n].get(i), by[api].get(i)
                if m0 is None and m1 is None:
                    continue
                if not m0 or not m1 or "absent" in m0 or "absent" in m1:
                    why = (m1 or {}).get("absent") or (m0 or {}).get("absent") or "not measured"
                    print(f"| {board} | {name} | `{i}` | {cell(m0).split(' /')[0]} | absent: {why} | |")
                    continue
                d = m1["p50"] - m0["p50"]
                pct = f" ({d / m0['p50'] * 100:+.0f} %)" if m0["p50"] else ""
                print(f"| {board} | {name} | `{i}` | {m0['p50']} | {m1['p50']} | {d:+d}{pct} |")


def ranking_sentences(paths):
    """The ranking sentence of each file (the README quotes one per board)."""
    for path in paths:
        runs, names, by = load(path)
        print(ranking_sentence(runs, names, by))
        print()


def live_profiles_table(size_path, speed_path):
    """The `--profiles` table with the live-register rows only (docs/results.md, "The
    live-register variants")."""
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        cores_table([size_path, speed_path], key="profile")
    for line in out.getvalue().splitlines():
        if line.startswith(("| metric", "|---")) or ".live`" in line:
            print(line)


def live_summary_table(paths):
    """Per result file (a board and a profile): how many live-register rows rtoslab leads, and
    for the others the leader with its p50 against rtoslab's."""
    reg = registry()
    print("| board, profile | `.live` rows rtoslab leads | where it does not (leader, p50 against rtoslab's) |")
    print("|---|---|---|")
    for path in paths:
        runs, names, by = load(path)
        some = next(iter(runs.values()))
        lost, led = [], 0
        for i in HOT_PATHS_LIVE:
            m = by.get("rtoslab", {}).get(i)
            if not m or "p50" not in m:
                continue
            others = [(by[n][i]["p50"], n) for n in names
                      if n not in ("rtoslab", FLOOR, "posix") and is_ranked(n) and "p50" in by[n].get(i, {})]
            best = min(others) if others else None
            if best is None or m["p50"] <= best[0]:
                led += 1
            else:
                lost.append(f"`{i}` ({reg[best[1]].name if best[1] in reg else best[1]} {best[0]} against {m['p50']})")
        print(f"| `{some.get('board', '?')}`, {some.get('profile', 'size')} | {led} of {len(HOT_PATHS_LIVE)} "
              f"| {'; '.join(lost) or '—'} |")


def leader_changes(path_a, path_b):
    """The hot paths whose leader (the floor not competing) differs from the first file to the
    second, with the leaders' p50s on each: one sentence."""
    (runs_a, names_a, by_a), (runs_b, names_b, by_b) = load(path_a), load(path_b)
    a, b = next(iter(runs_a.values())), next(iter(runs_b.values()))
    what_a, what_b = (a.get("board"), b.get("board")) if a.get("board") != b.get("board") else \
        (a.get("profile", "size"), b.get("profile", "size"))
    names = [n for n in names_a if n in names_b]
    reg = registry()

    def p50s(by, lead, i):
        return ", ".join(str(by[n][i]["p50"]) for n in names
                         if (reg[n].name if n in reg else n) in lead.split(", ") and "p50" in by[n].get(i, {}))
    changes = []
    for i in HOT:
        la, lb = leader(names, by_a, i), leader(names, by_b, i)
        if la != lb:
            changes.append(f"`{i}`: {la} ({p50s(by_a, la, i)}) → {lb} ({p50s(by_b, lb, i)})")
    print(f"Rows whose leader changes from `{what_a}` to `{what_b}` (the floor not competing; generated "
          f"from the two runs, leader and its p50 on each): " + ("; ".join(changes) + "." if changes else "none."))


def energy_table(runs, names):
    """The battery-life rows of python/rtoslab/energy.py (`python -m rtoslab.energy` prints the
    same), RTOSes in the registry's order; a run without energy figures has no row."""
    from rtoslab.energy import battery_md
    lines = battery_md([runs[n] for n in names], lambda r: f"{r.get('rtos')}@{r.get('board')}")
    print("\n".join(lines[5:]) if lines else "(no run with energy figures)")


def main(argv):
    if len(argv) < 2 or argv[1].startswith("-"):
        sys.exit("usage: results_table.py RESULT.json "
                 "[--configs|--energy|--goals|--readme|--hartstone|--seeds|--profiles RESULT2.json|--moves RESULT2.json"
                 "|--cores RESULT2.json ...|--ranking [RESULT2.json ...]|--live-profiles RESULT2.json"
                 "|--live-summary [RESULT2.json ...]|--not-met [RESULT2.json ...]|--leader-changes RESULT2.json]"
                 " | RESULT.json [RESULT2.json ...] --api-cost")
    if argv[-1] == "--api-cost":
        api_cost_table(argv[1:-1])
        return
    what = argv[2] if len(argv) > 2 else ""
    if what == "--ranking":
        ranking_sentences([argv[1]] + argv[3:])
        return
    if what in ("--live-profiles", "--leader-changes"):
        if len(argv) != 4:
            sys.exit(f"usage: results_table.py RESULT.json {what} RESULT2.json")
        (live_profiles_table if what == "--live-profiles" else leader_changes)(argv[1], argv[3])
        return
    if what == "--live-summary":
        live_summary_table([argv[1]] + argv[3:])
        return
    if what == "--not-met":
        not_met_table([argv[1]] + argv[3:])
        return
    if what == "--profiles":
        if len(argv) < 4:
            sys.exit("usage: results_table.py RESULT.json --profiles RESULT2.json")
        cores_table([argv[1]] + argv[3:], key="profile")
        return
    if what == "--moves":
        if len(argv) != 4:
            sys.exit("usage: results_table.py RESULT.json --moves RESULT2.json")
        moves_table(argv[1], argv[3])
        return
    if what == "--cores":
        if len(argv) < 4:
            sys.exit("usage: results_table.py RESULT.json --cores RESULT2.json [RESULT3.json ...]")
        cores_table([argv[1]] + argv[3:])
        return
    runs, names, by = load(argv[1])
    if what == "--readme":
        readme_table(runs, names, by)
    elif what == "--hartstone":
        hartstone_table(runs, names, by)
    elif what == "--seeds":
        seeds_table(runs, names, by)
    elif what == "--energy":
        energy_table(runs, names)
    elif what == "--configs":
        configs_table(runs, names)
    elif what == "--goals":
        goals_table(runs, names, by)
    else:
        suite_table(runs, names, by)


if __name__ == "__main__":
    main(sys.argv)
