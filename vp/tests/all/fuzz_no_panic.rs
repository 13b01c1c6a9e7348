//! Whatever the firmware (or the ELF file) contains, the simulator must not panic.

use crate::support::elfgen::from_flash;
use proptest::prelude::*;
use rtoslab_vp::machine::{Config, Machine};
use rtoslab_vp::peripherals::stimulus::StimulusSpec;
use rtoslab_vp::trace::Observer;
use rtoslab_vp::{elf, Board};

fn run_image(img: &[u8], board: Board, ram: u32, trace: bool) {
    let cfg = Config {
        board,
        ram_size: ram,
        max_cycles: Some(20_000),
        fault_stop: false,
        stimulus: Some(StimulusSpec { at: 300, period: 97, width: 13 }),
        mul_cycles: if trace { 32 } else { 1 },
    };
    let mut m = Machine::new(cfg, img);
    if trace {
        m.bus.obs = Some(Box::new(Observer::capture(u32::MAX)));
    }
    let _ = m.run();
}

/// A sane vector table (SP at the top of RAM, every vector into the code) + random code.
fn with_vectors(code: &[u8]) -> Vec<u8> {
    let mut img = vec![0u8; 0x100];
    img[0..4].copy_from_slice(&0x2000_1000u32.to_le_bytes());
    for i in 1..48 {
        img[i * 4..i * 4 + 4].copy_from_slice(&(0x101u32 + (i as u32 % 8) * 16).to_le_bytes());
    }
    img.extend_from_slice(code);
    img
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, .. ProptestConfig::default() })]

    #[test]
    fn random_code_never_panics(code in proptest::collection::vec(any::<u8>(), 0..2048), ws in any::<bool>(), trace in any::<bool>()) {
        let img = with_vectors(&code);
        run_image(&img, if ws { Board::VP_STM32F0 } else { Board::VP_M0 }, 4096, trace);
    }

    #[test]
    fn random_thumb2_code_never_panics(words in proptest::collection::vec(
        prop_oneof![
            any::<u16>(),
            (0u16..0x800).prop_map(|x| 0xE800 | x),        // 32-bit prefixes 11101, 11110, 11111
            (0u16..0x800).prop_map(|x| 0xF000 | x),
            (0u16..0x800).prop_map(|x| 0xF800 | x),
            (0u16..256).prop_map(|x| 0xBF00 | x),          // IT
            (0u16..0x400).prop_map(|x| 0xB100 | (x & 0xAFF)), // CBZ/CBNZ
        ], 0..1024), trace in any::<bool>()) {
        let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        run_image(&with_vectors(&code), Board::VP_M3, 4096, trace);
    }

    #[test]
    fn random_code_biased_to_system_instructions(words in proptest::collection::vec(
        prop_oneof![
            any::<u16>(),
            (0u16..256).prop_map(|x| 0xB400 | x),          // push
            (0u16..512).prop_map(|x| 0xBC00 | x),          // pop (with PC)
            (0u16..256).prop_map(|x| 0xDF00 | x),          // svc
            (0u16..16).prop_map(|x| 0xBF00 | (x << 4)),    // hints, WFI/WFE
            Just(0xB662u16), Just(0xB672u16),              // cps
            (0u16..16).prop_map(|x| 0x4700 | (x << 3)),    // bx
            (0u16..2048).prop_map(|x| 0x6000 | x),         // str
            (0u16..2048).prop_map(|x| 0x6800 | x),         // ldr
        ], 0..1024)) {
        let mut code = Vec::new();
        // r0..r7 point at the SCS / lab / RAM so loads and stores reach the registers.
        for (r, hi) in [(0u16, 0xE0u16), (1, 0x4F), (2, 0x20), (3, 0xE0)] {
            code.extend_from_slice(&(0x2000 | (r << 8) | hi).to_le_bytes());
            code.extend_from_slice(&((24 << 6) | (r << 3) | r).to_le_bytes()); // LSLS r, r, #24
        }
        for w in words {
            code.extend_from_slice(&w.to_le_bytes());
        }
        run_image(&with_vectors(&code), Board::VP_M0, 16384, true);
    }

    #[test]
    fn random_flash_never_panics(img in proptest::collection::vec(any::<u8>(), 0..1024)) {
        run_image(&img, Board::VP_M0, 1024, false);
    }

    #[test]
    fn random_bytes_as_elf_never_panic(data in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let mut d = data.clone();
        if d.len() >= 4 {
            d[..4].copy_from_slice(b"\x7fELF");
        }
        let _ = elf::load(&d, 16384);
        let _ = elf::load(&data, 16384);
    }

    #[test]
    fn mutated_elf_never_panics(code in proptest::collection::vec(any::<u8>(), 16..512),
                                flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..12)) {
        let mut e = from_flash(&with_vectors(&code), &[("f", 0x101, true), ("end", 0x2000_0100, false)]);
        for (pos, val) in flips {
            let n = e.len();
            e[pos % n] = val;
        }
        if let Ok(img) = elf::load(&e, 16384) {
            let cfg = Config { max_cycles: Some(5_000), ..Config::default() };
            let mut m = Machine::from_image(cfg, &img);
            let _ = m.run();
            let _ = img.symbols.describe(m.cpu.pc);
        }
    }
}
