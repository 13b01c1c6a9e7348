//! ELF loading: PT_LOAD segments at their load (physical) addresses into flash or RAM, with
//! a check that the image fits the board, and the symbol table for messages.

use crate::contract::{FLASH_SIZE, RAM_BASE, RAM_WINDOW};
use crate::symbols::Symbols;
use object::elf::{EM_ARM, PT_LOAD, STT_FUNC, STT_NOTYPE, STT_OBJECT};
use object::read::elf::{ElfFile32, FileHeader, ProgramHeader};
use object::{Endianness, Object, ObjectSymbol};

#[derive(Debug)]
pub struct Image {
    /// Flash contents (up to 256 KiB).
    pub flash: Vec<u8>,
    /// RAM contents at reset: (offset from RAM_BASE, bytes).
    pub ram: Vec<(u32, Vec<u8>)>,
    pub symbols: Symbols,
    /// First free RAM byte after the image (`end` symbol or the highest RAM segment end).
    pub heap_base: u32,
    /// Sized data objects in RAM, `(start, end)` sorted: the stack regions of the thread-mode
    /// switch rule (docs/board.md, 'Observation from outside').
    pub ram_objects: Vec<(u32, u32)>,
}

fn kib(n: u32) -> String {
    if n.is_multiple_of(1024) {
        format!("{} KiB", n / 1024)
    } else {
        format!("{} bytes", n)
    }
}

/// The most loadable bytes an image can hold: the biggest memory map (flash and the RAM window).
pub const MAX_LOADABLE: u64 = FLASH_SIZE as u64 + RAM_WINDOW as u64;
/// The largest file read: the memory map's bytes with room for the symbols and debug information
/// an image carries besides them (a debug build is a few times its loadable size). Anything
/// larger is refused from its metadata, before a byte is read.
pub const MAX_FILE: u64 = 64 * MAX_LOADABLE;

/// Read a firmware file with a bounded read: a regular file of at most MAX_FILE bytes, checked
/// from its metadata first (a device such as /dev/zero, a folder, a symlink loop or a huge
/// sparse file is refused at once), then read no further than that bound.
pub fn read_file(path: &std::path::Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read: {}", e))?;
    if meta.is_dir() {
        return Err("is a folder, not an ELF file".into());
    }
    if !meta.is_file() {
        return Err("not a regular file (a device or a pipe): refused".into());
    }
    if meta.len() > MAX_FILE {
        return Err(format!(
            "{} bytes: larger than any image for the board can be ({} loadable, {} file at most): refused",
            meta.len(),
            kib(MAX_LOADABLE as u32),
            kib(MAX_FILE as u32)
        ));
    }
    let f = std::fs::File::open(path).map_err(|e| format!("cannot read: {}", e))?;
    let mut data = Vec::with_capacity(meta.len() as usize);
    // the file may grow after the check: never read past the bound
    f.take(MAX_FILE + 1).read_to_end(&mut data).map_err(|e| format!("cannot read: {}", e))?;
    if data.len() as u64 > MAX_FILE {
        return Err(format!("larger than {}: refused", kib(MAX_FILE as u32)));
    }
    Ok(data)
}

