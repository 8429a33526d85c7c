#!/usr/bin/env bash
# Checks that every C and C++ file of the tree is formatted by .clang-format (exit 1 if not).
# With --fix, formats them in place.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=(--dry-run --Werror)
[ "${1:-}" = "--fix" ] && mode=(-i)
git ls-files '*.c' '*.h' '*.cpp' '*.hpp' | xargs -r clang-format "${mode[@]}"
