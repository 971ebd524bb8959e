from typing import Dict, List


def rebind(n: int) -> int:
    x = n * 2
    y = x + 1
    del x
    x = 5
    return x + y


def several(d: Dict[str, int], xs: List[int]) -> int:
    t = len(xs)
    k = "a"
    del d[k], xs[0], t
    t = 10
    return t + len(d) + len(xs)


def loop_then_del(n: int) -> int:
    for i in range(n):
        pass
    del i
    return n


CASES = [
    ("rebind", (3,)),
    ("several", ({"a": 1, "b": 2}, [1, 2, 3])),
    ("several", ({"b": 2}, [1])),
    ("loop_then_del", (2,)),
    ("loop_then_del", (0,)),
]
