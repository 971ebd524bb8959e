from typing import List


class Rect:
    def __init__(self, w: int, h: int):
        self.w = w
        self.h = h

    @property
    def area(self) -> int:
        return self.w * self.h

    @property
    def double_area(self) -> int:
        return self.area * 2

    def grow(self, k: int) -> "Rect":
        self.w += k
        return self


def areas(n: int) -> List[int]:
    rs = [Rect(n, 2), Rect(1, 1)]
    out = [r.area + r.double_area for r in rs]
    out.append(rs[0].grow(1).area)
    return out


CASES = [("areas", (3,)), ("areas", (0,))]
