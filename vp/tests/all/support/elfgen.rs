//! A minimal ELF32 writer for tests: PT_LOAD segments plus a symbol table.
#![allow(dead_code)]

pub struct Seg {
    pub paddr: u32,
    pub vaddr: u32,
    pub data: Vec<u8>,
    pub memsz: u32,
}

fn u16le(v: &mut Vec<u8>, x: u16) {
    v.extend_from_slice(&x.to_le_bytes());
}
fn u32le(v: &mut Vec<u8>, x: u32) {
    v.extend_from_slice(&x.to_le_bytes());
}

/// Build an ELF; `syms` are (name, value, is_function).
pub fn build(machine: u16, segs: &[Seg], syms: &[(&str, u32, bool)]) -> Vec<u8> {
    let full: Vec<(&str, u32, u32, u8)> =
        syms.iter().map(|(n, v, f)| (*n, *v, 0, if *f { 0x12 } else { 0x10 })).collect();
    build_sized(machine, segs, &full)
}

/// Build an ELF; `syms` are (name, value, size, st_info), e.g. 0x11 = GLOBAL OBJECT.
pub fn build_sized(machine: u16, segs: &[Seg], syms: &[(&str, u32, u32, u8)]) -> Vec<u8> {
    build_with_sections(machine, segs, syms, &[])
}

/// Build an ELF with extra non-allocated sections `(name, sh_type, contents)` after the
/// symbols (a note: type 7; `.ARM.attributes`: 0x7000_0003).
pub fn build_with_sections(
    machine: u16,
    segs: &[Seg],
    syms: &[(&str, u32, u32, u8)],
    extra: &[(&str, u32, Vec<u8>)],
) -> Vec<u8> {
    let phoff = 52u32;
    let mut data_off = phoff + 32 * segs.len() as u32;
    let mut body = Vec::new();
    let mut offsets = Vec::new();
    for s in segs {
        offsets.push(data_off);
        body.extend_from_slice(&s.data);
        data_off += s.data.len() as u32;
    }
    // strtab
    let strtab_off = data_off;
    let mut strtab = vec![0u8];
    let mut name_offs = Vec::new();
    for (n, _, _, _) in syms {
        name_offs.push(strtab.len() as u32);
        strtab.extend_from_slice(n.as_bytes());
        strtab.push(0);
    }
    while !(strtab_off as usize + strtab.len()).is_multiple_of(4) {
        strtab.push(0);
    }
    let symtab_off = strtab_off + strtab.len() as u32;
    let mut symtab = vec![0u8; 16];
    for (i, (_, val, size, info)) in syms.iter().enumerate() {
        u32le(&mut symtab, name_offs[i]);
        u32le(&mut symtab, *val);
        u32le(&mut symtab, *size);
        symtab.push(*info); // 0x12 GLOBAL FUNC, 0x11 GLOBAL OBJECT, 0x10 GLOBAL NOTYPE
        symtab.push(0);
        u16le(&mut symtab, 1);
    }
    let mut shstr = b"\0.strtab\0.symtab\0.shstrtab\0".to_vec();
    let mut extra_names = Vec::new();
    for (name, _, _) in extra {
        extra_names.push(shstr.len() as u32);
        shstr.extend_from_slice(name.as_bytes());
        shstr.push(0);
    }
    while !shstr.len().is_multiple_of(4) {
        shstr.push(0);
    }
    let shstr_off = symtab_off + symtab.len() as u32;
    let mut extra_off = Vec::new();
    let mut extra_body = Vec::new();
    for (_, _, data) in extra {
        extra_off.push(shstr_off + shstr.len() as u32 + extra_body.len() as u32);
        extra_body.extend_from_slice(data);
        while !extra_body.len().is_multiple_of(4) {
            extra_body.push(0);
        }
    }
    let shoff = shstr_off + shstr.len() as u32 + extra_body.len() as u32;

    let mut f = Vec::new();
    f.extend_from_slice(&[0x7f, b'E', b'L', b'F', 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    u16le(&mut f, 2);
    u16le(&mut f, machine);
    u32le(&mut f, 1);
    u32le(&mut f, 0x101);
    u32le(&mut f, phoff);
    u32le(&mut f, shoff);
    u32le(&mut f, 0x0500_0200);
    u16le(&mut f, 52);
    u16le(&mut f, 32);
    u16le(&mut f, segs.len() as u16);
    u16le(&mut f, 40);
    u16le(&mut f, 4 + extra.len() as u16);
    u16le(&mut f, 3);
    for (s, off) in segs.iter().zip(&offsets) {
        u32le(&mut f, 1);
        u32le(&mut f, *off);
        u32le(&mut f, s.vaddr);
        u32le(&mut f, s.paddr);
        u32le(&mut f, s.data.len() as u32);
        u32le(&mut f, s.memsz.max(s.data.len() as u32));
        u32le(&mut f, 7);
        u32le(&mut f, 4);
    }
    f.extend_from_slice(&body);
    f.extend_from_slice(&strtab);
    f.extend_from_slice(&symtab);
    f.extend_from_slice(&shstr);
    f.extend_from_slice(&extra_body);
    // section headers: null, .strtab(1), .symtab(2), .shstrtab(3)
    f.extend_from_slice(&[0u8; 40]);
    for (name, ty, off, size, link, entsize) in [
        (1u32, 3u32, strtab_off, strtab.len() as u32, 0u32, 0u32),
        (9, 2, symtab_off, symtab.len() as u32, 1, 16),
        (17, 3, shstr_off, shstr.len() as u32, 0, 0),
    ] {
        u32le(&mut f, name);
        u32le(&mut f, ty);
        u32le(&mut f, 0);
        u32le(&mut f, 0);
        u32le(&mut f, off);
        u32le(&mut f, size);
        u32le(&mut f, link);
        u32le(&mut f, if ty == 2 { 1 } else { 0 });
        u32le(&mut f, 4);
        u32le(&mut f, entsize);
    }
    for (i, (_, ty, data)) in extra.iter().enumerate() {
        for v in [extra_names[i], *ty, 0, 0, extra_off[i], data.len() as u32, 0, 0, 4, 0] {
            u32le(&mut f, v);
        }
    }
    f
}

/// An ELF holding a flash image (at 0) and the given symbols.
pub fn from_flash(img: &[u8], syms: &[(&str, u32, bool)]) -> Vec<u8> {
    build(40, &[Seg { paddr: 0, vaddr: 0, data: img.to_vec(), memsz: 0 }], syms)
}
