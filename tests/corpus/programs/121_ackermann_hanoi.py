from typing import List, Tuple


def ackermann(m: int, n: int) -> int:
    if m == 0:
        return n + 1
    if n == 0:
        return ackermann(m - 1, 1)
    return ackermann(m - 1, ackermann(m, n - 1))


def hanoi(n: int, src: str, dst: str, via: str, moves: List[Tuple[str, str]]) -> None:
    if n == 0:
        return
    hanoi(n - 1, src, via, dst, moves)
    moves.append((src, dst))
    hanoi(n - 1, via, dst, src, moves)


def solve_hanoi(n: int) -> List[Tuple[str, str]]:
    moves: List[Tuple[str, str]] = []
    hanoi(n, "A", "C", "B", moves)
    return moves


CASES = [("ackermann", (2, 3)), ("ackermann", (0, 0)), ("solve_hanoi", (3,))]
