#!/usr/bin/env bash
# Each RTOS's own test suite, unchanged, on the default board (the simulator) or on the board
# its manifest names: a port proves it is the real RTOS by passing the tests its upstream ships.
# A port lists them in its manifest,
#   own_tests = ["owntest-chibios-rt", ...]
#   own_tests_board = "<board id>"       # optional, default: the registry's default board
# firmware targets of that board's build folder whose images exit 0 when every upstream test
# passes (and non-zero otherwise); each runs through its board's runner. Ports whose
# sources are missing are skipped (one line). Prints "N passed, N failed", then the
# cross-checks of the own benchmarks against the suite's figures (below).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
RTOSLAB_VP=${RTOSLAB_VP:-$root/vp/target/release/rtoslab-vp}
export RTOSLAB_VP
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

configured=" "
default=$(python3 python/rtoslab/boards.py default)
qemu_boards=" $(python3 python/rtoslab/boards.py list --runner qemu | tr '\n' ' ') "
ready=$(.venv/bin/rtoslab peers --ready firmware --arch any)
for rtos in $ready; do
    read -r board targets < <(.venv/bin/python -c 'import sys, tomllib
m = tomllib.load(open(sys.argv[1], "rb"))
print(m.get("own_tests_board", sys.argv[2]), " ".join(m.get("own_tests", [])))' "bench/ports/$rtos/port.toml" "$default")
    [ -n "$targets" ] || continue
    bdir=build/fw/$board
    if [[ $qemu_boards == *" $board "* ]] && ! command -v "${RTOSLAB_QEMU:-qemu-system-arm}" >/dev/null; then
        echo "skip $rtos $targets: its tests run on $board and qemu-system-arm is not installed"; continue
    fi
    case "$configured" in *" $board "*) ;; *)
        cmake -G Ninja -S . -B "$bdir" -DCMAKE_TOOLCHAIN_FILE=cmake/arm-none-eabi.cmake -DRTOSLAB_BOARD="$board" >/dev/null 2>&1
        configured="$configured$board " ;;
    esac
    for t in $targets; do
        if ! ninja -C "$bdir" "$t" >"$tmp/$t.build" 2>&1; then
            fail=$((fail + 1)); echo "FAIL $rtos $t: does not build"; tail -5 "$tmp/$t.build"; continue
        fi
        elf=$(ls "$bdir/$t.elf" "$bdir"/*/"$t.elf" 2>/dev/null | head -1)
        # the board's runner (python -m rtoslab.runners); the cycle limit is the simulator's
        timeout 600 .venv/bin/python -m rtoslab.runners --board "$board" "$elf" --max-cycles 4000000000 \
            >"$tmp/$t.out" 2>&1 </dev/null
        st=$?
        if [ $st = 0 ]; then
            pass=$((pass + 1)); echo "ok   $rtos $t ($board): $(grep -v '^\s*$' "$tmp/$t.out" | tail -1)"
        else
            fail=$((fail + 1)); echo "FAIL $rtos $t ($board): exit status $st"; tail -15 "$tmp/$t.out"
        fi
    done
done
echo
echo "$pass passed, $fail failed"

# Cross-checks (issue 22): each own benchmark's score beside the suite's figures for the same
# operation (the ports' [[crosscheck]] entries), from the outputs above and a suite run of those
# ports on the default board (python -m rtoslab.crosscheck; over 10 % without a written cause fails).
xfail=0
if ls "$tmp"/*.out >/dev/null 2>&1; then
    echo
    echo "cross-checks against each RTOS's own benchmark ($default):"
    .venv/bin/python -m rtoslab.crosscheck --board "$default" --outputs "$tmp" || xfail=1
fi
[ $fail = 0 ] && [ $xfail = 0 ]
