//! `rtoslab-vp run --itrace FILE [--itrace-window A:B]`: the instruction trace.

use crate::support::command::{tmp_in, vp};
use crate::support::elfgen::from_flash;
use crate::support::*;
use std::path::PathBuf;

fn tmp(name: &str) -> PathBuf {
    tmp_in("itrace", name)
}

/// One trace line: cycle, then the rest split on spaces.
fn parse(text: &str) -> Vec<(u64, Vec<String>)> {
    text.lines()
        .map(|l| {
            let mut f = l.split(' ');
            let c = f.next().unwrap().parse().unwrap_or_else(|_| panic!("bad line {:?}", l));
            (c, f.map(String::from).collect())
        })
        .collect()
}

fn pc_of(fields: &[String]) -> Option<u32> {
    fields.first()?.strip_prefix("0x").map(|h| u32::from_str_radix(h, 16).unwrap())
}

/// MOVS, MOVS, LDR (RAM), B (taken), BL, an SVC round trip, then exit.
fn program() -> (Asm, Vec<u8>) {
    let mut a = Asm::new();
    a.label("reset").li(6, 0x2000_0000);
    a.label("movs1").i(movs_i(0, 1));
    a.label("movs2").i(movs_i(1, 2));
    a.label("ldr").i(ldr_i(2, 6, 0));
    a.label("b").b("after");
    a.n(NOP, 3);
    a.label("after").bl("func");
    a.label("svc").i(svc(0));
    a.label("back").i(movs_i(3, 3)).exit(0);
    a.label("func").i(NOP).i(bx(14));
    a.label("svc_handler").i(NOP).i(bx(14));
    a.vector(11, "svc_handler");
    let syms = [
        ("reset", a.addr("reset") | 1, true),
        ("func", a.addr("func") | 1, true),
        ("SVC_Handler", a.addr("svc_handler") | 1, true),
    ];
    let elf = from_flash(&a.image(), &syms);
    (a, elf)
}

#[test]
fn itrace_lines_costs_exceptions_and_window() {
    let (a, elf) = program();
    let fw = tmp("it.elf");
    std::fs::write(&fw, elf).unwrap();
    let fw = fw.to_str().unwrap();
    let out = tmp("it.txt");
    let outs = out.to_str().unwrap();
    let jl = tmp("it.jsonl");

    // The same run with and without the trace: same status, cycles and instruction count.
    let (st, _, err) = vp(&["run", fw, "--trace", jl.to_str().unwrap(), "--trace-events", "end"]);
    assert_eq!(st, 0, "{}", err);
    let plain_end = std::fs::read_to_string(&jl).unwrap();
    let (st, _, err) = vp(&["run", fw, "--itrace", outs, "--trace", jl.to_str().unwrap(), "--trace-events", "end"]);
    assert_eq!(st, 0, "{}", err);
    assert_eq!(std::fs::read_to_string(&jl).unwrap(), plain_end);
    let end: serde_json::Value = serde_json::from_str(plain_end.trim()).unwrap();

    let text = std::fs::read_to_string(&out).unwrap();
    let lines = parse(&text);
    let insns = lines.iter().filter(|(_, f)| pc_of(f).is_some()).count() as u64;
    assert_eq!(insns, end["instructions"].as_u64().unwrap(), "{}", text);
    assert_eq!(lines[0].0, 0);
    assert!(lines.windows(2).all(|w| w[0].0 <= w[1].0), "cycle order:\n{}", text);
    let insn_cycles: Vec<u64> = lines.iter().filter(|(_, f)| pc_of(f).is_some()).map(|l| l.0).collect();
    assert!(insn_cycles.windows(2).all(|w| w[0] < w[1]), "{}", text);

    // The cycle at which the instruction at `label` starts, and the next line's.
    let at = |label: &str| -> (usize, u64) {
        let pc = a.addr(label);
        let i = lines.iter().position(|(_, f)| pc_of(f) == Some(pc)).unwrap_or_else(|| panic!("{} missing", label));
        (i, lines[i].0)
    };
    let cost = |label: &str| {
        let (i, c) = at(label);
        lines[i + 1].0 - c
    };
    assert_eq!(cost("movs1"), 1, "MOVS\n{}", text);
    assert_eq!(cost("movs2"), 1, "MOVS\n{}", text);
    assert_eq!(cost("ldr"), 2, "LDR\n{}", text);
    assert_eq!(cost("b"), 3, "B (taken)\n{}", text);
    assert_eq!(cost("after"), 4, "BL\n{}", text);
    // the B skips the NOPs, the BL lands in func
    let (i, _) = at("b");
    assert_eq!(pc_of(&lines[i + 1].1), Some(a.addr("after")));
    let (i, _) = at("after");
    assert_eq!(pc_of(&lines[i + 1].1), Some(a.addr("func")));

    // symbol+offset and halfwords
    let (i, _) = at("movs1");
    let f = &lines[i].1;
    assert_eq!(f[1], format!("reset+0x{:x}", a.addr("movs1") - a.addr("reset")));
    assert_eq!(f[2], "2001");
    assert_eq!(f.len(), 3);
    let (i, _) = at("func");
    assert_eq!(lines[i].1[1], "func");
    let (i, _) = at("after");
    assert_eq!(lines[i].1.len(), 4, "BL has two halfwords: {:?}", lines[i].1);
    assert!(lines[i].1[2].starts_with('f'), "{:?}", lines[i].1);

    // SVC (3 cycles), entry (15 cycles to the handler's first instruction), return by BX
    // (16 cycles in all: the BX's 3, then the return sequence's 13).
    let (i, c_svc) = at("svc");
    assert_eq!(lines[i + 1], (c_svc + 3, vec!["exc_entry".to_string(), "11".to_string()]), "{}", text);
    assert_eq!(lines[i + 2].0, c_svc + 3 + 15);
    assert_eq!(pc_of(&lines[i + 2].1), Some(a.addr("svc_handler")));
    let bx_line = lines.iter().position(|(_, f)| pc_of(f) == Some(a.addr("svc_handler") + 2)).unwrap();
    let c_bx = lines[bx_line].0;
    assert_eq!(lines[bx_line + 1], (c_bx + 3, vec!["exc_return".to_string(), "11".to_string()]), "{}", text);
    assert_eq!(lines[bx_line + 2].0, c_bx + 16);
    assert_eq!(pc_of(&lines[bx_line + 2].1), Some(a.addr("back")));

    // --itrace-window: exactly the full trace's lines whose cycle is in [A, B).
    let (_, c_ldr) = at("ldr");
    let (_, c_back) = at("back");
    for (w, lo, hi) in [
        (format!("{}:{}", c_ldr, c_back), c_ldr, c_back),
        (format!("{}:", c_svc), c_svc, u64::MAX),
        (format!(":{}", c_ldr), 0, c_ldr),
        (format!("0x{:x}:{}", c_ldr + 1, c_ldr + 2), c_ldr + 1, c_ldr + 2),
    ] {
        let (st, _, err) = vp(&["run", fw, "--itrace", outs, "--itrace-window", &w]);
        assert_eq!(st, 0, "{}: {}", w, err);
        let got = std::fs::read_to_string(&out).unwrap();
        let want: String = text
            .lines()
            .filter(|l| (lo..hi).contains(&l.split(' ').next().unwrap().parse::<u64>().unwrap()))
            .map(|l| format!("{}\n", l))
            .collect();
        assert!(!want.is_empty() || lo == c_ldr + 1, "{}", w);
        assert_eq!(got, want, "window {}", w);
    }
}

