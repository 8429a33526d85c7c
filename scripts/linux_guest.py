#!/usr/bin/env python3
"""A Debian arm64 guest for pmtrace-vp, made from Debian bookworm's own packages.

  linux_guest.py fetch              download the kernel, busybox-static and linux-perf (with the
                                    libraries perf needs) into the cache (apt-get download; the
                                    arm64 architecture is added to dpkg when it is missing: root)
  linux_guest.py kernel             print the path of the cached kernel Image
  linux_guest.py initramfs OUT COMMANDS [--file SRC=DEST]...
                                    write a newc cpio initramfs to OUT: busybox, perf and its
                                    libraries, the kernel's CoreSight modules and configfs (in
                                    /lib/modules/VERSION, for insmod),
                                    an /init that mounts proc, sys and dev, runs the shell
                                    script COMMANDS and powers off, and each extra file

The cache is $PMTRACE_CACHE, else $XDG_CACHE_HOME/pmtrace, else ~/.cache/pmtrace; nothing goes
into the repository. Exit status: 0 done, 2 bad use, 3 the packages cannot be had (the message
says why).
"""
import os
import shutil
import stat
import subprocess
import sys

ARCH = "arm64"
TRIPLET = "aarch64-linux-gnu"
PERF_PACKAGE = "linux-perf"
BUSYBOX_PACKAGE = "busybox-static"
KERNEL_META = "linux-image-arm64"
# What a cache holds (the first line of its stamp): fetched again when this changes.
STAMP = "linux_guest 3: Image, CoreSight modules, busybox-static, linux-perf"
# The kernel's modules the guest gets: CoreSight (the ETE and TRBE drivers, issue 29) and
# configfs, which coresight.ko needs. The package has no modules.dep (depmod makes it when it is
# installed): insmod them in order (configfs, coresight, coresight-etm4x, coresight-trbe).
MODULES = ["./lib/modules/*/kernel/drivers/hwtracing/coresight/*",
           "./lib/modules/*/kernel/fs/configfs/*"]


def cache_dir():
    if os.environ.get("PMTRACE_CACHE"):
        return os.environ["PMTRACE_CACHE"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "pmtrace")


def unavailable(why):
    print(f"linux_guest: the guest's packages cannot be had: {why}", file=sys.stderr)
    sys.exit(3)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw).stdout


def depends(package):
    """The packages `package` depends on (first alternative of each), for arm64."""
    try:
        out = run(["apt-cache", "depends", "--no-recommends", "--no-suggests", "--no-conflicts",
                   "--no-breaks", "--no-replaces", "--no-enhances", f"{package}:{ARCH}"])
    except subprocess.CalledProcessError as e:
        unavailable(f"apt-cache depends {package}:{ARCH}: {e.stderr.strip()}")
    names = []
    for line in out.splitlines():
        line = line.strip()
        if line.startswith("Depends:") or line.startswith("PreDepends:"):
            name = line.split(":", 1)[1].strip()
            if name.startswith("<"):
                continue  # a virtual package (perl:any, python3:any): not needed to run perf
            names.append(name.split(":")[0])
    return names


def ensure_arm64():
    if ARCH in run(["dpkg", "--print-foreign-architectures"]).split():
        if run(["apt-cache", "policy", f"busybox-static:{ARCH}"]).strip():
            return
    if os.geteuid() != 0:
        unavailable(f"dpkg has no {ARCH} architecture; run `sudo {sys.argv[0]} fetch` once")
    try:
        run(["dpkg", "--add-architecture", ARCH])
        run(["apt-get", "update", "-qq"])
    except subprocess.CalledProcessError as e:
        unavailable(f"adding the {ARCH} architecture: {e.stderr.strip()}")


def fetched():
    """Whether the cache holds a whole fetch of this version (its stamp is written last)."""
    try:
        with open(os.path.join(cache_dir(), "fetched")) as f:
            return f.readline().strip() == STAMP
    except OSError:
        return False


