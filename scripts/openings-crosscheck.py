#!/usr/bin/env python3
"""Cross-checks src/engine/openings.txt against another list of named positions.

Usage: scripts/openings-crosscheck.py src/engine/openings.txt OTHER

OTHER holds one position a line, as Egaroucid's bin/resources/openings/english/openings.txt
does: 64 characters a1..h8 ('0' black, '1' white, '.' empty), a space, then the name (names
of one position separated by '|'). Every line of our table is replayed by this script's own
rules; a line agrees when OTHER gives the same name (case aside, a trailing " Opening"
aside) to its position or to one of the position's 8 images. Prints the lines that do not
agree and the count of those that do.
"""
import sys

DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def play(board, side, sq):
    row, col = divmod(sq, 8)
    other = 'W' if side == 'B' else 'B'
    flips = []
    for dr, dc in DIRECTIONS:
        r, c, run = row + dr, col + dc, []
        while 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == other:
            run.append(r * 8 + c)
            r, c = r + dr, c + dc
        if run and 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == side:
            flips += run
    if board[sq] != '.' or not flips:
        raise ValueError(f'illegal move {sq}')
    board = board[:]
    for s in flips + [sq]:
        board[s] = side
    return board


def images(board):
    for s in range(8):
        image = ['.'] * 64
        for sq, disc in enumerate(board):
            row, col = divmod(sq, 8)
            if s & 4:
                row, col = col, row
            if s & 2:
                row = 7 - row
            if s & 1:
                col = 7 - col
            image[row * 8 + col] = disc
        yield ''.join(image)


def plain(name):
    name = name.strip().lower()
    return name[:-len(' opening')] if name.endswith(' opening') else name


def main(ours, theirs):
    named = {}
    for line in open(theirs, encoding='utf-8'):
        board, names = line.rstrip('\n').split(' ', 1)
        board = board.replace('0', 'B').replace('1', 'W')
        named.setdefault(board, set()).update(plain(n) for n in names.split('|'))
    agree = total = 0
    for line in open(ours, encoding='utf-8'):
        if not line.strip() or line.startswith('#'):
            continue
        moves, name = line.split(' ', 1)
        board = ['.'] * 64
        board[27] = board[36] = 'W'
        board[28] = board[35] = 'B'
        for i in range(0, len(moves), 2):
            sq = (int(moves[i + 1]) - 1) * 8 + ord(moves[i]) - ord('a')
            board = play(board, 'B' if i % 4 == 0 else 'W', sq)
        total += 1
        theirs_names = set().union(*(named.get(b, set()) for b in images(board)))
        if plain(name) in theirs_names:
            agree += 1
        else:
            print(f'{moves} {name.strip()}: {sorted(theirs_names) or "not named there"}')
    print(f'{agree} of {total} lines agree')


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
