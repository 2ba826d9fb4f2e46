#!/usr/bin/env bash
# Real-GUI check: Debian's Quarry, under Xvfb, plays whole Othello games of oxello against
# gtp-rhino and of oxello against itself. Every byte between Quarry and each engine is logged;
# the script replays the logged moves to check that each game reached its end, and saves a
# screenshot of the final board.
#   scripts/quarry-gui-check.sh [output dir]      (default target/quarry-check)
# Exits 0 when both games finished, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=$(realpath -m "${1:-target/quarry-check}")

need=()
[ -x /usr/games/quarry ] || need+=(quarry)
[ -x /usr/games/gtp-rhino ] || need+=(grhino)
command -v Xvfb >/dev/null || need+=(xvfb)
command -v xdotool >/dev/null || need+=(xdotool)
command -v import >/dev/null || need+=(imagemagick)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
cargo build --release -q
oxello="$root/target/release/oxello"

rm -rf "$out"
mkdir -p "$out"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
}
trap cleanup EXIT

# A wrapper in front of an engine logs what Quarry sends and what the engine answers.
make_wrapper() { # name, command...
  local name=$1
  shift
  cat > "$out/$name.sh" <<EOF
#!/usr/bin/env bash
tee -a "$out/$name.in" | $* | tee -a "$out/$name.out"
EOF
  chmod +x "$out/$name.sh"
}

# Replays a game from an engine's log: the moves Quarry told it (play) and the moves it
# made (genmove replies), in order. Prints oxello's final_score of the replay, or nothing.
final_score_of() { # name
  local name=$1
  python3 - "$out/$name.in" "$out/$name.out" <<'PY' | "$oxello" 2>/dev/null | awk '/^[=?]/{last=$0} END{print last}'
import sys
cmds = [l.split('#')[0].strip() for l in open(sys.argv[1], errors='replace')]
cmds = [c for c in cmds if c]
replies, cur = [], None
for line in open(sys.argv[2], errors='replace'):
    line = line.rstrip('\r\n')
    if cur is None and line[:1] in ('=', '?'):
        cur = line
    elif cur is not None and line == '':
        replies.append(cur)
        cur = None
for cmd, reply in zip(cmds, replies):
    words = cmd.split()
    if words and words[0].isdigit():
        words = words[1:]
    if not words or not reply.startswith('='):
        continue
    if words[0] == 'clear_board':
        print('clear_board')
    elif words[0] == 'play' and len(words) == 3:
        print('play', words[1], words[2])
    elif words[0] == 'genmove' and len(words) == 2:
        move = reply[1:].strip().split()
        if move and move[0].lower() != 'pass':
            print('play', words[1], move[0])
print('final_score')
PY
}

# One engine's entry in Quarry's configuration.
engine_section() { # name, command line
  cat <<EOF
[GTP Engine "$1"]
Screen name format = "%n %v"
Name = "$1"
Version = "1"
Command line = "$2"
Supported games = "Reversi"

EOF
}

run_game() { # label, black engine name, black command, white engine name, white command
  local label=$1 bname=$2 bcmd=$3 wname=$4 wcmd=$5
  local home="$out/home-$label"
  mkdir -p "$home/.local/share"
  make_wrapper "$label-black" "$bcmd"
  make_wrapper "$label-white" "$wcmd"
  {
    engine_section "$bname" "$out/$label-black.sh"
    engine_section "$wname" "$out/$label-white.sh"
    cat <<EOF
[New Game Parameters]
Game = "Reversi"
Black is computer = true
Engine playing black = "$bname 1"
White is computer = true
Engine playing white = "$wname 1"

[New Reversi Game Parameters]
Board size = 8
Time control type = 0
EOF
  } > "$home/.quarry"
  rm -f "$out/display"
  Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp 3>"$out/display" 2>/dev/null &
  local xvfb=$!
  pids+=("$xvfb")
  for _ in $(seq 50); do [ -s "$out/display" ] && break; sleep 0.1; done
  export DISPLAY=":$(cat "$out/display")"
  HOME="$home" /usr/games/quarry 2>"$out/$label-quarry.err" &
  local quarry=$!
  pids+=("$quarry")
  sleep 3
  xdotool mousemove 100 26 click 1
  sleep 2
  xdotool mousemove 430 422 click 1
  sleep 1
  xdotool mousemove 432 422 click 1
  local score="" waited=0
  while [ $waited -lt 900 ]; do
    sleep 5
    waited=$((waited + 5))
    if [ -s "$out/$label-black.in" ]; then
      score=$(final_score_of "$label-black")
      case "$score" in "= B+"*|"= W+"*|"= 0") break ;; esac
    fi
  done
  sleep 2
  import -window root "$out/$label.png" 2>/dev/null || true
  kill "$quarry" "$xvfb" 2>/dev/null || true
  wait "$quarry" "$xvfb" 2>/dev/null || true
  case "$score" in
    "= B+"*|"= W+"*|"= 0")
      echo "$label: finished game, final score ${score#= } (black: $bname, white: $wname); screenshot $out/$label.png"
      return 0 ;;
    *)
      echo "$label: the game did not finish (last replay answer: '$score'); logs in $out"
      return 1 ;;
  esac
}

status=0
run_game oxello-vs-rhino Oxello "$oxello" GRhino "/usr/games/gtp-rhino -l 3" || status=1
run_game oxello-vs-oxello OxelloB "$oxello" OxelloW "$oxello" || status=1
exit $status
