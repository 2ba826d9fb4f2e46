#!/usr/bin/env bash
# Passes whenever it is asked to move (it is only asked when it has a legal move).
genmove_reply() { printf '= pass\n\n'; }
. "$(dirname "$0")/broken-common.sh"
