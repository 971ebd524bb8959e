from typing import Callable, List, Tuple


def halvings(n: int) -> Tuple[int, int]:
    total = 0
    while (k := n // 2) > 0:
        total += k
        n = k
    return total, k


def chunks(xs: List[int], size: int) -> List[List[int]]:
    out: List[List[int]] = []
    i = 0
    while len(chunk := xs[i:i + size]) == size:
        out.append(chunk)
        i += size
    else:
        if chunk:
            out.append(chunk)
    return out


def first_over(xs: List[int], limit: int) -> int:
    i = 0
    found = -1
    while i < len(xs) and (v := xs[i]) <= limit:
        i += 1
    else:
        found = i
    return found


def last_square_over(xs: List[int], limit: int) -> Tuple[int, List[int]]:
    big: List[int] = []
    y = 0
    for x in xs:
        if (y := x * x) > limit:
            big.append(y)
    return y, big


def adders(x: int) -> List[int]:
    fs: List[Callable[[int], int]] = []
    for i in range(4):
        fs.append(lambda y, i=i: y + i * 10)
    return [f(x) for f in fs]


def scaled(x: int) -> Tuple[int, int, int]:
    k = 3
    g = lambda a, b=k * 2: a * b
    k = 100
    h = lambda a, p=1, q=2: a + p + q
    return g(x), h(x), (lambda z, w=x - 1: z - w)(5)


CASES = [("halvings", (20,)), ("halvings", (1,)), ("halvings", (0,)),
         ("chunks", ([1, 2, 3, 4, 5], 2)), ("chunks", ([1, 2], 2)), ("chunks", ([], 3)),
         ("first_over", ([1, 2, 9, 3], 5)), ("first_over", ([1, 2], 5)),
         ("last_square_over", ([1, 5, 2, 7], 10)),
         ("last_square_over", ([], 10)), ("adders", (1,)), ("scaled", (7,))]
