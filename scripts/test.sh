#!/usr/bin/env bash
# Every test of the project, stage by stage. A failing stage does not stop the others (one
# run shows everything that is wrong); the exit status is non-zero if any stage failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export PATH="$root/.venv/bin:$HOME/.cargo/bin:$PATH"
export RTOSLAB_VP="$root/vp/target/release/rtoslab-vp"

# The QEMU differential test runs this many random programs (a longer run: see vp/difftest/README.md).
DIFFTEST_PROGRAMS=${DIFFTEST_PROGRAMS:-3000}

failed=()
stage() {
    local name=$1; shift
    printf '\n\033[1m== %s\033[0m\n' "$name"
    local t0=$SECONDS
    if "$@"; then
        printf '\033[32m== %s: ok (%ss)\033[0m\n' "$name" $((SECONDS - t0))
    else
        printf '\033[31m== %s: FAILED (%ss)\033[0m\n' "$name" $((SECONDS - t0))
        failed+=("$name")
    fi
}

# lint: clippy and rustfmt on the simulator, ruff on the Python (config: python/pyproject.toml).
# The C is linted by its build: -Werror on the project's own sources (CMakeLists.txt).
lint() {
    local ok=0
    if cargo clippy --version >/dev/null 2>&1; then
        cargo clippy --release --locked --quiet --all-targets --manifest-path vp/Cargo.toml -- -D warnings || ok=1
    else
        echo "lint: cargo clippy not installed (rustup component add clippy): skipped"
    fi
    if cargo fmt --version >/dev/null 2>&1; then
        cargo fmt --check --manifest-path vp/Cargo.toml || ok=1
    else
        echo "lint: cargo fmt not installed (rustup component add rustfmt): skipped"
    fi
    if command -v ruff >/dev/null 2>&1; then
        ruff check --config python/pyproject.toml python/ vp/difftest scripts spec || ok=1
    else
        echo "lint: ruff not installed (make setup installs it into .venv): skipped"
    fi
    python3 spec/generate.py --check || ok=1
    return $ok
}

stage "lint: clippy, rustfmt, ruff, generated contracts up to date" lint
stage "simulator unit, calibration and fuzz tests" \
    cargo test --release --locked --quiet --manifest-path vp/Cargo.toml
stage "simulator against QEMU (differential, $DIFFTEST_PROGRAMS programs)" \
    python3 vp/difftest/difftest.py --programs "$DIFFTEST_PROGRAMS" --seed 1
stage "simulator ARMv7-M against QEMU mps2-an385 (differential, Thumb-2, $DIFFTEST_PROGRAMS programs)" \
    python3 vp/difftest/difftest.py --arch v7m --programs "$DIFFTEST_PROGRAMS" --seed 1
stage "simulator Cortex-M4F against QEMU mps2-an386 (differential, Thumb-2, DSP and the FPU, $DIFFTEST_PROGRAMS programs)" \
    python3 vp/difftest/difftest.py --arch v7em --programs "$DIFFTEST_PROGRAMS" --seed 1
stage "kernel tests on vp-m0, qemu-microbit, qemu-mps2-an385 and -an386, vp-m4 (ARMv7-M, the M4F's FPU context)" \
    env BOARDS="vp-m0 qemu-microbit qemu-mps2-an385 qemu-mps2-an386 vp-m4" kernel/tests/run.sh
stage "benchmark suite: every board builds, every metric reported, runs repeat exactly" \
    bench/tests/run.sh --qemu
stage "each RTOS's own test suite on vp-m0" \
    bench/tests/own_tests.sh
stage "behaviour checks of the suite (vp-m0)" \
    rtoslab check --rtos all --board vp-m0 --junit build/junit-vp-m0.xml
stage "behaviour checks of the suite (qemu-microbit)" \
    rtoslab check --rtos all --board qemu-microbit --junit build/junit-qemu.xml
stage "behaviour checks of the suite (qemu-mps2-an385, ARMv7-M)" \
    rtoslab check --rtos all --board qemu-mps2-an385 --junit build/junit-qemu-mps2.xml
stage "behaviour checks of the suite (qemu-mps2-an386, ARMv7-M with the FPU)" \
    rtoslab check --rtos all --board qemu-mps2-an386 --junit build/junit-qemu-mps2-an386.xml
stage "behaviour checks of the suite (qemu-raspi2b: Jobbed, seed 004's Cortex-A7)" \
    rtoslab check --rtos jobbed --board qemu-raspi2b --junit build/junit-qemu-raspi2b.xml
stage "behaviour checks of the suite (vp-m3, ARMv7-M on the simulator)" \
    rtoslab check --rtos all --board vp-m3 --junit build/junit-vp-m3.xml
stage "behaviour checks of the suite (vp-m4, the Cortex-M4F on the simulator)" \
    rtoslab check --rtos all --board vp-m4 --junit build/junit-vp-m4.xml
stage "rtoslab command" \
    python -m pytest -q python/tests

echo
if [ ${#failed[@]} -gt 0 ]; then
    printf 'failed stages: %s\n' "${failed[*]}"
    exit 1
fi
echo "all stages passed"
