//! Thumb (ARMv6-M) decoder: turns one or two halfwords into a compact `Op`.
//!
//! Decoding happens once per flash halfword (flash is read-only, so the table never goes
//! stale) and on the fly for code in RAM. Anything PC-relative is resolved here to an
//! absolute value, so the execute loop never needs to know where an op came from.

pub use super::op::{alu_op, Cond, Op};

/// True if `hw` is the first halfword of a 32-bit Thumb instruction.
#[inline]
pub fn is_32bit(hw: u16) -> bool {
    (hw >> 11) >= 0b11101
}

#[inline]
fn sext(v: u32, bits: u32) -> u32 {
    let s = 32 - bits;
    (((v << s) as i32) >> s) as u32
}

/// Decode the instruction at `pc` whose first halfword is `hw` and next halfword `hw2`.
pub fn decode(pc: u32, hw: u16, hw2: u16) -> Op {
    let h = hw as u32;
    let lo3 = |s: u32| ((h >> s) & 7) as u8;
    let pc4 = pc.wrapping_add(4);
    match h >> 11 {
        0b00000 => Op::LslImm { rd: lo3(0), rm: lo3(3), imm: ((h >> 6) & 31) as u8 },
        0b00001 => {
            let i = (h >> 6) & 31;
            Op::LsrImm { rd: lo3(0), rm: lo3(3), imm: if i == 0 { 32 } else { i as u8 } }
        }
        0b00010 => {
            let i = (h >> 6) & 31;
            Op::AsrImm { rd: lo3(0), rm: lo3(3), imm: if i == 0 { 32 } else { i as u8 } }
        }
        0b00011 => {
            let (rd, rn, x) = (lo3(0), lo3(3), lo3(6));
            match (h >> 9) & 3 {
                0 => Op::AddsReg { rd, rn, rm: x },
                1 => Op::SubsReg { rd, rn, rm: x },
                2 => Op::AddsImm { rd, rn, imm: x },
                _ => Op::SubsImm { rd, rn, imm: x },
            }
        }
        0b00100 => Op::MovsImm { rd: lo3(8), imm: h as u8 },
        0b00101 => Op::CmpImm { rn: lo3(8), imm: h as u8 },
        0b00110 => Op::AddsImm { rd: lo3(8), rn: lo3(8), imm: h as u8 },
        0b00111 => Op::SubsImm { rd: lo3(8), rn: lo3(8), imm: h as u8 },
        0b01000 => {
            if h & 0x0400 == 0 {
                Op::Alu { op: ((h >> 6) & 15) as u8, rdn: lo3(0), rm: lo3(3) }
            } else {
                decode_special(pc4, h)
            }
        }
        0b01001 => Op::LdrLit { rt: lo3(8), addr: (pc4 & !3).wrapping_add((h & 0xFF) << 2) },
        0b01010 | 0b01011 => Op::LsReg { kind: ((h >> 9) & 7) as u8, rt: lo3(0), rn: lo3(3), rm: lo3(6) },
        0b01100 => Op::StrImm { rt: lo3(0), rn: lo3(3), off: (((h >> 6) & 31) << 2) as u8 },
        0b01101 => Op::LdrImm { rt: lo3(0), rn: lo3(3), off: (((h >> 6) & 31) << 2) as u8 },
        0b01110 => Op::StrbImm { rt: lo3(0), rn: lo3(3), off: ((h >> 6) & 31) as u8 },
        0b01111 => Op::LdrbImm { rt: lo3(0), rn: lo3(3), off: ((h >> 6) & 31) as u8 },
        0b10000 => Op::StrhImm { rt: lo3(0), rn: lo3(3), off: (((h >> 6) & 31) << 1) as u8 },
        0b10001 => Op::LdrhImm { rt: lo3(0), rn: lo3(3), off: (((h >> 6) & 31) << 1) as u8 },
        0b10010 => Op::StrSp { rt: lo3(8), off: ((h & 0xFF) << 2) as u16 },
        0b10011 => Op::LdrSp { rt: lo3(8), off: ((h & 0xFF) << 2) as u16 },
        0b10100 => Op::MovConst { rd: lo3(8), val: (pc4 & !3).wrapping_add((h & 0xFF) << 2) },
        0b10101 => Op::AddSpImm { rd: lo3(8), off: ((h & 0xFF) << 2) as u16 },
        0b10110 | 0b10111 => decode_misc(h),
        0b11000 => {
            if h & 0xFF == 0 {
                Op::Undef { raw: h }
            } else {
                Op::Stm { rn: lo3(8), list: h as u8 }
            }
        }
        0b11001 => {
            if h & 0xFF == 0 {
                Op::Undef { raw: h }
            } else {
                Op::Ldm { rn: lo3(8), list: h as u8 }
            }
        }
        0b11010 | 0b11011 => {
            let cond = ((h >> 8) & 15) as u8;
            match cond {
                14 => Op::Undef { raw: h }, // UDF
                15 => Op::Svc { imm: h as u8 },
                _ => Op::Bcond { cond, target: pc4.wrapping_add(sext((h & 0xFF) << 1, 9)) },
            }
        }
        0b11100 => Op::B { target: pc4.wrapping_add(sext((h & 0x7FF) << 1, 12)) },
        0b11110 => decode_32(pc4, h, hw2 as u32),
        // 0b11101 and 0b11111: 32-bit encodings that do not exist in ARMv6-M.
        _ => Op::Undef { raw: (h << 16) | hw2 as u32 },
    }
}

