//! Flash and SRAM storage, and the predecoded flash op table.

use crate::board::Profile;
use crate::contract::FLASH_SIZE;
use crate::cpu::decode::{decode, Op};
use crate::cpu::thumb2::decode::decode_v7;
use crate::cpu::thumb2::quiet::quiet_records;

pub struct Memory {
    /// Always exactly 256 KiB; read-only to the firmware.
    pub flash: Box<[u8]>,
    /// Exactly the configured RAM size: the slice bound *is* the `--ram` limit.
    pub ram: Box<[u8]>,
}

impl Memory {
    pub fn new(image: &[u8], ram_size: u32) -> Memory {
        let mut flash = vec![0u8; FLASH_SIZE as usize].into_boxed_slice();
        let n = image.len().min(flash.len());
        flash[..n].copy_from_slice(&image[..n]);
        Memory { flash, ram: vec![0u8; ram_size as usize].into_boxed_slice() }
    }

    #[inline]
    pub fn flash_half(&self, addr: u32) -> u16 {
        let a = addr as usize;
        match self.flash.get(a..a + 2) {
            Some(b) => u16::from_le_bytes([b[0], b[1]]),
            None => 0,
        }
    }

    #[inline]
    pub fn flash_word(&self, addr: u32) -> u32 {
        let a = addr as usize;
        match self.flash.get(a..a + 4) {
            Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            None => 0,
        }
    }

    #[inline]
    pub fn ram_half(&self, off: u32) -> Option<u16> {
        let a = off as usize;
        self.ram.get(a..a + 2).map(|b| u16::from_le_bytes([b[0], b[1]]))
    }

    /// Decode every flash halfword once. Flash never changes after loading, so the table
    /// stays valid for the whole run; a 32-bit instruction is decoded at its first halfword
    /// and its second halfword gets its own (16-bit) decoding in case code jumps there.
    pub fn predecode(&self, profile: Profile) -> Box<[Op]> {
        let n = (FLASH_SIZE / 2) as usize;
        let mut ops = Vec::with_capacity(n);
        for i in 0..n {
            let pc = (i * 2) as u32;
            let hw = self.flash_half(pc);
            let hw2 = self.flash_half(pc.wrapping_add(2));
            ops.push(decode_for(profile, pc, hw, hw2));
        }
        if profile == Profile::V7M {
            quiet_records(&mut ops);
        }
        ops.into_boxed_slice()
    }
}

/// Decode with the instruction set of `profile`.
#[inline]
pub fn decode_for(profile: Profile, pc: u32, hw: u16, hw2: u16) -> Op {
    match profile {
        Profile::V6M => decode(pc, hw, hw2),
        Profile::V7M => decode_v7(pc, hw, hw2),
    }
}
