"""The ARMv7-M differential test's generator (vp/difftest/gen_thumb2.py and its groups) emits
every 32-bit encoding the simulator's decoder accepts (issue 23: ADR.W was left out, so its
defect went unseen by 100 000-program runs).

The decoder is the table `PATTERNS` of vp/src/cpu/thumb2/decode.rs, one line
`p(mask, value, constructor)` per encoding, first match wins. Programs of a fixed seed, for
`--arch v7m` and `--arch v7em`, are assembled and disassembled; every 32-bit instruction is
given the first table line it matches, and each line must be hit at least once, except those
listed in UNDEFINED (encodings that are UNDEFINED by definition: the difftest cannot run
them). Coprocessor CP10/CP11 space goes to the FPU decoder first (vp/src/cpu/fpu/decode.rs),
which is a nested match, not a table, so it is not checked line by line here; its groups are
gen_fp.py's.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DIFFTEST = REPO / "vp" / "difftest"
DECODE_RS = REPO / "vp" / "src" / "cpu" / "thumb2" / "decode.rs"
FPU_DECODE_RS = REPO / "vp" / "src" / "cpu" / "fpu" / "decode.rs"

SEED = 23
PROGRAMS = 300  # per arch: every line is hit by ~100 programs; this takes a few seconds

# Table lines (by constructor and comment) the generator must not produce, with the reason.
UNDEFINED = {
    ("f::udf", "UDF.W"): "UDF.W is the permanently undefined encoding: it only faults",
    ("f::udf", "other miscellaneous control"): "undefined encodings of the miscellaneous control space",
}

_LINE = re.compile(r"^\s*p\((0x[0-9A-Fa-f_]+),\s*(0x[0-9A-Fa-f_]+),\s*([\w:]+)\),\s*(?://\s*(.*?))?\s*$")


def patterns() -> list[tuple[int, int, str, str]]:
    """The decoder's table: (mask, value, constructor, comment), in order."""
    src = DECODE_RS.read_text()
    body = src[src.index("const PATTERNS"):]
    body = body[:body.index("];")]
    out = []
    for line in body.splitlines()[1:]:
        if not line.strip() or line.strip().startswith("//"):
            continue
        m = _LINE.match(line)
        assert m, f"decode.rs: a PATTERNS line this test cannot read: {line!r}"
        out.append((int(m[1].replace("_", ""), 16), int(m[2].replace("_", ""), 16), m[3], m[4] or ""))
    return out


def is_fp_space(i: int) -> bool:
    """vp/src/cpu/fpu/decode.rs `is_fp_space`: tried before the table."""
    return i & 0xEC00_0E00 == 0xEC00_0A00 and i >> 28 == 0xE


def emitted(tmp_path: Path, arch: str) -> list[int]:
    """Every 32-bit instruction (hw1 << 16 | hw2) of PROGRAMS programs of `arch`."""
    sys.path.insert(0, str(DIFFTEST))
    try:
        import gen
    finally:
        sys.path.remove(str(DIFFTEST))
    progs = [gen.generate(SEED, i, arch=arch) for i in range(PROGRAMS)]
    src, obj = tmp_path / f"{arch}.S", tmp_path / f"{arch}.o"
    src.write_text(gen.batch_asm(progs, arch=arch))
    subprocess.run(["arm-none-eabi-as", "-o", str(obj), str(src)], check=True, capture_output=True)
    dis = subprocess.run(["arm-none-eabi-objdump", "-d", str(obj)], check=True, capture_output=True,
                         text=True).stdout
    # "  1c:\tf20f 0520 \taddw\tr5, pc, #32": literal pools and tables are shown as .word/.byte
    return [int(a, 16) << 16 | int(b, 16)
            for a, b in re.findall(r"^\s*[0-9a-f]+:\s+([0-9a-f]{4}) ([0-9a-f]{4})\s", dis, re.M)]


def test_the_table_and_the_fp_space_are_what_this_test_reads():
    table = patterns()
    assert len(table) >= 50, "PATTERNS not found in decode.rs"
    keys = {(c, cm) for _, _, c, cm in table}
    stale = [k for k in UNDEFINED if k not in keys]
    assert not stale, f"UNDEFINED names lines no longer in PATTERNS: {stale}"
    assert "i & 0xEC00_0E00 == 0xEC00_0A00 && i >> 28 == 0xE" in FPU_DECODE_RS.read_text()
    assert "crate::cpu::fpu::decode::decode(i).is_some()" in DECODE_RS.read_text()


@pytest.mark.skipif(not shutil.which("arm-none-eabi-as") or not shutil.which("arm-none-eabi-objdump"),
                    reason="arm-none-eabi binutils not installed")
def test_generator_emits_every_decoder_encoding(tmp_path):
    table = patterns()
    hits = [0] * len(table)
    for arch in ("v7m", "v7em"):
        for i in emitted(tmp_path, arch):
            if is_fp_space(i):
                continue
            for k, (mask, value, _, _) in enumerate(table):
                if i & mask == value:
                    hits[k] += 1
                    break
    missing = [f"p(0x{m:08X}, 0x{v:08X}, {c}) // {cm}" for (m, v, c, cm), h in zip(table, hits)
               if h == 0 and (c, cm) not in UNDEFINED]
    assert not missing, ("decoder encodings the difftest generator never emits (add them to "
                         "vp/difftest/gen_thumb2.py or gen_dsp.py):\n" + "\n".join(missing))
    generated = [(c, cm) for (_, _, c, cm), h in zip(table, hits) if h and (c, cm) in UNDEFINED]
    assert not generated, f"lines listed as UNDEFINED are generated: {generated}"