fn decode_special(pc4: u32, h: u32) -> Op {
    let rm = ((h >> 3) & 15) as u8;
    let rd = ((h & 7) | ((h >> 4) & 8)) as u8;
    match (h >> 8) & 3 {
        0 => {
            if rd == 15 && rm == 15 {
                Op::Undef { raw: h }
            } else if rd == 15 {
                Op::AddPc { rm, base: pc4 }
            } else if rm == 15 {
                Op::AddConst { rd, val: pc4 }
            } else {
                Op::AddHi { rd, rm }
            }
        }
        1 => {
            // CMP (register) T2: both low or either PC is UNPREDICTABLE; we fault.
            if (rd < 8 && rm < 8) || rd == 15 || rm == 15 {
                Op::Undef { raw: h }
            } else {
                Op::CmpHi { rn: rd, rm }
            }
        }
        2 => {
            if rd == 15 {
                if rm == 15 {
                    Op::Undef { raw: h }
                } else {
                    Op::MovPc { rm }
                }
            } else if rm == 15 {
                Op::MovConst { rd, val: pc4 }
            } else {
                Op::MovHi { rd, rm }
            }
        }
        _ => {
            // BX/BLX: bits 2:0 must be zero; BLX PC is UNPREDICTABLE.
            if h & 7 != 0 {
                Op::Undef { raw: h }
            } else if h & 0x80 == 0 {
                Op::Bx { rm }
            } else if rm == 15 {
                Op::Undef { raw: h }
            } else {
                Op::Blx { rm }
            }
        }
    }
}

fn decode_misc(h: u32) -> Op {
    let rd = (h & 7) as u8;
    let rm = ((h >> 3) & 7) as u8;
    match (h >> 8) & 15 {
        0b0000 => {
            let off = ((h & 0x7F) << 2) as i16;
            Op::AdjSp { delta: if h & 0x80 != 0 { -off } else { off } }
        }
        0b0010 => match (h >> 6) & 3 {
            0 => Op::Sxth { rd, rm },
            1 => Op::Sxtb { rd, rm },
            2 => Op::Uxth { rd, rm },
            _ => Op::Uxtb { rd, rm },
        },
        0b0100 | 0b0101 => {
            let list = h & 0x1FF; // bit 8 = LR
            if list == 0 {
                Op::Undef { raw: h }
            } else {
                Op::Push { list: list as u16 }
            }
        }
        0b0110 => match h & 0xFF {
            0x62 => Op::Cpsie,
            0x72 => Op::Cpsid,
            _ => Op::Undef { raw: h },
        },
        0b1010 => match (h >> 6) & 3 {
            0 => Op::Rev { rd, rm },
            1 => Op::Rev16 { rd, rm },
            3 => Op::Revsh { rd, rm },
            _ => Op::Undef { raw: h },
        },
        0b1100 | 0b1101 => {
            let list = h & 0x1FF;
            if list == 0 {
                Op::Undef { raw: h }
            } else {
                Op::Pop { list: list as u16 }
            }
        }
        0b1110 => Op::Bkpt { imm: h as u8 },
        0b1111 => {
            if h & 0xF != 0 {
                Op::Undef { raw: h } // IT does not exist in ARMv6-M
            } else {
                match (h >> 4) & 15 {
                    1 => Op::Yield,
                    2 => Op::Wfe,
                    3 => Op::Wfi,
                    4 => Op::Sev,
                    _ => Op::Nop, // NOP and the reserved hints, which execute as NOP
                }
            }
        }
        // CBZ/CBNZ and the rest are ARMv7-M only.
        _ => Op::Undef { raw: h },
    }
}

