//! Numbers as the command line and the stimulus spec write them.

/// Decimal or 0x-hex, with optional `_` separators.
pub fn parse_number(s: &str) -> Option<u64> {
    let s = s.trim().replace('_', "");
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else {
        s.parse().ok()
    }
}

/// `4K`, `16k`, `1M`, `65536`, `0x4000`.
pub fn parse_size(s: &str) -> Option<u64> {
    let t = s.trim();
    let (num, mul) = match t.chars().last()? {
        'k' | 'K' => (&t[..t.len() - 1], 1024),
        'm' | 'M' => (&t[..t.len() - 1], 1024 * 1024),
        _ => (t, 1),
    };
    parse_number(num)?.checked_mul(mul)
}
