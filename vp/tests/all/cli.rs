//! ELF loading errors and the `rtoslab-vp run` command line (exit statuses, messages,
//! trace and VCD files).

use crate::support::command::{tmp_in, vp};
use crate::support::elfgen::{build, build_sized, build_with_sections, from_flash, Seg};
use crate::support::*;
use rtoslab_vp::elf;
use std::path::PathBuf;

fn tmp(name: &str) -> PathBuf {
    tmp_in("test", name)
}

fn write(name: &str, bytes: &[u8]) -> PathBuf {
    let p = tmp(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn hello() -> Asm {
    let mut a = Asm::new();
    a.data.push((0x800, b"hello\n\0".to_vec()));
    a.label("reset").li(6, PROBE_OUT).i(movs_i(4, 1)).i(str_i(4, 6, 0)).i(movs_i(4, 0)).i(str_i(4, 6, 0));
    a.li(1, 0x800).i(movs_i(0, 4)).i(bkpt(0xAB)).exit(3);
    a
}

#[test]
fn elf_errors() {
    assert!(elf::load(b"garbage", 16384).unwrap_err().contains("not an ELF"));
    let img = hello().image();
    assert!(elf::load(&from_flash(&img, &[]), 16384).is_ok());
    let x86 = build(3, &[Seg { paddr: 0, vaddr: 0, data: img.clone(), memsz: 0 }], &[]);
    assert!(elf::load(&x86, 16384).unwrap_err().contains("not ARM"));
    let mut c64 = from_flash(&img, &[]);
    c64[4] = 2;
    assert!(elf::load(&c64, 16384).is_err());
    let big = build(40, &[Seg { paddr: 0x3FF00, vaddr: 0x3FF00, data: vec![0; 0x200], memsz: 0 }], &[]);
    assert!(elf::load(&big, 16384).unwrap_err().contains("does not fit"));
    let bss = build(
        40,
        &[
            Seg { paddr: 0, vaddr: 0, data: img.clone(), memsz: 0 },
            Seg { paddr: 0x2000_0000, vaddr: 0x2000_0000, data: vec![], memsz: 8192 },
        ],
        &[],
    );
    assert!(elf::load(&bss, 16384).is_ok());
    let e = elf::load(&bss, 4096).unwrap_err();
    assert!(e.contains("does not fit") && e.contains("4 KiB"), "{}", e);
    let mut trunc = from_flash(&img, &[]);
    trunc.truncate(200);
    assert!(elf::load(&trunc, 16384).is_err());
    let data_in_ram = build(
        40,
        &[
            Seg { paddr: 0, vaddr: 0, data: img.clone(), memsz: 0 },
            Seg { paddr: 0x2000_0000, vaddr: 0x2000_0000, data: vec![1, 2, 3, 4], memsz: 4 },
        ],
        &[("end", 0x2000_0100, false)],
    );
    let l = elf::load(&data_in_ram, 16384).unwrap();
    assert_eq!(l.ram[0], (0, vec![1, 2, 3, 4]));
    assert_eq!(l.heap_base, 0x2000_0100);
    assert!(l.ram_objects.is_empty());
    // sized data objects in RAM are the stack regions of the thread-mode switch rule
    let with_objects = build_sized(
        40,
        &[Seg { paddr: 0, vaddr: 0, data: img.clone(), memsz: 0 }],
        &[
            ("stack_a", 0x2000_0200, 0x100, 0x11),
            ("table", 0x0000_0400, 0x40, 0x11),
            ("no_size", 0x2000_0800, 0, 0x11),
            ("untyped_array", 0x2000_0900, 0x10, 0x10),
        ],
    );
    let l = elf::load(&with_objects, 16384).unwrap();
    // a sized untyped symbol in RAM counts: LTO leaves K_THREAD_STACK_DEFINE arrays STT_NOTYPE
    assert_eq!(l.ram_objects, vec![(0x2000_0200, 0x2000_0300), (0x2000_0900, 0x2000_0910)]);
}

#[test]
fn run_hello_and_statuses() {
    let p = write("hello.elf", &from_flash(&hello().image(), &[]));
    let (st, out, err) = vp(&["run", p.to_str().unwrap()]);
    assert_eq!((st, out.as_str()), (3, "hello\n"), "{}", err);
    let (st, _, err) = vp(&["run", p.to_str().unwrap(), "--stats"]);
    assert_eq!(st, 3);
    assert!(err.contains("mips="), "{}", err);
    let (st, _, err) = vp(&["run", "/nonexistent/fw.elf"]);
    assert_eq!(st, 2);
    assert_eq!(err.trim().lines().count(), 1);
    let junk = write("junk.elf", b"not an elf at all");
    let (st, _, err) = vp(&["run", junk.to_str().unwrap()]);
    assert_eq!(st, 2);
    assert!(err.contains("not an ELF"));
    for bad in [
        &["--board", "nope"][..],
        &["--ram", "3G"],
        &["--ram", "12Q"],
        &["--trace-events", "probe,bogus"],
        &["--stimulus", "period=3"],
        &["--max-cycles", "x"],
    ] {
        let mut args = vec!["run", p.to_str().unwrap()];
        args.extend_from_slice(bad);
        let (st, _, err) = vp(&args);
        assert_eq!(st, 2, "{:?}: {}", bad, err);
        assert_eq!(err.trim().lines().count(), 1, "{:?}: {}", bad, err);
    }
    let (st, out, _) = vp(&["--version"]);
    assert_eq!(st, 0);
    assert!(out.starts_with("rtoslab-vp "));
}

#[test]
fn fault_stop_lockup_and_cycle_limit_messages() {
    let mut a = Asm::new();
    a.label("reset").li(0, 0x2000_0002).i(movs_i(7, 7)).label("crash").i(ldr_i(1, 0, 0)).exit(0);
    a.label("hf").i(udf(0));
    a.vector(3, "hf");
    let crash = a.addr("crash");
    let elf =
        from_flash(&a.image(), &[("reset", a.addr("reset") | 1, true), ("HardFault_Handler", a.addr("hf") | 1, true)]);
    let p = write("crash.elf", &elf);
    let (st, _, err) = vp(&["run", p.to_str().unwrap(), "--fault-stop"]);
    assert_eq!(st, 125);
    let want = format!("pc=0x{:08x} <reset+0x{:x}>", crash, crash - a.addr("reset"));
    assert!(err.contains(&want), "{}", err);
    assert!(err.contains("4-byte read at 0x20000002") && err.contains("unaligned"), "{}", err);
    assert!(err.contains("r7=0x00000007") && err.contains("sp=0x20004000") && err.contains("xpsr="), "{}", err);
    assert_eq!(err.trim().lines().count(), 1);
    let (st, _, err) = vp(&["run", p.to_str().unwrap()]);
    assert_eq!(st, 126);
    assert!(
        err.contains("lock-up") && err.contains("<HardFault_Handler>") && err.contains("undefined instruction"),
        "{}",
        err
    );
    let mut a = Asm::new();
    a.label("reset").label("l").b("l");
    let p = write("spin.elf", &from_flash(&a.image(), &[]));
    let (st, _, err) = vp(&["run", p.to_str().unwrap(), "--max-cycles", "100000"]);
    assert_eq!(st, 124);
    assert!(err.contains("cycle limit"), "{}", err);
}

#[test]
fn trace_and_vcd_files() {
    let mut a = Asm::new();
    a.label("reset")
        .li(6, PROBE_OUT)
        .i(movs_i(4, 1))
        .i(str_i(4, 6, 0))
        .i(svc(0))
        .i(movs_i(4, 0))
        .i(str_i(4, 6, 0))
        .poke(PROBE_OUT + 12, 77)
        .n(NOP, 200)
        .exit(0);
    a.label("svc").i(bx(14));
    a.vector(11, "svc");
    let p = write("trace.elf", &from_flash(&a.image(), &[]));
    let tr = tmp("t.jsonl");
    let vcd = tmp("t.vcd");
    let (st, _, err) = vp(&[
        "run",
        p.to_str().unwrap(),
        "--trace",
        tr.to_str().unwrap(),
        "--vcd",
        vcd.to_str().unwrap(),
        "--stimulus",
        "at=100,period=0,width=10",
    ]);
    assert_eq!(st, 0, "{}", err);
    let lines: Vec<serde_json::Value> =
        std::fs::read_to_string(&tr).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0]["e"], "start");
    assert_eq!(lines[0]["board"], "vp-m0");
    assert_eq!(lines[0]["clock_hz"], 48_000_000);
    assert_eq!(lines.last().unwrap()["e"], "end");
    assert_eq!(lines.last().unwrap()["status"], 0);
    let kinds: Vec<&str> = lines.iter().map(|l| l["e"].as_str().unwrap()).collect();
    for k in ["probe", "exc_entry", "exc_return", "mark", "stim"] {
        assert!(kinds.contains(&k), "{} missing in {:?}", k, kinds);
    }
    let cs: Vec<u64> = lines.iter().map(|l| l["c"].as_u64().unwrap_or(0)).collect();
    assert!(cs.windows(2).all(|w| w[0] <= w[1]), "cycle order: {:?}", cs);
    let entry = lines.iter().find(|l| l["e"] == "exc_entry").unwrap();
    assert_eq!(entry["exc"], 11);
    assert_eq!(entry["sp"], 0x2000_4000 - 32);
    let v = std::fs::read_to_string(&vcd).unwrap();
    assert!(v.contains("$var wire 1 ! probe [0] $end") && v.contains("stim $end") && v.contains("$enddefinitions"));
    // real time in ps at 48 MHz: cycle 100 = 2 083 333 ps, cycle 110 = 2 291 667 ps
    assert!(v.contains("$timescale 1 ps $end"), "{}", v);
    assert!(v.contains("#2083333\n1A") && v.contains("#2291667\n0A"), "{}", v);
    // --trace-events filters
    let (st, _, _) = vp(&["run", p.to_str().unwrap(), "--trace", tr.to_str().unwrap(), "--trace-events", "probe"]);
    assert_eq!(st, 0);
    let t = std::fs::read_to_string(&tr).unwrap();
    assert!(t.lines().all(|l| l.contains("\"e\":\"probe\"")) && t.lines().count() == 2, "{}", t);
}

