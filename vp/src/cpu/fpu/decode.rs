//! The FPv4-SP encodings (ARMv7-M ARM A6.4 "Floating-point instruction encoding", A7.7):
//! coprocessor space (hw1 1110 11xx) with coprocessor 101x (CP10/CP11). `Op::Fp` carries the
//! raw bits; the executor decodes them again into `FpOp` (FP code is rare, and the `Op`
//! table stays 8 bytes). Double-precision data processing, registers past D15 and the
//! UNPREDICTABLE forms decode to None (UNDEFINED).

/// Data-processing operations with three registers (opc1, opc3<0>).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Arith {
    Mla,
    Mls,
    Nmls,
    Nmla,
    Mul,
    Nmul,
    Add,
    Sub,
    Div,
    Fnms,
    Fnma,
    Fma,
    Fms,
}

/// Conversions (VCVT*): `fbits`/`size` for fixed point, 0/32 for integers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cvt {
    /// float to integer/fixed; `round_zero`: VCVT (VCVTR uses FPSCR's mode)
    ToInt { unsigned: bool, size: u8, fbits: u8, round_zero: bool },
    /// integer/fixed to float; `nearest`: the fixed-point form, which rounds to nearest
    /// whatever FPSCR says (ARMv7-M ARM A7.7.x VCVT (between floating-point and fixed-point))
    FromInt { unsigned: bool, size: u8, fbits: u8, nearest: bool },
    /// VCVTB/VCVTT: `top` half; `to_half`: F16.F32
    Half { top: bool, to_half: bool },
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FpOp {
    Arith {
        op: Arith,
        d: u8,
        n: u8,
        m: u8,
    },
    /// VMOV (register), VABS, VNEG, VSQRT: `op` 0..=3
    Unary {
        op: u8,
        d: u8,
        m: u8,
    },
    MovImm {
        d: u8,
        imm: u32,
    },
    /// VCMP{E} Sd, Sm (m None: with #0.0)
    Cmp {
        e: bool,
        d: u8,
        m: Option<u8>,
    },
    Cvt {
        cvt: Cvt,
        d: u8,
        m: u8,
    },
    /// VMOV Sn <-> Rt
    Core {
        to_core: bool,
        n: u8,
        rt: u8,
    },
    /// VMOV {Sm, Sm+1} <-> Rt, Rt2 (also Dm: m = 2 * Dm)
    Core2 {
        to_core: bool,
        m: u8,
        rt: u8,
        rt2: u8,
    },
    /// VMRS Rt, FPSCR (rt 15: APSR_nzcv) / VMSR FPSCR, Rt
    Vmrs {
        rt: u8,
    },
    Vmsr {
        rt: u8,
    },
    /// VLDR/VSTR (`words` 1 or 2), VLDM/VSTM/VPUSH/VPOP: S registers `first` .. + `words`.
    /// `mode`: 0 = offset (imm bytes, `add`), 1 = increment after, 2 = decrement before.
    Mem {
        load: bool,
        first: u8,
        words: u8,
        rn: u8,
        mode: u8,
        add: bool,
        wback: bool,
        imm: u16,
    },
}

fn bits(i: u32, hi: u32, lo: u32) -> u32 {
    (i >> lo) & ((1 << (hi - lo + 1)) - 1)
}

/// Is `i` (hw1 << 16 | hw2) in CP10/CP11 space?
pub fn is_fp_space(i: u32) -> bool {
    i & 0xEC00_0E00 == 0xEC00_0A00 && i >> 28 == 0xE
}

/// Single-register numbers: Vx:x (S), or x:Vx (D, as the first S of the pair).
fn sreg(v: u32, x: u32) -> u8 {
    ((v << 1) | x) as u8
}

