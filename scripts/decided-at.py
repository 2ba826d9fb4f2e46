#!/usr/bin/env python3
"""Where were a match's games decided? Prints, for each game of a GGF file (as `oxello match
--ggf-out` writes), its position at EMPTIES empties as an .obf line, with the game's players and
result as a comment, for `oxello solve FILE --wld` to solve. The positions come from oxello
itself (GTP `oxello-game`, `showboard`), so this script holds no rules of its own.

    scripts/decided-at.py OXELLO GAMES.ggf EMPTIES > at24.obf
    oxello solve at24.obf --wld --threads 1 > at24.txt
    scripts/decided-at.py --tally at24.obf at24.txt NAME

The tally counts, from the side of the engine whose name starts with NAME, each pair (the
win/draw/loss value at EMPTIES empties, the game's result).

    scripts/decided-at.py --times GAMES.ggf FIRST

prints each engine's mean thinking time a game by empties, over the games from the FIRST-th
(1-based) on.
"""
import collections
import re
import subprocess
import sys


def games(path):
    """Each GGF record's (black, white, result, [(colour, move, seconds)] without passes)."""
    for record in open(path).read().split("(;")[1:]:
        tag = lambda t: re.search(t + r"\[([^\]]*)\]", record).group(1)
        moves = re.findall(r"([BW])\[([A-Ha-h][1-8])(?:/[^/\]]*/([0-9.]+))?", record)
        yield tag("PB"), tag("PW"), float(tag("RE")), moves


def obf_lines(oxello, path, empties):
    """The .obf line of each game's position at `empties` empties (or its last)."""
    rows = list(games(path))
    setup = lambda moves: f"oxello-game {moves}" if moves else "clear_board"
    script = "".join(
        setup("".join(m for _, m, _ in moves[: 60 - empties])) + "\nshowboard\n"
        for _, _, _, moves in rows
    )
    out = subprocess.run([oxello], input=script + "quit\n", capture_output=True, text=True).stdout
    ranks = re.findall(r"^[1-8] ((?:[-.XO] ){8})[1-8]$", out, re.M)
    sides = re.findall(r"(black|white) to move", out)
    for i, ((black, white, result, _), side) in enumerate(zip(rows, sides)):
        flat = "".join(ranks[8 * i : 8 * i + 8]).replace(" ", "").replace(".", "-")
        yield f"{flat} {'X' if side == 'black' else 'O'}; % {black} {white} {result:+.0f}"

def tally(obf, solved, name):
    """Counts (value at the position, final result) from the side of engine `name`."""
    values = [int(l.split()[2]) for l in open(solved) if re.match(r"\s*\d+\s+\d+\s", l)]
    counts = collections.Counter()
    sign = lambda v: "win" if v > 0 else "draw" if v == 0 else "loss"
    for line, value in zip(open(obf), values):
        board, comment = line.split("%")
        black, _, result = comment.split()
        ours = 1 if black.startswith(name) else -1
        to_move = 1 if board.split()[1].startswith("X") else -1
        counts[(sign(value * to_move * ours), sign(float(result) * ours))] += 1
    for (at, final), n in sorted(counts.items()):
        print(f"{at} there, {final} at the end: {n}")


def times(path, first):
    """Each player's mean seconds a game in bands of empties, games `first` (1-based) on."""
    records = list(games(path))[first - 1 :]
    spent = collections.Counter()
    bands = [(45, ">=45"), (35, "35-44"), (25, "25-34"), (19, "19-24"), (0, "<19")]
    for black, white, _, moves in records:
        for played, (colour, _, seconds) in enumerate(moves):
            band = next(name for low, name in bands if 60 - played >= low)
            player = black if colour == "B" else white
            spent[(player, band)] += float(seconds or 0) / len(records)
    for (player, band), seconds in sorted(spent.items()):
        print(f"{player} {band}: {seconds:.2f} s")


if __name__ == "__main__":
    if sys.argv[1] == "--tally":
        tally(*sys.argv[2:5])
    elif sys.argv[1] == "--times":
        times(sys.argv[2], int(sys.argv[3]))
    else:
        for line in obf_lines(sys.argv[1], sys.argv[2], int(sys.argv[3])):
            print(line)