#[test]
fn thread_mode_switch_between_elf_stack_objects_is_in_the_trace() {
    // The ELF's sized RAM objects reach the machine: `mov sp, r0` from stack_a to stack_b
    // in thread mode is a `switch` with how = thread.
    let mut a = Asm::new();
    a.label("reset").li(0, 0x2000_1100).i(mov_hi(13, 0));
    a.i(push(0b11, false)).i(pop(0b11, false));
    a.li(0, 0x2000_20E0).i(mov_hi(13, 0)).exit(0);
    let elf = build_sized(
        40,
        &[Seg { paddr: 0, vaddr: 0, data: a.image(), memsz: 0 }],
        &[("stack_a", 0x2000_1000, 0x100, 0x11), ("stack_b", 0x2000_2000, 0x100, 0x11)],
    );
    let p = write("switch.elf", &elf);
    let tr = tmp("switch.jsonl");
    let (st, _, err) = vp(&["run", p.to_str().unwrap(), "--trace", tr.to_str().unwrap(), "--trace-events", "switch"]);
    assert_eq!(st, 0, "{}", err);
    let text = std::fs::read_to_string(&tr).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{}", text);
    assert!(lines[0].contains(r#""from_psp":536887296,"to_psp":536875264,"low":536887296,"how":"thread""#), "{}", text);
    assert!(lines[1].contains(r#""from_psp":536875264,"to_psp":536879328,"low":536875256,"how":"thread""#), "{}", text);
}

#[test]
fn board_from_core_and_memory_options() {
    let p = write("hello-core.elf", &from_flash(&hello().image(), &[]));
    let f = p.to_str().unwrap();
    let trace_of = |name: &str, extra: &[&str]| {
        let t = tmp(name);
        let mut args = vec!["run", f, "--trace", t.to_str().unwrap()];
        args.extend_from_slice(extra);
        let (st, out, err) = vp(&args);
        assert_eq!((st, out.as_str()), (3, "hello\n"), "{:?}: {}", extra, err);
        std::fs::read_to_string(t).unwrap()
    };
    // a built-in board given again by its core and memory system runs identically
    assert_eq!(
        trace_of("a.jsonl", &["--board", "vp-m3"]),
        trace_of("b.jsonl", &["--board", "vp-m3", "--core", "cortex-m3"])
    );
    assert_eq!(
        trace_of("c.jsonl", &["--board", "vp-stm32f0"]),
        trace_of(
            "d.jsonl",
            &[
                "--board",
                "vp-stm32f0",
                "--core",
                "cortex-m0",
                "--flash-wait-states",
                "1",
                "--accelerator",
                "prefetch",
                "--flash-line-bytes",
                "4",
                "--prefetch-blocks",
                "3"
            ]
        )
    );
    // the STM32F4's flash system on a board the binary does not know, by its parameters
    assert_eq!(
        trace_of("f.jsonl", &["--board", "vp-stm32f407"]).lines().skip(1).collect::<Vec<_>>(),
        trace_of(
            "g.jsonl",
            &[
                "--board",
                "my-f407",
                "--core",
                "cortex-m4f",
                "--clock-hz",
                "168000000",
                "--ram",
                "64K",
                "--flash-wait-states",
                "5",
                "--accelerator",
                "art",
                "--flash-line-bytes",
                "16"
            ]
        )
        .lines()
        .skip(1)
        .collect::<Vec<_>>()
    );
    // a board that is not compiled in: named by its id, clock as given
    let t = trace_of("e.jsonl", &["--board", "my-m4", "--core", "cortex-m4f", "--clock-hz", "72000000"]);
    let start = t.lines().next().unwrap();
    assert!(start.contains("\"board\":\"my-m4\"") && start.contains("72000000"), "{}", start);
    for bad in [
        &["--board", "nope"][..],
        &["--core", "cortex-m7"],
        &["--core", "cortex-m0", "--flash-wait-states", "16"],
        &["--flash-line-bytes", "32"],
        &["--prefetch-blocks", "1"],
        &["--accelerator", "cache"],
        &["--clock-hz", "0"],
    ] {
        let mut args = vec!["run", f];
        args.extend_from_slice(bad);
        let (st, _, err) = vp(&args);
        assert_eq!(st, 2, "{:?}: {}", bad, err);
        assert_eq!(err.trim().lines().count(), 1, "{:?}: {}", bad, err);
    }
    let (_, _, err) = vp(&["run", f, "--board", "nope"]);
    assert!(err.contains("vp-m0") && err.contains("--core"), "{}", err);
}

/// A `.note.rtoslab` as bench/boards/common/board_note.c writes it: owner "rtoslab", type 1.
fn board_note(id: &str) -> (&'static str, u32, Vec<u8>) {
    let mut desc = id.as_bytes().to_vec();
    desc.push(0);
    let mut n = Vec::new();
    for w in [8u32, desc.len() as u32, 1] {
        n.extend_from_slice(&w.to_le_bytes());
    }
    n.extend_from_slice(b"rtoslab\0");
    n.extend_from_slice(&desc);
    while n.len() % 4 != 0 {
        n.push(0);
    }
    (".note.rtoslab", 7, n)
}

/// `.ARM.attributes` as GCC writes them for a core: Tag_CPU_name (5), Tag_CPU_arch (6),
/// Tag_CPU_arch_profile (7) 'M'.
fn arm_attributes(name: &str, arch: u8) -> (&'static str, u32, Vec<u8>) {
    let mut attrs = vec![5u8];
    attrs.extend_from_slice(name.as_bytes());
    attrs.extend_from_slice(&[0, 6, arch, 7, b'M']);
    let file_len = 1 + 4 + attrs.len() as u32;
    let mut a = vec![b'A'];
    a.extend_from_slice(&(4 + 6 + file_len).to_le_bytes());
    a.extend_from_slice(b"aeabi\0");
    a.push(1);
    a.extend_from_slice(&file_len.to_le_bytes());
    a.extend_from_slice(&attrs);
    (".ARM.attributes", 0x7000_0003, a)
}

fn hello_with(name: &str, extra: &[(&str, u32, Vec<u8>)]) -> PathBuf {
    let seg = Seg { paddr: 0, vaddr: 0, data: hello().image(), memsz: 0 };
    write(name, &build_with_sections(40, &[seg], &[], extra))
}

#[test]
fn the_board_recorded_in_the_image_is_the_default() {
    let m4 = hello_with("note-m4.elf", &[board_note("vp-m4"), arm_attributes("7E-M", 13)]);
    let m4 = m4.to_str().unwrap();
    assert_eq!(elf::board_note(&std::fs::read(m4).unwrap()).as_deref(), Some("vp-m4"));
    assert_eq!(elf::cpu_arch(&std::fs::read(m4).unwrap()), Some("armv7e-m"));
    let trace_of = |name: &str, extra: &[&str]| {
        let t = tmp(name);
        let mut args = vec!["run", m4, "--trace", t.to_str().unwrap()];
        args.extend_from_slice(extra);
        let (st, out, err) = vp(&args);
        assert_eq!((st, out.as_str()), (3, "hello\n"), "{:?}: {}", extra, err);
        std::fs::read_to_string(t).unwrap()
    };
    let picked = trace_of("note-a.jsonl", &[]);
    assert!(picked.lines().next().unwrap().contains("\"vp-m4\""), "{}", picked);
    assert_eq!(picked, trace_of("note-b.jsonl", &["--board", "vp-m4"]));
    // --board still wins over the note
    assert!(trace_of("note-c.jsonl", &["--board", "vp-m3"]).lines().next().unwrap().contains("\"vp-m3\""));
}

#[test]
fn an_image_for_another_core_without_a_simulator_board_names_the_board_it_needs() {
    for (name, extra) in [
        ("bare-m4.elf", vec![arm_attributes("7E-M", 13)]),
        ("qemu-m4.elf", vec![board_note("qemu-mps2-an386"), arm_attributes("7E-M", 13)]),
    ] {
        let p = hello_with(name, &extra);
        let (st, out, err) = vp(&["run", p.to_str().unwrap()]);
        assert_eq!(st, 2, "{}: {} {}", name, out, err);
        assert_eq!(err.lines().count(), 1, "{}", err);
        assert!(err.contains("give --board") && err.contains("vp-m4") && err.contains("armv7e-m"), "{}", err);
    }
    // an ARMv6-M image, or one that records nothing, runs on the default board as before
    for (name, extra) in [("v6m.elf", vec![arm_attributes("Cortex-M0", 12)]), ("plain.elf", vec![])] {
        let p = hello_with(name, &extra);
        let (st, out, err) = vp(&["run", p.to_str().unwrap()]);
        assert_eq!((st, out.as_str()), (3, "hello\n"), "{}: {}", name, err);
    }
}
