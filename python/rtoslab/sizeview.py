"""The `rtoslab size` table: Tables 10 (flash) and 11 (RAM) of seed 000, per component."""
from __future__ import annotations

from rich import box
from rich.console import Console
from rich.table import Table

from .size import COMPONENTS, LABELS, SizeReport


def render(rep: SizeReport, out: Console, top: int = 4) -> None:
    t = Table(box=box.SIMPLE_HEAD, title=f"{rep.path}: flash and RAM by component (bytes)",
              title_justify="left")
    for c, j in (("component", "left"), ("flash", "right"), ("text", "right"), ("rodata", "right"),
                 ("data (init)", "right"), ("RAM", "right"), ("data", "right"), ("bss", "right"),
                 ("largest symbols", "left")):
        t.add_column(c, justify=j, no_wrap=c != "largest symbols")
    for c in COMPONENTS:
        f, r = rep.flash.get(c, 0), rep.ram.get(c, 0)
        if not f and not r:
            continue
        b = rep.breakdown.get(c, {})
        syms = ", ".join(f"{s.size} {s.name}" for s in rep.top(c, top))
        t.add_row(LABELS[c], str(f), str(b.get("text", 0)), str(b.get("rodata", 0)), str(b.get("data", 0)),
                  str(r), str(b.get("data", 0)), str(b.get("bss", 0)), syms)
    t.add_section()
    t.add_row("total", str(rep.flash_total), "", "", "", str(rep.ram_total), "", "", "")
    out.print(t)
    for n in rep.notes:
        out.print(f"note: {n}")