pub fn decode(i: u32) -> Option<FpOp> {
    if !is_fp_space(i) {
        return None;
    }
    let dbl = i & (1 << 8) != 0;
    let (vd, dbit) = (bits(i, 15, 12), bits(i, 22, 22));
    let (vn, nbit) = (bits(i, 19, 16), bits(i, 7, 7));
    let (vm, mbit) = (bits(i, 3, 0), bits(i, 5, 5));
    let (d, n, m) = (sreg(vd, dbit), sreg(vn, nbit), sreg(vm, mbit));
    match bits(i, 27, 24) {
        0xE if i & 0x10 == 0 => {
            if dbl {
                return None;
            }
            data_processing(i, d, n, m)
        }
        0xE => transfer(i, d, n, dbl),
        _ => load_store(i, dbl),
    }
}

fn data_processing(i: u32, d: u8, n: u8, m: u8) -> Option<FpOp> {
    let op6 = bits(i, 6, 6);
    let opc1 = bits(i, 23, 23) << 2 | bits(i, 21, 20);
    use Arith::*;
    let arith = |op| Some(FpOp::Arith { op, d, n, m });
    match (opc1, op6) {
        (0, 0) => arith(Mla),
        (0, _) => arith(Mls),
        (1, 0) => arith(Nmls),
        (1, _) => arith(Nmla),
        (2, 0) => arith(Mul),
        (2, _) => arith(Nmul),
        (3, 0) => arith(Add),
        (3, _) => arith(Sub),
        (4, 0) => arith(Div),
        (5, 0) => arith(Fnms),
        (5, _) => arith(Fnma),
        (6, 0) => arith(Fma),
        (6, _) => arith(Fms),
        (7, 0) => {
            // VFPExpandImm: imm8 = a:b:cdefgh -> a : NOT(b) : bbbbb : cd : efgh : 0{19}
            let imm8 = bits(i, 19, 16) << 4 | bits(i, 3, 0);
            let b = (imm8 >> 6) & 1;
            let exp = ((b ^ 1) << 7) | (if b != 0 { 0x7C } else { 0 }) | ((imm8 >> 4) & 3);
            let imm = ((imm8 >> 7) << 31) | (exp << 23) | ((imm8 & 0xF) << 19);
            Some(FpOp::MovImm { d, imm })
        }
        (7, _) => extension(i, d, m),
        _ => None,
    }
}

/// opc1 = 1x11, opc3 = x1: the one-register and conversion group, by opc2 (bits 19:16).
fn extension(i: u32, d: u8, m: u8) -> Option<FpOp> {
    let (opc2, op7) = (bits(i, 19, 16), bits(i, 7, 7) != 0);
    let cvt = |cvt| Some(FpOp::Cvt { cvt, d, m });
    match opc2 {
        0 | 1 => Some(FpOp::Unary { op: ((opc2 << 1) | op7 as u32) as u8, d, m }),
        2 | 3 => cvt(Cvt::Half { top: op7, to_half: opc2 == 3 }),
        4 => Some(FpOp::Cmp { e: op7, d, m: Some(m) }),
        5 if bits(i, 5, 0) == 0 => Some(FpOp::Cmp { e: op7, d, m: None }),
        8 => cvt(Cvt::FromInt { unsigned: !op7, size: 32, fbits: 0, nearest: false }),
        12 | 13 => cvt(Cvt::ToInt { unsigned: opc2 == 12, size: 32, fbits: 0, round_zero: op7 }),
        10 | 11 | 14 | 15 => {
            // fixed point, in place: Sd, Sd, #fbits with fbits = size - imm4:i
            let size: u32 = if op7 { 32 } else { 16 };
            let imm = bits(i, 3, 0) << 1 | bits(i, 5, 5);
            if imm > size {
                return None;
            }
            let (unsigned, fbits) = (opc2 & 1 != 0, (size - imm) as u8);
            let size = size as u8;
            match opc2 {
                10 | 11 => cvt(Cvt::FromInt { unsigned, size, fbits, nearest: true }),
                _ => cvt(Cvt::ToInt { unsigned, size, fbits, round_zero: true }),
            }
            .map(|op| match op {
                FpOp::Cvt { cvt, .. } => FpOp::Cvt { cvt, d, m: d },
                other => other,
            })
        }
        _ => None,
    }
}

