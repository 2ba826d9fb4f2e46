#!/usr/bin/env python3
"""A small NBoard engine for the match runner's tests: it plays the legal move that flips the
most discs (the first in a1..h8 order among equals).

It is strict where NTest is fragile: a `set game` whose moves do not alternate with every
pass written `PA`, or input that arrives between `go` and its answer (which aborts NTest's
search), makes it answer `=== ??`, a malformed move. It prints a banner and chatter
(`status`, `search`, `nodestats`, blank lines) that the runner must skip.

Usage: nboard-greedy.py [MODE] [THINK]: MODE is `good` (the default), `illegal` (answers D4,
never empty), `false-pass` (answers PA), `dies` (exits when asked to move) or `hangs` (never
answers `go`); THINK is seconds to sleep before each answer. With NBOARD_LOG set, every line
received is appended to that file.
"""
import os
import select
import sys
import time

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
THINK = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
LOG = os.environ.get("NBOARD_LOG")


class Input:
    """Lines of stdin read without Python's buffering, so that pending input can be seen."""

    def __init__(self):
        self.buf = b""

    def line(self):
        while b"\n" not in self.buf:
            chunk = os.read(0, 4096)
            if not chunk:
                return None
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode().rstrip("\r")

    def pending(self, wait):
        return bool(self.buf) or bool(select.select([0], [], [], wait)[0])


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def flips(board, me, sq):
    """The squares `me` flips by playing `sq` (row-major 0..63), empty if illegal."""
    if board[sq] != ".":
        return []
    other = "O" if me == "*" else "*"
    out = []
    r0, c0 = divmod(sq, 8)
    for dr, dc in DIRS:
        r, c, run = r0 + dr, c0 + dc, []
        while 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == other:
            run.append(r * 8 + c)
            r, c = r + dr, c + dc
        if run and 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == me:
            out += run
    return out


def name(sq):
    return "ABCDEFGH"[sq % 8] + str(sq // 8 + 1)


def parse_game(ggf):
    """The position at the end of a GGF record, or None if its moves break the rules."""
    start = ggf.index("BO[") + 3
    fields = ggf[start : ggf.index("]", start)].split()
    cells = "".join(fields[1:-1]).replace("-", ".")
    board, side = list(cells), fields[-1]
    rest = ggf[ggf.index("]", start) + 1 :]
    while "[" in rest:
        tag, rest = rest.split("[", 1)
        value, rest = rest.split("]", 1)
        tag = tag.strip(";) ")
        if tag not in ("B", "W"):
            continue
        if (tag == "B") != (side == "*"):
            return None
        mv = value.split("/")[0].upper()
        moves = [s for s in range(64) if flips(board, side, s)]
        if mv == "PA":
            if moves:
                return None
        else:
            sq = "ABCDEFGH".index(mv[0]) + 8 * (int(mv[1]) - 1)
            flipped = flips(board, side, sq)
            if not flipped:
                return None
            for s in flipped + [sq]:
                board[s] = side
        side = "O" if side == "*" else "*"
    return board, side


def best(position):
    board, side = position
    moves = [(len(flips(board, side, s)), -s) for s in range(64) if flips(board, side, s)]
    return name(-max(moves)[1]) if moves else "PA"


def go(position, stdin):
    say("status thinking")
    time.sleep(THINK)
    if MODE == "dies":
        sys.exit(3)
    if MODE == "hangs":
        return
    if position is None or stdin.pending(0.02):
        say("=== ??")
        return
    say("search " + best(position) + " 0.00 0 1")
    say("nodestats 1 0.00")
    answer = {"illegal": "D4", "false-pass": "PA"}.get(MODE, best(position))
    say("=== " + answer + "/0.00/" + str(THINK))
    say("status waiting")


def main():
    say("Greedy, a test engine for NBoard's protocol")
    say("")
    stdin, position = Input(), None
    while True:
        line = stdin.line()
        if line is None:
            return
        if LOG:
            with open(LOG, "a") as log:
                log.write(line + "\n")
        words = line.split()
        if words[:1] == ["nboard"]:
            say("set myname Greedy")
        elif words[:2] == ["set", "depth"]:
            say("set myname Greedy" + words[2])
        elif words[:2] == ["set", "game"]:
            position = parse_game(line.split(None, 2)[2])
        elif words[:1] == ["ping"]:
            say("pong " + words[1])
        elif words[:1] == ["go"]:
            go(position, stdin)
        elif words[:1] == ["quit"]:
            return


main()
