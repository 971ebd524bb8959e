# Found by the program fuzzer: an assignment in the first of two nested ifs was lost at
# the outer if's merge (the environment's copy-on-write `own` set, cleared by copying
# for the second nested if, was taken as the set of changed names): invalid IR.
from typing import List


def first_of_two_nested(p0: int) -> int:
    v1 = p0
    if p0 > 5:
        if p0 > 6:
            v1 = 2
        if p0 > 1:
            pass
    return v1


def nested_then_loop(p0: int) -> int:
    v1: int = p0
    if 0:
        if p0 > 0:
            v1 //= 2
        fuel = 0
        while fuel < 2:
            fuel += 1
    return v1 * v1


def three_levels(xs: List[int]) -> List[int]:
    out: List[int] = []
    total = 0
    for x in xs:
        if x > 0:
            if x % 2 == 0:
                total += x
            else:
                if x > 3:
                    out.append(x)
            if x > 10:
                pass
        out.append(total)
    return out


CASES = [("first_of_two_nested", (3,)), ("first_of_two_nested", (6,)),
         ("first_of_two_nested", (7,)), ("nested_then_loop", (3,)),
         ("three_levels", ([1, 2, 4, 5, 12, -1],))]
