#!/usr/bin/env python3
"""Boot to /init: pmtrace-vp and qemu-system-aarch64 side by side (issue 28's goal: pmtrace-vp
within 2x QEMU's wall time to /init).

  bench/linux_boot.py [--vp PATH] [--qemu PATH] [--runs N]

Both boot the same kernel (Debian's arm64 Image from scripts/linux_guest.py's cache) with the
same initramfs (busybox and perf; /init powers off at once) and 1 GiB of RAM; QEMU as
`-M virt,gic-version=3 -cpu max`. For each run: the host's wall time until the console says
"Run /init" and until the emulator exits. Figures go into docs/performance.md.
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


def timed(cmd):
    """(seconds to 'Run /init', seconds to exit, exit status) of one run."""
    start = time.monotonic()
    init = None
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT)
    for line in p.stdout:
        if init is None and b"Run /init" in line:
            init = time.monotonic() - start
    p.wait()
    return init, time.monotonic() - start, p.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--vp", default=os.path.join(HERE, "..", "build", "platform", "pmtrace-vp"))
    ap.add_argument("--qemu", default=shutil.which("qemu-system-aarch64"))
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    kernel = subprocess.run([GUEST, "kernel"], capture_output=True, text=True)
    if kernel.returncode != 0:
        sys.exit(f"linux_boot: {kernel.stderr.strip()}")
    kernel = kernel.stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        commands = os.path.join(tmp, "commands.sh")
        with open(commands, "w") as f:
            f.write("true\n")
        initrd = os.path.join(tmp, "initramfs.cpio")
        subprocess.run([GUEST, "initramfs", initrd, commands], check=True)
        common = ["-kernel", kernel, "-initrd", initrd, "-append", "console=ttyAMA0"]
        runs = {"pmtrace-vp": [args.vp, "--kernel", kernel, "--initrd", initrd, "--ram", "1G",
                               "--append", "console=ttyAMA0"]}
        if args.qemu:
            runs["qemu"] = [args.qemu, "-M", "virt,gic-version=3", "-cpu", "max", "-m", "1G",
                            "-nographic", "-no-reboot", "-nic", "none"] + common
        else:
            print("linux_boot: no qemu-system-aarch64 (Debian's qemu-system-arm): pmtrace-vp only")
        print(f"{'run':<12}{'to /init (s)':>14}{'to exit (s)':>14}{'status':>8}")
        best = {}
        for n in range(args.runs):
            for name, cmd in runs.items():  # alternated, so both see the same machine load
                init, end, status = timed(cmd)
                print(f"{name:<12}{(init or float('nan')):>14.2f}{end:>14.2f}{status:>8}")
                if init is not None and status == 0:
                    best[name] = min(best.get(name, init), init)
        if "pmtrace-vp" in best and "qemu" in best:
            ratio = best["pmtrace-vp"] / best["qemu"]
            print(f"best to /init: pmtrace-vp {best['pmtrace-vp']:.2f} s, qemu {best['qemu']:.2f} s,"
                  f" ratio {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
