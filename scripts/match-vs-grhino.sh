#!/usr/bin/env bash
# Plays oxello against GRhino's gtp-rhino on XOT openings, each opening with both colours.
#   scripts/match-vs-grhino.sh [games] [rhino level] [seconds per move for oxello] [concurrency]
# gtp-rhino plays by level, not by clock, so only oxello gets a clock; rhino may think as
# long as it likes (level 5 takes up to ~2 minutes on some endgame moves).
# OPENINGS=FILE names the openings (one transcript per line), such as the XOT list (its
# licence keeps it out of this repository); without it, random 8-ply openings.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-100}
level=${2:-3}
per_move=${3:-1}
concurrency=${4:-2}
opening_args=()
if [ -n "${OPENINGS:-}" ]; then
  opening_args=(--openings "$OPENINGS")
else
  echo "note: no OPENINGS=FILE given; playing random 8-ply openings" >&2
fi

if [ ! -x /usr/games/gtp-rhino ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq grhino
fi
cargo build --release -q
mkdir -p target/matches
out=target/matches/oxello-vs-rhino-l$level
./target/release/oxello match \
  --engine "./target/release/oxello" --name oxello \
  --engine "/usr/games/gtp-rhino -l $level" --name "gtp-rhino-l$level" \
  --time-per-move "$per_move" --time-per-move 0 \
  "${opening_args[@]}" --seed 2026 \
  --games "$games" --concurrency "$concurrency" \
  --ggf-out "$out.ggf" | tee "$out.txt"
