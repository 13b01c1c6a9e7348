"""The CMake + Ninja driver: configure a board's build folder once, build the images asked for.

Firmware: cmake -G Ninja -S <repo> -B <repo>/build/fw/<board>
          -DCMAKE_TOOLCHAIN_FILE=<repo>/cmake/arm-none-eabi.cmake -DRTOSLAB_BOARD=<board>
          ninja -C <that folder> <target>
Host (posix): cmake -G Ninja -S <repo>/bench/ports/posix -B <repo>/build/host (its own project;
          the image is build/host/bench-posix)
--samples N adds -DRTOSLAB_BENCH_SAMPLES=N, in a folder of its own (<folder>-sN).
--profile speed adds -DRTOSLAB_PROFILE=speed (-O2, LTO: docs/methodology.md, "Build profiles"),
in a folder of its own (build/fw/<board>-speed[-sN]); size, the default, is the folder as always.
The output of every step goes to <build folder>/rtoslab-build.log.
"""
from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from contextlib import contextmanager
from pathlib import Path

from .boards import PROFILES  # noqa: F401  (cmake/firmware_flags.cmake, RTOSLAB_PROFILE)
from .errors import RtoslabError

BUILD_FAILED = 4
# In every build folder: held (fcntl.flock) while cmake or ninja work there, so that runs at the
# same time take turns instead of writing the same objects at once.
LOCK_NAME = ".rtoslab-build.lock"
DEFAULT_PROFILE = "size"


class BuildError(RtoslabError):
    status = BUILD_FAILED


def host_project(root: Path) -> Path:
    """The host's CMake project: the folder of the host-kind port (the registry)."""
    from . import ports
    hosts = [p.directory for p in ports.registry(root).values() if p.kind == "host"]
    if not hosts:
        raise BuildError("no port of kind host in bench/ports")
    return hosts[0]


# Presets (`rtoslab run --preset NAME`): a seed's experiments as it defined them, a build of its
# own (-DRTOSLAB_PRESET=NAME, folder <folder>-NAME) with the seed's sample count.
PRESETS = {"seed004": 4096}   # seed 004: its pulse and callback sets, 4096 samples (t_seed004.c)


def build_dir(root: Path, board: str, samples: int | None = None, profile: str = DEFAULT_PROFILE,
              preset: str | None = None) -> Path:
    if board == "host":
        base = root / "build" / "host"
    else:
        base = root / "build" / "fw" / board
    if profile != DEFAULT_PROFILE:
        base = base.with_name(base.name + f"-{profile}")
    if samples:
        base = base.with_name(base.name + f"-s{samples}")
    if preset:
        base = base.with_name(base.name + f"-{preset}")
    return base


def _need(tool: str) -> str:
    path = shutil.which(tool)
    if not path:
        raise BuildError(f"'{tool}' not found on PATH: install it (see docs/cli.md)")
    return path


def _log_run(cmd: list[str], log: Path, what: str) -> None:
    with open(log, "a", encoding="utf-8") as f:
        f.write("$ " + " ".join(cmd) + "\n")
        f.flush()
        try:
            p = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, text=True)
        except OSError as e:
            raise BuildError(f"{what}: cannot run {cmd[0]}: {e.strerror}") from None
    if p.returncode != 0:
        tail = _last_error(log)
        raise BuildError(f"{what} failed (exit {p.returncode}){': ' + tail if tail else ''}; log: {log}")


def _last_error(log: Path) -> str:
    try:
        lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    for line in reversed(lines):
        low = line.lower()
        if "error" in low and not line.startswith("$ "):
            return line.strip()[:200]
    return ""


def configure(root: Path, board: str, samples: int | None = None, force: bool = False,
              profile: str = DEFAULT_PROFILE, preset: str | None = None) -> Path:
    _need("cmake")
    _need("ninja")
    bdir = build_dir(root, board, samples, profile, preset)
    bdir.mkdir(parents=True, exist_ok=True)
    log = bdir / "rtoslab-build.log"
    if not force and (bdir / "build.ninja").exists() and (bdir / "CMakeCache.txt").exists():
        return bdir
    src = host_project(root) if board == "host" else root
    if not (src / "CMakeLists.txt").exists():
        raise BuildError(f"no CMake project at {src}")
    cmd = ["cmake", "-G", "Ninja", "-S", str(src), "-B", str(bdir),
           f"-DRTOSLAB_BOARD={board}", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"]
    if board != "host":
        _need("arm-none-eabi-gcc")
        cmd.append(f"-DCMAKE_TOOLCHAIN_FILE={root / 'cmake' / 'arm-none-eabi.cmake'}")
    if samples:
        cmd.append(f"-DRTOSLAB_BENCH_SAMPLES={samples}")
    if profile != DEFAULT_PROFILE:
        cmd.append(f"-DRTOSLAB_PROFILE={profile}")
    if preset:
        cmd.append(f"-DRTOSLAB_PRESET={preset}")
    if not force:
        log.write_text("", encoding="utf-8")
    _log_run(cmd, log, f"cmake configure for board {board}")
    return bdir


def target_name(kind: str, rtos: str) -> str:
    return f"{kind}-{rtos}"


def find_image(bdir: Path, target: str) -> Path | None:
    for cand in (bdir / "bench" / f"{target}.elf", bdir / f"{target}.elf",
                 bdir / "bench" / target, bdir / target):
        if cand.is_file():
            return cand
    for cand in sorted(bdir.rglob(f"{target}.elf")):
        return cand
    for cand in sorted(bdir.rglob(target)):
        if cand.is_file() and os.access(cand, os.X_OK):
            return cand
    return None


@contextmanager
def locked(bdir: Path):
    """The build folder's lock, held for the block (released when the process ends, however)."""
    bdir.mkdir(parents=True, exist_ok=True)
    with open(bdir / LOCK_NAME, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        yield


def build(root: Path, board: str, target: str, samples: int | None = None,
          profile: str = DEFAULT_PROFILE, preset: str | None = None) -> Path:
    """Configure if needed, build one target, return the image path (the folder locked)."""
    with locked(build_dir(root, board, samples, profile, preset)):
        return _build(root, board, target, samples, profile, preset)


def _build(root: Path, board: str, target: str, samples: int | None, profile: str, preset: str | None) -> Path:
    bdir = configure(root, board, samples, profile=profile, preset=preset)
    log = bdir / "rtoslab-build.log"
    try:
        _log_run(["ninja", "-C", str(bdir), target], log, f"build of {target} for {board}")
    except BuildError as e:
        if "unknown target" not in str(e):
            raise
        # a port added since the folder was configured: configure again, once
        configure(root, board, samples, force=True, profile=profile, preset=preset)
        _log_run(["ninja", "-C", str(bdir), target], log, f"build of {target} for {board}")
    img = find_image(bdir, target)
    if img is None:
        raise BuildError(f"built {target} for {board} but found no image in {bdir}")
    return img


def has_target(root: Path, board: str, target: str, samples: int | None = None,
               profile: str = DEFAULT_PROFILE, preset: str | None = None) -> bool:
    with locked(build_dir(root, board, samples, profile, preset)):
        bdir = configure(root, board, samples, profile=profile, preset=preset)
    try:
        p = subprocess.run(["ninja", "-C", str(bdir), "-t", "targets", "all"],
                           capture_output=True, text=True)
    except OSError:
        return False
    return any(line.split(":")[0] in (target, f"{target}.elf") or line.split(":")[0].endswith("/" + target)
               or line.split(":")[0].endswith("/" + target + ".elf")
               for line in p.stdout.splitlines())
