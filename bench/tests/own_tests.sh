#!/usr/bin/env bash
# Each RTOS's own test suite, unchanged, on the simulator (vp-m0): a port proves it is the
# real RTOS by passing the tests its upstream ships. A port lists them in its manifest,
#   own_tests = ["owntest-chibios-rt", ...]
# firmware targets of the vp-m0 build folder whose images exit 0 when every upstream test
# passes (and non-zero otherwise). Ports whose sources are missing are skipped (one line).
# Prints "N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
VP=${RTOSLAB_VP:-$root/vp/target/release/rtoslab-vp}
bdir=build/fw/vp-m0
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmake -G Ninja -S . -B "$bdir" -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi.cmake -DRTOSLAB_BOARD=vp-m0 >/dev/null 2>&1
ready=$(.venv/bin/rtoslab peers --ready firmware)
for rtos in $ready; do
    targets=$(.venv/bin/python -c 'import sys, tomllib
print(" ".join(tomllib.load(open(sys.argv[1], "rb")).get("own_tests", [])))' "bench/ports/$rtos/port.toml")
    for t in $targets; do
        if ! ninja -C "$bdir" "$t" >"$tmp/$t.build" 2>&1; then
            fail=$((fail + 1)); echo "FAIL $rtos $t: does not build"; tail -5 "$tmp/$t.build"; continue
        fi
        elf=$(ls "$bdir/$t.elf" "$bdir"/*/"$t.elf" 2>/dev/null | head -1)
        "$VP" run "$elf" --max-cycles 4000000000 >"$tmp/$t.out" 2>&1 </dev/null
        st=$?
        if [ $st = 0 ]; then
            pass=$((pass + 1)); echo "ok   $rtos $t: $(grep -v '^\s*$' "$tmp/$t.out" | tail -1)"
        else
            fail=$((fail + 1)); echo "FAIL $rtos $t: exit status $st"; tail -15 "$tmp/$t.out"
        fi
    done
done
echo
echo "$pass passed, $fail failed"
[ $fail = 0 ]
