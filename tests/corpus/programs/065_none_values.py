from typing import Dict, List, Optional


def maybe_list(n: int) -> Optional[List[int]]:
    if n < 0:
        return None
    return list(range(n))


def length_or_zero(n: int) -> int:
    xs = maybe_list(n)
    if xs is None:
        return 0
    return len(xs)


def nones(n: int) -> List[Optional[str]]:
    out: List[Optional[str]] = []
    for i in range(n):
        out.append(None if i % 2 else str(i))
    return out


def is_checks(a: Optional[int]) -> List[bool]:
    return [a is None, a is not None, a == None, a != None]


CASES = [("length_or_zero", (3,)), ("length_or_zero", (-1,)), ("nones", (4,)),
         ("is_checks", (None,)), ("is_checks", (0,))]
