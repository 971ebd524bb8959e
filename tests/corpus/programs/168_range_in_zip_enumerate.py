from typing import List


def pairs(n: int, s: str, xs: List[int]) -> List[str]:
    out: List[str] = []
    for i, c in zip(range(n), s):
        out.append(f"{i}{c}")
    for i, v in enumerate(range(5, n)):
        out.append(f"{i}:{v}")
    out += [f"{i}{x}" for i, x in enumerate(reversed(xs))]
    out += [f"{a}{b}" for a, b in zip(reversed(range(n)), range(0, 100, 7))]
    for i, c in enumerate(reversed(s), 1):
        out.append(c * i)
    for a, b in zip(range(n, 0, -2), reversed(xs)):
        out.append(str(a * b))
    return out


def zero_step(n: int) -> List[int]:
    return [i for i, _ in zip(range(0, n, 0), [1])]


def shrinking(n: int) -> List[int]:
    xs = list(range(n))
    out: List[int] = []
    for i, x in enumerate(reversed(xs)):
        out.append(x)
        if i == 0:
            xs.pop()
            xs.pop()
    return out


def extremes(lo: int, hi: int) -> List[int]:
    return [a for a, _ in zip(range(lo, hi, 1 << 62), range(5))]


CASES = [
    ("pairs", (8, "hello", [1, 2, 3])),
    ("pairs", (0, "", [])),
    ("zero_step", (3,)),
    ("shrinking", (4,)),
    ("extremes", (-2 ** 63, 2 ** 63 - 1)),
]
