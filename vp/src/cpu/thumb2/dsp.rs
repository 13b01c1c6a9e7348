//! Execution of the DSP extension (ARMv7E-M, Cortex-M4 only): SIMD add/subtract with the
//! APSR.GE bits, SEL, USAD8, SSAT16/USAT16, PKH, the extend-and-add forms, saturating
//! add/subtract, the halfword and most-significant-word multiplies, UMAAL, MSR APSR_g.
//! Semantics: ARMv7-M ARM section A7.7 (the pseudocode of each instruction).
//!
//! Timing: every one takes 1 cycle on the Cortex-M4 (TRM r0p1, ARM DDI0439D section 3.3.1,
//! Table 3-2 "Cortex-M4 DSP instruction set summary", pages 3-8 to 3-11: the Multiply,
//! Signed and Unsigned Multiply, Saturate, Packing and Unpacking, Miscellaneous Data
//! Processing, Addition, Subtraction and Parallel Addition and Subtraction rows; MSR is
//! "1 or 2" in Table 3-1, page 3-7, and takes 2 here, as the other MSRs).
//!
//! The decoder (dsp_fields.rs) does not know the board: on a Cortex-M3 (no DSP
//! extension) executing one of these raises the same fault as an undefined instruction.

use super::dsp_fields::code as c;
use super::timing as t;
use crate::bus::Bus;
use crate::machine::Cpu;

/// Saturate `x` to `[lo, hi]`: (value, saturated).
#[inline]
fn sat(x: i64, lo: i64, hi: i64) -> (i64, bool) {
    (x.clamp(lo, hi), x < lo || x > hi)
}

/// Signed saturation to `n` bits.
#[inline]
fn ssat(x: i64, n: u32) -> (i64, bool) {
    sat(x, -(1i64 << (n - 1)), (1i64 << (n - 1)) - 1)
}

/// Unsigned saturation to `n` bits (n may be 0).
#[inline]
fn usat(x: i64, n: u32) -> (i64, bool) {
    sat(x, 0, (1i64 << n) - 1)
}

/// Lane `k` of width `w` bits of `x`, sign- or zero-extended.
#[inline]
fn lane(x: u32, k: u32, w: u32, signed: bool) -> i64 {
    let v = (x >> (k * w)) & ((1u32 << w) - 1);
    if signed && v >> (w - 1) != 0 {
        v as i64 - (1i64 << w)
    } else {
        v as i64
    }
}

/// The signed halfwords of `x`: (bottom, top).
#[inline]
fn halves(x: u32) -> (i64, i64) {
    (x as u16 as i16 as i64, (x >> 16) as u16 as i16 as i64)
}

/// The parallel add/subtract `op` (dsp_fields::code::PAR): (result, GE bits if it sets them).
pub fn parallel(op: u8, n: u32, m: u32) -> (u32, Option<u8>) {
    let (prefix, op1) = (op >> 3, op & 7);
    let signed = prefix & 4 == 0;
    // (lane width, [(n lane, m lane, add)] per lane, lowest first)
    let (w, lanes): (u32, [(u32, u32, bool); 4]) = match op1 {
        0 | 4 => (8, [(0, 0, op1 == 0), (1, 1, op1 == 0), (2, 2, op1 == 0), (3, 3, op1 == 0)]),
        1 => (16, [(0, 0, true), (1, 1, true), (0, 0, false), (0, 0, false)]),
        2 => (16, [(0, 1, false), (1, 0, true), (0, 0, false), (0, 0, false)]),
        5 => (16, [(0, 0, false), (1, 1, false), (0, 0, false), (0, 0, false)]),
        _ => (16, [(0, 1, true), (1, 0, false), (0, 0, false), (0, 0, false)]),
    };
    let count = 32 / w;
    let (mut r, mut ge) = (0u32, 0u8);
    for (k, &(a, b, add)) in lanes.iter().take(count as usize).enumerate() {
        let (x, y) = (lane(n, a, w, signed), lane(m, b, w, signed));
        let v = if add { x + y } else { x - y };
        let out = match prefix & 3 {
            0 => {
                // S/U: the GE bits say "no signed underflow" or "unsigned carry out"
                let g = if !signed && add { v >= 1 << w } else { v >= 0 };
                let per = if w == 16 { 3u8 } else { 1 };
                if g {
                    ge |= per << (k as u32 * (w / 8));
                }
                v
            }
            1 if signed => ssat(v, w).0,
            1 => usat(v, w).0,
            _ => v >> 1,
        };
        r |= ((out as u32) & ((1u32 << w) - 1)) << (k as u32 * w);
    }
    (r, (prefix & 3 == 0).then_some(ge))
}

