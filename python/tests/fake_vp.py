"""A stand-in for rtoslab-vp in the tests: `fake_vp.py run IMAGE [options]`.

The behaviour comes from a JSON spec: the image file itself when it starts with '{', else the
file named by $FAKE_VP_SPEC. Fields: stdout (text), status, stderr, events (trace events,
written to --trace as JSONL, filtered by --trace-events), delay (seconds after each line),
args_log (file to which the command line is appended), masked (the summary written to
--masked), hold ({"after": N, "file": F}: after N lines, create F and wait to be killed, so that
a test can interrupt a run at a known line whatever the host's speed).
`run --help` lists the options the pipeline probes for."""
import json
import os
import sys
import time


def main(argv):
    if len(argv) < 2 or argv[0] != "run":
        print("usage: fake_vp.py run IMAGE", file=sys.stderr)
        return 2
    if argv[1] == "--help":
        print("  --masked <FILE>  interrupts-masked sections")
        return 0
    image = argv[1]
    opts = {}
    i = 2
    while i < len(argv):
        a = argv[i]
        if a in ("--fault-stop", "--stats"):
            opts[a] = True
            i += 1
        else:
            opts[a] = argv[i + 1] if i + 1 < len(argv) else ""
            i += 2
    try:
        with open(image, "rb") as f:
            data = f.read()
    except OSError:
        print(f"error: {image}: no such file", file=sys.stderr)
        return 2
    mark = b"\nFAKE-VP-SPEC\n"
    if data[:1] == b"{" or mark in data:
        spec = json.loads(data.split(mark, 1)[-1])
    elif os.environ.get("FAKE_VP_SPEC"):
        spec = json.load(open(os.environ["FAKE_VP_SPEC"]))
    else:
        print(f"error: {image}: not a spec", file=sys.stderr)
        return 2
    if spec.get("args_log"):
        with open(spec["args_log"], "a") as f:
            f.write(json.dumps(argv) + "\n")
    if "--trace" in opts:
        keep = set(opts["--trace-events"].split(",")) if "--trace-events" in opts else None
        with open(opts["--trace"], "w") as f:
            for ev in spec.get("events", []):
                if keep is None or ev.get("e") in keep:
                    f.write(json.dumps(ev) + "\n")
    if "--masked" in opts and "masked" in spec:
        with open(opts["--masked"], "w") as f:
            f.write(json.dumps(spec["masked"]) + "\n")
    if "--vcd" in opts:
        with open(opts["--vcd"], "w") as f:
            f.write("$timescale 1ns $end\n$var wire 1 ! probe0 $end\n$enddefinitions $end\n#0\n0!\n")
    delay = spec.get("delay", 0)
    hold = spec.get("hold")
    for n, line in enumerate(spec.get("stdout", "").splitlines(), 1):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
        if delay:
            time.sleep(delay)
        if hold and n == hold["after"]:
            open(hold["file"], "w").close()
            while True:
                time.sleep(1)
    if spec.get("stderr"):
        sys.stderr.write(spec["stderr"] + "\n")
    return int(spec.get("status", 0))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
