from typing import List, Tuple


class Countdown:
    start: int = 3

    def __init__(self, n: int):
        self.n = n

    def __iter__(self) -> "Countdown":
        return self

    def __next__(self) -> int:
        if self.n <= 0:
            raise StopIteration
        self.n -= 1
        return self.n + 1


def walk(n: int, stop: int) -> Tuple[List[int], int, List[int], int]:
    seen = []
    for v in Countdown(n):
        if v == stop:
            break
        seen.append(v)
    else:
        seen.append(0)
    return seen, sum(Countdown(n)), [v * v for v in Countdown(n) if v % 2], Countdown.start




def stepping(n: int) -> Tuple[int, int, int, List[int]]:
    it = iter(Countdown(n))
    first = next(it)
    second = next(it, -1)
    third = next(it, -1)
    return first, second, third, list(it)


CASES = [("walk", (4, 99)), ("walk", (4, 2)), ("walk", (0, 1)), ("stepping", (5,)),
         ("stepping", (1,))]