/// SEL: each byte from `n` where its GE bit is set, else from `m`.
pub fn select(ge: u8, n: u32, m: u32) -> u32 {
    let mask = (0..4).filter(|k| ge >> k & 1 != 0).fold(0u32, |acc, k| acc | (0xFF << (8 * k)));
    (n & mask) | (m & !mask)
}

/// SSAT16/USAT16 to `bits`: (result, saturated).
pub fn sat16(unsigned: bool, x: u32, bits: u32) -> (u32, bool) {
    let (lo, hi) = halves(x);
    let f = |v| if unsigned { usat(v, bits) } else { ssat(v, bits) };
    let ((a, qa), (b, qb)) = (f(lo), f(hi));
    (((a as u32) & 0xFFFF) | ((b as u32) << 16), qa || qb)
}

/// SXTAB16/UXTAB16 (and SXTB16/UXTB16 with `n` = 0): bytes 0 and 2 of `m`, extended to
/// halfwords, added to `n`'s halfwords.
pub fn extend_add16(signed: bool, n: u32, m: u32) -> u32 {
    let ext = |b: u32| if signed { b as u8 as i8 as i16 as u16 } else { b as u8 as u16 };
    let lo = (n as u16).wrapping_add(ext(m)) as u32;
    let hi = ((n >> 16) as u16).wrapping_add(ext(m >> 16)) as u32;
    lo | (hi << 16)
}

/// SMLAD/SMUAD, SMLSD/SMUSD: the two 16x16 products of `n` and (`x`: swapped) `m`, summed
/// (or subtracted) with `acc`; (the 32-bit result, overflowed).
pub fn dual(sub: bool, x: bool, n: u32, m: u32, acc: i64) -> (u32, bool) {
    let m = if x { m.rotate_right(16) } else { m };
    let ((n0, n1), (m0, m1)) = (halves(n), halves(m));
    let (p1, p2) = (n0 * m0, n1 * m1);
    let v = if sub { p1 - p2 } else { p1 + p2 } + acc;
    (v as u32, v != v as i32 as i64)
}

/// SMMLA/SMMUL/SMMLS: the top word of `acc` << 32 ± n * m, rounded when `round`.
pub fn most_significant(sub: bool, round: bool, n: u32, m: u32, acc: u32) -> u32 {
    let p = (n as i32 as i64).wrapping_mul(m as i32 as i64);
    let a = ((acc as u64) << 32) as i64;
    let v = if sub { a.wrapping_sub(p) } else { a.wrapping_add(p) };
    let v = if round { v.wrapping_add(0x8000_0000) } else { v };
    (v >> 32) as u32
}

/// USAD8/USADA8: the sum of the absolute byte differences, plus `acc`.
pub fn usad8(n: u32, m: u32, acc: u32) -> u32 {
    (0..4).fold(acc, |s, k| s.wrapping_add(((n >> (8 * k)) as u8).abs_diff((m >> (8 * k)) as u8) as u32))
}

