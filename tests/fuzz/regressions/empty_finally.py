# Found by the program fuzzer: `try: ... finally: pass` lowers to a FINALLY with no
# instructions, which the translator dropped, leaving a Python Try with neither
# handlers nor finalbody ("function cannot be translated" at load).
from typing import List


def empty_finally(xs: List[int]) -> int:
    try:
        pass
    finally:
        pass
    return len(xs)


def empty_finally_raising(xs: List[int], i: int) -> int:
    n = 0
    try:
        n = xs[i]
    finally:
        pass
    return n


def empty_finally_in_loop(n: int) -> int:
    total = 0
    for i in range(n):
        try:
            if i == 2:
                continue
            total += i
        finally:
            pass
    return total


CASES = [("empty_finally", ([1, 2],)), ("empty_finally_raising", ([1, 2], 1)),
         ("empty_finally_raising", ([1, 2], 5)), ("empty_finally_in_loop", (5,))]
