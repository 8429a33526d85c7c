#!/usr/bin/env python3
"""console_pty.py VP IMAGE - pmtrace-vp --kernel with a terminal as its stdin (a pseudo-terminal it
is the foreground of, as in an interactive shell), docs/platform.md "The console":

- while the image runs, the terminal is in non-canonical mode without echo, ISIG kept;
- what is typed then is not echoed by the terminal (only the guest would echo it);
- Ctrl-C typed on the terminal interrupts pmtrace-vp (exit status 130);
- afterwards the terminal has its modes back.

IMAGE runs until interrupted (the scenario image with a very long loop). Prints one line per
finding, for the test's regular expression."""
import os
import pty
import select
import sys
import termios
import time

vp, image = sys.argv[1], sys.argv[2]
args = [vp, "--kernel", image, "--append", "pmtrace.iterations=100000000000 pmtrace.trace=0"]

pid, fd = pty.fork()
if pid == 0:
    os.execv(vp, args)

out = b""


def read_until(pattern, timeout):
    """Reads the terminal until pattern shows (True) or timeout seconds or its end (False)."""
    global out
    end = time.time() + timeout
    while pattern is None or pattern not in out:
        left = end - time.time()
        if left <= 0:
            return False
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            return False
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: the other side is closed
            return pattern is None
        if not chunk:
            return pattern is None
        out += chunk
    return True


def modes(lflag):
    return ", ".join(f"{name} {'on' if lflag & bit else 'off'}"
                     for name, bit in (("ICANON", termios.ICANON), ("ECHO", termios.ECHO),
                                       ("ISIG", termios.ISIG)))


if not read_until(b"instructions at EL0", 120):
    print("the run's first lines did not come:", out.decode(errors="replace"))
    os.kill(pid, 9)
    sys.exit(1)
print("while running:", modes(termios.tcgetattr(fd)[3]))
os.write(fd, b"typed")
time.sleep(0.2)
os.write(fd, b"\x03")  # Ctrl-C: VINTR
read_until(None, 120)
_, status = os.waitpid(pid, 0)
print("exit status:", os.waitstatus_to_exitcode(status))
print("typed text echoed:", "yes" if b"typed" in out else "no")
print("interrupted:", "yes" if b"interrupted (SIGINT)" in out else "no")
print("after the run:", modes(termios.tcgetattr(fd)[3]))
