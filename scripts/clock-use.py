#!/usr/bin/env python3
"""Where a game clock goes: reads the logs of oxello engines (their stderr with
RUST_LOG=info, one file per process) and prints, for each band of 4 empties, the moves
searched, their time, and how much of it came after the search's last finished iteration
(a midgame depth or an endgame pass): time spent on an iteration that the clock cut.

    oxello match --engine "sh -c 'RUST_LOG=info exec oxello --threads 1 --no-book 2>log.\\$\\$'" ...
    scripts/clock-use.py log.*

The "midgame at the end" column counts the moves whose midgame iterations reached one ply
short of the game's end, after which only a solve is left to search.
"""
import collections
import re
import sys

ITERATION = re.compile(r"INFO depth (\d+)@\S+ (\w+) score .* time ([0-9.]+)")
MOVE = re.compile(r"INFO move \w+ \S+ score .* time ([0-9.]+) left \S+ empties (\d+)")


def moves(path):
    """Each searched move's (empties, time, time of its last finished iteration, whether its
    midgame reached the end)."""
    iterations = []
    for line in open(path):
        if m := ITERATION.search(line):
            iterations.append((int(m.group(1)), m.group(2), float(m.group(3))))
        elif m := MOVE.search(line):
            time, empties = float(m.group(1)), int(m.group(2))
            if iterations:
                deepest = max((d for d, kind, _ in iterations if kind == "midgame"), default=0)
                last = max(t for _, _, t in iterations)
                yield empties, time, last, deepest + 1 >= empties
            iterations = []


def add(row, other):
    """Two rows of (moves, seconds, seconds after the last iteration, moves at the end), added."""
    return [a + b for a, b in zip(row, other)]


def line(label, row):
    n, time, cut, at_end = row
    return f"{label:<5}  {n:6}  {time:7.1f}  {cut:20.1f}  {at_end:18}"


def main(paths):
    bands = collections.defaultdict(lambda: [0, 0.0, 0.0, 0])
    for path in paths:
        for empties, time, last, at_end in moves(path):
            low = empties // 4 * 4
            bands[low] = add(bands[low], (1, time, time - last, at_end))
    print("empties  moves  seconds  after last iteration  midgame at the end")
    totals = [0, 0.0, 0.0, 0]
    for low in sorted(bands, reverse=True):
        print(line(f"{low:2}-{low + 3}", bands[low]))
        totals = add(totals, bands[low])
    print(line("total", totals))


if __name__ == "__main__":
    main(sys.argv[1:])
