"""Which component of a firmware a file or a symbol belongs to: vectors/start-up, kernel,
port, application, C library (and stacks/heap, other). The rules are data (PATH_RULES, the
name patterns); classify_path() and classify_name() apply them. Used by the size report."""
from __future__ import annotations

import posixpath
import re
from functools import lru_cache

COMPONENTS = ("startup", "kernel", "port", "application", "libc", "stacks", "other")
LABELS = {
    "startup": "vectors/start-up", "kernel": "kernel", "port": "port",
    "application": "application", "libc": "C library", "stacks": "stacks/heap", "other": "other",
}

FREERTOS_KERNEL_FILES = ("tasks.c", "queue.c", "list.c", "timers.c", "event_groups.c",
                         "stream_buffer.c", "croutine.c")

# Ordered rules on a path: the first that matches decides (a path that matches none but names
# a file is application code). Each is (component, test, values); the tests, on the lowercased
# path with a leading '/', its file name (an archive's member) and the archive's name:
#   in_path      one of the values is a substring of the path
#   path_regex   the regular expression (values) is found in the path
#   archive      the archive's name starts with one of the values
#   file         the file name is one of the values
#   file_prefix  the file name starts with one of the values
#   app_folder   the innermost of the kernel's folders and of its users' (examples, demos,
#                tests) is the latter (values unused): kernel/examples/x.c is application
PATH_RULES = (
    ("libc", "in_path", ("newlib", "libgloss", "/libgcc", "libgcc.a", "libc.a", "libc_nano", "libm.a",
                         "libnosys", "/gcc/config/", "arm-none-eabi/lib", "/lib/gcc/", "picolibc",
                         "libstdc++")),
    ("libc", "archive", ("libc", "libg", "libm", "libnosys", "librdimon")),
    ("libc", "file", ("libgcc2.c", "lib1funcs.s", "lib1funcs.asm", "crtstuff.c")),
    ("startup", "path_regex", r"(startup|/crt0|/crti|/crtn|/vectors?[._]|system_stm32|/boards?/)"),
    ("startup", "file_prefix", ("startup",)),
    # a peer RTOS's sources, extracted at set-up into build/peers/<dir>/: its architecture
    # port (ChibiOS os/common/ports, ThreadX ports/, CoOS portable/, RIOT cpu/) and its kernel
    ("port", "path_regex", r"/build/peers/[^/]+/(.*/)?(ports?|portable|cpu|arch)/"),
    ("kernel", "in_path", ("/build/peers/",)),
    ("application", "in_path", ("/bench/",)),             # the benchmark suite and its RTOS adapters
    ("kernel", "in_path", ("/portable/memmang/",)),       # FreeRTOS heap_N: the kernel's allocator
    ("application", "app_folder", None),                  # kernel/examples/x.c, FreeRTOS/Demo/...
    ("port", "in_path", ("/portable/", "/kernel/arch/", "/arch/armv6m", "/port/")),
    ("port", "file_prefix", ("port.c", "port.s", "portasm", "port.o", "portasm.o")),
    ("kernel", "file", FREERTOS_KERNEL_FILES),
    ("kernel", "in_path", ("/freertos", "/kernel/")),
)

_KERNEL_FOLDERS = re.compile(r"/(kernel|freertos|freertos-kernel|rtos)/")
_USER_FOLDERS = re.compile(r"/(examples?|samples?|demos?|apps?|applications?|tests?)/")

# Symbol names, for what no file names: vector tables and reset code, the compiler's helpers
# and the C library.
STARTUP_NAMES = re.compile(r"(^|_)(g_pfnVectors|isr_vector|__isr_vector|vector_table|vectors|"
                           r"Reset_Handler|Default_Handler|SystemInit|__libc_init_array|_start|"
                           r"NMI_Handler|HardFault_Handler)$")
LIBC_NAMES = re.compile(
    r"^(__aeabi_\w+|__(u|)(div|mod)\w+|__gnu_\w+|__(ash|lsh|clz|ctz|mul|cmp|neg|fix|float|add|sub|"
    r"extend|trunc|popcount)\w*|_?(mem|str)(cpy|set|move|cmp|chr|len|ncpy|ncmp|cat|rchr)|"
    r"_?(s|v|vs|sn|vsn|f|)printf\w*|_?puts|_?putchar|_?malloc\w*|_?free\w*|_?calloc\w*|_?realloc\w*|"
    r"_sbrk\w*|_impure_ptr|impure_data|_global_impure_ptr|__errno|errno|abort|exit|_exit|atexit|"
    r"__call_exitprocs|__sf\w*|_reent\w*|__retarget\w*|__lock\w*)$")


def normalize(path: str) -> str:
    """CMake object paths name their source: 'x/CMakeFiles/t.dir/__/__/tests/a.c.obj' is
    'x/../../tests/a.c'."""
    p = path.replace("\\", "/")
    m = re.match(r"^(.*?)CMakeFiles/[^/]+\.dir/(.*)$", p)
    if m:
        rest = re.sub(r"(^|/)__(?=/)", r"\1..", m.group(2))
        rest = re.sub(r"\.(obj|o)$", "", rest)
        p = posixpath.normpath(m.group(1) + rest)
    return p


def _in_user_folder(low: str) -> bool:
    users = [m.start() for m in _USER_FOLDERS.finditer(low)]
    kernel = [m.start() for m in _KERNEL_FOLDERS.finditer(low)]
    return bool(users) and bool(kernel) and users[-1] > kernel[-1]


def _matches(test: str, values, low: str, base: str, archive: str) -> bool:
    if test == "in_path":
        return any(v in low for v in values)
    if test == "path_regex":
        return re.search(values, low) is not None
    if test == "archive":
        return archive.startswith(values)
    if test == "file":
        return base in values
    if test == "file_prefix":
        return base.startswith(values)
    if test == "app_folder":
        return _in_user_folder(low)
    raise ValueError(f"unknown path rule test {test!r}")


@lru_cache(maxsize=1)
def _port_rules() -> tuple:
    """The ports whose manifest says `glue_is_kernel = true` (their folder holds the kernel
    itself, as the floor's hand-written switch does): their files count as kernel, before the
    rule that makes the suite's folders application code."""
    try:
        from . import ports
        folders = tuple(f"/bench/ports/{p.id}/" for p in ports.registry().values() if p.glue_is_kernel)
    except Exception:  # no registry around (an ELF from elsewhere): no such rule
        return ()
    return (("kernel", "in_path", folders),) if folders else ()


def classify_path(path: str) -> str | None:
    """Component of a source, object or archive path; None when it says nothing."""
    p = normalize(path)
    low = "/" + p.lower().lstrip("/")
    base = low.rsplit("/", 1)[-1]
    archive = ""
    m = re.search(r"([^/()]+\.a)\(([^)]*)\)", low)
    if m:
        archive, base = m.group(1), m.group(2)
    for component, test, values in _port_rules() + PATH_RULES:
        if _matches(test, values, low, base, archive):
            return component
    return "application" if base else None


def classify_name(name: str) -> str | None:
    if STARTUP_NAMES.search(name):
        return "startup"
    if LIBC_NAMES.match(name):
        return "libc"
    return None
