//! Encoding helpers for ARMv6-M Thumb and a two-pass assembler with labels.
#![allow(dead_code)]

use std::collections::HashMap;

pub const EQ: u16 = 0;
pub const NE: u16 = 1;
pub const CS: u16 = 2;
pub const CC: u16 = 3;
pub const MI: u16 = 4;
pub const PL: u16 = 5;
pub const VS: u16 = 6;
pub const VC: u16 = 7;
pub const HI: u16 = 8;
pub const LS: u16 = 9;
pub const GE: u16 = 10;
pub const LT: u16 = 11;
pub const GT: u16 = 12;
pub const LE: u16 = 13;

pub fn lsls_i(rd: u16, rm: u16, imm: u16) -> u16 {
    (imm << 6) | (rm << 3) | rd
}
pub fn lsrs_i(rd: u16, rm: u16, imm: u16) -> u16 {
    0x0800 | ((imm & 31) << 6) | (rm << 3) | rd
}
pub fn asrs_i(rd: u16, rm: u16, imm: u16) -> u16 {
    0x1000 | ((imm & 31) << 6) | (rm << 3) | rd
}
pub fn adds_r(rd: u16, rn: u16, rm: u16) -> u16 {
    0x1800 | (rm << 6) | (rn << 3) | rd
}
pub fn subs_r(rd: u16, rn: u16, rm: u16) -> u16 {
    0x1A00 | (rm << 6) | (rn << 3) | rd
}
pub fn adds_i3(rd: u16, rn: u16, imm: u16) -> u16 {
    0x1C00 | (imm << 6) | (rn << 3) | rd
}
pub fn subs_i3(rd: u16, rn: u16, imm: u16) -> u16 {
    0x1E00 | (imm << 6) | (rn << 3) | rd
}
pub fn movs_i(rd: u16, imm: u16) -> u16 {
    0x2000 | (rd << 8) | imm
}
pub fn cmp_i(rn: u16, imm: u16) -> u16 {
    0x2800 | (rn << 8) | imm
}
pub fn adds_i8(rd: u16, imm: u16) -> u16 {
    0x3000 | (rd << 8) | imm
}
pub fn subs_i8(rd: u16, imm: u16) -> u16 {
    0x3800 | (rd << 8) | imm
}
pub fn alu(op: u16, rdn: u16, rm: u16) -> u16 {
    0x4000 | (op << 6) | (rm << 3) | rdn
}
pub fn ands(rdn: u16, rm: u16) -> u16 {
    alu(0, rdn, rm)
}
pub fn eors(rdn: u16, rm: u16) -> u16 {
    alu(1, rdn, rm)
}
pub fn lsls_r(rdn: u16, rm: u16) -> u16 {
    alu(2, rdn, rm)
}
pub fn lsrs_r(rdn: u16, rm: u16) -> u16 {
    alu(3, rdn, rm)
}
pub fn asrs_r(rdn: u16, rm: u16) -> u16 {
    alu(4, rdn, rm)
}
pub fn adcs(rdn: u16, rm: u16) -> u16 {
    alu(5, rdn, rm)
}
pub fn sbcs(rdn: u16, rm: u16) -> u16 {
    alu(6, rdn, rm)
}
pub fn rors(rdn: u16, rm: u16) -> u16 {
    alu(7, rdn, rm)
}
pub fn tst(rn: u16, rm: u16) -> u16 {
    alu(8, rn, rm)
}
pub fn rsbs(rd: u16, rn: u16) -> u16 {
    alu(9, rd, rn)
}
pub fn cmp_r(rn: u16, rm: u16) -> u16 {
    alu(10, rn, rm)
}
pub fn cmn(rn: u16, rm: u16) -> u16 {
    alu(11, rn, rm)
}
pub fn orrs(rdn: u16, rm: u16) -> u16 {
    alu(12, rdn, rm)
}
pub fn muls(rdm: u16, rn: u16) -> u16 {
    alu(13, rdm, rn)
}
pub fn bics(rdn: u16, rm: u16) -> u16 {
    alu(14, rdn, rm)
}
pub fn mvns(rd: u16, rm: u16) -> u16 {
    alu(15, rd, rm)
}
pub fn add_hi(rd: u16, rm: u16) -> u16 {
    0x4400 | ((rd & 8) << 4) | (rm << 3) | (rd & 7)
}
pub fn cmp_hi(rn: u16, rm: u16) -> u16 {
    0x4500 | ((rn & 8) << 4) | (rm << 3) | (rn & 7)
}
pub fn mov_hi(rd: u16, rm: u16) -> u16 {
    0x4600 | ((rd & 8) << 4) | (rm << 3) | (rd & 7)
}
pub fn bx(rm: u16) -> u16 {
    0x4700 | (rm << 3)
}
pub fn blx(rm: u16) -> u16 {
    0x4780 | (rm << 3)
}
pub fn ldr_lit(rt: u16, imm8: u16) -> u16 {
    0x4800 | (rt << 8) | imm8
}
pub fn str_r(rt: u16, rn: u16, rm: u16) -> u16 {
    0x5000 | (rm << 6) | (rn << 3) | rt
}
pub fn strh_r(rt: u16, rn: u16, rm: u16) -> u16 {
    0x5200 | (rm << 6) | (rn << 3) | rt
}
pub fn strb_r(rt: u16, rn: u16, rm: u16) -> u16 {
    0x5400 | (rm << 6) | (rn << 3) | rt
}
pub fn ldrsb_r(rt: u16, rn: u16, rm: u16) -> u16 {
    0x5600 | (rm << 6) | (rn << 3) | rt
}
pub fn ldr_r(rt: u16, rn: u16, rm: u16) -> u16 {
    0x5800 | (rm << 6) | (rn << 3) | rt
}
pub fn ldrh_r(rt: u16, rn: u16, rm: u16) -> u16 {
    0x5A00 | (rm << 6) | (rn << 3) | rt
}
pub fn ldrb_r(rt: u16, rn: u16, rm: u16) -> u16 {
    0x5C00 | (rm << 6) | (rn << 3) | rt
}
pub fn ldrsh_r(rt: u16, rn: u16, rm: u16) -> u16 {
    0x5E00 | (rm << 6) | (rn << 3) | rt
}
pub fn str_i(rt: u16, rn: u16, off: u16) -> u16 {
    0x6000 | ((off / 4) << 6) | (rn << 3) | rt
}
pub fn ldr_i(rt: u16, rn: u16, off: u16) -> u16 {
    0x6800 | ((off / 4) << 6) | (rn << 3) | rt
}
pub fn strb_i(rt: u16, rn: u16, off: u16) -> u16 {
    0x7000 | (off << 6) | (rn << 3) | rt
}
pub fn ldrb_i(rt: u16, rn: u16, off: u16) -> u16 {
    0x7800 | (off << 6) | (rn << 3) | rt
}
pub fn strh_i(rt: u16, rn: u16, off: u16) -> u16 {
    0x8000 | ((off / 2) << 6) | (rn << 3) | rt
}
pub fn ldrh_i(rt: u16, rn: u16, off: u16) -> u16 {
    0x8800 | ((off / 2) << 6) | (rn << 3) | rt
}
pub fn str_sp(rt: u16, off: u16) -> u16 {
    0x9000 | (rt << 8) | (off / 4)
}
pub fn ldr_sp(rt: u16, off: u16) -> u16 {
    0x9800 | (rt << 8) | (off / 4)
}
pub fn adr(rd: u16, off: u16) -> u16 {
    0xA000 | (rd << 8) | (off / 4)
}
pub fn add_rd_sp(rd: u16, off: u16) -> u16 {
    0xA800 | (rd << 8) | (off / 4)
}
pub fn add_sp(imm: u16) -> u16 {
    0xB000 | (imm / 4)
}
pub fn sub_sp(imm: u16) -> u16 {
    0xB080 | (imm / 4)
}
pub fn sxth(rd: u16, rm: u16) -> u16 {
    0xB200 | (rm << 3) | rd
}
pub fn sxtb(rd: u16, rm: u16) -> u16 {
    0xB240 | (rm << 3) | rd
}
pub fn uxth(rd: u16, rm: u16) -> u16 {
    0xB280 | (rm << 3) | rd
}
pub fn uxtb(rd: u16, rm: u16) -> u16 {
    0xB2C0 | (rm << 3) | rd
}
pub fn push(list: u16, lr: bool) -> u16 {
    0xB400 | ((lr as u16) << 8) | list
}
pub fn pop(list: u16, pc: bool) -> u16 {
    0xBC00 | ((pc as u16) << 8) | list
}
pub const CPSIE: u16 = 0xB662;
pub const CPSID: u16 = 0xB672;
pub fn rev(rd: u16, rm: u16) -> u16 {
    0xBA00 | (rm << 3) | rd
}
pub fn rev16(rd: u16, rm: u16) -> u16 {
    0xBA40 | (rm << 3) | rd
}
pub fn revsh(rd: u16, rm: u16) -> u16 {
    0xBAC0 | (rm << 3) | rd
}
pub fn bkpt(imm: u16) -> u16 {
    0xBE00 | imm
}
pub const NOP: u16 = 0xBF00;
pub const YIELD: u16 = 0xBF10;
pub const WFE: u16 = 0xBF20;
pub const WFI: u16 = 0xBF30;
pub const SEV: u16 = 0xBF40;
pub fn stm(rn: u16, list: u16) -> u16 {
    0xC000 | (rn << 8) | list
}
pub fn ldm(rn: u16, list: u16) -> u16 {
    0xC800 | (rn << 8) | list
}
pub fn udf(imm: u16) -> u16 {
    0xDE00 | imm
}
pub fn svc(imm: u16) -> u16 {
    0xDF00 | imm
}
pub fn msr(sysm: u16, rn: u16) -> [u16; 2] {
    [0xF380 | rn, 0x8800 | sysm]
}
pub fn mrs(rd: u16, sysm: u16) -> [u16; 2] {
    [0xF3EF, 0x8000 | (rd << 8) | sysm]
}
pub const DMB: [u16; 2] = [0xF3BF, 0x8F5F];
pub const DSB: [u16; 2] = [0xF3BF, 0x8F4F];
pub const ISB: [u16; 2] = [0xF3BF, 0x8F6F];

