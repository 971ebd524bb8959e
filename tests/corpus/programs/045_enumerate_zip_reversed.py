from typing import List, Tuple


def combine(a: List[int], b: List[str]) -> List[str]:
    out: List[str] = []
    for i, (x, y) in enumerate(zip(a, b)):
        out.append(f"{i}:{x}{y}")
    for k, c in enumerate("xyz", 10):
        out.append(str(k) + c)
    for x in reversed(a):
        out.append(str(x))
    for ch in reversed("abc"):
        out.append(ch)
    return out


def dot(a: List[float], b: List[float]) -> float:
    return sum([x * y for x, y in zip(a, b)])


CASES = [("combine", ([1, 2, 3], ["a", "b"])), ("dot", ([1.0, 2.0, 3.0], [4.0, 5.0, 6.0]))]
