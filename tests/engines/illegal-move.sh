#!/usr/bin/env bash
# Answers every genmove with D4, a centre square that is never empty.
genmove_reply() { printf '= D4\n\n'; }
. "$(dirname "$0")/broken-common.sh"