/// Parse an ELF file for this board. Errors are one-line messages a person can act on.
pub fn load(data: &[u8], ram_size: u32) -> Result<Image, String> {
    if data.len() < 4 || &data[..4] != b"\x7fELF" {
        return Err("not an ELF file".into());
    }
    let elf = ElfFile32::<Endianness>::parse(data)
        .map_err(|e| format!("malformed or unsupported ELF (need 32-bit little-endian ARM): {}", e))?;
    let endian = elf.endian();
    let hdr = elf.elf_header();
    if hdr.e_machine(endian) != EM_ARM {
        return Err(format!("ELF is for machine {} , not ARM (40)", hdr.e_machine(endian)));
    }
    if !elf.is_little_endian() {
        return Err("ELF is big-endian; the board is little-endian".into());
    }
    let ram_top = RAM_BASE as u64 + ram_size as u64;
    let mut flash = vec![0u8; FLASH_SIZE as usize];
    let mut ram = Vec::new();
    let mut ram_end = RAM_BASE as u64;
    let mut any = false;
    for ph in elf.elf_program_headers() {
        if ph.p_type(endian) != PT_LOAD {
            continue;
        }
        let paddr = ph.p_paddr(endian) as u64;
        let vaddr = ph.p_vaddr(endian) as u64;
        let memsz = ph.p_memsz(endian) as u64;
        // From the header, before the segment is touched: no segment is larger than the map.
        let filesz_hdr = ph.p_filesz(endian) as u64;
        if filesz_hdr > MAX_LOADABLE || memsz > MAX_LOADABLE {
            return Err(format!(
                "image does not fit: segment at 0x{:08x} is {} bytes, more than the board's {} of flash and RAM",
                paddr,
                filesz_hdr.max(memsz),
                kib(MAX_LOADABLE as u32)
            ));
        }
        let bytes = ph
            .data(endian, data)
            .map_err(|_| format!("malformed ELF: segment at 0x{:08x} lies outside the file", paddr))?;
        let filesz = bytes.len() as u64;
        // Where the segment runs (vaddr) must fit too: this is what proves "fits in N KiB".
        if vaddr >= RAM_BASE as u64 && vaddr < 0x4000_0000 && memsz > 0 {
            if vaddr + memsz > ram_top {
                return Err(format!(
                    "image does not fit: RAM segment 0x{:08x}..0x{:08x} needs {} of RAM but --ram is {}",
                    vaddr,
                    vaddr + memsz,
                    kib((vaddr + memsz - RAM_BASE as u64) as u32),
                    kib(ram_size)
                ));
            }
            ram_end = ram_end.max(vaddr + memsz);
        }
        if filesz == 0 {
            continue;
        }
        any = true;
        if paddr + filesz <= FLASH_SIZE as u64 {
            flash[paddr as usize..(paddr + filesz) as usize].copy_from_slice(bytes);
        } else if paddr >= RAM_BASE as u64 && paddr + filesz <= ram_top {
            ram.push(((paddr - RAM_BASE as u64) as u32, bytes.to_vec()));
        } else if paddr < FLASH_SIZE as u64 || (0x0800_0000..0x1000_0000).contains(&paddr) {
            return Err(format!(
                "image does not fit: segment 0x{:08x}..0x{:08x} is outside the 256 KiB flash at 0x00000000",
                paddr,
                paddr + filesz
            ));
        } else if paddr >= RAM_BASE as u64 && paddr < 0x4000_0000 {
            return Err(format!(
                "image does not fit: segment 0x{:08x}..0x{:08x} is past the end of RAM (--ram {})",
                paddr,
                paddr + filesz,
                kib(ram_size)
            ));
        } else {
            return Err(format!("segment at 0x{:08x} is neither in flash (0x00000000) nor in RAM (0x20000000)", paddr));
        }
    }
    if !any {
        return Err("ELF has no loadable segment".into());
    }
    let mut funcs = Vec::new();
    let mut all = Vec::new();
    let mut ram_objects = Vec::new();
    for sym in elf.symbols() {
        let name = match sym.name() {
            Ok(n) if !n.is_empty() && !n.starts_with('$') => n.to_string(),
            _ => continue,
        };
        let addr = sym.address() as u32;
        let is_func = match sym.flags() {
            object::SymbolFlags::Elf { st_info, .. } => st_info & 0xF == STT_FUNC,
            _ => false,
        };
        if is_func {
            funcs.push((addr & !1, name.clone()));
        }
        // an array defined by a macro can come out of LTO untyped (STT_NOTYPE) but sized:
        // a stack all the same (python/rtoslab/elfsyms.py reads the symbols the same way)
        let is_object = match sym.flags() {
            object::SymbolFlags::Elf { st_info, .. } => matches!(st_info & 0xF, STT_OBJECT | STT_NOTYPE),
            _ => false,
        };
        let size = sym.size();
        if is_object && size > 0 && size < 0x1000_0000 && (RAM_BASE..0x4000_0000).contains(&addr) {
            ram_objects.push((addr, addr.wrapping_add(size as u32)));
        }
        all.push((name, addr));
    }
    let symbols = Symbols::new(funcs, all);
    let heap_base =
        ["end", "_end", "__end__"].iter().find_map(|n| symbols.lookup(n)).unwrap_or(((ram_end + 7) & !7) as u32);
    Ok(Image { flash, ram, symbols, heap_base, ram_objects })
}