enum Fix {
    B(String),
    Bcond(u16, String),
    Bl(String),
    Adr(u16, String),
}

/// Assembler: code starts at `CODE_BASE` in flash after a 48-entry vector table.
pub struct Asm {
    pub code: Vec<u16>,
    labels: HashMap<String, u32>,
    fixups: Vec<(usize, Fix)>,
    vectors: Vec<(u32, String)>,
    pub initial_sp: u32,
    /// Extra data placed in flash at fixed addresses.
    pub data: Vec<(u32, Vec<u8>)>,
}

pub const CODE_BASE: u32 = 0x100;

impl Default for Asm {
    fn default() -> Self {
        Self::new()
    }
}

impl Asm {
    pub fn new() -> Asm {
        Asm {
            code: Vec::new(),
            labels: HashMap::new(),
            fixups: Vec::new(),
            vectors: vec![(1, "reset".into())],
            initial_sp: 0x2000_4000,
            data: Vec::new(),
        }
    }
    pub fn here(&self) -> u32 {
        CODE_BASE + 2 * self.code.len() as u32
    }
    pub fn label(&mut self, name: &str) -> &mut Self {
        self.labels.insert(name.into(), self.here());
        self
    }
    pub fn addr(&self, name: &str) -> u32 {
        self.labels[name]
    }
    pub fn vector(&mut self, exc: u32, label: &str) -> &mut Self {
        self.vectors.push((exc, label.into()));
        self
    }
    pub fn i(&mut self, hw: u16) -> &mut Self {
        self.code.push(hw);
        self
    }
    pub fn w(&mut self, hw: [u16; 2]) -> &mut Self {
        self.code.extend_from_slice(&hw);
        self
    }
    pub fn n(&mut self, hw: u16, count: usize) -> &mut Self {
        for _ in 0..count {
            self.code.push(hw);
        }
        self
    }
    pub fn b(&mut self, l: &str) -> &mut Self {
        self.fixups.push((self.code.len(), Fix::B(l.into())));
        self.code.push(0);
        self
    }
    pub fn bc(&mut self, cond: u16, l: &str) -> &mut Self {
        self.fixups.push((self.code.len(), Fix::Bcond(cond, l.into())));
        self.code.push(0);
        self
    }
    pub fn bl(&mut self, l: &str) -> &mut Self {
        self.fixups.push((self.code.len(), Fix::Bl(l.into())));
        self.code.push(0);
        self.code.push(0);
        self
    }
    /// ADR-like: rd = address of label (must be word aligned, after the ADR).
    pub fn adr_l(&mut self, rd: u16, l: &str) -> &mut Self {
        self.fixups.push((self.code.len(), Fix::Adr(rd, l.into())));
        self.code.push(0);
        self
    }
    /// Align the code to 4 bytes with a NOP.
    pub fn align4(&mut self) -> &mut Self {
        if !self.here().is_multiple_of(4) {
            self.code.push(NOP);
        }
        self
    }
    /// Align the code to `n` bytes (a power of two) with NOPs.
    pub fn align(&mut self, n: u32) -> &mut Self {
        while !self.here().is_multiple_of(n) {
            self.code.push(NOP);
        }
        self
    }
    /// rd = v, via MOVS/LSLS/ADDS (clobbers flags only).
    pub fn li(&mut self, rd: u16, v: u32) -> &mut Self {
        let bytes = v.to_be_bytes();
        let first = bytes.iter().position(|b| *b != 0).unwrap_or(3);
        self.i(movs_i(rd, bytes[first] as u16));
        for b in &bytes[first + 1..] {
            self.i(lsls_i(rd, rd, 8));
            if *b != 0 {
                self.i(adds_i8(rd, *b as u16));
            }
        }
        self
    }
    /// Store the word in `rv` to address `addr` (clobbers `ra`).
    pub fn store(&mut self, ra: u16, addr: u32, rv: u16) -> &mut Self {
        self.li(ra, addr).i(str_i(rv, ra, 0))
    }
    /// *addr = v (clobbers r0, r1 unless given).
    pub fn poke(&mut self, addr: u32, v: u32) -> &mut Self {
        self.li(1, v).store(0, addr, 1)
    }
    /// Exit the simulation through the EXIT register with `code` (clobbers r0, r1).
    pub fn exit(&mut self, code: u32) -> &mut Self {
        self.poke(EXIT_REG, code)
    }

