#!/usr/bin/env python3
"""Where each board id of the registry appears in the project's code outside its own folder.

A board is one folder (bench/boards/<id>/): nothing else should have to name it. This lists,
per board id, the tracked files whose code (comments and docstrings left out; documentation,
tests and generated files not counted) names it, and exits 1 if one is named in more than
MAX_OTHER_FILES files.

    python3 scripts/board_ids_in_code.py [--verbose]
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_OTHER_FILES = 2
# not code: documentation, tests (they name the boards they test), generated files
SKIP = re.compile(r"(\.md$|^python/tests/|^vp/tests/|^vp/difftest/|^kernel/tests/(?!run\.sh)|"
                  r"^bench/boards/common/lab_regs\.h$|^vp/src/contract\.rs$|^vp/src/board_table\.rs$|"
                  r"^python/rtoslab/contract\.py$|^bench/include/metric_ids\.h$)")
HASH_COMMENT = (".py", ".sh", ".cmake", ".toml", ".txt", "Makefile", ".ld", ".inc", ".j2", "run")
C_COMMENT = (".c", ".h", ".S", ".rs", ".ld")


def code_of(path: Path) -> str:
    """The file without its comments (and, in Python, without its docstrings)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    name = path.name
    if name.endswith(C_COMMENT):
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        text = re.sub(r"//[^\n]*", " ", text)
        if name.endswith(".S"):
            text = re.sub(r"@[^\n]*", " ", text)
    elif name.endswith(HASH_COMMENT) or "." not in name:
        if name.endswith(".py"):
            text = re.sub(r'"""(.*?)"""', " ", text, flags=re.S)
        text = re.sub(r"(^|\s)#[^\n]*", " ", text)
    return text


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT / "python" / "rtoslab"))
    import boards  # the registry, as a script (standard library only)
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    code = {f: code_of(ROOT / f) for f in files if not SKIP.search(f) and (ROOT / f).is_file()}
    worst = 0
    for bid in boards.registry(ROOT):
        if bid == "host":  # a word of the language too; its board is the posix port's
            continue
        pat = re.compile(r"(?<![\w-])" + re.escape(bid) + r"(?![\w-])")
        where = sorted(f for f, text in code.items()
                       if not f.startswith(f"bench/boards/{bid}/") and pat.search(text))
        worst = max(worst, len(where))
        if len(where) > MAX_OTHER_FILES or "--verbose" in argv:
            print(f"{bid}: {len(where)} other files: {' '.join(where)}")
    if worst > MAX_OTHER_FILES:
        print(f"a board id is named in more than {MAX_OTHER_FILES} files outside its folder")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
