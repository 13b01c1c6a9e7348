//! `rtoslab-vp run --masked FILE`: every interrupts-masked section, found exactly.

use crate::support::command::{tmp_in, vp};
use crate::support::elfgen::from_flash;
use crate::support::*;
use std::path::PathBuf;

fn tmp(name: &str) -> PathBuf {
    tmp_in("masked", name)
}

/// `short` masks around 5 NOPs (3 times), `long_mask` around 300 NOPs (once), `by_msr`
/// with MSR PRIMASK around 10 NOPs and a MOVS; a CPSID while masked opens nothing new.
fn program() -> (Asm, Vec<u8>) {
    let mut a = Asm::new();
    a.label("reset").bl("short").bl("long_mask").bl("short").bl("by_msr").bl("short").bl("twice").bl("idle");
    a.exit(0);
    a.label("short").label("short_set").i(CPSID).n(NOP, 5);
    a.label("short_clear").i(CPSIE).i(bx(14));
    a.label("long_mask").i(NOP).label("long_set").i(CPSID).n(NOP, 300);
    a.label("long_clear").i(CPSIE).i(bx(14));
    a.label("by_msr").i(movs_i(0, 1)).label("msr_set").w(msr(16, 0)).n(NOP, 10).i(movs_i(0, 0));
    a.label("msr_clear").w(msr(16, 0)).i(bx(14));
    a.label("twice").label("twice_set").i(CPSID).n(NOP, 2).i(CPSID).n(NOP, 2);
    a.label("twice_clear").i(CPSIE).i(bx(14));
    // SysTick in 1000 cycles; masked, asleep, woken by it, unmask: taken then.
    a.label("idle").poke(0xE000_E014, 1000).poke(0xE000_E018, 0).poke(0xE000_E010, 7);
    a.label("idle_set").i(CPSID).n(NOP, 3).label("idle_wfi").i(WFI).n(NOP, 4);
    a.label("idle_clear").i(CPSIE).i(bx(14));
    a.label("systick").poke(0xE000_E010, 0).i(bx(14));
    a.vector(15, "systick");
    let syms = [
        ("reset", a.addr("reset") | 1, true),
        ("short", a.addr("short") | 1, true),
        ("long_mask", a.addr("long_mask") | 1, true),
        ("by_msr", a.addr("by_msr") | 1, true),
        ("twice", a.addr("twice") | 1, true),
        ("idle", a.addr("idle") | 1, true),
    ];
    let elf = from_flash(&a.image(), &syms);
    (a, elf)
}

#[test]
fn masked_sections_exact_cycles_and_location() {
    let (a, elf) = program();
    let fw = tmp("m.elf");
    std::fs::write(&fw, elf).unwrap();
    let out = tmp("m.json");
    let (st, _, err) = vp(&["run", fw.to_str().unwrap(), "--masked", out.to_str().unwrap()]);
    assert_eq!(st, 0, "{}", err);
    let j: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();

    // Length = the body's cycles + the unmasking instruction (CPSIE 1, MSR 4).
    let l = &j["longest"];
    assert_eq!(l["cycles"], 301, "{}", j);
    assert_eq!(l["set_pc"], a.addr("long_set"));
    assert_eq!(l["clear_pc"], a.addr("long_clear"));
    assert_eq!(l["set_func"], "long_mask");
    assert_eq!(l["set_at"], "long_mask+0x2");
    assert_eq!(l["clear_func"], "long_mask");
    // idle: CPSID, 3 NOPs, WFI (2) then asleep: 5; woken, 4 NOPs, CPSIE: 5.
    assert_eq!(j["count"], 8);
    assert_eq!(j["total"], 3 * 6 + 301 + (10 + 1 + 4) + (2 + 1 + 2 + 1) + 5 + 5);
    assert_eq!(j["hist"], serde_json::json!([[5, 2], [6, 4], [15, 1], [301, 1]]));
    assert!(j["asleep"].as_u64().unwrap() > 900, "{}", j);
    assert!(j["open"].is_null());
    let sites = j["sites"].as_array().unwrap();
    assert_eq!(sites.len(), 6);
    assert_eq!(sites[0]["set_pc"], a.addr("long_set"));
    let site = |set: &str| sites.iter().find(|s| s["set_pc"] == a.addr(set)).unwrap().clone();
    assert_eq!(site("short_set")["count"], 3);
    assert_eq!(site("short_set")["max"], 6);
    assert_eq!(site("short_set")["clear_pc"], a.addr("short_clear"));
    assert_eq!(site("msr_set")["max"], 15);
    assert_eq!(site("msr_set")["clear_pc"], a.addr("msr_clear"));
    assert_eq!(site("twice_set")["max"], 6);
    assert_eq!(site("twice_set")["clear_pc"], a.addr("twice_clear"));
    assert_eq!(site("idle_set")["clear_pc"], a.addr("idle_wfi"));
    assert_eq!(site("idle_set")["max"], 5);
    assert_eq!(site("idle_wfi")["clear_pc"], a.addr("idle_clear"));
    assert_eq!(site("idle_wfi")["max"], 5);

    // The profile: one segment (no PROBE_MARK), every cycle in thread, sleep or SysTick.
    let segs = j["segments"].as_array().unwrap();
    assert_eq!(segs.len(), 1);
    let ctx = segs[0]["ctx"].as_object().unwrap();
    let sum: u64 = ctx.values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(sum, j["cycles"].as_u64().unwrap(), "{}", j);
    assert!(ctx["sleep"].as_u64().unwrap() > 900 && ctx["exc15"].as_u64().unwrap() > 15, "{}", j);

    // Without --masked the run is the same (status, cycles).
    let (st2, _, _) = vp(&["run", fw.to_str().unwrap()]);
    assert_eq!(st2, 0);
}
