#!/usr/bin/env bash
# Never answers genmove, but stays alive reading input.
genmove_reply() { :; }
. "$(dirname "$0")/broken-common.sh"
