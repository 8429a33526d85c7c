#!/usr/bin/env bash
# Installs every Debian package pmtrace needs, and does nothing (quickly) when all are present.
# Run as root (or with sudo available). Nothing is downloaded except Debian packages.
set -euo pipefail

packages=(
  build-essential cmake pkg-config ninja-build clang-format
  clang libclang-rt-14-dev
  libsystemc-dev
  libgtest-dev libgmock-dev
  libboost-dev libboost-program-options-dev
  libopencsd-dev libopencsd-bin
  libunicorn-dev libfdt-dev device-tree-compiler
  gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross
  linux-perf python3
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

# The Linux guest (tests/linux): Debian's arm64 kernel, busybox-static and linux-perf, fetched
# into a cache outside the repository (scripts/linux_guest.py; quick once fetched). Without them
# the Linux test says why and is skipped.
guest() {
  "$(dirname "$0")/linux_guest.py" fetch >/dev/null ||
    echo "install-deps: the Linux guest's packages are not fetched (tests/linux will say why)"
}

if [ ${#missing[@]} -eq 0 ]; then
  guest
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "install-deps: run as root (or install sudo)" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
guest
echo "install-deps: done"
