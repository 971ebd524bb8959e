from typing import List


def alias(n: int) -> List[List[int]]:
    a = [1, 2, 3]
    b = a
    b.append(n)
    c = a[:]
    c.append(99)
    d = [a, a]
    d[0][0] = -1
    a += [5]
    return [a, b, c, d[1]]


def grow_while_iterating(xs: List[int]) -> List[int]:
    out: List[int] = []
    for x in xs:
        if x < 3:
            xs.append(x + 10)
        out.append(x)
    return out


CASES = [("alias", (4,)), ("grow_while_iterating", ([1, 2, 3],))]
