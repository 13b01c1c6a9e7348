//! IEEE 754 single (and half) precision arithmetic as the FPv4-SP computes it (ARMv7-M ARM,
//! A2.5 "Floating-point data types and arithmetic"): exact results rounded once in the
//! FPSCR's rounding mode, tininess detected before rounding, flush-to-zero (FZ) of inputs
//! and results, default NaN (DN), the alternative half-precision format (AHP), and the
//! cumulative exception flags. Every operation computes the exact value as an integer
//! significand and a power of two, then `round` packs it: no host floating point.

/// FPSCR cumulative exception flags.
pub const IOC: u32 = 1;
pub const DZC: u32 = 1 << 1;
pub const OFC: u32 = 1 << 2;
pub const UFC: u32 = 1 << 3;
pub const IXC: u32 = 1 << 4;
pub const IDC: u32 = 1 << 7;

/// The default NaN (FPSCR.DN, invalid operations).
pub const DEFAULT_NAN: u32 = 0x7FC0_0000;
const DEFAULT_NAN16: u32 = 0x7E00;

/// Rounding modes, FPSCR.RMode (bits 23:22).
pub const RN: u8 = 0;
pub const RP: u8 = 1;
pub const RM: u8 = 2;
pub const RZ: u8 = 3;

/// The FPSCR controls an operation runs under, and the flags it raised.
#[derive(Clone, Copy, Debug)]
pub struct Env {
    pub mode: u8,
    pub fz: bool,
    pub dn: bool,
    pub ahp: bool,
    pub flags: u32,
}

impl Env {
    pub fn from_fpscr(fpscr: u32) -> Env {
        Env {
            mode: ((fpscr >> 22) & 3) as u8,
            fz: fpscr & (1 << 24) != 0,
            dn: fpscr & (1 << 25) != 0,
            ahp: fpscr & (1 << 26) != 0,
            flags: 0,
        }
    }
}

/// A binary format: fraction bits, exponent bias, the all-ones exponent.
#[derive(Clone, Copy)]
struct Fmt {
    frac: u32,
    bias: i32,
    max_exp: u64,
}
const F32: Fmt = Fmt { frac: 23, bias: 127, max_exp: 255 };
const F16: Fmt = Fmt { frac: 10, bias: 15, max_exp: 31 };

/// An unpacked operand.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Val {
    Zero,
    /// m * 2^e, m != 0
    Fin(u128, i32),
    Inf,
    Nan,
}

pub fn is_nan(x: u32) -> bool {
    x & 0x7FFF_FFFF > 0x7F80_0000
}
fn is_snan(x: u32) -> bool {
    is_nan(x) && x & 0x0040_0000 == 0
}
fn sign(x: u32) -> bool {
    x >> 31 != 0
}

/// Unpack a single: a denormal input is flushed to zero under FZ (IDC).
fn unpack(x: u32, env: &mut Env) -> Val {
    let (exp, frac) = ((x >> 23) & 0xFF, x & 0x7F_FFFF);
    match exp {
        0 if frac == 0 => Val::Zero,
        0 if env.fz => {
            env.flags |= IDC;
            Val::Zero
        }
        0 => Val::Fin(frac as u128, -149),
        255 if frac == 0 => Val::Inf,
        255 => Val::Nan,
        _ => Val::Fin((frac | 0x80_0000) as u128, exp as i32 - 150),
    }
}

/// NaN operands in priority order (first signalling, then first quiet): Some(result).
fn process_nans(ops: &[u32], env: &mut Env) -> Option<u32> {
    let pick = ops.iter().find(|x| is_snan(**x)).or_else(|| ops.iter().find(|x| is_nan(**x)))?;
    if ops.iter().any(|x| is_snan(*x)) {
        env.flags |= IOC;
    }
    Some(if env.dn { DEFAULT_NAN } else { pick | 0x0040_0000 })
}

fn invalid(env: &mut Env) -> u32 {
    env.flags |= IOC;
    DEFAULT_NAN
}