fn decode_32(pc4: u32, h: u32, h2: u32) -> Op {
    let raw = (h << 16) | h2;
    if h2 & 0xD000 == 0xD000 {
        // BL
        let s = (h >> 10) & 1;
        let j1 = (h2 >> 13) & 1;
        let j2 = (h2 >> 11) & 1;
        let i1 = 1 ^ (j1 ^ s);
        let i2 = 1 ^ (j2 ^ s);
        let imm = (s << 24) | (i1 << 23) | (i2 << 22) | ((h & 0x3FF) << 12) | ((h2 & 0x7FF) << 1);
        return Op::Bl { target: pc4.wrapping_add(sext(imm, 25)) };
    }
    if h2 & 0xD000 != 0x8000 {
        return Op::Undef { raw };
    }
    match h & 0x7F0 {
        // MSR: 11110 0 1110 0 0 Rn : 10 0 0 1000 SYSm
        0x380 if h2 & 0x2F00 == 0x0800 => {
            let rn = (h & 15) as u8;
            if rn == 13 || rn == 15 {
                Op::Undef { raw }
            } else {
                Op::Msr { rn, sysm: h2 as u8 }
            }
        }
        // MRS: 11110 0 1111 1 0 1111 : 10 0 0 Rd SYSm
        0x3E0 if h & 0xF == 0xF && h2 & 0x2000 == 0 => {
            let rd = ((h2 >> 8) & 15) as u8;
            if rd == 13 || rd == 15 {
                Op::Undef { raw }
            } else {
                Op::Mrs { rd, sysm: h2 as u8 }
            }
        }
        // DMB/DSB/ISB: 11110 0 111 0 1 1 1111 : 10 0 0 1111 01oo option
        0x3B0 if h & 0xF == 0xF && h2 & 0x2F00 == 0x0F00 => match (h2 >> 4) & 15 {
            o @ 4..=6 => Op::Barrier { isb: o == 6 },
            _ => Op::Undef { raw },
        },
        _ => Op::Undef { raw },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_32_bit_encodings() {
        // BL forward/backward: F000 F800 = BL +0; F7FF FFFE = BL -0 (to itself - 4 + 4).
        assert_eq!(decode(0x100, 0xF000, 0xF800), Op::Bl { target: 0x104 });
        assert_eq!(decode(0x100, 0xF7FF, 0xFFFE), Op::Bl { target: 0x100 });
        assert_eq!(decode(0, 0xF380, 0x8810), Op::Msr { rn: 0, sysm: 16 });
        assert_eq!(decode(0, 0xF3EF, 0x8514), Op::Mrs { rd: 5, sysm: 20 });
        assert_eq!(decode(0, 0xF3BF, 0x8F5F), Op::Barrier { isb: false });
        assert_eq!(decode(0, 0xF3BF, 0x8F4F), Op::Barrier { isb: false });
        assert_eq!(decode(0, 0xF3BF, 0x8F6F), Op::Barrier { isb: true });
        assert!(matches!(decode(0, 0xF7F0, 0xA000), Op::Undef { .. })); // UDF.W
        assert!(matches!(decode(0, 0xE800, 0x0000), Op::Undef { .. }));
        assert!(matches!(decode(0, 0xF38D, 0x8808), Op::Undef { .. })); // MSR with SP
        assert_eq!(Op::Bl { target: 0 }.size(), 4);
    }

    #[test]
    fn resolves_pc_relative_values() {
        // LDR r0, [pc, #4] at 0x102: Align(0x106, 4) + 4 = 0x108
        assert_eq!(decode(0x102, 0x4801, 0), Op::LdrLit { rt: 0, addr: 0x108 });
        // ADR r1, #8 at 0x100
        assert_eq!(decode(0x100, 0xA102, 0), Op::MovConst { rd: 1, val: 0x10C });
        // MOV r2, pc at 0x100
        assert_eq!(decode(0x100, 0x467A, 0), Op::MovConst { rd: 2, val: 0x104 });
        // B .-4 and BEQ .+4
        assert_eq!(decode(0x100, 0xE7FC, 0), Op::B { target: 0x100 - 4 + 4 - 4 });
        assert_eq!(decode(0x100, 0xD000, 0), Op::Bcond { cond: 0, target: 0x104 });
        // LSR #0 means #32
        assert_eq!(decode(0, 0x0800, 0), Op::LsrImm { rd: 0, rm: 0, imm: 32 });
    }

    #[test]
    fn rejects_what_armv6m_lacks() {
        for hw in [0xB100u16, 0xB900, 0xBF08, 0xBA80, 0xB650, 0xDE00, 0x4778 | 0x80, 0xE800] {
            assert!(matches!(decode(0, hw, 0), Op::Undef { .. }), "{:04x}", hw);
        }
        assert_eq!(decode(0, 0xBF30, 0), Op::Wfi);
        assert_eq!(decode(0, 0xBF50, 0), Op::Nop); // reserved hint
        assert_eq!(decode(0, 0xDF12, 0), Op::Svc { imm: 0x12 });
    }
}
