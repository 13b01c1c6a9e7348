"""Where the repository is, and the manifest of a run: toolchain, flags, git revision."""
from __future__ import annotations

import json
import os
import platform
import shlex
import subprocess
from pathlib import Path


def repo_root() -> Path:
    env = os.environ.get("RTOSLAB_ROOT")
    if env:
        return Path(env).resolve()
    for start in (Path.cwd(), Path(__file__).resolve().parent):
        for d in (start, *start.parents):
            if (d / "CMakeLists.txt").exists() and (d / "python" / "pyproject.toml").exists():
                return d
    return Path(__file__).resolve().parents[2]


def _run(cmd, cwd=None) -> str | None:
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None
    if p.returncode != 0:
        return None
    return p.stdout.strip()


def git_revision(root: Path | None = None) -> str:
    root = root or repo_root()
    rev = _run(["git", "rev-parse", "HEAD"], cwd=root)
    if not rev:
        return "unknown"
    dirty = _run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root)
    return rev + ("-dirty" if dirty else "")


def git_commit_time(root: Path | None = None) -> str | None:
    return _run(["git", "log", "-1", "--format=%cI"], cwd=root or repo_root())


def compiler_version(cc: str = "arm-none-eabi-gcc") -> str:
    out = _run([cc, "--version"])
    if not out:
        return f"{cc} (not found)"
    first = out.splitlines()[0]
    # "arm-none-eabi-gcc (15:12.2.rel1-1) 12.2.1 20221205" -> "arm-none-eabi-gcc 12.2.1"
    # "cc (Debian 12.2.0-14+deb12u1) 12.2.0" -> "gcc 12.2.0"
    import re
    name = Path(cc).name
    if name in ("cc", "c99") and "gcc" in out.lower():
        name = "gcc"
    m = re.search(r"\)\s+(\d+\.\d+(?:\.\d+)?)", first) or re.search(r"\b(\d+\.\d+(?:\.\d+)?)\b", first)
    if "clang" in first.lower():
        m = re.search(r"version\s+(\d+\.\d+(?:\.\d+)?)", first) or m
        name = "clang"
    return f"{name} {m.group(1)}" if m else first


def compile_flags(build_dir: Path, hint: str = "bench") -> list[str]:
    """The flags of one compilation unit of the benchmark, from compile_commands.json."""
    cc = build_dir / "compile_commands.json"
    try:
        cmds = json.loads(cc.read_text())
    except (OSError, ValueError):
        return _ninja_flags(build_dir, hint)
    pick = next((c for c in cmds if f"/{hint}/" in c.get("file", "")), cmds[0] if cmds else None)
    if not pick:
        return []
    args = pick.get("arguments") or shlex.split(pick.get("command", ""))
    keep = []
    skip = False
    for a in args[1:]:
        if skip:
            skip = False
            continue
        if a in ("-o", "-c", "-MF", "-MT", "-MQ"):
            skip = a != "-c"
            continue
        if a.startswith(("-I", "-D", "-MD", "-MF", "-o")) or a.endswith((".c", ".S", ".s", ".o")):
            continue
        keep.append(a)
    return keep


def _ninja_flags(build_dir: Path, hint: str) -> list[str]:
    """FLAGS of the first compile statement of a `hint` source in build.ninja."""
    try:
        lines = (build_dir / "build.ninja").read_text(errors="replace").splitlines()
    except OSError:
        return []
    inside = False
    first = None
    for line in lines:
        if line.startswith("build "):
            inside = "C_COMPILER" in line and ".c" in line
            matched = f"/{hint}/" in line
            continue
        if inside and line.strip().startswith("FLAGS = "):
            flags = line.strip()[len("FLAGS = "):].split()
            if matched:
                return flags
            first = first or flags
    return first or []