/// 8, 16 and 32-bit transfers between core and FP registers (bit 4 set).
fn transfer(i: u32, _d: u8, n: u8, dbl: bool) -> Option<FpOp> {
    let (a, l, rt) = (bits(i, 23, 21), i & (1 << 20) != 0, bits(i, 15, 12) as u8);
    if bits(i, 6, 5) != 0 || bits(i, 3, 0) != 0 {
        return None;
    }
    match (dbl, a) {
        (false, 0) if rt != 13 && rt != 15 => Some(FpOp::Core { to_core: l, n, rt }),
        (false, 7) if bits(i, 19, 16) == 1 => {
            if l {
                (rt != 13).then_some(FpOp::Vmrs { rt })
            } else {
                (rt != 13 && rt != 15).then_some(FpOp::Vmsr { rt })
            }
        }
        // VMOV Dn[x] <-> Rt (32-bit scalar): Dn = N:Vn, x = bit 21
        (true, 0 | 1) if rt != 13 && rt != 15 => {
            let dn = (bits(i, 7, 7) << 4) | bits(i, 19, 16);
            (dn < 16).then_some(FpOp::Core { to_core: l, n: (dn * 2 + bits(i, 21, 21)) as u8, rt })
        }
        _ => None,
    }
}

/// Extension register loads/stores and the 64-bit transfers (hw1 1110 110x).
fn load_store(i: u32, dbl: bool) -> Option<FpOp> {
    let (p, u, w, l) = (i & (1 << 24) != 0, i & (1 << 23) != 0, i & (1 << 21) != 0, i & (1 << 20) != 0);
    let rn = bits(i, 19, 16) as u8;
    let (vd, dbit) = (bits(i, 15, 12), bits(i, 22, 22));
    let imm8 = bits(i, 7, 0);
    if !p && !u && !w {
        // 64-bit transfers: VMOV Rt, Rt2 <-> Sm, Sm+1 / Dm
        if bits(i, 22, 21) != 0b10 || bits(i, 7, 6) != 0 || i & 0x10 == 0 {
            return None;
        }
        let (rt, rt2) = (bits(i, 15, 12) as u8, rn);
        let (vm, mbit) = (bits(i, 3, 0), bits(i, 5, 5));
        let m = if dbl { ((mbit << 4) | vm) * 2 } else { (vm << 1) | mbit };
        let bad = |r: u8| r == 13 || r == 15;
        if bad(rt) || bad(rt2) || m > 30 || (l && rt == rt2) {
            return None;
        }
        return Some(FpOp::Core2 { to_core: l, m: m as u8, rt, rt2 });
    }
    let first = if dbl { ((dbit << 4) | vd) * 2 } else { (vd << 1) | dbit };
    if p && !w {
        // VLDR/VSTR
        let words = if dbl { 2 } else { 1 };
        if first + words > 32 {
            return None;
        }
        return Some(FpOp::Mem {
            load: l,
            first: first as u8,
            words: words as u8,
            rn,
            mode: 0,
            add: u,
            wback: false,
            imm: (imm8 * 4) as u16,
        });
    }
    if p == u || (p && !w) {
        return None; // P = U = W = 1, or P = U = 0 handled above
    }
    // VLDM/VSTM: increment after (P=0, U=1) or decrement before with write-back (P=1, U=0, W=1)
    let words = imm8;
    if words == 0 || (dbl && (words & 1 != 0 || words > 32)) || first + words > 32 || (rn == 15 && w) {
        return None;
    }
    Some(FpOp::Mem {
        load: l,
        first: first as u8,
        words: words as u8,
        rn,
        mode: if p { 2 } else { 1 },
        add: u,
        wback: w,
        imm: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(hw1: u16, hw2: u16) -> Option<FpOp> {
        decode(((hw1 as u32) << 16) | hw2 as u32)
    }

    #[test]
    fn encodings_from_the_assembler() {
        // vmla.f32 s1, s2, s3 (EE41 0A21); vfnma.f32 s1, s2, s3 (EED1 0A61)
        assert_eq!(d(0xEE41, 0x0A21), Some(FpOp::Arith { op: Arith::Mla, d: 1, n: 2, m: 3 }));
        assert_eq!(d(0xEED1, 0x0A61), Some(FpOp::Arith { op: Arith::Fnma, d: 1, n: 2, m: 3 }));
        // vmov.f32 s1, #1.0 (EEF7 0A00)
        assert_eq!(d(0xEEF7, 0x0A00), Some(FpOp::MovImm { d: 1, imm: 0x3F80_0000 }));
        // vsqrt.f32 s1, s3 (EEF1 0AE1); vcmpe.f32 s1, #0 (EEF5 0AC0)
        assert_eq!(d(0xEEF1, 0x0AE1), Some(FpOp::Unary { op: 3, d: 1, m: 3 }));
        assert_eq!(d(0xEEF5, 0x0AC0), Some(FpOp::Cmp { e: true, d: 1, m: None }));
        // vcvt.u16.f32 s1, s1, #3 (EEFF 0A66); vcvtr.s32.f32 s1, s3 (EEFD 0A61)
        let to16 = Cvt::ToInt { unsigned: true, size: 16, fbits: 3, round_zero: true };
        assert_eq!(d(0xEEFF, 0x0A66), Some(FpOp::Cvt { cvt: to16, d: 1, m: 1 }));
        let r = Cvt::ToInt { unsigned: false, size: 32, fbits: 0, round_zero: false };
        assert_eq!(d(0xEEFD, 0x0A61), Some(FpOp::Cvt { cvt: r, d: 1, m: 3 }));
        // vmrs APSR_nzcv, fpscr (EEF1 FA10); vmov r2, s1 (EE10 2A90)
        assert_eq!(d(0xEEF1, 0xFA10), Some(FpOp::Vmrs { rt: 15 }));
        assert_eq!(d(0xEE10, 0x2A90), Some(FpOp::Core { to_core: true, n: 1, rt: 2 }));
        // vmov d1, r2, r3 (EC43 2B11): s2, s3
        assert_eq!(d(0xEC43, 0x2B11), Some(FpOp::Core2 { to_core: false, m: 2, rt: 2, rt2: 3 }));
        // vmov.32 d1[1], r2 (EE21 2B10): s3; vmov.32 r2, d1[0] (EE11 2B10): s2
        assert_eq!(d(0xEE21, 0x2B10), Some(FpOp::Core { to_core: false, n: 3, rt: 2 }));
        assert_eq!(d(0xEE11, 0x2B10), Some(FpOp::Core { to_core: true, n: 2, rt: 2 }));
        // vpush {d8-d15} (ED2D 8B10) = s16-s31; vldr s1, [r2, #-8] (ED52 0A02)
        let push = FpOp::Mem { load: false, first: 16, words: 16, rn: 13, mode: 2, add: false, wback: true, imm: 0 };
        assert_eq!(d(0xED2D, 0x8B10), Some(push));
        let vldr = FpOp::Mem { load: true, first: 1, words: 1, rn: 2, mode: 0, add: false, wback: false, imm: 8 };
        assert_eq!(d(0xED52, 0x0A02), Some(vldr));
    }

    #[test]
    fn double_precision_and_other_coprocessors_are_undefined() {
        assert_eq!(d(0xEE71, 0x0B20), None); // vadd.f64
        assert_eq!(d(0xEE00, 0x0910), None); // coprocessor 9
        assert_eq!(d(0xED2D, 0x8B11), None); // FSTMDBX (odd word count)
        assert_eq!(d(0xEDD2, 0x0B02), None); // vldr d17 (past D15)
    }
}
