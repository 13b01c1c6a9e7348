#!/usr/bin/env bash
# Every test of the project, stage by stage. A failing stage does not stop the others (one
# run shows everything that is wrong); the exit status is non-zero if any stage failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
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

# lint: clippy and rustfmt on the simulator, ruff on the Python (config: python/pyproject.toml),
# the shell scripts checked by shellcheck, the generated files up to date, no board named outside its
# folder (scripts/board_ids_in_code.py). The C is linted by its build: -Werror on the
# project's own sources (CMakeLists.txt). A linter that is not installed fails the stage in CI
# (CI=true: make setup installs every one) and is skipped with a line elsewhere.
missing_linter() {
    echo "lint: $1 not installed ($2)"
    [ "${CI:-}" != true ]
}
lint() {
    local ok=0
    if cargo clippy --version >/dev/null 2>&1; then
        cargo clippy --release --locked --quiet --all-targets --manifest-path vp/Cargo.toml -- -D warnings || ok=1
    else
        missing_linter "cargo clippy" "rustup component add clippy" || ok=1
    fi
    if cargo fmt --version >/dev/null 2>&1; then
        cargo fmt --check --manifest-path vp/Cargo.toml || ok=1
    else
        missing_linter "cargo fmt" "rustup component add rustfmt" || ok=1
    fi
    if command -v ruff >/dev/null 2>&1; then
        ruff check --config python/pyproject.toml python/ vp/difftest scripts spec bench/ports || ok=1
    else
        missing_linter ruff "make setup installs it into .venv" || ok=1
    fi
    if command -v shellcheck >/dev/null 2>&1; then
        git ls-files '*.sh' .ci/run | xargs shellcheck --severity=warning || ok=1
    else
        missing_linter shellcheck "apt-get install shellcheck; make setup does" || ok=1
    fi
    python3 spec/generate.py --check || ok=1
    python3 scripts/board_ids_in_code.py || ok=1
    return $ok
}

stage "lint: clippy, rustfmt, ruff, shellcheck, generated files up to date, boards in their folders" lint
stage "simulator unit, calibration and fuzz tests" \
    cargo test --release --locked --quiet --manifest-path vp/Cargo.toml
stage "simulator against QEMU (differential, $DIFFTEST_PROGRAMS programs)" \
    python3 vp/difftest/difftest.py --programs "$DIFFTEST_PROGRAMS" --seed 1 --vp-arg=--check-blocks
# The native engine (--native) with every block compiled at its first entry, checked against the
# interpreter at every return from compiled code and against QEMU: 100 ARMv6-M programs, about
# 15 s of wall time on a loaded machine (19.6 s measured; compiling each block costs about a
# millisecond), then 50 Thumb-2 programs on vp-m3 and 50 with DSP and FPU on vp-m4 (the ARMv7-M
# translation, cpu/native/thumb2.rs; 100 each took 28 s of wall time, 6 s of CPU, on a loaded machine).
native_differential() {
    local flags=(--seed 3 --vp-arg=--native --vp-arg=--native-hot=1 --vp-arg=--check-blocks)
    python3 vp/difftest/difftest.py --programs 100 "${flags[@]}" &&
        python3 vp/difftest/difftest.py --arch v7m --programs 50 "${flags[@]}" &&
        python3 vp/difftest/difftest.py --arch v7em --programs 50 "${flags[@]}"
}
stage "native engine against the interpreter and QEMU (differential: 100 ARMv6-M, 50 ARMv7-M, 50 ARMv7E-M programs, every block compiled)" \
    native_differential
stage "simulator ARMv7-M against QEMU mps2-an385 (differential, Thumb-2, $DIFFTEST_PROGRAMS programs)" \
    python3 vp/difftest/difftest.py --arch v7m --programs "$DIFFTEST_PROGRAMS" --seed 1 --vp-arg=--check-blocks
stage "simulator Cortex-M4F against QEMU mps2-an386 (differential, Thumb-2, DSP and the FPU, $DIFFTEST_PROGRAMS programs)" \
    python3 vp/difftest/difftest.py --arch v7em --programs "$DIFFTEST_PROGRAMS" --seed 1 --vp-arg=--check-blocks
# The boards `make test` runs on are those whose board.toml says so ([tests] make_test).
boards() { python3 python/rtoslab/boards.py "$@"; }
KERNEL_BOARDS=$(boards list --tested --arch armv6-m --arch armv7-m | tr '\n' ' ')
stage "kernel tests on ${KERNEL_BOARDS% }" \
    env BOARDS="$KERNEL_BOARDS" kernel/tests/run.sh
# The kernel tests most sensitive to the compiler, under the speed profile (-O2 + LTO, which
# inlines across the kernel and reorders around its assembly): the behaviour tests with the
# fast paths, the interrupt-at-every-cycle sweep (every path), the idle's delays (the sleep's
# calibrated trim: LTO's inlining made them end early), the idle's entry in the PendSV-only
# build (ktest_idle_list: the stale idle frame, under speed too), the PendSV-only footprint
# build; on the first tested simulator board of each architecture. About 25 s of wall time,
# 10 s of CPU (five LTO images a board; the whole speed run of kernel/tests/run.sh: 7-8 min
# on a busy machine).
SPEED_BOARDS="$(boards list --tested --runner vp --arch armv6-m | head -1) $(boards list --tested --runner vp --arch armv7-m | head -1)"
stage "kernel tests under the speed profile (subset) on $SPEED_BOARDS" \
    env PROFILE=speed BOARDS="$SPEED_BOARDS" ONLY="ktest_kernel ktest_irqsweep ktest_idle ktest_idle_list ktest_min" kernel/tests/run.sh
