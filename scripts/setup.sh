#!/usr/bin/env bash
# One-time (and idempotent) set-up of everything the project builds and runs with, on a
# fresh Debian machine: the Arm GNU toolchain, QEMU, CMake/Ninja, Chromium (for the HTML
# report test) from Debian's packages; the simulator (Rust, release build); the Python
# virtual environment with the `rtoslab` command; the pinned FreeRTOS sources; the pinned
# sources of the peer RTOSes (from $RTOSLAB_PEERS_DIR or ../shared/peers, docs/porting.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

say() { printf '\033[1msetup:\033[0m %s\n' "$*"; }

# --- Debian packages -------------------------------------------------------------------
missing=()
have() { command -v "$1" >/dev/null 2>&1; }
have arm-none-eabi-gcc || missing+=(gcc-arm-none-eabi binutils-arm-none-eabi)
[ -e /usr/lib/arm-none-eabi/newlib/thumb/v6-m/nofp/libc_nano.a ] || missing+=(libnewlib-arm-none-eabi)
have qemu-system-arm || missing+=(qemu-system-arm)
have cmake || missing+=(cmake)
have ninja || missing+=(ninja-build)
have chromium || missing+=(chromium)
have shellcheck || missing+=(shellcheck)
# `rtoslab debug` and the GDB test (python/tests/test_gdb.py): GDB for every target
have gdb-multiarch || missing+=(gdb-multiarch)
python3 -c 'import venv, ensurepip' 2>/dev/null || missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
    say "installing Debian packages: ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# --- Rust: the simulator -----------------------------------------------------------------
if ! have cargo; then
    [ -x "$HOME/.cargo/bin/cargo" ] && export PATH="$HOME/.cargo/bin:$PATH"
fi
have cargo || { echo "setup: cargo not found (install Rust with rustup or Debian's cargo)" >&2; exit 1; }
# clippy and rustfmt for the lint stage of `make test` (rustup's components; without rustup,
# e.g. Debian's cargo, the stage says it skips them)
if command -v rustup >/dev/null 2>&1; then
    for c in clippy rustfmt; do
        rustup component list --installed 2>/dev/null | grep -q "^$c" ||
            rustup component add "$c" >/dev/null 2>&1 || say "rustup component $c not available: lint skips it"
    done
fi
say "building the simulator (vp/, release)"
cargo build --quiet --release --locked --manifest-path vp/Cargo.toml

# --- FreeRTOS sources, pinned by third_party/freertos/Cargo.lock ----------------------------
if [ -f third_party/freertos/Cargo.toml ]; then
    say "fetching the pinned FreeRTOS-Kernel sources (crates.io: freertos-next)"
    cargo fetch --quiet --locked --manifest-path third_party/freertos/Cargo.toml
fi

# --- Python: the rtoslab command ------------------------------------------------------------
stamp=.venv/.installed
if [ ! -x .venv/bin/python ] || [ ! -f "$stamp" ] || [ python/pyproject.toml -nt "$stamp" ]; then
    say "creating the Python environment (.venv) with the rtoslab command"
    python3 -m venv .venv
    .venv/bin/pip install --quiet --upgrade pip
    .venv/bin/pip install --quiet -e 'python[test,cluster]'   # cluster: rtoslab run --dask
    touch "$stamp"
fi
# `rtoslab-vp` on the PATH of an activated .venv, beside `rtoslab` and `rtoslab-qemu`
ln -sf "$root/vp/target/release/rtoslab-vp" .venv/bin/rtoslab-vp

# --- the peer RTOSes' sources: pinned archives, verified, extracted into build/peers ---------
# (a source that cannot be had is a skipped port with one line, never a failed set-up)
say "peer RTOS sources (rtoslab peers --fetch)"
.venv/bin/rtoslab peers --fetch || true
# the silicon references' sources (bench/silicon/*/reference.toml), extracted alike
.venv/bin/python -m rtoslab.silicon --fetch || true
say "ready"