fn zero(neg: bool) -> u32 {
    (neg as u32) << 31
}
fn inf(neg: bool) -> u32 {
    zero(neg) | 0x7F80_0000
}

/// Round m * 2^e (m != 0) to `f` under `env`; `flush`: FZ applies to this result (not to
/// half precision). Returns the magnitude and sign bits of the result.
fn round(f: Fmt, neg: bool, m: u128, e: i32, env: &mut Env, flush: bool) -> u32 {
    let sign_bit = (neg as u32) << (f.frac + if f.frac == 23 { 8 } else { 5 });
    let exp = e + 127 - m.leading_zeros() as i32;
    let emin = 1 - f.bias;
    if flush && env.fz && exp < emin {
        env.flags |= UFC;
        return sign_bit;
    }
    let q = (exp - f.frac as i32).max(emin - f.frac as i32);
    let (mant, inexact) = shift_round(neg, m, q - e, env.mode);
    if exp < emin && inexact {
        env.flags |= UFC;
    }
    let base = if exp >= emin { ((exp + f.bias - 1) as u64) << f.frac } else { 0 };
    let bits = base + mant as u64;
    let alt = f.frac == 10 && env.ahp;
    if alt && bits > 0x7FFF {
        env.flags |= IOC;
        return sign_bit | 0x7FFF;
    }
    if !alt && bits >= f.max_exp << f.frac {
        env.flags |= OFC | IXC;
        let to_inf = match env.mode {
            RN => true,
            RP => !neg,
            RM => neg,
            _ => false,
        };
        let top = f.max_exp << f.frac;
        return sign_bit | (if to_inf { top } else { top - 1 }) as u32;
    }
    if inexact {
        env.flags |= IXC;
    }
    sign_bit | bits as u32
}

/// m >> sh rounded by `mode` (sh <= 0 shifts left, exactly); returns (result, inexact).
fn shift_round(neg: bool, m: u128, sh: i32, mode: u8) -> (u128, bool) {
    if sh <= 0 {
        return (m << (-sh) as u32, false);
    }
    let (kept, above_half, half, inexact) = if sh >= 128 {
        let top = m >> 127 != 0;
        (0, sh == 128 && top && m != 1 << 127, sh == 128 && m == 1 << 127, true)
    } else {
        let rem = m & ((1u128 << sh) - 1);
        let h = 1u128 << (sh - 1);
        (m >> sh, rem > h, rem == h, rem != 0)
    };
    let up = match mode {
        RN => above_half || (half && kept & 1 == 1),
        RP => inexact && !neg,
        RM => inexact && neg,
        _ => false,
    };
    (kept + up as u128, inexact)
}

/// The exact sum of two signed values m * 2^e (significands below 2^50): (neg, m, e), m may
/// be 0. Far-apart operands keep the smaller one as a sticky bit below the guard bits.
fn add_exact(a: (bool, u128, i32), b: (bool, u128, i32)) -> (bool, u128, i32) {
    let (a, b) = if a.1 == 0 || (b.1 != 0 && b.2 > a.2) { (b, a) } else { (a, b) };
    if b.1 == 0 {
        return a;
    }
    let d = (a.2 - b.2) as u32;
    let (ma, mb, e) = if d <= 64 {
        (a.1 << d, b.1, b.2)
    } else {
        let k = d - 64;
        let mb = if k >= 128 { 1 } else { (b.1 >> k) | (b.1 & ((1u128 << k) - 1) != 0) as u128 };
        (a.1 << 64, mb, a.2 - 64)
    };
    if a.0 == b.0 {
        (a.0, ma + mb, e)
    } else if ma >= mb {
        (a.0, ma - mb, e)
    } else {
        (b.0, mb - ma, e)
    }
}

/// An exact nonzero-or-zero sum rounded: an exact zero is +0, or -0 when rounding down.
fn round_sum(s: (bool, u128, i32), env: &mut Env) -> u32 {
    if s.1 == 0 {
        return zero(env.mode == RM);
    }
    round(F32, s.0, s.1, s.2, env, true)
}