stage "benchmark suite: every board builds, every metric reported, runs repeat exactly" \
    bench/tests/run.sh --qemu
stage "each RTOS's own test suite, and its own benchmark against the suite (cross-checks)" \
    bench/tests/own_tests.sh
# The silicon references marked make_test (bench/silicon/*/reference.toml; today ChibiOS 2.6.0's
# own benchmarks on vp-stm32f100 against its published STM32F100 report; python/rtoslab/silicon.py,
# docs/results.md "Against silicon"); fails above the limit; about 40 s (two builds, two 13 s
# simulated runs). The STM32F103 and STM32F407 references run on demand. Status 4: sources or
# compiler missing.
silicon() {
    python -m rtoslab.silicon --make-test; local st=$?
    [ $st = 4 ] && { echo "silicon check skipped (sources or compiler missing)"; return 0; }
    return $st
}
stage "the simulator against silicon (ChibiOS 2.6.0 benchmarks, STM32F100 report)" silicon
# Arm's CMSIS-RTOS2 validation suite (docs/cmsis-rtos2.md, `rtoslab validate`): rtoslab's layer
# and RTX5 on each tested simulator board, then the layer's own tests (ktest_cmsis_os2); fails
# on any failed case. About 8 s of CPU a board (three images built in the folder the kernel
# stage configured, 1-2 s of simulation each). The
# whole report goes to build/validate-<board>.txt; the verdicts and failed asserts are shown.
# FreeRTOS through CMSIS-FreeRTOS is not run here (4 of its cases fail: docs/cmsis-rtos2.md).
# Status 4: the validation's sources are missing: skipped with a line.
# validate_board BOARD PROFILE: the validation of rtoslab's layer and RTX5, its report in
# build/validate-<board>[-speed].txt, the verdicts shown; status 0 passed, 4 skipped (sources
# missing: said), 1 failed.
validate_board() {
    local board=$1 profile=$2 report one
    report="build/validate-$board$([ "$profile" = size ] || echo "-$profile").txt"
    rtoslab validate --rtos rtoslab,rtx5 --board "$board" --profile "$profile" -q >"$report"; one=$?
    grep -E 'passed, [0-9]+ failed|\[FAILED\]|counted as failed' "$report" | awk '!seen[$0]++'
    if [ $one = 4 ]; then
        echo "CMSIS-RTOS2 validation on $board ($profile) skipped (sources missing)"
        return 4
    fi
    [ $one = 0 ] || return 1
}
validate_cmsis_os2() {
    local board st=0 one
    for board in $(boards list --tested --runner vp); do
        validate_board "$board" size; one=$?
        if [ $one = 4 ]; then
            continue
        elif [ $one != 0 ]; then
            st=1
        fi
        # the layer's own tests (kernel/tests/test_cmsis_os2.c), in the folder validate configured
        if ninja -C "build/fw/$board" ktest_cmsis_os2 >/dev/null; then
            python -m rtoslab.runners --board "$board" "build/fw/$board/kernel/tests/ktest_cmsis_os2.elf" \
                --max-cycles 2000000000 </dev/null | tail -1 | sed "s/^/ktest_cmsis_os2 on $board: /"
            [ "${PIPESTATUS[0]}" = 0 ] || st=1
        else
            st=1
        fi
    done
    return $st
}
stage "CMSIS-RTOS2 validation (rtoslab's layer, RTX5) on the simulator boards" validate_cmsis_os2
# Issue 24's "the behaviour checks pass under both profiles": rtoslab's suite images (the
# kernel's own API and its CMSIS-RTOS2 layer) under -O2 + LTO, their behaviour checks and Arm's
# validation suite, on the boards of the speed kernel tests (whose folders they reuse: about
# 30 s of wall time and 12 s of CPU a board on a busy machine). The peers' speed images are
# built and checked by the result tables' runs (scripts/update_results.py), not here.
speed_behaviour() {
    local board st=0
    for board in $SPEED_BOARDS; do
        rtoslab check --rtos rtoslab,rtoslab-cmsis --board "$board" --profile speed -q || st=1
        validate_board "$board" speed
        [ $? = 1 ] && st=1
    done
    return $st
}
stage "rtoslab under the speed profile on $SPEED_BOARDS: behaviour checks, CMSIS-RTOS2 validation" speed_behaviour
for board in $(boards list --tested); do
    stage "behaviour checks of the suite on $board" \
        rtoslab check --rtos all --board "$board" --junit "build/junit-$board.xml"
done
# two workers (pytest-xdist): the tests are independent (each in its own tmp_path; builds
# lock their folder), and most of their time is one-threaded subprocesses
stage "rtoslab command" \
    python -m pytest -q -n 2 python/tests

echo
if [ ${#failed[@]} -gt 0 ]; then
    printf 'failed stages: %s\n' "${failed[*]}"
    exit 1
fi
echo "all stages passed"
