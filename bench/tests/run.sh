#!/usr/bin/env bash
# The benchmark suite's own test: builds every image for every Cortex-M board of the registry
# (bench/boards/<id>/board.toml; the real boards build only), runs the full suite for every
# firmware RTOS on the default board twice (every metric and check of docs/interfaces.md
# reported, either measured or @absent with a reason; every check passing; the two runs
# identical sample for sample; each within a budget of simulated cycles) and once on the
# other ARMv6-M simulator boards, and the posix port on the host. Prints "N passed, N failed".
#   bench/tests/run.sh [--qemu]   (--qemu also runs the full suite on the ARMv6-M QEMU board, ~1 min)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
VP=${RTOSLAB_VP:-$root/vp/target/release/rtoslab-vp}
export RTOSLAB_VP=$VP
PY=$root/.venv/bin/python
QEMU=${1:-}
# 2^33 cycles (179 s of simulated time at 48 MHz): the longest full runs today (FreeRTOS, CoOS,
# ThreadX) are about 3.8e9 cycles, the timer sweeps waiting for the tick
CYCLE_BUDGET=8589934592
boards() { python3 "$root/python/rtoslab/boards.py" "$@"; }
DEFAULT=$(boards default)
# the firmware ports of the registry whose sources are here (bench/ports/*/port.toml) that build
# for BOARD and fit its RAM (manifest `ram_kib_min`)
ready_for() { "$root/.venv/bin/rtoslab" peers --ready firmware --board "$1" | tr '\n' ' '; }
RTOSES=$(ready_for "$DEFAULT")
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
ko() { fail=$((fail + 1)); echo "FAIL $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- builds ----
# each board builds the ports whose manifest names its architecture and that fit its RAM; a
# port too big for the board is skipped with a line (its manifest's measured reason)
V6M_BOARDS=$(boards list --arch armv6-m | tr '\n' ' ')
for board in $V6M_BOARDS $(boards list --arch armv7-m); do
    bdir=build/fw/$board
    case " $V6M_BOARDS " in *" $board "*) arch=armv6-m ;; *) arch=armv7-m ;; esac
    rtoses=$(ready_for "$board")
    for r in $("$root/.venv/bin/rtoslab" peers --ready firmware --arch $arch); do
        case " $rtoses " in *" $r "*) ;; *) echo "skip $board $r: $("$root/.venv/bin/rtoslab" run --rtos "$r" --board "$board" 2>&1 | head -1)" ;; esac
    done
    targets=""
    for r in $rtoses; do targets="$targets bench-$r check-$r"; done
    if cmake -G Ninja -S . -B "$bdir" -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi.cmake \
        -DRTOSLAB_BOARD="$board" >"$tmp/cfg-$board.log" 2>&1 &&
        ninja -C "$bdir" $targets >"$tmp/build-$board.log" 2>&1; then
        ok "build $board: $(for r in $rtoses; do echo -n "bench-$r.elf "; done)"
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
# the metric and check ids of docs/interfaces.md, from spec/contracts.toml (generated module)
ids=$(python3 python/rtoslab/contract.py metrics) || { ko "metric ids: python/rtoslab/contract.py"; ids=""; }
checks=$(python3 python/rtoslab/contract.py checks) || { ko "check ids: python/rtoslab/contract.py"; checks=""; }

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