/// The board an image was built for: the `.note.rtoslab` note every image of the project carries
/// (bench/boards/common/board_note.c: owner "rtoslab", type 1, the board id). None without one.
pub fn board_note(data: &[u8]) -> Option<String> {
    use object::ObjectSection;
    let elf = ElfFile32::<Endianness>::parse(data).ok()?;
    let note = elf.section_by_name(".note.rtoslab")?.data().ok()?;
    let word = |i: usize| note.get(i..i + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
    let (namesz, descsz, kind) = (word(0)?, word(4)?, word(8)?);
    let desc_at = 12 + namesz.div_ceil(4) * 4;
    if kind != 1 || note.get(12..12 + namesz)? != b"rtoslab\0" {
        return None;
    }
    let desc = note.get(desc_at..desc_at.checked_add(descsz)?)?;
    let id = std::str::from_utf8(desc.split(|b| *b == 0).next()?).ok()?;
    (!id.is_empty()).then(|| id.to_string())
}

/// The architecture the compiler recorded for an image (`.ARM.attributes`, Tag_CPU_arch: ARM
/// IHI 0045 "Addenda to the ABI", 2.4): "armv6-m", "armv7-m", "armv7e-m", another name, or None.
pub fn cpu_arch(data: &[u8]) -> Option<&'static str> {
    use object::ObjectSection;
    let elf = ElfFile32::<Endianness>::parse(data).ok()?;
    let attrs = elf.section_by_name(".ARM.attributes")?.data().ok()?;
    let value = tag_cpu_arch(attrs)?;
    Some(match value {
        11 | 12 => "armv6-m",
        10 => "armv7-m",
        13 => "armv7e-m",
        _ => "another architecture",
    })
}

fn uleb(b: &[u8], i: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *b.get(*i)?;
        *i += 1;
        v |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

fn ntbs(b: &[u8], i: &mut usize) -> Option<()> {
    let len = b.get(*i..)?.iter().position(|c| *c == 0)?;
    *i += len + 1;
    Some(())
}

/// Tag_CPU_arch (6) of the "aeabi" file attributes: tags 4, 5, 67 and odd tags past 32 are
/// strings, 32 a number and a string, the others numbers.
fn tag_cpu_arch(b: &[u8]) -> Option<u64> {
    if b.first() != Some(&b'A') {
        return None;
    }
    let word = |i: usize| b.get(i..i + 4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]) as usize);
    let mut sub = 1;
    while sub < b.len() {
        let len = word(sub)?;
        let end = sub.checked_add(len)?.min(b.len());
        let mut i = sub + 4;
        let vendor_len = b.get(i..end)?.iter().position(|c| *c == 0)?;
        let vendor = &b[i..i + vendor_len];
        i += vendor_len + 1;
        while vendor == b"aeabi" && i < end {
            let start = i;
            let kind = uleb(b, &mut i)?;
            let size = word(i)?;
            i += 4;
            let stop = start.checked_add(size)?.min(end);
            while kind == 1 && i < stop {
                let tag = uleb(b, &mut i)?;
                match tag {
                    4 | 5 | 67 => ntbs(b, &mut i)?,
                    32 => {
                        uleb(b, &mut i)?;
                        ntbs(b, &mut i)?
                    }
                    t if t > 32 && t % 2 == 1 => ntbs(b, &mut i)?,
                    6 => return uleb(b, &mut i),
                    _ => {
                        uleb(b, &mut i)?;
                    }
                }
            }
            i = stop.max(start + 1);
        }
        if len == 0 {
            return None;
        }
        sub = end;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_file_refuses_what_no_image_can_be() {
        assert!(read_file(std::path::Path::new("/dev/zero")).unwrap_err().contains("not a regular file"));
        assert!(read_file(std::path::Path::new("/")).unwrap_err().contains("folder"));
        let dir = std::env::temp_dir().join(format!("rtoslab-vp-elf-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let big = dir.join("big.elf");
        std::fs::File::create(&big).unwrap().set_len(MAX_FILE + 1).unwrap(); // sparse: no bytes written
        assert!(read_file(&big).unwrap_err().contains("refused"));
        let small = dir.join("small.elf");
        std::fs::write(&small, b"\x7fELF").unwrap();
        assert_eq!(read_file(&small).unwrap(), b"\x7fELF");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
