"""Opening an ELF file: one place for the checks and the one-line errors (missing file, a
folder, not an ELF, malformed), for every reader of images (size report, symbols)."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from .errors import BadInput

R = TypeVar("R")


def with_elf(path: str | Path, read: Callable[..., R]) -> R:
    """Open `path` and return read(elf) (a pyelftools ELFFile); any failure is a BadInput."""
    from elftools.common.exceptions import ELFError
    from elftools.elf.elffile import ELFFile

    path = Path(path)
    if not path.exists():
        raise BadInput(f"{path}: no such file")
    if path.is_dir():
        raise BadInput(f"{path}: is a folder, not an ELF file")
    try:
        f = open(path, "rb")
    except OSError as e:
        raise BadInput(f"{path}: cannot read: {e.strerror}") from None
    with f:
        if f.read(4) != b"\x7fELF":
            raise BadInput(f"{path}: not an ELF file")
        f.seek(0)
        try:
            return read(ELFFile(f))
        except BadInput:
            raise
        except (ELFError, ValueError, KeyError, IndexError, OSError, AssertionError) as e:
            raise BadInput(f"{path}: malformed ELF file ({e})") from None
        except Exception as e:  # pyelftools raises many things on truncated files
            raise BadInput(f"{path}: malformed ELF file ({type(e).__name__}: {e})") from None