impl<B: Bus> Cpu<B> {
    /// Execute `Op::Dsp` (the caller moved `pc` past it).
    #[inline(never)]
    pub(crate) fn exec_dsp(&mut self, op: u8, rd: u8, rn: u8, rm: u8, ra: u8, pc: u32) {
        if !self.dsp {
            // ARMv7-M without the DSP extension: UNDEFINED, exactly as before it existed.
            self.raise_fault(pc, "undefined instruction (a DSP extension one: not on this core)", None);
            return;
        }
        let (n, m) = (self.g(rn), self.g(rm));
        let acc = if ra == 15 { 0 } else { self.g(ra) };
        let r = match op {
            c::PAR..c::PAR_END => {
                let (r, ge) = parallel(op, n, m);
                if let Some(g) = ge {
                    self.cpu.ge = g;
                }
                r
            }
            c::SEL => select(self.cpu.ge, n, m),
            c::QADD..=c::QDSUB => {
                // QADD Rd, Rm, Rn: Rm is the accumulator, Rn the (doubled) addend
                let (a, b) = (m as i32 as i64, n as i32 as i64);
                let (b, q1) = if op == c::QDADD || op == c::QDSUB { ssat(2 * b, 32) } else { (b, false) };
                let (v, q2) = ssat(if op <= c::QDADD { a + b } else { a - b }, 32);
                self.cpu.q |= q1 || q2;
                v as u32
            }
            c::USADA8 => usad8(n, m, acc),
            c::SSAT16 | c::USAT16 => {
                let (v, q) = sat16(op == c::USAT16, n, ra as u32);
                self.cpu.q |= q;
                v
            }
            c::PKHBT => (n & 0xFFFF) | ((m << ra) & 0xFFFF_0000),
            c::PKHTB => (n & 0xFFFF_0000) | ((((m as i32 as i64) >> ra) as u32) & 0xFFFF),
            c::XTA..=0x55 => {
                let x = m.rotate_right(8 * ra as u32);
                let base = if rn == 15 { 0 } else { n };
                match op - c::XTA {
                    0 => base.wrapping_add(x as u16 as i16 as i32 as u32),
                    1 => base.wrapping_add(x & 0xFFFF),
                    2 => extend_add16(true, base, x),
                    3 => extend_add16(false, base, x),
                    4 => base.wrapping_add(x as u8 as i8 as i32 as u32),
                    _ => base.wrapping_add(x & 0xFF),
                }
            }
            c::SMLAXY..=0x5B => {
                let (a, b) = (halves(n), halves(m));
                let x = if op & 2 != 0 { a.1 } else { a.0 };
                let y = if op & 1 != 0 { b.1 } else { b.0 };
                let v = x * y + acc as i32 as i64;
                self.cpu.q |= v != v as i32 as i64;
                v as u32
            }
            c::SMLAD..=0x5F => {
                let (v, q) = dual(op >= c::SMLSD, op & 1 != 0, n, m, acc as i32 as i64);
                self.cpu.q |= q;
                v
            }
            c::SMLAW..=0x61 => {
                let y = if op & 1 != 0 { halves(m).1 } else { halves(m).0 };
                let v = ((n as i32 as i64 * y) >> 16) + acc as i32 as i64;
                self.cpu.q |= v != v as i32 as i64;
                v as u32
            }
            c::SMMLA..=0x65 => most_significant(op >= c::SMMLS, op & 1 != 0, n, m, acc),
            c::SMLALXY..=0x71 => return self.dsp_long(op, rd, ra, n, m),
            _ => {
                // MSR_G: `ra` is the mask
                if ra & 2 != 0 {
                    self.set_apsr(n);
                }
                self.cpu.ge = ((n >> 16) & 0xF) as u8;
                self.cyc += t::MRS_MSR;
                return;
            }
        };
        self.s(rd, r);
        self.cyc += t::DSP;
    }

