//! Function symbols from the ELF symbol table, for naming a PC in error messages.

#[derive(Clone, Debug, Default)]
pub struct Symbols {
    /// (address with the Thumb bit cleared, name), sorted by address.
    funcs: Vec<(u32, String)>,
    /// Every named symbol, for lookups by name (e.g. `end`).
    all: Vec<(String, u32)>,
}

impl Symbols {
    pub fn new(mut funcs: Vec<(u32, String)>, all: Vec<(String, u32)>) -> Symbols {
        funcs.sort();
        Symbols { funcs, all }
    }

    /// `name+0xOFF` of the nearest function at or below `pc`, or None.
    pub fn describe(&self, pc: u32) -> Option<String> {
        let i = self.funcs.partition_point(|(a, _)| *a <= pc);
        let (a, name) = self.funcs.get(i.checked_sub(1)?)?;
        let off = pc - a;
        Some(if off == 0 { name.clone() } else { format!("{}+0x{:x}", name, off) })
    }

    /// The function symbols `(address, name)`, sorted by address.
    pub fn funcs(&self) -> &[(u32, String)] {
        &self.funcs
    }

    pub fn lookup(&self, name: &str) -> Option<u32> {
        self.all.iter().find(|(n, _)| n == name).map(|(_, a)| *a)
    }
}
