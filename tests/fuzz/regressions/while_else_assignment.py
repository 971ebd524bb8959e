# Found by the program fuzzer: a variable assigned only in a while loop's else clause
# was not carried by the loop, so the assignment was lost after the loop (for loops
# over a range carried it; while loops and for loops over sequences did not).
from typing import List


def while_else_assigns(a: int) -> int:
    v0 = a
    n = 0
    while n < 2:
        n += 1
    else:
        v0 = 7
    return v0


def while_else_never_runs_body(a: int) -> int:
    v0 = a
    n = 0
    while n < 0 and a > 0:
        n += 1
        return n
    else:
        v0 //= -1
    return v0


def for_list_else_assigns(xs: List[int]) -> str:
    found = "none"
    for x in xs:
        if x > 10:
            break
    else:
        found = "no big item"
    return found


def while_else_after_break(xs: List[int]) -> int:
    last = -1
    i = 0
    while i < len(xs):
        if xs[i] < 0:
            break
        i += 1
    else:
        last = i
    return last


CASES = [("while_else_assigns", (5,)), ("while_else_never_runs_body", (5,)),
         ("for_list_else_assigns", ([1, 2],)), ("for_list_else_assigns", ([1, 20],)),
         ("while_else_after_break", ([1, 2],)), ("while_else_after_break", ([1, -2],))]