def fetch():
    cache = cache_dir()
    stamp = os.path.join(cache, "fetched")
    if fetched():
        print(os.path.join(cache, "Image"))  # fetched before (remove the cache to renew it)
        return
    if os.path.exists(stamp):
        os.remove(stamp)
    ensure_arm64()
    debs = os.path.join(cache, "debs")
    os.makedirs(debs, exist_ok=True)
    kernel = [d for d in depends(KERNEL_META) if d.startswith("linux-image-")]
    if not kernel:
        unavailable(f"{KERNEL_META} names no kernel package")
    # The libraries perf needs: its dependencies that are libraries, and theirs.
    wanted, queue = [], [PERF_PACKAGE]
    while queue:
        p = queue.pop()
        if p in wanted:
            continue
        wanted.append(p)
        queue += [d for d in depends(p) if d.startswith("lib") or d == "zlib1g"]
    packages = kernel[:1] + [BUSYBOX_PACKAGE] + wanted
    have = {f.split("_")[0] for f in os.listdir(debs) if f.endswith(".deb")}
    missing = [p for p in packages if p not in have]
    if missing:
        try:
            subprocess.run(["apt-get", "download", "-qq"] + [f"{p}:{ARCH}" for p in missing],
                           cwd=debs, check=True, capture_output=True, text=True)
        except subprocess.CalledProcessError as e:
            unavailable(f"apt-get download: {e.stderr.strip()}")
    # Extracted beside the last fetch, which it replaces at the end.
    final_root = os.path.join(cache, "root")
    root = final_root + ".new"
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    for p in packages:
        deb = [f for f in os.listdir(debs) if f.startswith(p + "_") and f.endswith(".deb")]
        path = os.path.join(debs, sorted(deb)[-1])
        if p in kernel:
            # The Image and the CoreSight modules: the other modules are most of the package.
            tar = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", path], stdout=subprocess.PIPE)
            untar = subprocess.run(["tar", "-x", "-C", root, "--wildcards", "./boot/vmlinuz-*"] +
                                   MODULES, stdin=tar.stdout, capture_output=True, text=True)
            if tar.wait() != 0 or untar.returncode != 0:
                unavailable(f"extracting {os.path.basename(path)}: {untar.stderr.strip()}")
        else:
            try:
                run(["dpkg-deb", "-x", path, root])
            except subprocess.CalledProcessError as e:
                unavailable(f"extracting {os.path.basename(path)}: {e.stderr.strip()}")
    boot = os.path.join(root, "boot")
    images = sorted(f for f in os.listdir(boot) if f.startswith("vmlinuz-"))
    shutil.rmtree(final_root, ignore_errors=True)
    os.rename(root, final_root)
    shutil.copyfile(os.path.join(final_root, "boot", images[-1]), os.path.join(cache, "Image"))
    with open(stamp, "w") as f:
        f.write(STAMP + "\n" + "\n".join(sorted(os.listdir(debs))) + "\n")
    print(os.path.join(cache, "Image"))


def kernel_path():
    if not fetched():
        unavailable(f"nothing fetched in {cache_dir()}: run `{sys.argv[0]} fetch`")
    return os.path.join(cache_dir(), "Image")


def needed(path):
    out = run([f"{TRIPLET}-readelf", "-d", path])
    return [line.split("[")[1].split("]")[0] for line in out.splitlines() if "(NEEDED)" in line]


class Cpio:
    """A newc cpio archive (the kernel's initramfs format)."""

    def __init__(self):
        self.data = bytearray()
        self.ino = 1

    def entry(self, name, mode, body=b"", nlink=1):
        fields = [self.ino, mode, 0, 0, nlink, 0, len(body), 0, 0, 0, 0, len(name) + 1, 0]
        self.ino += 1
        self.data += b"070701" + b"".join(b"%08X" % f for f in fields)
        self.data += name.encode() + b"\0"
        self.data += b"\0" * (-len(self.data) % 4)
        self.data += body
        self.data += b"\0" * (-len(self.data) % 4)

    def dir(self, name):
        self.entry(name, stat.S_IFDIR | 0o755, nlink=2)

    def file(self, name, body, mode=0o755):
        self.entry(name, stat.S_IFREG | mode, body)

    def link(self, name, target):
        self.entry(name, stat.S_IFLNK | 0o777, target.encode())

    def end(self):
        self.entry("TRAILER!!!", 0)
        return bytes(self.data)


