"""The shared parts of the program generator (gen.py): the memory region a program may
touch, interesting operand values, the emitted items, and the emission helpers every
instruction group uses (the generator's state lives in Emitter)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

REGION_START = 0x20000000
SCRATCH_END = 0x20000400  # base-register loads/stores stay in [REGION_START, SCRATCH_END)
REGION_END = 0x20001000
SP_MIN = 0x200004C0  # lowest SP a program may reach (room below for a 9-word push in a callee)
SP_MAX = 0x20000C00  # highest SP: SP + 1020 (LDR/STR [SP,#imm8*4]) stays in the region

MRS_SYSM = [0, 1, 2, 3, 5, 6, 7, 8, 9, 16, 20]  # APSR..IEPSR, MSP, PSP, PRIMASK, CONTROL
COND_NAMES = ["eq", "ne", "cs", "cc", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt", "gt", "le"]

SPECIAL = [0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 33, 63, 64, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF,
           0x8000, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFF,
           0xFFFFFFFE, 0xFFFFFF80, 0xFFFF8000, 0x7FFFFFFE, 0x00FF00FF, 0xFF00FF00]


# operand pairs at the carry/overflow edges (with either carry-in)
EDGE_PAIRS = [(0x7FFFFFFF, 0), (0x7FFFFFFF, 1), (0x7FFFFFFE, 1), (0x80000000, 0), (0x80000000, 1),
              (0x80000000, 0xFFFFFFFF), (0x80000001, 1), (0xFFFFFFFF, 0), (0xFFFFFFFF, 1),
              (0xFFFFFFFF, 0xFFFFFFFF), (0, 0), (0, 0xFFFFFFFF), (0x7FFFFFFF, 0x7FFFFFFF),
              (0x80000000, 0x80000000), (0x40000000, 0x3FFFFFFF), (0x7FFFFFFF, 0x80000000)]


def rand_value(rng: random.Random) -> int:
    r = rng.random()
    if r < 0.40:
        return rng.getrandbits(32)
    if r < 0.60:
        return rng.choice(SPECIAL)
    if r < 0.75:
        return rng.randrange(0, 256)
    if r < 0.85:
        return (-rng.randrange(1, 256)) & 0xFFFFFFFF
    if r < 0.95:  # a few bits set
        v = 0
        for _ in range(rng.randrange(1, 4)):
            v |= 1 << rng.randrange(32)
        return v
    return (rng.choice(SPECIAL) + rng.randrange(-2, 3)) & 0xFFFFFFFF


def shift_amount_value(rng: random.Random) -> int:
    """A register value whose low byte is an interesting shift amount (bits 31:8 random)."""
    amt = rng.choice([0, 0, 1, 2, 7, 8, 15, 16, 31, 31, 32, 32, 32, 33, 33, 34, 63, 64, 127, 128,
                      200, 255, rng.randrange(256)])
    return (rng.getrandbits(24) << 8) | amt if rng.random() < 0.5 else amt


@dataclass
class Item:
    text: str
    size: int  # bytes


@dataclass
class Program:
    idx: int
    mem_seed: int
    init_sp: int
    asm: str
    kinds: dict = field(default_factory=dict)  # group kind -> count (coverage)



class Emitter:
    """The generator's state and how it emits instructions and literal loads."""

    def __init__(self, seed: int, idx: int, exclude: frozenset = frozenset(), attempt: int = 0,
                 stream: str = ""):
        # attempt > 0: the earlier attempt did not fit the literal-pool reach; retry smaller
        key = f"rtoslab-difftest:{seed}:{idx}" + (f":{attempt}" if attempt else "") + (f":{stream}" if stream else "")
        self.rng = random.Random(key)
        self.arch = "v6m"
        self.scale = 0.6 ** attempt
        self.exclude = exclude
        self.idx = idx
        self.lits: dict[str, str] = {}  # literal text -> label
        self.kinds: dict[str, int] = {}
        self.nfuncs = 0
        # conservative range of SP values the body can reach
        self.sp_lo = self.sp_hi = 0
        self.frame_words = 0
        self.in_leaf = False
        self.maybe_psp = False  # the body may have switched the thread to the process stack
        self.nlabels = 0

    # ---- emission helpers -------------------------------------------------------------
    def hw(self, v: int) -> Item:
        assert 0 <= v <= 0xFFFF and (v >> 11) not in (0x1D, 0x1E, 0x1F), hex(v)
        return Item(f".inst.n 0x{v:04x}", 2)

    def w32(self, v: int) -> Item:
        return Item(f".inst.w 0x{v:08x}", 4)

    def lit(self, rt: int, value) -> Item:
        key = f"0x{value:08x}" if isinstance(value, int) else value
        label = self.lits.get(key)
        if label is None:
            label = f".Ll{self.idx}_{len(self.lits)}"
            self.lits[key] = label
        return Item(f"ldr r{rt}, {label}", 2)

    def lo(self) -> int:
        return self.rng.randrange(8)

    def count(self, kind: str):
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
