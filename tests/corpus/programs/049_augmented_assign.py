from typing import Dict, List


def aug(n: int) -> tuple:
    a = n
    a += 3
    a -= 1
    a *= 4
    a //= 3
    a %= 7
    a **= 2
    a <<= 2
    a >>= 1
    a |= 1
    a &= 0xFF
    a ^= 5
    f = 1.5
    f /= 2
    f += a
    return a, f


def aug_containers(xs: List[int], d: Dict[str, int]) -> tuple:
    xs[0] += 10
    xs[-1] *= 2
    d["k"] += 1
    d["new"] = d.get("new", 0) + 5
    s = "ab"
    s += "cd"
    s *= 2
    return xs, d, s


CASES = [("aug", (5,)), ("aug", (0,)), ("aug_containers", ([1, 2, 3], {"k": 1}))]
