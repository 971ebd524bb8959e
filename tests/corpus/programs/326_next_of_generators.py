from typing import List, Optional


def countdown(n: int):
    while n > 0:
        print("at", n)
        yield n
        n -= 1
    print("liftoff")


def first_big(xs: List[int], k: int) -> Optional[int]:
    return next((x for x in xs if x > k), None)


def first_word(s: str) -> str:
    return next((w for w in s.split() if w.isalpha()), "?")


def start(n: int) -> int:
    return next(countdown(n))


def start_or(n: int) -> int:
    return next(countdown(n), -1) * 10


def search(xs: List[int]) -> int:
    for x in (y for y in xs if y % 3 == 0):
        found = x
        break
    else:
        found = -1
    return found


CASES = [("first_big", ([1, 5, 7], 4)), ("first_big", ([], 0)), ("first_word", ("12 ab cd",)),
         ("first_word", ("1 2",)), ("start", (3,)), ("start", (0,)), ("start_or", (2,)),
         ("start_or", (0,)), ("search", ([1, 6, 9],)), ("search", ([1],))]
