#!/usr/bin/env bash
# The long fuzz of both front ends (issue #49), to run before a release: LINES fuzzed lines
# per protocol (default 1,000,000) through the release binary, in sessions of 500 lines.
# Prints, per protocol: lines, sessions, panics, hangs, malformed replies, inconsistent games.
# Exits non-zero when any session failed. Record the figures in docs/fuzz.md.
#
#   scripts/fuzz.sh [LINES]
set -euo pipefail
lines=${1:-1000000}
cd "$(dirname "$0")/.."
echo "fuzz: $lines lines per protocol, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)"
OXELLO_FUZZ_LINES=$lines cargo test --release --test integration -- --ignored --nocapture \
    --test-threads 2 fuzz::long_fuzz 2>&1 | grep -E '^(fuzz |failure|test result)'
