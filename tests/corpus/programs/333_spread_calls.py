from typing import List, Tuple

def total(*xs: int) -> int:
    return sum(xs)

def a1() -> int:
    return total(*[1, 2, 3])

def a2(t: Tuple[int, int]) -> int:
    return total(*t)

def a3() -> int:
    return total(1, *(2, 3), 4)

class Acc:
    def __init__(self):
        self.n = 0
    def add(self, *nums: int) -> int:
        for v in nums:
            self.n += v
        return self.n
    def pair(self, a: int, b: int) -> int:
        return a * b

def a4() -> int:
    acc = Acc()
    acc.add(1, 2)
    return acc.add(*(3, 4))

def a5(xs: List[int]) -> int:
    acc = Acc()
    return acc.pair(*xs)

def a6(xs: List[int]) -> Tuple[int, int]:
    return max(*xs), min(*xs)

def fmt(*parts: str, sep: str = "-") -> str:
    return sep.join(parts)

def a7() -> str:
    return fmt("a", "b") + fmt(*("c", "d"), sep="+")


def a8(xs: List[float]) -> float:
    return max(*xs) - min(*xs, ) + max(*(1.5, 2.5))

def a9(t: Tuple[int, str]) -> str:
    return "{}-{}".format(*t)

class V:
    def __init__(self, a: int, b: int):
        self.a = a
        self.b = b

def a10(t: Tuple[int, int]) -> int:
    v = V(*t)
    w = V(**{"a": 1, "b": 2})
    return v.a * 10 + v.b + w.a + w.b

def mk() -> Acc:
    return Acc()

def a11() -> int:
    return mk().add(*[1, 2, 3])


CASES = [('a1', ()), ('a2', ((5, 6),)), ('a3', ()), ('a4', ()), ('a5', ([3, 4],)), ('a6', ([3, 1, 2],)), ('a7', ()), ('a6', ([5],)), ('a6', ([],)), ('a8', ([1.0, 4.0],)), ('a9', ((1, 'x'),)), ('a10', ((3, 4),)), ('a11', ())]
