//! Flash and SRAM storage (the CPU's predecoded view of flash is cpu/predecode.rs).

use crate::contract::FLASH_SIZE;

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
}