# run_two_at_a_time BOARD PREFIX [--with-stderr]: every RTOS's image for BOARD through the
# board's runner, two at once (a run is one thread, the machine has two cores); output in
# $tmp/PREFIX-<rtos>.txt (with stderr: QEMU's runner writes the transcript there)
run_two_at_a_time() {
    local board=$1 prefix=$2 with_stderr=${3:-} r
    local -a left pair
    read -r -a left <<<"$(ready_for "$board")"
    while [ ${#left[@]} -gt 0 ]; do
        pair=("${left[@]:0:2}")
        left=("${left[@]:2}")
        for r in "${pair[@]}"; do
            if [ -n "$with_stderr" ]; then
                timeout 600 "$PY" -m rtoslab.runners --board "$board" "build/fw/$board/bench-$r.elf" \
                    >"$tmp/$prefix-$r.txt" 2>&1 &
            else
                timeout 600 "$PY" -m rtoslab.runners --board "$board" "build/fw/$board/bench-$r.elf" \
                    >"$tmp/$prefix-$r.txt" 2>"$tmp/$prefix-$r.err" &
            fi
        done
        wait
    done
}

# ---- the simulator ----
if [ -x "$VP" ]; then
    for r in $RTOSES; do
        elf=build/fw/$DEFAULT/bench-$r.elf
        [ -f "$elf" ] || { ko "$DEFAULT $r: no image"; continue; }
        # a deterministic budget instead of a wall-clock limit: the run must end within this
        # many simulated cycles (the host's speed is printed, never asserted); the two runs at
        # once (a run is one thread, the machine has two cores)
        t0=$(date +%s.%N)
        "$PY" -m rtoslab.runners --board "$DEFAULT" "$elf" --max-cycles $CYCLE_BUDGET >"$tmp/$r.2.txt" 2>"$tmp/$r.2.err" &
        second=$!
        "$PY" -m rtoslab.runners --board "$DEFAULT" "$elf" --max-cycles $CYCLE_BUDGET >"$tmp/$r.1.txt" 2>"$tmp/$r.1.err"
        st=$?
        t1=$(date +%s.%N)
        wait $second
        secs=$(echo "$t1 - $t0" | bc)
        [ $st = 0 ] && ok "$DEFAULT $r: exit status 0 within $CYCLE_BUDGET cycles (${secs}s of wall time)" ||
            ko "$DEFAULT $r: exit status $st: $(tail -1 "$tmp/$r.1.err")"
        coverage "$tmp/$r.1.txt" "$DEFAULT $r"
        cmp -s "$tmp/$r.1.txt" "$tmp/$r.2.txt" && ok "$DEFAULT $r: two runs identical sample for sample" ||
            ko "$DEFAULT $r: two runs differ"
        # kept for the cross-checks of bench/tests/own_tests.sh (python -m rtoslab.crosscheck)
        [ $st = 0 ] && mkdir -p "build/fw/$DEFAULT/transcripts" && cp "$tmp/$r.1.txt" "build/fw/$DEFAULT/transcripts/bench-$r.txt"
    done
    # the hot paths' live-register variants, on the transcripts above (bench/tests/live_variants.py;
    # no simulation of its own)
    live_args=""
    for r in $RTOSES; do [ -f "$tmp/$r.1.txt" ] && live_args="$live_args $r=$tmp/$r.1.txt"; done
    # shellcheck disable=SC2086 # one argument per RTOS
    while IFS= read -r line; do
        case $line in ok*) ok "$DEFAULT ${line#ok   }" ;; *) ko "$DEFAULT ${line#FAIL }" ;; esac
    done < <("$PY" bench/tests/live_variants.py $live_args 2>&1)
    for board in $(boards list --runner vp --arch armv6-m); do
        [ "$board" = "$DEFAULT" ] && continue
        run_two_at_a_time "$board" "$board"
        for r in $(ready_for "$board"); do coverage "$tmp/$board-$r.txt" "$board $r"; done
    done
else
    ko "simulator not built: $VP"
fi

# ---- QEMU (optional; its clock follows the guest's instructions: rtoslab-qemu) ----
if [ "$QEMU" = --qemu ]; then
    q=$(boards list --runner qemu --arch armv6-m | head -1)
    run_two_at_a_time "$q" q --with-stderr
    for r in $(ready_for "$q"); do
        coverage "$tmp/q-$r.txt" "$q $r"
        grep -q '^@run .*accurate=0' "$tmp/q-$r.txt" && ok "$q $r: marked not cycle-accurate" ||
            ko "$q $r: not marked accurate=0"
    done
fi

# ---- the host ----
if [ -x build/host/bench-posix ]; then
    timeout 300 build/host/bench-posix >"$tmp/posix.txt" 2>&1
    coverage "$tmp/posix.txt" "host posix"
    while IFS= read -r line; do
        case $line in ok*) ok "host ${line#ok   }" ;; *) ko "host ${line#FAIL }" ;; esac
    done < <("$PY" bench/tests/live_variants.py posix="$tmp/posix.txt" 2>&1)
fi

echo
echo "$pass passed, $fail failed"
[ $fail = 0 ]