INIT = """#!/bin/busybox sh
/bin/busybox --install -s /bin
mkdir -p /proc /sys /dev /tmp
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
export PATH=/bin:/usr/bin LD_LIBRARY_PATH=/lib/{triplet}:/usr/lib/{triplet}
echo "pmtrace-guest: /init"
sh /commands.sh
echo "pmtrace-guest: done ($?)"
poweroff -f
""".format(triplet=TRIPLET)


def initramfs(out, commands, extra):
    root = os.path.join(cache_dir(), "root")
    if not fetched():
        unavailable(f"nothing fetched in {cache_dir()}: run `{sys.argv[0]} fetch`")
    # bookworm's linux-perf installs perf itself; older ones a perf_<version> behind a script.
    bindir = os.path.join(root, "usr/bin")
    perf = [f for f in sorted(os.listdir(bindir)) if f.startswith("perf_")] + ["perf"]
    perf = [f for f in perf if open(os.path.join(bindir, f), "rb").read(4) == b"\x7fELF"]
    if not perf:
        unavailable("no perf binary in the fetched linux-perf")
    libdirs = [f"lib/{TRIPLET}", f"usr/lib/{TRIPLET}"]
    files = {"bin/busybox": os.path.join(root, "bin/busybox"),
             "usr/bin/perf": os.path.join(bindir, perf[0])}
    # perf's libraries, and theirs (the dynamic loader among them).
    queue = [files["usr/bin/perf"]]
    seen = set()
    while queue:
        for lib in needed(queue.pop()):
            if lib in seen:
                continue
            seen.add(lib)
            for d in libdirs:
                src = os.path.join(root, d, lib)
                if os.path.exists(src):
                    files[f"{d}/{lib}"] = os.path.realpath(src)
                    queue.append(src)
                    break
            else:
                unavailable(f"{lib} (needed by perf) is in no fetched package")
    loader = f"lib/ld-linux-aarch64.so.1"
    files[loader] = os.path.realpath(os.path.join(root, f"lib/{TRIPLET}/ld-linux-aarch64.so.1"))
    # The kernel's modules the cache holds (MODULES), where the kernel keeps them.
    modroot = os.path.join(root, "lib/modules")
    for dirpath, _, names in os.walk(modroot):
        for n in names:
            if n.endswith(".ko"):
                path = os.path.join(dirpath, n)
                files[os.path.relpath(path, root)] = path
    for spec in extra:
        src, _, dest = spec.partition("=")
        files[dest.lstrip("/")] = src
    cpio = Cpio()
    dirs = set()
    for name in sorted(files) + ["commands.sh", "init"]:
        parts = name.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            d = "/".join(parts[:i])
            if d not in dirs:
                dirs.add(d)
                cpio.dir(d)
    for d in ["proc", "sys", "dev", "tmp"]:
        cpio.dir(d)
    for name, src in sorted(files.items()):
        with open(src, "rb") as f:
            cpio.file(name, f.read())
    with open(commands, "rb") as f:
        cpio.file("commands.sh", f.read())
    cpio.file("init", INIT.encode())
    with open(out, "wb") as f:
        f.write(cpio.end())


def main(argv):
    if len(argv) >= 1 and argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if argv == ["fetch"]:
        fetch()
        return 0
    if argv == ["kernel"]:
        print(kernel_path())
        return 0
    if len(argv) >= 3 and argv[0] == "initramfs":
        extra, rest = [], argv[3:]
        while rest:
            if rest[0] != "--file" or len(rest) < 2 or "=" not in rest[1]:
                print(f"linux_guest: unexpected {rest[0]!r} (try --help)", file=sys.stderr)
                return 2
            extra.append(rest[1])
            rest = rest[2:]
        initramfs(argv[1], argv[2], extra)
        return 0
    print("usage: linux_guest.py fetch | kernel | initramfs OUT COMMANDS [--file SRC=DEST]... "
          "(try --help)", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
