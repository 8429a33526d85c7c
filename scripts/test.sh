#!/usr/bin/env bash
# The README's second command: install what is missing, build, and run every test with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
cd "${PMTRACE_BUILD_DIR:-build}"
ctest --output-on-failure --parallel "$(nproc)"
