# Found by the program fuzzer: the verifier checked a loop's else clause as if it were
# outside every loop, so `break`/`continue` there (which leave the *enclosing* loop)
# made valid programs fail to load ("BREAK outside a loop body").
from typing import List


def for_else_break(p0: int) -> int:
    n = 0
    while n < 3:
        n += 1
        for x in range(p0):
            break
        else:
            break
    return n


def while_else_continue(xs: List[int]) -> List[int]:
    out: List[int] = []
    for x in xs:
        k = 0
        while k < x:
            k += 1
            if k == 5:
                break
        else:
            continue
        out.append(x)
    return out


CASES = [("for_else_break", (0,)), ("for_else_break", (2,)),
         ("while_else_continue", ([1, 7, 3, 9],))]
