#!/usr/bin/env bash
# The benchmark suite's own test: builds every image for every board (including the real
# STM32F0 Discovery board, build only), runs the full suite for every firmware RTOS on
# vp-m0 twice (every metric and check of shared/specs/interfaces.md reported, either measured
# or @absent with a reason; every check passing; the two runs identical sample for sample;
# under 10 s each), and the posix port on the host. Prints "N passed, N failed".
#   bench/tests/run.sh [--qemu]   (--qemu also runs the full suite on qemu-microbit, ~1 min)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
VP=${RTOSLAB_VP:-$root/vp/target/release/rtoslab-vp}
# every firmware port of the registry whose sources are here (bench/ports/*/port.toml)
RTOSES=$("$root/.venv/bin/rtoslab" peers --ready firmware | tr '\n' ' ')
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
ko() { fail=$((fail + 1)); echo "FAIL $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- builds ----
for board in vp-m0 vp-stm32f0 qemu-microbit stm32f0-discovery; do
    bdir=build/fw/$board
    if cmake -G Ninja -S . -B "$bdir" -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi.cmake \
        -DRTOSLAB_BOARD="$board" >"$tmp/cfg-$board.log" 2>&1 &&
        ninja -C "$bdir" $(for r in $RTOSES; do echo bench-$r check-$r; done) >"$tmp/build-$board.log" 2>&1; then
        ok "build $board: $(for r in $RTOSES; do echo -n "bench-$r.elf "; done)"
    else
        ko "build $board (log: $tmp/build-$board.log)"
        tail -5 "$tmp/build-$board.log"
    fi
done
if cmake -G Ninja -S bench/ports/posix -B build/host >"$tmp/cfg-host.log" 2>&1 &&
    ninja -C build/host >"$tmp/build-host.log" 2>&1; then
    ok "build host: build/host/bench-posix"
else
    ko "build host"
fi

# ---- what every run must report ----
ids="rhealstone.task_switch rhealstone.preemption rhealstone.interrupt_latency
rhealstone.semaphore_shuffle rhealstone.deadlock_break rhealstone.message_passing
rhealstone.preemption.seed003 rhealstone.semaphore_shuffle.seed001 rhealstone.semaphore_shuffle.seed003
rhealstone.message_passing.seed001
sem.signal_wake sem.wait_block thread.create_low thread.create_high mutex.create
mutex.destroy mutex.lock_uncontended mutex.lock_contended mutex.unlock sem.wait_available
sem.signal_no_waiter sem.signal_waiter sem.signal_nonzero irq.to_thread irq.dispatch irq.latency_worst
timer.delay_error.10us timer.delay_error.20us timer.delay_error.50us timer.delay_error.100us
timer.delay_error.200us timer.delay_error.500us timer.delay_error.1ms timer.delay_error.5ms
timer.delay_error.10ms timer.oneshot_error.10us timer.oneshot_error.100us
timer.oneshot_error.1ms timer.oneshot_error.10ms time.idle_window timer.periodic_jitter stimulus.pulse_error
stimulus.pulse.20us stimulus.train.20us stimulus.missed.20us stimulus.pulse.200us stimulus.train.200us
stimulus.missed.200us stimulus.pulse.2ms stimulus.train.2ms stimulus.missed.2ms boot.first_thread
overhead.probe scale.task_switch.n2 scale.task_switch.n4 scale.task_switch.n8
scale.task_switch.n16 scale.task_switch.n32 scale.sem_signal_wake.n2 scale.sem_signal_wake.n4
scale.sem_signal_wake.n8 scale.sem_signal_wake.n16 scale.sem_signal_wake.n32
scale.prio_wake.n2 scale.prio_wake.n4 scale.prio_wake.n8 scale.timeout_wake.n0 scale.timeout_wake.n2
scale.timeout_wake.n8 scale.timeout_wake.n30 tm.cooperative
tm.preemptive tm.interrupt tm.interrupt_preemption tm.message tm.synchronization tm.memory"
checks="check.priority_order check.fifo_equal_priority check.preempt_immediate
check.sem_counting check.priority_inversion check.deadlock check.xpsr_preserved
check.timeout check.isr_signal"

# coverage FILE LABEL [allow-failing-checks]: every id measured (complete) or absent, every
# check reported (and passing), @done.
coverage() {
    local f=$1 label=$2 missing="" failed=""
    grep -q '^@done' "$f" || { ko "$label: no @done"; return; }
    for id in $ids; do
        if grep -q "^@absent $id " "$f"; then continue; fi
        n=$(grep -m1 "^@metric $id " "$f" | sed -n 's/.* n=\([0-9]*\).*/\1/p')
        if [ -z "$n" ] || [ "$n" = 0 ] || grep -q "^@metric $id .*incomplete=1" "$f"; then
            missing="$missing $id"
        fi
    done
    for c in $checks; do
        if grep -q "^@absent $c " "$f"; then continue; fi
        grep -q "^@check $c pass" "$f" || failed="$failed $c"
    done
    [ -z "$missing" ] && ok "$label: every metric measured or absent with a reason" || ko "$label: missing or incomplete:$missing"
    [ -z "$failed" ] && ok "$label: every check passes" || ko "$label: checks failing:$failed"
    if grep -q '^# warning' "$f"; then ko "$label: $(grep -m1 '^# warning' "$f")"; fi
}

# ---- the simulator ----
if [ -x "$VP" ]; then
    for r in $RTOSES; do
        elf=build/fw/vp-m0/bench-$r.elf
        [ -f "$elf" ] || { ko "vp-m0 $r: no image"; continue; }
        t0=$(date +%s.%N)
        "$VP" run "$elf" >"$tmp/$r.1.txt" 2>"$tmp/$r.1.err"
        st=$?
        t1=$(date +%s.%N)
        "$VP" run "$elf" >"$tmp/$r.2.txt" 2>"$tmp/$r.2.err"
        secs=$(echo "$t1 - $t0" | bc)
        [ $st = 0 ] && ok "vp-m0 $r: exit status 0" || ko "vp-m0 $r: exit status $st: $(tail -1 "$tmp/$r.1.err")"
        coverage "$tmp/$r.1.txt" "vp-m0 $r"
        cmp -s "$tmp/$r.1.txt" "$tmp/$r.2.txt" && ok "vp-m0 $r: two runs identical sample for sample" ||
            ko "vp-m0 $r: two runs differ"
        if [ "$(echo "$secs < 10" | bc)" = 1 ]; then ok "vp-m0 $r: full run in ${secs}s"; else ko "vp-m0 $r: full run took ${secs}s"; fi
    done
    for r in $RTOSES; do
        "$VP" run build/fw/vp-stm32f0/bench-$r.elf --board vp-stm32f0 >"$tmp/f0-$r.txt" 2>/dev/null
        coverage "$tmp/f0-$r.txt" "vp-stm32f0 $r"
    done
else
    ko "simulator not built: $VP"
fi

# ---- QEMU (optional; its clock follows the guest's instructions: rtoslab-qemu) ----
if [ "${1:-}" = "--qemu" ]; then
    for r in $RTOSES; do
        timeout 300 .venv/bin/rtoslab-qemu build/fw/qemu-microbit/bench-$r.elf >"$tmp/q-$r.txt" 2>&1
        coverage "$tmp/q-$r.txt" "qemu-microbit $r"
        grep -q '^@run .*accurate=0' "$tmp/q-$r.txt" && ok "qemu-microbit $r: marked not cycle-accurate" ||
            ko "qemu-microbit $r: not marked accurate=0"
    done
fi

# ---- the host ----
if [ -x build/host/bench-posix ]; then
    timeout 300 build/host/bench-posix >"$tmp/posix.txt" 2>&1
    coverage "$tmp/posix.txt" "host posix"
fi

echo
echo "$pass passed, $fail failed"
[ $fail = 0 ]
