"""The board an image was built for: its `.note.rtoslab` (bench/boards/common/board_note.c:
owner "rtoslab", type 1, the board id), as `rtoslab-vp run` reads it (vp/src/elf.rs)."""
from __future__ import annotations

from pathlib import Path

from .elfimage import with_elf


def board_note(path: str | Path) -> str | None:
    """The board id recorded in the image, or None (an image not built by the project)."""
    def read(elf) -> str | None:
        sec = elf.get_section_by_name(".note.rtoslab")
        if sec is None:
            return None
        data = sec.data()
        if len(data) < 12:
            return None
        namesz, descsz, kind = (int.from_bytes(data[i:i + 4], "little") for i in (0, 4, 8))
        desc_at = 12 + (namesz + 3) // 4 * 4
        if kind != 1 or data[12:12 + namesz] != b"rtoslab\0":
            return None
        desc = data[desc_at:desc_at + descsz].split(b"\0", 1)[0]
        return desc.decode("ascii", "replace") or None
    return with_elf(path, read)
