//! ARM semihosting through `BKPT 0xAB` (r0 = operation, r1 = parameter), enough for newlib's
//! rdimon and for hand-written firmware. Parameter blocks are read without side effects;
//! a bad pointer makes the call fail (r0 = -1) instead of faulting.

use crate::bus::Bus;
use crate::contract::{FLASH_SIZE, RAM_BASE};
use crate::machine::{Cpu, Stop};

const SYS_OPEN: u32 = 0x01;
const SYS_CLOSE: u32 = 0x02;
const SYS_WRITEC: u32 = 0x03;
const SYS_WRITE0: u32 = 0x04;
const SYS_WRITE: u32 = 0x05;
const SYS_READ: u32 = 0x06;
const SYS_ISTTY: u32 = 0x09;
const SYS_SEEK: u32 = 0x0A;
const SYS_FLEN: u32 = 0x0C;
const SYS_CLOCK: u32 = 0x10;
const SYS_TIME: u32 = 0x11;
const SYS_ERRNO: u32 = 0x13;
const SYS_GET_CMDLINE: u32 = 0x15;
const SYS_HEAPINFO: u32 = 0x16;
const SYS_EXIT: u32 = 0x18;
const SYS_EXIT_EXTENDED: u32 = 0x20;
const SYS_ELAPSED: u32 = 0x30;
const SYS_TICKFREQ: u32 = 0x31;

pub const ADP_STOPPED_APPLICATION_EXIT: u32 = 0x20026;

/// Handles returned by SYS_OPEN(":tt"): stdin, stdout, stderr.
const TT_IN: u32 = 0x100;
const TT_OUT: u32 = 0x101;
const TT_ERR: u32 = 0x102;
/// Handle of the ":semihosting-features" pseudo-file (newlib reads it to learn that
/// SYS_EXIT_EXTENDED exists, so `exit(n)` keeps its code, as on QEMU).
const FEATURES: u32 = 0x103;
/// Magic "SHFB" then feature byte 0: EXIT_EXTENDED (bit 0) | STDOUT_STDERR (bit 1).
const FEATURE_BYTES: [u8; 5] = [b'S', b'H', b'F', b'B', 0x03];
const FAIL: u32 = u32::MAX;

impl<B: Bus> Cpu<B> {
    /// Side-effect-free read of RAM or flash (for semihosting parameter blocks).
    pub fn peek8(&self, addr: u32) -> Option<u8> {
        if addr < FLASH_SIZE {
            return self.bus.flash().get(addr as usize).copied();
        }
        self.bus.ram().get(addr.wrapping_sub(RAM_BASE) as usize).copied()
    }

    pub fn peek32(&self, addr: u32) -> Option<u32> {
        let mut b = [0u8; 4];
        for (i, x) in b.iter_mut().enumerate() {
            *x = self.peek8(addr.wrapping_add(i as u32))?;
        }
        Some(u32::from_le_bytes(b))
    }

    pub fn poke32(&mut self, addr: u32, v: u32) -> Option<()> {
        let o = addr.wrapping_sub(RAM_BASE) as usize;
        self.bus.ram_mut().get_mut(o..o + 4)?.copy_from_slice(&v.to_le_bytes());
        Some(())
    }

    fn peek_bytes(&self, addr: u32, len: u32) -> Option<Vec<u8>> {
        if len > 16 * 1024 * 1024 {
            return None;
        }
        (0..len).map(|i| self.peek8(addr.wrapping_add(i))).collect()
    }