pub fn add(a: u32, b: u32, env: &mut Env) -> u32 {
    let (va, vb) = (unpack(a, env), unpack(b, env));
    if let Some(n) = process_nans(&[a, b], env) {
        return n;
    }
    let (sa, sb) = (sign(a), sign(b));
    match (va, vb) {
        (Val::Inf, Val::Inf) if sa != sb => invalid(env),
        (Val::Inf, _) => inf(sa),
        (_, Val::Inf) => inf(sb),
        (Val::Zero, Val::Zero) if sa == sb => zero(sa),
        _ => round_sum(add_exact(parts(sa, va), parts(sb, vb)), env),
    }
}

pub fn sub(a: u32, b: u32, env: &mut Env) -> u32 {
    if is_nan(b) {
        // a NaN subtrahend keeps its own sign: only numbers are negated
        unpack(a, env); // (Input Denormal)
        return process_nans(&[a, b], env).unwrap_or(DEFAULT_NAN);
    }
    add(a, b ^ 0x8000_0000, env)
}

fn parts(s: bool, v: Val) -> (bool, u128, i32) {
    match v {
        Val::Fin(m, e) => (s, m, e),
        _ => (s, 0, 0),
    }
}

pub fn mul(a: u32, b: u32, env: &mut Env) -> u32 {
    let (va, vb) = (unpack(a, env), unpack(b, env));
    if let Some(n) = process_nans(&[a, b], env) {
        return n;
    }
    let s = sign(a) ^ sign(b);
    match (va, vb) {
        (Val::Inf, Val::Zero) | (Val::Zero, Val::Inf) => invalid(env),
        (Val::Inf, _) | (_, Val::Inf) => inf(s),
        (Val::Zero, _) | (_, Val::Zero) => zero(s),
        (Val::Fin(ma, ea), Val::Fin(mb, eb)) => round(F32, s, ma * mb, ea + eb, env, true),
        _ => unreachable!(),
    }
}

pub fn div(a: u32, b: u32, env: &mut Env) -> u32 {
    let (va, vb) = (unpack(a, env), unpack(b, env));
    if let Some(n) = process_nans(&[a, b], env) {
        return n;
    }
    let s = sign(a) ^ sign(b);
    match (va, vb) {
        (Val::Inf, Val::Inf) | (Val::Zero, Val::Zero) => invalid(env),
        (Val::Inf, _) | (_, Val::Zero) => {
            if va != Val::Inf {
                env.flags |= DZC;
            }
            inf(s)
        }
        (Val::Zero, _) | (_, Val::Inf) => zero(s),
        (Val::Fin(ma, ea), Val::Fin(mb, eb)) => {
            let n = ma << 64;
            let (q, r) = (n / mb, n % mb);
            round(F32, s, (q << 1) | (r != 0) as u128, ea - eb - 65, env, true)
        }
        _ => unreachable!(),
    }
}

pub fn sqrt(a: u32, env: &mut Env) -> u32 {
    let va = unpack(a, env);
    if let Some(n) = process_nans(&[a], env) {
        return n;
    }
    match va {
        Val::Zero => zero(sign(a)),
        _ if sign(a) => invalid(env),
        Val::Inf => inf(false),
        Val::Fin(m, e) => {
            let (m, e) = if e & 1 != 0 { (m << 1, e - 1) } else { (m, e) };
            let n = m << 100;
            let r = isqrt(n);
            round(F32, false, (r << 1) | (r * r != n) as u128, (e - 100) / 2 - 1, env, true)
        }
        Val::Nan => unreachable!(),
    }
}

