from typing import Callable, List


def make_multiplier(k: int) -> Callable[[int], int]:
    def mul(x: int) -> int:
        return x * k
    return mul


def apply_all(fs: List[Callable[[int], int]], x: int) -> List[int]:
    return [f(x) for f in fs]


def run(x: int) -> List[int]:
    return apply_all([make_multiplier(2), make_multiplier(5), make_multiplier(-1)], x)


CASES = [("run", (3,)), ("run", (0,))]
