#!/usr/bin/env bash
# Builds the release binaries for each x86-64 level, each in its own target directory:
#   dist/oxello-x86-64-v2   SSE4.2 and POPCNT (every x86-64 processor since about 2009)
#   dist/oxello-x86-64-v3   AVX2, BMI2, LZCNT (since about 2015; what `cargo build --release` makes)
#   dist/oxello-x86-64-v4   AVX-512 (recent server and desktop processors)
# Each binary checks the processor at start-up and names the level to use where it cannot run.
# With --bench, runs `oxello bench` with every binary this processor can run.
#   scripts/release.sh [--bench]
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p dist
for level in x86-64-v2 x86-64-v3 x86-64-v4; do
  RUSTFLAGS="-C target-cpu=$level" cargo build --release --quiet --target-dir "target/$level"
  cp "target/$level/release/oxello" "dist/oxello-$level"
  echo "dist/oxello-$level"
done
if [ "${1:-}" = --bench ]; then
  for level in x86-64-v2 x86-64-v3 x86-64-v4; do
    echo "== $level"
    "dist/oxello-$level" bench || echo "($level does not run on this processor)"
  done
fi
