from typing import List


def counts(xs: List[int]) -> List[int]:
    evens = 0
    positives = 0
    for x in xs:
        evens += x % 2 == 0
        positives += int(x > 0)
    return [evens, positives, True + True, (3 > 2) * 10, -True]


CASES = [("counts", ([1, 2, -4, 6, 7],))]