def cmake_compiler(build_dir: Path) -> str | None:
    try:
        for line in (build_dir / "CMakeCache.txt").read_text(errors="replace").splitlines():
            if line.startswith("CMAKE_C_COMPILER:"):
                return line.split("=", 1)[1].strip() or None
    except OSError:
        return None
    return None


def toolchain_string(cc: str, flags: list[str]) -> str:
    return " ".join([compiler_version(cc), *flags]).strip()


def host_info() -> dict:
    return {"python": platform.python_version(), "machine": platform.machine(),
            "system": platform.system(), "release": platform.release()}


def producer_flags(elf_path) -> list[str]:
    """The compiler flags recorded in the image itself (DWARF DW_AT_producer of a C unit of the
    benchmark, else the first C unit): works for any image, however it was built."""
    try:
        from elftools.elf.elffile import ELFFile
        with open(elf_path, "rb") as f:
            elf = ELFFile(f)
            if not elf.has_dwarf_info():
                return []
            best = None
            for cu in elf.get_dwarf_info().iter_CUs():
                top = cu.get_top_DIE()
                prod = top.attributes.get("DW_AT_producer")
                if prod is None:
                    continue
                text = prod.value.decode("utf-8", "replace") if isinstance(prod.value, bytes) else str(prod.value)
                if not text.startswith("GNU C") and "clang" not in text:
                    continue
                name = str(top.attributes["DW_AT_name"].value) if "DW_AT_name" in top.attributes else ""
                if best is None or "bench" in name:
                    best = text
                    if "bench" in name:
                        break
    except Exception:
        return []
    if not best:
        return []
    # "GNU C11 12.2.1 20221205 -mcpu=cortex-m0 -mthumb -g -Os ..." -> the flags
    return [t for t in best.split() if t.startswith("-")]


def flag_exceptions(elf_path, flags: list[str], reasons: tuple[tuple[str, str], ...] = (),
                    root: Path | None = None) -> list[dict]:
    """The C units of an image compiled with other flags than `flags` (the image's own, from
    producer_flags), from their DWARF producers: [{file, added, removed, reason}], so that a
    result file records every file's exact flags. Units outside the project's build (the C
    library: its path is not under `root`, default the repository) are not the build's to record.
    `reasons`: (path suffix, why), the port manifest's `flag_exceptions`; an exception the
    manifest does not explain says so."""
    base = set(flags)
    root = str(root or repo_root())
    out: dict[str, dict] = {}
    try:
        from elftools.elf.elffile import ELFFile
        with open(elf_path, "rb") as f:
            elf = ELFFile(f)
            if not elf.has_dwarf_info():
                return []
            for cu in elf.get_dwarf_info().iter_CUs():
                top = cu.get_top_DIE()
                prod, name = top.attributes.get("DW_AT_producer"), top.attributes.get("DW_AT_name")
                if prod is None or name is None:
                    continue
                text = prod.value.decode("utf-8", "replace") if isinstance(prod.value, bytes) else str(prod.value)
                file = name.value.decode("utf-8", "replace") if isinstance(name.value, bytes) else str(name.value)
                comp_dir = top.attributes.get("DW_AT_comp_dir")
                if not file.startswith("/") and comp_dir is not None:     # relative to where it was compiled
                    d = comp_dir.value
                    file = str(Path(d.decode("utf-8", "replace") if isinstance(d, bytes) else str(d)) / file)
                if not text.startswith("GNU C") or not file.startswith(root.rstrip("/") + "/"):
                    continue
                own = {t for t in text.split() if t.startswith("-")}
                added, removed = sorted(own - base), sorted(base - own)
                if added or removed:
                    rel = file[len(root):].lstrip("/")
                    why = next((r for suffix, r in reasons if rel.endswith(suffix)),
                               "not explained by the port's manifest (flag_exceptions)")
                    out[rel] = {"file": rel, "added": added, "removed": removed, "reason": why}
    except Exception:
        return []
    return sorted(out.values(), key=lambda e: e["file"])