#[test]
fn itrace_is_flushed_on_cycle_limit_and_fault_stop() {
    let mut a = Asm::new();
    a.label("reset").label("l").b("l");
    let fw = tmp("spin.elf");
    std::fs::write(&fw, from_flash(&a.image(), &[("reset", a.addr("reset") | 1, true)])).unwrap();
    let out = tmp("spin.txt");
    let (st, _, err) = vp(&["run", fw.to_str().unwrap(), "--max-cycles", "30000", "--itrace", out.to_str().unwrap()]);
    assert_eq!(st, 124, "{}", err);
    let lines = parse(&std::fs::read_to_string(&out).unwrap());
    assert_eq!(lines.len(), 10000);
    assert!(lines.iter().enumerate().all(|(i, (c, f))| *c == 3 * i as u64 && f[1] == "reset"));

    let mut a = Asm::new();
    a.label("reset").li(0, 0x2000_0002).label("crash").i(ldr_i(1, 0, 0)).exit(0);
    let fw = tmp("crash.elf");
    std::fs::write(&fw, from_flash(&a.image(), &[])).unwrap();
    let (st, _, err) = vp(&["run", fw.to_str().unwrap(), "--fault-stop", "--itrace", out.to_str().unwrap()]);
    assert_eq!(st, 125, "{}", err);
    let text = std::fs::read_to_string(&out).unwrap();
    let last = parse(&text).pop().unwrap();
    assert_eq!(pc_of(&last.1), Some(a.addr("crash")), "{}", text);
    assert_eq!(last.1[1], "?", "no symbols: {}", text);
}

#[test]
fn itrace_bad_arguments() {
    let (_, elf) = program();
    let fw = tmp("bad.elf");
    std::fs::write(&fw, elf).unwrap();
    let fw = fw.to_str().unwrap();
    let out = tmp("bad.txt");
    let outs = out.to_str().unwrap();
    for bad in [
        &["--itrace", "/nonexistent/dir/itrace.txt"][..],
        &["--itrace", outs, "--itrace-window", "100"],
        &["--itrace", outs, "--itrace-window", "9:3"],
        &["--itrace", outs, "--itrace-window", "x:"],
        &["--itrace-window", "0:10"],
    ] {
        let mut args = vec!["run", fw];
        args.extend_from_slice(bad);
        let (st, _, err) = vp(&args);
        assert_eq!(st, 2, "{:?}: {}", bad, err);
        assert_eq!(err.trim().lines().count(), 1, "{:?}: {}", bad, err);
        assert!(err.contains("itrace"), "{:?}: {}", bad, err);
    }
}