    pub fn image(&self) -> Vec<u8> {
        let mut code = self.code.clone();
        for (at, f) in &self.fixups {
            let pc = CODE_BASE + 2 * *at as u32;
            let tgt = |l: &String| *self.labels.get(l).unwrap_or_else(|| panic!("no label {}", l));
            match f {
                Fix::B(l) => {
                    let off = tgt(l).wrapping_sub(pc + 4) as i32;
                    assert!((-2048..2048).contains(&off), "B out of range");
                    code[*at] = 0xE000 | ((off >> 1) as u16 & 0x7FF);
                }
                Fix::Bcond(c, l) => {
                    let off = tgt(l).wrapping_sub(pc + 4) as i32;
                    assert!((-256..256).contains(&off), "Bcond out of range");
                    code[*at] = 0xD000 | (c << 8) | ((off >> 1) as u16 & 0xFF);
                }
                Fix::Bl(l) => {
                    let off = tgt(l).wrapping_sub(pc + 4) as i32;
                    let s = ((off >> 24) & 1) as u16;
                    let imm10 = ((off >> 12) & 0x3FF) as u16;
                    let imm11 = ((off >> 1) & 0x7FF) as u16;
                    let i1 = ((off >> 23) & 1) as u16;
                    let i2 = ((off >> 22) & 1) as u16;
                    let j1 = (1 ^ i1) ^ s;
                    let j2 = (1 ^ i2) ^ s;
                    code[*at] = 0xF000 | (s << 10) | imm10;
                    code[*at + 1] = 0xD000 | (j1 << 13) | (j2 << 11) | imm11;
                }
                Fix::Adr(rd, l) => {
                    let off = tgt(l) - ((pc + 4) & !3);
                    code[*at] = 0xA000 | (rd << 8) | (off / 4) as u16;
                }
            }
        }
        let mut img = vec![0u8; CODE_BASE as usize];
        img[0..4].copy_from_slice(&self.initial_sp.to_le_bytes());
        // Unset vectors point at a `B .` placed right after the table.
        for (exc, l) in &self.vectors {
            let a = self.labels.get(l).copied().unwrap_or_else(|| panic!("no label {}", l)) | 1;
            let o = *exc as usize * 4;
            img[o..o + 4].copy_from_slice(&a.to_le_bytes());
        }
        for h in code {
            img.extend_from_slice(&h.to_le_bytes());
        }
        for (addr, bytes) in &self.data {
            let end = *addr as usize + bytes.len();
            if img.len() < end {
                img.resize(end, 0);
            }
            img[*addr as usize..end].copy_from_slice(bytes);
        }
        img
    }
}

pub const EXIT_REG: u32 = 0x4F00_0000;
