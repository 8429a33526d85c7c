# guest.sh - what the Linux tests share (sourced): Debian bookworm's unmodified arm64 kernel booted
# on pmtrace-vp with an initramfs of Debian's packages (scripts/linux_guest.py) that runs a
# commands file, and checks of its console.
#   guest_boot NAME COMMANDS [pmtrace-vp option]...
#       builds $work/NAME.cpio (COMMANDS, modules.sh, and count_loop, trace_loop, wp_loop and, when the
#       build made it, primes from $work), boots it and
#       writes the console (and pmtrace-vp's messages) to $console ($work/NAME.log). Exits 77
#       (skipped, the reason printed) only when the guest's packages cannot be had.
#   check DESCRIPTION REGEX       a console line must match the extended regular expression
#   check_absent DESCRIPTION REGEX    no console line may
#   guest_result                  exit 1 with the console's end if a check failed
# The caller sets vp (pmtrace-vp) and work (the directory with count_loop and trace_loop; primes,
# docs/examples/primes.c, when the cross C library was there to link it).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
guest=$here/../../scripts/linux_guest.py
end='[[:space:]]*$' # the console's lines end in CR LF
failed=0

guest_boot() {
  local name=$1 commands=$2
  shift 2
  local kernel
  kernel=$("$guest" kernel 2>&1) || {
    echo "SKIP: $kernel"
    exit 77
  }
  local c_program=()
  [ -x "$work/primes" ] && c_program=(--file "$work/primes=/primes")
  "$guest" initramfs "$work/$name.cpio" "$commands" \
    --file "$work/count_loop=/count_loop" --file "$work/trace_loop=/trace_loop" \
    --file "$work/wp_loop=/wp_loop" \
    --file "$here/modules.sh=/modules.sh" "${c_program[@]}"
  case $? in
  0) ;;
  3) echo "SKIP: the guest's packages cannot be had (above)"; exit 77 ;;
  *) exit 1 ;;
  esac
  console=$work/$name.log
  local status=0
  timeout 1500 "$vp" --kernel "$kernel" --initrd "$work/$name.cpio" --ram 1G \
    --append "console=ttyAMA0" "$@" </dev/null >"$console" 2>&1 || status=$?
  [ "$status" -eq 0 ] || { echo "FAILED: pmtrace-vp exited $status"; failed=1; }
  check "the kernel booted" "^\[ *[0-9.]+\] Linux version 6\."
  check "/init ran" "^pmtrace-guest: /init"
}

check() {
  if ! grep -qE "$2" "$console"; then
    echo "FAILED: $1 (no line matches /$2/)"
    failed=1
  fi
}

check_absent() {
  if grep -qE "$2" "$console"; then
    echo "FAILED: $1 (a line matches /$2/: $(grep -m1 -E "$2" "$console"))"
    failed=1
  fi
}

guest_result() {
  check "the commands ended" "^pmtrace-guest: done \(0\)"
  if [ "$failed" -ne 0 ]; then
    echo "--- console (last 60 lines) ---"
    tail -60 "$console"
    exit 1
  fi
}

# check_each DESCRIPTION PREFIX REGEX: every console line that begins with PREFIX matches REGEX
# (and there is one).
check_each() {
  check "$1" "$2"
  local other
  other=$(grep -E "$2" "$console" | grep -vE "$3" | head -1)
  if [ -n "$other" ]; then
    echo "FAILED: $1 (/$3/ does not match: $other)"
    failed=1
  fi
}
