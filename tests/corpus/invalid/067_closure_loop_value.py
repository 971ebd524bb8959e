# error: UnsupportedError
# line: 13
# match: captures 'i'

from typing import Callable, List


def f() -> List[int]:
    fs: List[Callable[[int], int]] = []
    for i in range(3):
        def g(x: int) -> int:
            return x + i
        fs.append(g)
    return [h(10) for h in fs]


ENTRY = "f"
