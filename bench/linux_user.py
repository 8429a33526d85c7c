#!/usr/bin/env python3
"""Linux user space: pmtrace-vp and qemu-system-aarch64 side by side (issue 38: user-space code,
perf stat and perf record within 2x of QEMU's time).

  bench/linux_user.py [--vp PATH] [--qemu PATH] [--runs N] [--primes PATH] [--only NAME]
                      [--vp-arg ARG]...

Both boot the same kernel (Debian's arm64 Image from scripts/linux_guest.py's cache) with the
same initramfs (busybox and perf) and 1 GiB of RAM; QEMU as `-M virt,gic-version=3 -cpu max`
(TCG). The guest runs each workload between two console lines, "bench: begin NAME" and
"bench: end NAME"; a workload's time is the host's wall time between the two lines, as this
script reads them. The runs alternate, so both see the same machine load; each figure is the
best of the runs. Figures go into docs/performance.md.

Workloads (the loop is busybox sh counting to 200,000: about 0.3 G instructions):
  boot      pmtrace-vp's start to "Run /init"
  loop      the sh loop
  perfstat  perf stat -e cycles,instructions,branches,cache-references of the loop
  record    perf record -e cycles -c 100000 of the loop (a sample per 100,000 cycles, PMUIRQ
            each), then perf report
  primes    docs/examples/primes.c (static, -O2) to 300,000 (--primes: the build's
            tests/linux/primes; left out when there is none)
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GUEST = os.path.join(HERE, "..", "scripts", "linux_guest.py")
LOOP = "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"
WORKLOADS = {
    "loop": LOOP,
    "perfstat": f"perf stat -e cycles,instructions,branches,cache-references -- sh -c '{LOOP}' 2>&1",
    "record": f"perf record -q -e cycles -c 100000 -o /tmp/p.data -- sh -c '{LOOP}' 2>&1\n"
              "perf report -i /tmp/p.data --stdio 2>&1 | grep -c '%'",
    "primes": "/primes 300000",
}


def commands(names):
    lines = []
    for name in names:
        lines += [f"echo 'bench: begin {name}'", WORKLOADS[name], f"echo 'bench: end {name}'"]
    return "\n".join(lines) + "\n"


def timed(cmd):
    """{workload: host seconds} of one run, and its exit status."""
    start = time.monotonic()
    began, times = {}, {}
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT)
    for raw in p.stdout:
        now = time.monotonic()
        line = raw.decode(errors="replace").strip()
        if "boot" not in times and "Run /init" in line:
            times["boot"] = now - start
        elif line.startswith("bench: begin "):
            began[line.split()[2]] = now
        elif line.startswith("bench: end "):
            name = line.split()[2]
            if name in began:
                times[name] = now - began[name]
    p.wait()
    return times, p.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--vp", default=os.path.join(HERE, "..", "build", "platform", "pmtrace-vp"))
    ap.add_argument("--qemu", default=shutil.which("qemu-system-aarch64"))
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--primes", default=os.path.join(HERE, "..", "build", "tests", "linux", "primes"))
    ap.add_argument("--only", action="append", choices=list(WORKLOADS), help="these workloads only")
    ap.add_argument("--vp-arg", action="append", default=[], help="an extra pmtrace-vp option")
    args = ap.parse_args()
    kernel = subprocess.run([GUEST, "kernel"], capture_output=True, text=True)
    if kernel.returncode != 0:
        sys.exit(f"linux_user: {kernel.stderr.strip()}")
    kernel = kernel.stdout.strip()
    names = args.only or list(WORKLOADS)
    extra = []
    if "primes" in names:
        if os.path.exists(args.primes):
            extra = ["--file", f"{os.path.abspath(args.primes)}=/primes"]
        else:
            print(f"linux_user: no {args.primes}: no primes workload")
            names.remove("primes")
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "commands.sh")
        with open(script, "w") as f:
            f.write(commands(names))
        initrd = os.path.join(tmp, "initramfs.cpio")
        subprocess.run([GUEST, "initramfs", initrd, script] + extra, check=True)
        runs = {"pmtrace-vp": [args.vp, "--kernel", kernel, "--initrd", initrd, "--ram", "1G",
                               "--append", "console=ttyAMA0"] + args.vp_arg}
        if args.qemu:
            runs["qemu"] = [args.qemu, "-M", "virt,gic-version=3", "-cpu", "max", "-m", "1G",
                            "-nographic", "-no-reboot", "-nic", "none", "-kernel", kernel,
                            "-initrd", initrd, "-append", "console=ttyAMA0"]
        else:
            print("linux_user: no qemu-system-aarch64 (Debian's qemu-system-arm): pmtrace-vp only")
        columns = ["boot"] + names
        print(f"{'run':<12}" + "".join(f"{c:>10}" for c in columns) + f"{'status':>8}")
        best = {}
        for _ in range(args.runs):
            for name, cmd in runs.items():  # alternated, so both see the same machine load
                times, status = timed(cmd)
                print(f"{name:<12}" + "".join(f"{times.get(c, float('nan')):>10.2f}"
                                              for c in columns) + f"{status:>8}", flush=True)
                for c, t in times.items():
                    best.setdefault(name, {})
                    best[name][c] = min(best[name].get(c, t), t)
        if len(best) == 2:
            vp, qemu = best["pmtrace-vp"], best["qemu"]
            print(f"{'ratio':<12}" + "".join(
                f"{vp[c] / qemu[c]:>10.2f}" if c in vp and c in qemu and qemu[c] > 0
                else f"{'-':>10}" for c in columns))
    return 0


if __name__ == "__main__":
    sys.exit(main())
