from typing import Dict, List


class Box:
    def __init__(self):
        self.xs: List[int] = [1]


def aliases(n: int) -> List[List[int]]:
    xs = [1, 2]
    ys = xs
    xs *= n
    d: Dict[str, List[int]] = {"a": [1]}
    a = d["a"]
    d["a"] += [2]
    d["a"] *= 2
    b = Box()
    bx = b.xs
    b.xs += [n]
    b.xs *= 2
    rows = [[0], [1]]
    r0 = rows[0]
    rows[0] += [5]
    rows[1] *= 0
    return [ys, xs, a, d["a"], bx, b.xs, r0, rows[1]]


def repeat(n: int) -> List[int]:
    xs = [1, 2]
    xs *= True
    s = "ab"
    s *= n
    ys = [3]
    zs = ys
    ys *= -n
    return xs + [len(s), len(zs)]


CASES = [("aliases", (2,)), ("aliases", (0,)), ("repeat", (2,))]
