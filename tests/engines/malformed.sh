#!/usr/bin/env bash
# Answers genmove with something that is not a move.
genmove_reply() { printf '= Z9\n\n'; }
. "$(dirname "$0")/broken-common.sh"
