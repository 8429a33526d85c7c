#!/usr/bin/env bash
# The README's first command: install what is missing, build, and run pmtrace-vp on its default
# scenario. Arguments go to pmtrace-vp (try --help).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh >/dev/null
exec "${PMTRACE_BUILD_DIR:-build}/platform/pmtrace-vp" "$@"
