#!/bin/sh
# A benchmark, not a test: the time a move takes at each level of NBoard's depth menu.
#   scripts/levels.sh [games] [levels] [first ply] [threads]
# For each level, plays the positions of the first `games` recorded games of
# tests/data/wthor_2024_2025_transcripts.txt (from `first ply` on, the book being off) as
# NBoard does: one engine per game, `set depth <level>`, then for every position
# `set game <GGF up to it>` and `go`; prints, per level, the mean and longest seconds per move
# (wall time from `go` to `===`) and the position that took longest.
# Defaults: 2 games, levels "12 16 20 22 26 30", from ply 0, 2 threads. Uses python3 to
# write the GGF records. Results and the commands are kept in docs/levels.md.
set -eu
games=${1:-2}
levels=${2:-"12 16 20 22 26 30"}
first=${3:-0}
threads=${4:-2}
bin=${OXELLO:-./target/release/oxello}
exec python3 - "$games" "$levels" "$first" "$threads" "$bin" <<'EOF'
import subprocess, sys, time

games, levels, first, threads, binary = sys.argv[1:]
DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]

def flips(board, me, sq):
    r, c = divmod(sq, 8)
    out = []
    for dr, dc in DIRS:
        line, rr, cc = [], r + dr, c + dc
        while 0 <= rr < 8 and 0 <= cc < 8 and board[rr * 8 + cc] == 1 - me:
            line.append(rr * 8 + cc)
            rr, cc = rr + dr, cc + dc
        if line and 0 <= rr < 8 and 0 <= cc < 8 and board[rr * 8 + cc] == me:
            out += line
    return out

def has_move(board, me):
    return any(board[s] is None and flips(board, me, s) for s in range(64))

def ggf_moves(transcript):
    """The GGF move fields of a transcript, with the passes it leaves implicit."""
    board = [None] * 64
    board[27], board[36], board[28], board[35] = 1, 1, 0, 0
    me, fields = 0, []
    for i in range(0, len(transcript), 2):
        sq = (int(transcript[i + 1]) - 1) * 8 + ord(transcript[i].lower()) - ord('a')
        if not flips(board, me, sq):
            fields.append(("B" if me == 0 else "W") + "[PA]")
            me = 1 - me
        for s in flips(board, me, sq) + [sq]:
            board[s] = me
        fields.append(("B" if me == 0 else "W") + "[" + transcript[i:i + 2].upper() + "]")
        me = 1 - me
    return fields

START = "---------------------------O*------*O---------------------------"
def ggf(fields):
    return "(;GM[Othello]PC[levels.sh]TY[8]BO[8 " + START + " *]" + "".join(fields) + ";)"

lines = [l for l in open("tests/data/wthor_2024_2025_transcripts.txt") if not l.startswith("#")]
transcripts = [l.split()[2] for l in lines[: int(games)]]
print(f"{games} games from ply {first}, --threads {threads}, book off")
print("level  moves  mean s  longest s  (empties of the longest)")
for level in levels.split():
    times = []
    for t in transcripts:
        fields = ggf_moves(t)
        engine = subprocess.Popen([binary, "--no-book", "--threads", threads, "nboard"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        def send(line):
            engine.stdin.write(line + "\n")
            engine.stdin.flush()
        send("nboard 2")
        send(f"set depth {level}")
        for n in range(int(first), len(fields)):
            if fields[n].endswith("[PA]"):
                continue
            send(f"set game {ggf(fields[:n])}")
            started = time.time()
            send("go")
            while not engine.stdout.readline().startswith("==="):
                pass
            empties = 60 - sum(1 for f in fields[:n] if not f.endswith("[PA]"))
            times.append((time.time() - started, empties))
        send("quit")
        engine.wait()
    longest = max(times)
    mean = sum(s for s, _ in times) / len(times)
    print(f"{level:>5}  {len(times):5}  {mean:6.2f}  {longest[0]:9.2f}  ({longest[1]})", flush=True)
EOF
