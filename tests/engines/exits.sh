#!/usr/bin/env bash
# Exits without a word when asked for its first move.
genmove_reply() { exit 3; }
# Each start is logged when the test asks for it, to show the runner restarts the engine.
[ -n "${BROKEN_LOG:-}" ] && echo start >> "$BROKEN_LOG"
. "$(dirname "$0")/broken-common.sh"
