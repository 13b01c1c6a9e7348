"""The board registry: one directory per board, `bench/boards/<id>/board.toml`.

Everything that lists or describes boards (the `--board` choices, the build's core flags,
linker script and kernel calibration, the runners' command lines, the simulator's profile,
the test scripts' board lists) reads this registry; adding a board is adding one directory.
The fields are documented in docs/porting.md ("A board"); the cores a board may name are
spec/contracts.toml's `[[core]]` table.

Standard library only, so that CMake and the shell scripts can run it as a script:

    python3 python/rtoslab/boards.py cmake [ID]   CMake `set()` lines for the build (cmake/);
                                                  no ID: the default board
    python3 python/rtoslab/boards.py list [--runner KIND] [--arch A] [--has CAP]... [--tested]
                                                  the ids, one a line (the test scripts)
    python3 python/rtoslab/boards.py default      the default board's id
"""
from __future__ import annotations

import sys
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

try:
    from .errors import BadInput
except ImportError:  # run as a script (CMake, shell): no package around it
    class BadInput(ValueError):  # type: ignore[no-redef]
        status = 2

ROOT = Path(__file__).resolve().parents[2]
PROFILES = ("size", "speed")   # cmake/firmware_flags.cmake, RTOSLAB_PROFILE (a board's sleep_trim)


def _root() -> Path:
    """The repository: RTOSLAB_ROOT or the one around the working folder (manifest.py) in the
    package, this file's own otherwise."""
    try:
        from .manifest import repo_root
    except ImportError:
        return ROOT
    return repo_root()
RUNNERS = ("vp", "qemu", "host", "serial")
LAYERS = ("lab", "mps2", "own", "none")  # lab: common/lab_board.c; mps2: common/mps2_board.c;
#                                          own: board.c in the folder; none: no firmware
ACCELERATORS = ("none", "prefetch", "art")  # the simulator's flash models (docs/board.md)
FLASH_LINE_BYTES = (4, 8, 16)
PREFETCH_BLOCKS = range(2, 5)
CAPABILITIES = ("probe", "stimulus", "fpu", "dsp", "dwt")


@dataclass(frozen=True)
class Core:
    """One entry of spec/contracts.toml's core table."""
    name: str
    arch: str              # armv6-m, armv7-m, armv7-a, host
    flags: tuple[str, ...]  # the compiler's core flags
    simulated: bool        # the simulator (vp/) has it
    fpu: bool
    dsp: bool
    dwt: bool


