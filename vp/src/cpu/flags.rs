//! Flag arithmetic: AddWithCarry and the shifter, exactly as the ARMv6-M pseudocode.

/// AddWithCarry(x, y, carry_in) -> (result, carry, overflow).
#[inline(always)]
pub fn add_with_carry(x: u32, y: u32, carry: bool) -> (u32, bool, bool) {
    let sum = x as u64 + y as u64 + carry as u64;
    let r = sum as u32;
    let c = sum >> 32 != 0;
    let v = ((x ^ r) & (y ^ r)) >> 31 != 0;
    (r, c, v)
}

/// LSL by a register amount (bottom byte): returns (result, carry).
#[inline(always)]
pub fn lsl_c(x: u32, n: u32, c: bool) -> (u32, bool) {
    match n {
        0 => (x, c),
        1..=31 => (x << n, (x >> (32 - n)) & 1 != 0),
        32 => (0, x & 1 != 0),
        _ => (0, false),
    }
}

#[inline(always)]
pub fn lsr_c(x: u32, n: u32, c: bool) -> (u32, bool) {
    match n {
        0 => (x, c),
        1..=31 => (x >> n, (x >> (n - 1)) & 1 != 0),
        32 => (0, x >> 31 != 0),
        _ => (0, false),
    }
}

#[inline(always)]
pub fn asr_c(x: u32, n: u32, c: bool) -> (u32, bool) {
    match n {
        0 => (x, c),
        1..=31 => (((x as i32) >> n) as u32, (x >> (n - 1)) & 1 != 0),
        _ => (((x as i32) >> 31) as u32, x >> 31 != 0),
    }
}

#[inline(always)]
pub fn ror_c(x: u32, n: u32, c: bool) -> (u32, bool) {
    if n == 0 {
        return (x, c);
    }
    let r = x.rotate_right(n & 31);
    (r, r >> 31 != 0)
}

/// Evaluate a condition code against N, Z, C, V.
#[inline(always)]
pub fn cond_passed(cond: u8, n: bool, z: bool, c: bool, v: bool) -> bool {
    match cond {
        0 => z,
        1 => !z,
        2 => c,
        3 => !c,
        4 => n,
        5 => !n,
        6 => v,
        7 => !v,
        8 => c && !z,
        9 => !c || z,
        10 => n == v,
        11 => n != v,
        12 => !z && n == v,
        13 => z || n != v,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_with_carry_edges() {
        assert_eq!(add_with_carry(0xFFFF_FFFF, 1, false), (0, true, false));
        assert_eq!(add_with_carry(0x7FFF_FFFF, 0, true), (0x8000_0000, false, true));
        assert_eq!(add_with_carry(0x8000_0000, 0x8000_0000, false), (0, true, true));
        // SUB as a + !b + 1
        assert_eq!(add_with_carry(5, !5, true), (0, true, false));
        assert_eq!(add_with_carry(0, !1, true), (0xFFFF_FFFF, false, false));
    }

    #[test]
    fn shifter_edges() {
        assert_eq!(lsl_c(1, 32, false), (0, true));
        assert_eq!(lsl_c(1, 33, true), (0, false));
        assert_eq!(lsr_c(0x8000_0000, 32, false), (0, true));
        assert_eq!(asr_c(0x8000_0000, 100, false), (0xFFFF_FFFF, true));
        assert_eq!(ror_c(0x8000_0001, 0, false), (0x8000_0001, false));
        assert_eq!(ror_c(0x8000_0001, 32, false), (0x8000_0001, true));
        assert_eq!(ror_c(0x0000_0003, 1, false), (0x8000_0001, true));
    }

    #[test]
    fn conditions() {
        assert!(cond_passed(10, true, false, false, true)); // GE: N == V
        assert!(!cond_passed(12, false, true, false, false)); // GT fails on Z
        assert!(cond_passed(8, false, false, true, false)); // HI
        assert!(cond_passed(14, false, false, false, false)); // AL
    }
}