    pub(crate) fn semihost(&mut self, _pc: u32) {
        let op = self.cpu.r[0];
        let arg = self.cpu.r[1];
        let ret: u32 = match op {
            SYS_OPEN => (|| {
                let name_ptr = self.peek32(arg)?;
                let mode = self.peek32(arg.wrapping_add(4))?;
                let len = self.peek32(arg.wrapping_add(8))?;
                let name = self.peek_bytes(name_ptr, len.min(256))?;
                if name == b":tt" {
                    Some(if mode < 4 {
                        TT_IN
                    } else if mode < 8 {
                        TT_OUT
                    } else {
                        TT_ERR
                    })
                } else if name == b":semihosting-features" && mode < 4 {
                    self.sh_feature_pos = 0;
                    Some(FEATURES)
                } else {
                    Some(FAIL)
                }
            })()
            .unwrap_or(FAIL),
            SYS_CLOSE => 0,
            SYS_WRITEC => match self.peek8(arg) {
                Some(b) => {
                    self.console_write(&[b]);
                    0
                }
                None => FAIL,
            },
            SYS_WRITE0 => {
                let mut out = Vec::new();
                let mut a = arg;
                let mut ok = true;
                loop {
                    match self.peek8(a) {
                        Some(0) => break,
                        Some(b) => out.push(b),
                        None => {
                            ok = false;
                            break;
                        }
                    }
                    a = a.wrapping_add(1);
                    if out.len() > 1 << 20 {
                        break;
                    }
                }
                self.console_write(&out);
                if ok {
                    0
                } else {
                    FAIL
                }
            }
            SYS_WRITE => (|| {
                let h = self.peek32(arg)?;
                let ptr = self.peek32(arg.wrapping_add(4))?;
                let len = self.peek32(arg.wrapping_add(8))?;
                if !matches!(h, 1 | 2 | TT_OUT | TT_ERR) {
                    return Some(len);
                }
                let data = self.peek_bytes(ptr, len)?;
                self.console_write(&data);
                Some(0)
            })()
            .unwrap_or(FAIL),
            SYS_READ => (|| {
                let h = self.peek32(arg)?;
                let buf = self.peek32(arg.wrapping_add(4))?;
                let len = self.peek32(arg.wrapping_add(8))?;
                if h != FEATURES {
                    return Some(len); // nothing to read: EOF
                }
                let mut done = 0u32;
                while done < len && (self.sh_feature_pos as usize) < FEATURE_BYTES.len() {
                    let b = FEATURE_BYTES[self.sh_feature_pos as usize];
                    let o = buf.wrapping_add(done).wrapping_sub(RAM_BASE) as usize;
                    *self.bus.ram_mut().get_mut(o)? = b;
                    self.sh_feature_pos += 1;
                    done += 1;
                }
                Some(len - done)
            })()
            .unwrap_or(FAIL),
            SYS_ISTTY => match self.peek32(arg) {
                Some(0..=2) | Some(TT_IN..=TT_ERR) => 1,
                _ => 0,
            },
            SYS_SEEK => (|| {
                if self.peek32(arg)? == FEATURES {
                    self.sh_feature_pos = self.peek32(arg.wrapping_add(4))?.min(FEATURE_BYTES.len() as u32);
                }
                Some(0)
            })()
            .unwrap_or(FAIL),
            SYS_FLEN => match self.peek32(arg) {
                Some(FEATURES) => FEATURE_BYTES.len() as u32,
                _ => FAIL,
            },
            SYS_CLOCK => (self.cyc as u128 * 100 / self.cfg.board.clock_hz as u128) as u32,
            SYS_TIME => (self.cyc / self.cfg.board.clock_hz as u64) as u32,
            SYS_ERRNO => 0,
            SYS_GET_CMDLINE => (|| {
                let buf = self.peek32(arg)?;
                let len = self.peek32(arg.wrapping_add(4))?;
                if len == 0 {
                    return None;
                }
                let o = buf.wrapping_sub(RAM_BASE) as usize;
                *self.bus.ram_mut().get_mut(o)? = 0;
                self.poke32(arg.wrapping_add(4), 0)?;
                Some(0)
            })()
            .unwrap_or(FAIL),
            SYS_HEAPINFO => (|| {
                let block = self.peek32(arg)?;
                let ram_top = RAM_BASE.wrapping_add(self.bus.ram().len() as u32);
                let heap_base = self.heap_base.clamp(RAM_BASE, ram_top);
                let stack_limit = (ram_top - (self.bus.ram().len() as u32 / 4)).max(heap_base);
                self.poke32(block, heap_base)?;
                self.poke32(block.wrapping_add(4), stack_limit)?;
                self.poke32(block.wrapping_add(8), ram_top)?;
                self.poke32(block.wrapping_add(12), stack_limit)?;
                Some(0)
            })()
            .unwrap_or(FAIL),
            SYS_EXIT => {
                // AArch32: r1 holds the reason itself.
                let status = if arg == ADP_STOPPED_APPLICATION_EXIT { 0 } else { 1 };
                self.flush_console();
                self.request_stop(Stop::Exit(status));
                0
            }
            SYS_EXIT_EXTENDED => {
                let reason = self.peek32(arg);
                let code = self.peek32(arg.wrapping_add(4));
                let status = match (reason, code) {
                    (Some(ADP_STOPPED_APPLICATION_EXIT), Some(c)) => c as u8,
                    _ => 1,
                };
                self.flush_console();
                self.request_stop(Stop::Exit(status));
                0
            }
            SYS_ELAPSED => {
                let c = self.cyc;
                match (self.poke32(arg, c as u32), self.poke32(arg.wrapping_add(4), (c >> 32) as u32)) {
                    (Some(()), Some(())) => 0,
                    _ => FAIL,
                }
            }
            SYS_TICKFREQ => self.cfg.board.clock_hz,
            _ => FAIL,
        };
        self.cpu.r[0] = ret;
    }
}