@dataclass(frozen=True)
class Energy:
    """A board's energy model ([energy] of board.toml; docs/board.md, "Energy"): typical supply
    currents of the part named, by the core's state, and the wake-up from deep sleep."""
    part: str
    source: str
    run_flash_ua: float   # running, code from flash (every run cycle is charged at this)
    run_ram_ua: float     # running, code from RAM (reported; the simulator does not split)
    sleep_ua: float       # WFI/WFE, SLEEPDEEP clear (Sleep)
    deep_ua: float        # WFI/WFE with SLEEPDEEP set (Stop)
    deep_wakeup_us: float  # Stop to run: the cycles the core spends waking, charged at run current
    checked: tuple[str, ...] = ()

    def wakeup_cycles(self, clock_hz: int) -> int:
        """The wake-up in core cycles, rounded up (vp/src/energy.rs, the same rule)."""
        return -(-round(self.deep_wakeup_us * 1000) * clock_hz // 1_000_000_000)

    def break_even_cycles(self, clock_hz: int) -> int:
        """The shortest idle for which Stop costs less than Sleep: the wake-up (at run current)
        plus the rest in Stop must undercut the whole idle in Sleep,
        W*run + (T-W)*deep <= T*sleep, so T >= W*(run-deep)/(sleep-deep)."""
        w = self.wakeup_cycles(clock_hz)
        return -(-w * round(self.run_flash_ua - self.deep_ua) // max(1, round(self.sleep_ua - self.deep_ua)))

    def nA(self) -> dict:
        """The currents in nA (integers: the simulator's table)."""
        return {k: round(getattr(self, k) * 1000) for k in ("run_flash_ua", "run_ram_ua", "sleep_ua", "deep_ua")}


ENERGY_FIELDS = ("part", "source", "run_flash_uA", "run_ram_uA", "sleep_uA", "deep_uA", "deep_wakeup_us",
                 "checked")


def _energy(path: Path, t) -> Energy | None:
    if t is None:
        return None
    if not isinstance(t, dict):
        _fail(path, "[energy] must be a table")
    for k in t:
        if k not in ENERGY_FIELDS:
            _fail(path, f"[energy] {k}: known are {', '.join(ENERGY_FIELDS)}")
    num = {}
    for k in ("run_flash_uA", "run_ram_uA", "sleep_uA", "deep_uA", "deep_wakeup_us"):
        v = t.get(k)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not v > 0:
            _fail(path, f"[energy] {k} must be a positive number, not {v!r}")
        num[k] = float(v)
    if not num["deep_uA"] < num["sleep_uA"] < num["run_flash_uA"]:
        _fail(path, "[energy] needs deep_uA < sleep_uA < run_flash_uA")
    checked = t.get("checked", [])
    if not isinstance(checked, list) or any(c not in ENERGY_FIELDS for c in checked):
        _fail(path, "[energy] checked must list field names")
    return Energy(_get(path, t, "part", str), _get(path, t, "source", str), num["run_flash_uA"],
                  num["run_ram_uA"], num["sleep_uA"], num["deep_uA"], num["deep_wakeup_us"], tuple(checked))


@dataclass(frozen=True)
class Board:
    id: str
    summary: str
    core: Core
    clock_hz: int          # nominal; the firmware's @run line wins
    cycle_exact: bool
    timing: str            # how far the numbers can be trusted
    runner: str            # vp, qemu, host, serial
    layer: str             # lab, mps2, own, none
    directory: Path
    order: int = 100
    default: bool = False  # the board of a command that names none (one board says so)
    tested: bool = False   # `make test` runs the kernel tests and the behaviour checks on it
    flash_kib: int = 0
    ram_kib: int = 0
    wait_states: int = 0
    accelerator: str = "none"
    line_bytes: int = 4        # bytes the flash reads per access
    prefetch_blocks: int = 2   # lines the prefetch buffer holds
    capabilities: frozenset = frozenset()
    qemu: dict = field(default_factory=dict)     # [runner] of a QEMU board: machine, icount, ...
    kernel: dict = field(default_factory=dict)   # the rtoslab kernel's calibration
    energy: Energy | None = None                 # the energy model ([energy]); None: no figures

    @property
    def arch(self) -> str:
        return self.core.arch

    def has(self, capability: str) -> bool:
        return capability in self.capabilities

    def simulator_args(self) -> list[str]:
        """The simulator's options that give it this board (the same for a board it was built
        with and one it has never seen): its core and memory system; the id only names it in
        the trace's start event and the VCD header."""
        return ["--board", self.id, "--core", self.core.name, "--clock-hz", str(self.clock_hz)] + \
            self.energy_args() + [
                "--flash-wait-states", str(self.wait_states), "--accelerator", self.accelerator,
                "--flash-line-bytes", str(self.line_bytes), "--prefetch-blocks", str(self.prefetch_blocks),
                "--ram", f"{self.ram_kib}K"]

    def energy_args(self) -> list[str]:
        """The simulator's --energy-model of the board's [energy] (none: no option)."""
        if self.energy is None:
            return []
        n = self.energy.nA()
        return ["--energy-model", f"run={n['run_flash_ua']},ram={n['run_ram_ua']},sleep={n['sleep_ua']},"
                                  f"deep={n['deep_ua']},wakeup_ns={round(self.energy.deep_wakeup_us * 1000)}"]

    def profile(self) -> dict:
        """What a result file records of the board."""
        return {
            "id": self.id, "runner": self.runner, "clock_hz": self.clock_hz,
            "cycle_exact": self.cycle_exact, "timing": self.timing, "core": self.core.name,
            "flash_wait_states": self.wait_states, "accelerator": self.accelerator,
            "flash_line_bytes": self.line_bytes, "prefetch_blocks": self.prefetch_blocks,
            "arch": self.arch, "notes": self.summary,
        }


def _fail(path: Path, what: str):
    raise BadInput(f"{path}: {what}")


@lru_cache(maxsize=None)
def cores(root: Path | None = None) -> dict[str, Core]:
    spec = (root or _root()) / "spec" / "contracts.toml"
    try:
        data = tomllib.loads(spec.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise BadInput(f"{spec}: {e}") from None
    out = {}
    for c in data.get("core", []):
        out[c["name"]] = Core(c["name"], c["arch"], tuple(c["flags"]), bool(c["simulated"]),
                              bool(c["fpu"]), bool(c["dsp"]), bool(c["dwt"]))
    return out


def _get(path: Path, table: dict, key: str, kind, default=None, choices=None):
    """table[key], checked: present (unless a default is given), of `kind`, among `choices`."""
    if key not in table:
        if default is None:
            _fail(path, f"missing {key}")
        return default
    value = table[key]
    if kind is int and isinstance(value, bool) or not isinstance(value, kind):
        _fail(path, f"{key} must be {kind.__name__}, not {value!r}")
    if kind is int and value < 0:
        _fail(path, f"{key} must not be negative")
    if choices is not None and value not in choices:
        _fail(path, f"{key} must be one of {', '.join(choices)}, not {value!r}")
    return value


def _get_in(path: Path, table: dict, key: str, default: int, allowed) -> int:
    """An integer field among `allowed` (a tuple or a range), else one line naming it."""
    value = _get(path, table, key, int, default=default)
    if value not in allowed:
        shown = f"{allowed.start}..{allowed.stop - 1}" if isinstance(allowed, range) else ", ".join(map(str, allowed))
        _fail(path, f"{key} must be one of {shown}, not {value!r}")
    return value


def _sleep_trim(path: Path, table: dict) -> dict:
    """[kernel] sleep_trim = { size = N, speed = M }: k_sleep's call and return paths differ by
    profile (the flash's wait states under -Os and -O2), so each profile has its calibration."""
    if set(table) != set(PROFILES):
        _fail(path, f"[kernel] sleep_trim: a table must have exactly the keys {', '.join(PROFILES)}, "
                    f"not {', '.join(sorted(table)) or 'none'}")
    return {p: _get(path, table, p, int) for p in PROFILES}


def load(path: Path, root: Path | None = None) -> Board:
    """One board.toml, every field checked (one line naming the file and the field if not)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        _fail(path, f"not a valid board file: {e}")
    known = cores(root)
    core_name = _get(path, data, "core", str, choices=tuple(known))
    core = known[core_name]
    tables = {}
    for name in ("timing", "memory", "capabilities", "runner", "build", "kernel", "tests"):
        t = data.get(name, {})
        if not isinstance(t, dict):
            _fail(path, f"[{name}] must be a table")
        tables[name] = t
    timing, memory, caps, runner = tables["timing"], tables["memory"], tables["capabilities"], tables["runner"]
    kind = _get(path, runner, "kind", str, choices=RUNNERS)
    firmware = kind != "host"
    capabilities = {c for c in ("fpu", "dsp", "dwt") if getattr(core, c)}
    for c, on in caps.items():
        if c not in CAPABILITIES or not isinstance(on, bool):
            _fail(path, f"[capabilities] {c}: known are {', '.join(CAPABILITIES)}, each true or false")
        (capabilities.add if on else capabilities.discard)(c)
    qemu = {}
    if kind == "qemu":
        qemu = {"machine": _get(path, runner, "machine", str), "icount": _get(path, runner, "icount", str),
                "semihosting": _get(path, runner, "semihosting", str),
                "uart_console": _get(path, runner, "uart_console", bool)}
    if kind == "vp" and not core.simulated:
        _fail(path, f"core {core.name} is not one the simulator has")
    kernel = {}
    for k in tables["kernel"]:
        if k not in ("timer_lead", "sleep_trim"):
            _fail(path, f"[kernel] {k}: known are timer_lead, sleep_trim")
        if k == "sleep_trim" and isinstance(tables["kernel"][k], dict):
            kernel[k] = _sleep_trim(path, tables["kernel"][k])
        else:
            kernel[k] = _get(path, tables["kernel"], k, int)
    return Board(
        id=path.parent.name,
        summary=_get(path, data, "summary", str),
        core=core,
        clock_hz=_get(path, data, "clock_hz", int),
        cycle_exact=_get(path, timing, "cycle_exact", bool),
        timing=_get(path, timing, "class", str),
        runner=kind,
        layer=_get(path, tables["build"], "layer", str, choices=LAYERS),
        directory=path.parent,
        order=_get(path, data, "order", int, default=100),
        default=_get(path, data, "default", bool, default=False),
        tested=_get(path, tables["tests"], "make_test", bool, default=False),
        flash_kib=_get(path, memory, "flash_kib", int) if firmware else 0,
        ram_kib=_get(path, memory, "ram_kib", int) if firmware else 0,
        wait_states=_get(path, memory, "flash_wait_states", int, default=0),
        accelerator=_get(path, memory, "accelerator", str, default="none", choices=ACCELERATORS),
        line_bytes=_get_in(path, memory, "flash_line_bytes", 4, FLASH_LINE_BYTES),
        prefetch_blocks=_get_in(path, memory, "prefetch_blocks", 2, PREFETCH_BLOCKS),
        capabilities=frozenset(capabilities),
        qemu=qemu,
        kernel=kernel,
        energy=_energy(path, data.get("energy")),
    )


@lru_cache(maxsize=None)
def _scan(root: Path | None = None) -> tuple[dict[str, Board], dict[str, str]]:
    """Every board folder: the boards that load, and the reason for each that does not (a
    broken board.toml disables its board, not every command)."""
    good, bad = {}, {}
    root = root or _root()
    base = root / "bench" / "boards"
    for path in sorted(base.glob("*/board.toml")):
        try:
            good[path.parent.name] = load(path, root)
        except BadInput as e:
            bad[path.parent.name] = str(e)
    ordered = dict(sorted(good.items(), key=lambda kv: (kv[1].order, kv[0])))
    return ordered, bad


def registry(root: Path | None = None) -> dict[str, Board]:
    return _scan(root)[0]


def default_id(root: Path | None = None) -> str:
    """The board whose board.toml says `default = true` (else the first of the registry)."""
    good = registry(root)
    return next((b.id for b in good.values() if b.default), next(iter(good), ""))


def broken(root: Path | None = None) -> dict[str, str]:
    """Board id -> why its board.toml does not load."""
    return _scan(root)[1]


def get(board_id: str, root: Path | None = None) -> Board:
    good, bad = _scan(root)
    if board_id in good:
        return good[board_id]
    if board_id in bad:
        raise BadInput(f"board '{board_id}' is disabled: {bad[board_id]}")
    raise BadInput(f"unknown board id '{board_id}' (known: {', '.join(good)}){did_you_mean(board_id, good)}")


def did_you_mean(word: str, known) -> str:
    import difflib
    close = difflib.get_close_matches(word, list(known), n=1)
    return f"; did you mean '{close[0]}'?" if close else ""


# ---- the build's view (CMake) ---------------------------------------------------------------

def cmake_lines(board: Board) -> list[str]:
    """What cmake/firmware_flags.cmake and bench/boards/CMakeLists.txt take from the board."""
    def q(s) -> str:
        return '"' + str(s).replace("\\", "\\\\").replace('"', '\\"') + '"'
    defs = []
    if "timer_lead" in board.kernel:
        defs.append(f"K_CONFIG_TIMER_LEAD={board.kernel['timer_lead']}u")
    # sleep_trim: one figure, or one a profile (cmake/firmware_flags.cmake's RTOSLAB_PROFILE
    # picks it: bench/boards/CMakeLists.txt)
    trim = board.kernel.get("sleep_trim")
    trims = trim if isinstance(trim, dict) else {p: trim for p in PROFILES} if trim is not None else {}
    return [
        f"# from {board.directory / 'board.toml'} (python/rtoslab/boards.py)",
        f"set(RTOSLAB_BOARD {board.id})",
        f"set(RTOSLAB_BOARD_CORE {q(board.core.name)})",
        f"set(RTOSLAB_CPU_FLAGS {' '.join(board.core.flags)})",
        f"set(RTOSLAB_BOARD_ARCH {board.arch.replace('-', '')})",
        f"set(RTOSLAB_BOARD_LAYER {board.layer})",
        f"set(RTOSLAB_BOARD_CLOCK_HZ {board.clock_hz})",
        f"set(RTOSLAB_BOARD_FLASH_KIB {board.flash_kib})",
        f"set(RTOSLAB_BOARD_RAM_KIB {board.ram_kib})",
        f"set(RTOSLAB_BOARD_FPU {1 if board.has('fpu') else 0})",
        f"set(RTOSLAB_BOARD_STIMULUS {1 if board.has('stimulus') else 0})",
        f"set(RTOSLAB_BOARD_KERNEL_DEFS {' '.join(defs)})",
        *(f"set(RTOSLAB_BOARD_SLEEP_TRIM_{p.upper()} {n})" for p, n in trims.items()),
        # the deep sleep a kernel may use (board_config.h; 0: the board has no energy model)
        f"set(RTOSLAB_BOARD_DEEP_WAKEUP_CYCLES {board.energy.wakeup_cycles(board.clock_hz) if board.energy else 0})",
        f"set(RTOSLAB_BOARD_DEEP_BREAK_EVEN_CYCLES "
        f"{board.energy.break_even_cycles(board.clock_hz) if board.energy else 0})",
    ]


def main(argv: list[str]) -> int:
    usage = "usage: boards.py cmake [ID] | default | list [--runner KIND] [--arch A] [--has CAPABILITY]... [--tested]"
    try:
        if argv[:1] == ["cmake"] and len(argv) <= 2:
            print("\n".join(cmake_lines(get(argv[1] if len(argv) == 2 and argv[1] else default_id()))))
            return 0
        if argv == ["default"]:
            print(default_id())
            return 0
        if argv[:1] == ["list"]:
            runners, archs, want, tested = [], [], [], False
            rest = argv[1:]
            while rest:
                if rest[0] == "--tested":
                    tested, rest = True, rest[1:]
                    continue
                if len(rest) < 2 or rest[0] not in ("--runner", "--has", "--arch"):
                    print(usage, file=sys.stderr)
                    return 2
                {"--runner": runners, "--arch": archs, "--has": want}[rest[0]].append(rest[1])
                rest = rest[2:]
            for b in registry().values():
                if ((not runners or b.runner in runners) and (not archs or b.arch in archs)
                        and all(b.has(c) for c in want) and (b.tested or not tested)):
                    print(b.id)
            return 0
    except BadInput as e:
        print(f"boards: {e}", file=sys.stderr)
        return 2
    print(usage, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