/// Integer square root (floor) of n < 2^126.
fn isqrt(n: u128) -> u128 {
    let mut r = (n as f64).sqrt() as u128;
    for _ in 0..4 {
        if r == 0 {
            break;
        }
        r = (r + n / r) / 2;
    }
    while r * r > n {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= n {
        r += 1;
    }
    r
}

/// Fused multiply-add: addend + a * b, rounded once (VFMA and its negated forms).
pub fn fma(addend: u32, a: u32, b: u32, env: &mut Env) -> u32 {
    let (vc, va, vb) = (unpack(addend, env), unpack(a, env), unpack(b, env));
    let inf_zero = matches!((va, vb), (Val::Inf, Val::Zero) | (Val::Zero, Val::Inf));
    if is_nan(addend) && !is_snan(addend) && inf_zero && !is_nan(a) && !is_nan(b) {
        // (inf * 0) + qNaN: invalid, the default NaN (as QEMU's Arm targets and ARMv8)
        return invalid(env);
    }
    if let Some(n) = process_nans(&[addend, a, b], env) {
        return n;
    }
    let (sp, sc) = (sign(a) ^ sign(b), sign(addend));
    let p_inf = va == Val::Inf || vb == Val::Inf;
    match () {
        _ if inf_zero => invalid(env),
        _ if p_inf && vc == Val::Inf && sp != sc => invalid(env),
        _ if p_inf => inf(sp),
        _ if vc == Val::Inf => inf(sc),
        _ => {
            let p = match (va, vb) {
                (Val::Fin(ma, ea), Val::Fin(mb, eb)) => (sp, ma * mb, ea + eb),
                _ => (sp, 0, 0),
            };
            if p.1 == 0 && vc == Val::Zero {
                return if sp == sc { zero(sc) } else { zero(env.mode == RM) };
            }
            round_sum(add_exact(p, parts(sc, vc)), env)
        }
    }
}

/// VCMP/VCMPE: the FPSCR N, Z, C, V of the comparison (bits 31:28). `quiet_nans_signal`:
/// VCMPE, which raises Invalid Operation for quiet NaNs too.
pub fn compare(a: u32, b: u32, quiet_nans_signal: bool, env: &mut Env) -> u32 {
    let (va, vb) = (unpack(a, env), unpack(b, env));
    if is_nan(a) || is_nan(b) {
        if quiet_nans_signal || is_snan(a) || is_snan(b) {
            env.flags |= IOC;
        }
        return 0b0011 << 28;
    }
    let key = |s: bool, v: Val| -> (i8, i32, u128) {
        // a total order on the non-NaN values: (class, exponent, significand), negated for sign
        match v {
            Val::Zero => (0, 0, 0),
            Val::Inf => (if s { -2 } else { 2 }, 0, 0),
            Val::Fin(m, e) => {
                let top = e + 127 - m.leading_zeros() as i32;
                let norm = m << (m.leading_zeros());
                if s {
                    (-1, -top, u128::MAX - norm)
                } else {
                    (1, top, norm)
                }
            }
            Val::Nan => unreachable!(),
        }
    };
    match key(sign(a), va).cmp(&key(sign(b), vb)) {
        std::cmp::Ordering::Equal => 0b0110 << 28,
        std::cmp::Ordering::Less => 0b1000 << 28,
        std::cmp::Ordering::Greater => 0b0010 << 28,
    }
}

/// Float to integer or fixed point (`fbits` fraction bits) of `size` bits (16 or 32),
/// saturating with Invalid Operation; `round_zero`: VCVT (not VCVTR, which uses FPSCR's
/// mode). The result is sign- or zero-extended to 32 bits.
pub fn to_fixed(a: u32, size: u32, fbits: u32, unsigned: bool, round_zero: bool, env: &mut Env) -> u32 {
    let va = unpack(a, env);
    let neg = sign(a);
    let (lo, hi): (i64, i64) =
        if unsigned { (0, (1i64 << size) - 1) } else { (-(1i64 << (size - 1)), (1i64 << (size - 1)) - 1) };
    let mode = if round_zero { RZ } else { env.mode };
    let (v, inexact) = match va {
        Val::Nan => {
            env.flags |= IOC;
            return 0;
        }
        Val::Zero => (0i64, false),
        Val::Inf => (if neg { i64::MIN } else { i64::MAX }, false),
        Val::Fin(m, e) => {
            let sh = -(e + fbits as i32);
            if sh < -40 {
                (if neg { i64::MIN } else { i64::MAX }, false)
            } else {
                let (mag, ix) = shift_round(neg, m, sh, mode);
                let mag = mag.min(1 << 62) as i64;
                (if neg { -mag } else { mag }, ix)
            }
        }
    };
    let r = if v < lo || v > hi {
        env.flags |= IOC;
        v.clamp(lo, hi)
    } else {
        if inexact {
            env.flags |= IXC;
        }
        v
    };
    let bits = r as u32;
    match (size, unsigned) {
        (16, true) => bits & 0xFFFF,
        (16, false) => bits as u16 as i16 as i32 as u32,
        _ => bits,
    }
}

/// Integer or fixed point (`fbits` fraction bits; `size` 16 or 32 bits of `x`) to float in
/// FPSCR's rounding mode.
pub fn from_fixed(x: u32, size: u32, fbits: u32, unsigned: bool, env: &mut Env) -> u32 {
    let v: i64 = match (size, unsigned) {
        (16, true) => (x & 0xFFFF) as i64,
        (16, false) => x as u16 as i16 as i64,
        (_, true) => x as i64,
        _ => x as i32 as i64,
    };
    if v == 0 {
        return 0;
    }
    round(F32, v < 0, v.unsigned_abs() as u128, -(fbits as i32), env, true)
}

/// Half to single (VCVTB/VCVTT.F32.F16): exact; AHP has no infinities or NaNs.
pub fn half_to_single(h: u32, env: &mut Env) -> u32 {
    let (neg, exp, frac) = ((h >> 15) & 1 != 0, (h >> 10) & 0x1F, h & 0x3FF);
    if exp == 31 && !env.ahp {
        if frac == 0 {
            return inf(neg);
        }
        if frac & 0x200 == 0 {
            env.flags |= IOC;
        }
        return if env.dn { DEFAULT_NAN } else { zero(neg) | 0x7FC0_0000 | (frac << 13) };
    }
    let (m, e) = match exp {
        0 if frac == 0 => return zero(neg),
        0 => (frac, -24),
        _ => (frac | 0x400, exp as i32 - 25),
    };
    round(F32, neg, m as u128, e, env, true)
}

/// Single to half (VCVTB/VCVTT.F16.F32), in FPSCR's rounding mode; under AHP NaNs become
/// a zero of their sign and infinities and overflows the largest value, with Invalid
/// Operation (as QEMU's Arm targets).
pub fn single_to_half(a: u32, env: &mut Env) -> u32 {
    let va = unpack(a, env);
    let neg = sign(a);
    let s = (neg as u32) << 15;
    match va {
        Val::Nan if env.ahp => {
            env.flags |= IOC;
            s
        }
        Val::Nan => {
            if is_snan(a) {
                env.flags |= IOC;
            }
            if env.dn {
                DEFAULT_NAN16
            } else {
                s | 0x7E00 | ((a >> 13) & 0x3FF)
            }
        }
        Val::Inf if env.ahp => {
            env.flags |= IOC;
            s | 0x7FFF
        }
        Val::Inf => s | 0x7C00,
        Val::Zero => s,
        Val::Fin(m, e) => round(F16, neg, m, e, env, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(mode: u8) -> Env {
        Env { mode, fz: false, dn: false, ahp: false, flags: 0 }
    }
    fn f(x: f32) -> u32 {
        x.to_bits()
    }

    #[test]
    fn round_to_nearest_matches_the_host() {
        let vals = [1.0f32, -2.5, std::f32::consts::PI, 1e-40, 6e-39, 1e30, -7.25e-3, 0.1, 16777217.0, 1e-45];
        for &a in &vals {
            for &b in &vals {
                let mut e = env(RN);
                assert_eq!(add(f(a), f(b), &mut e), f(a + b), "{a} + {b}");
                assert_eq!(sub(f(a), f(b), &mut e), f(a - b), "{a} - {b}");
                assert_eq!(mul(f(a), f(b), &mut e), f(a * b), "{a} * {b}");
                assert_eq!(div(f(a), f(b), &mut e), f(a / b), "{a} / {b}");
                assert_eq!(fma(f(a), f(b), f(a), &mut e), f(b.mul_add(a, a)), "fma {a} {b}");
            }
            let mut e = env(RN);
            assert_eq!(sqrt(f(a.abs()), &mut e), f(a.abs().sqrt()), "sqrt {a}");
        }
    }

    #[test]
    fn flags_and_directed_modes() {
        let mut e = env(RN);
        assert_eq!(div(f(1.0), f(0.0), &mut e), f(f32::INFINITY));
        assert_eq!(e.flags, DZC);
        let mut e = env(RZ);
        assert_eq!(mul(f(f32::MAX), f(2.0), &mut e), f(f32::MAX));
        assert_eq!(e.flags, OFC | IXC);
        let mut e = env(RP);
        assert_eq!(add(f(1.0), f(1e-30), &mut e), f(1.0) + 1);
        assert_eq!(e.flags, IXC);
        let mut e = env(RM);
        assert_eq!(sub(f(1.0), f(1.0), &mut e), f(-0.0));
        // tininess before rounding: the smallest normal reached only by rounding underflows
        let mut e = env(RN);
        let below = f(f32::MIN_POSITIVE) - 1; // largest denormal
        let r = mul(below | 1, f(1.0 + f32::EPSILON), &mut e);
        assert_eq!(e.flags & UFC, UFC, "{r:08x}");
        let mut e = Env { fz: true, ..env(RN) };
        assert_eq!(add(1, 0, &mut e), 0);
        assert_eq!(e.flags, IDC);
        let mut e = env(RN);
        assert_eq!(sqrt(f(-1.0), &mut e), DEFAULT_NAN);
        assert_eq!(e.flags, IOC);
    }

    #[test]
    fn conversions() {
        let mut e = env(RN);
        assert_eq!(to_fixed(f(-2.5), 32, 0, false, false, &mut e), -2i32 as u32); // ties to even
        assert_eq!(to_fixed(f(-2.5), 32, 0, false, true, &mut e), -2i32 as u32);
        assert_eq!(to_fixed(f(3e9), 32, 0, false, true, &mut e), i32::MAX as u32);
        assert_eq!(e.flags, IXC | IOC);
        let mut e = env(RN);
        assert_eq!(to_fixed(f(1.75), 16, 3, true, true, &mut e), 14);
        assert_eq!(from_fixed(14, 16, 3, true, &mut e), f(1.75));
        assert_eq!(from_fixed(0xFFFF_FFFF, 32, 0, true, &mut e), f(4294967295.0));
        assert_eq!(single_to_half(f(1.0), &mut e), 0x3C00);
        assert_eq!(single_to_half(f(65520.0), &mut e), 0x7C00);
        assert_eq!(half_to_single(0x0001, &mut e), f(5.9604645e-8));
        let mut e = Env { ahp: true, ..env(RN) };
        assert_eq!(single_to_half(f(1e6), &mut e), 0x7FFF);
        assert_eq!(half_to_single(0x7FFF, &mut e), f(131008.0));
        let mut e = env(RN);
        assert_eq!(compare(f(1.0), f(2.0), false, &mut e), 0x8000_0000);
        assert_eq!(compare(f(-0.0), f(0.0), false, &mut e), 0x6000_0000);
        assert_eq!(compare(f(-1.0), f(-2.0), false, &mut e), 0x2000_0000);
        assert_eq!(compare(DEFAULT_NAN, f(0.0), false, &mut e), 0x3000_0000);
        assert_eq!(e.flags, 0);
    }
}