    /// The long forms: `hi` = RdHi, `lo` = RdLo.
    fn dsp_long(&mut self, op: u8, hi: u8, lo: u8, n: u32, m: u32) {
        let acc = ((self.g(hi) as u64) << 32) | self.g(lo) as u64;
        let ((n0, n1), (m0, m1)) = (halves(n), halves(m));
        let r = match op {
            c::UMAAL => (n as u64 * m as u64).wrapping_add(self.g(hi) as u64).wrapping_add(self.g(lo) as u64),
            c::SMLALXY..=0x6B => {
                let x = if op & 2 != 0 { n1 } else { n0 };
                let y = if op & 1 != 0 { m1 } else { m0 };
                acc.wrapping_add((x * y) as u64)
            }
            _ => {
                let (m0, m1) = if op & 1 != 0 { (m1, m0) } else { (m0, m1) };
                let p = if op >= c::SMLSLD { n0 * m0 - n1 * m1 } else { n0 * m0 + n1 * m1 };
                acc.wrapping_add(p as u64)
            }
        };
        self.s(lo, r as u32);
        self.s(hi, (r >> 32) as u32);
        self.cyc += t::DSP;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn par(prefix: u8, op1: u8) -> u8 {
        c::PAR | (prefix << 3) | op1
    }

    #[test]
    fn parallel_add_subtract_and_ge() {
        // UADD8: carries set GE per byte (strcmp's zero-byte test: x + 0xFF..FF)
        assert_eq!(parallel(par(4, 0), 0x00FF_0180, 0xFFFF_FFFF), (0xFFFE_007F, Some(0b0111)));
        // SADD16: GE from the sign of each signed sum
        assert_eq!(parallel(par(0, 1), 0x7FFF_8000, 0x0001_FFFF), (0x8000_7FFF, Some(0b1100)));
        // QADD16 saturates, UQSUB8 clamps at 0, neither sets GE
        assert_eq!(parallel(par(1, 1), 0x7FFF_8000, 0x0001_FFFF), (0x7FFF_8000, None));
        assert_eq!(parallel(par(5, 4), 0x1020_3040, 0x2020_2020), (0x0000_1020, None));
        // SHSUB16 halves the full difference; UHADD8 the full sum
        assert_eq!(parallel(par(2, 5), 0x8000_0000, 0x7FFF_0001), (0x8000_FFFF, None));
        assert_eq!(parallel(par(6, 0), 0xFFFF_FFFF, 0xFFFF_0101), (0xFFFF_8080, None));
        // UASX: low = n.lo - m.hi (GE[1:0]: no borrow), high = n.hi + m.lo (GE[3:2]: carry)
        assert_eq!(parallel(par(4, 2), 0xFFFF_0005, 0x0006_0001), (0x0000_FFFF, Some(0b1100)));
        // SSAX: low = n.lo + m.hi, high = n.hi - m.lo
        assert_eq!(parallel(par(0, 6), 0x0001_0002, 0x0003_0004), (0xFFFD_0005, Some(0b0011)));
    }

    #[test]
    fn select_saturate_pack_extend() {
        assert_eq!(select(0b0101, 0x1122_3344, 0xAABB_CCDD), 0xAA22_CC44);
        assert_eq!(sat16(false, 0x7FFF_8000, 8), (0x007F_FF80, true));
        assert_eq!(sat16(true, 0x0010_FFFF, 4), (0x000F_0000, true));
        assert_eq!(sat16(true, 0x0003_0002, 0), (0, true));
        assert_eq!(extend_add16(true, 0x0001_0001, 0x00FF_0080), 0x0000_FF81);
        assert_eq!(extend_add16(false, 0, 0x12FF_3480), 0x00FF_0080);
    }

    #[test]
    fn multiplies() {
        // SMUAD of 0x8000 * 0x8000 twice overflows: Q
        assert_eq!(dual(false, false, 0x8000_8000, 0x8000_8000, 0), (0x8000_0000, true));
        assert_eq!(dual(true, true, 0x0002_0003, 0x0005_0007, 10), ((3 * 5 - 2 * 7 + 10) as u32, false));
        assert_eq!(most_significant(false, true, 0x4000_0000, 0x0000_0003, 0), 1);
        assert_eq!(most_significant(true, false, 1, 1, 0), 0xFFFF_FFFF);
        assert_eq!(usad8(0x01FF_0010, 0xFF01_1000, 7), 7 + 0xFE + 0xFE + 0x10 + 0x10);
    }
}
