//! The core runs on any `Bus`, not only the lab board's: a bus of its own with one device
//! register at 0x5000_0000 (reads 0x1234_5678, a write asks to stop with the value written).

use rtoslab_vp::{Bus, Config, Cpu, Stop};

struct TinyBus {
    flash: Vec<u8>,
    ram: Vec<u8>,
    written: Vec<(u32, u64)>,
    stop: Option<Stop>,
}

impl Bus for TinyBus {
    fn ram(&self) -> &[u8] {
        &self.ram
    }
    fn ram_mut(&mut self) -> &mut [u8] {
        &mut self.ram
    }
    fn flash(&self) -> &[u8] {
        &self.flash
    }
    fn device(&self, addr: u32) -> bool {
        addr >> 16 == 0x5000
    }
    fn read(&mut self, addr: u32, _now: u64) -> Option<u32> {
        (addr == 0x5000_0000).then_some(0x1234_5678)
    }
    fn write(&mut self, addr: u32, v: u32, done: u64) -> bool {
        self.written.push((v, done));
        self.stop = Some(Stop::Exit(v as u8));
        addr == 0x5000_0000
    }
    fn advance(&mut self, _now: u64) {}
    fn next_event(&self) -> u64 {
        u64::MAX
    }
    fn reset(&mut self) {}
    fn has_signals(&self) -> bool {
        self.stop.is_some()
    }
    fn take_signals(&mut self, _arrival: impl FnMut(u64, u32)) -> (Option<Stop>, bool) {
        (self.stop.take(), true)
    }
    fn observer(&mut self) -> Option<&mut rtoslab_vp::trace::Observer> {
        None
    }
    fn masked(&mut self) -> Option<&mut rtoslab_vp::masked::Masked> {
        None
    }
    fn console_write(&mut self, _b: &[u8]) {}
    fn flush_console(&mut self) {}
}

#[test]
fn core_on_a_bus_of_its_own() {
    let mut flash = vec![0u8; 0x100];
    flash[0..4].copy_from_slice(&0x2000_1000u32.to_le_bytes()); // initial SP
    flash[4..8].copy_from_slice(&0x41u32.to_le_bytes()); // reset vector (Thumb)
                                                         // ldr r0,[pc,#8]; movs r1,#42; ldr r2,[r0]; str r1,[r0]; b .; (pad); .word 0x50000000
    for (i, hw) in [0x4802u16, 0x212A, 0x6802, 0x6001, 0xE7FE, 0].iter().enumerate() {
        flash[0x40 + 2 * i..0x42 + 2 * i].copy_from_slice(&hw.to_le_bytes());
    }
    flash[0x4C..0x50].copy_from_slice(&0x5000_0000u32.to_le_bytes());
    let bus = TinyBus { flash, ram: vec![0; 0x1000], written: Vec::new(), stop: None };
    let mut m = Cpu::with_bus(Config { max_cycles: Some(1000), ..Config::default() }, bus);
    assert_eq!(m.run(), Stop::Exit(42));
    assert_eq!(m.cpu.r[2], 0x1234_5678);
    // ldr (2) + movs (1) + ldr (2), then the store completes 2 cycles after it starts
    assert_eq!(m.bus.written, vec![(42, 7)]);
}
