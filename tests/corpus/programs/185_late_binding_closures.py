from typing import List


def later(n: int) -> int:
    def get() -> int:
        return k * 2
    k = n
    return get()


def per_call(n: int) -> List[int]:
    def scaled(x: int) -> int:
        return x * factor
    out: List[int] = []
    for factor in range(n):
        out.append(scaled(10))
    return out


def two_late(s: str) -> str:
    def show() -> str:
        return prefix + s + suffix
    prefix = "<"
    suffix = ">"
    first = show()
    prefix = "["
    return first + show()


CASES = [("later", (3,)), ("per_call", (3,)), ("per_call", (0,)), ("two_late", ("x",))]
