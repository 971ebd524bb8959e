from typing import List, Optional


def first_even(xs: List[int]) -> Optional[int]:
    result: Optional[int] = None
    for x in xs:
        if x % 2 == 0:
            result = x
            break
    return result


def sum_optional(xs: List[Optional[int]]) -> int:
    total = 0
    for x in xs:
        if x is not None:
            total += x
    return total


def early_exit(x: Optional[str]) -> str:
    if x is None:
        return "none"
    return x.upper() + "!"


def both(a: Optional[int], b: Optional[int]) -> int:
    if a is not None and b is not None:
        return a * b
    if a is None or b is None:
        return -1
    return 0


CASES = [("first_even", ([1, 3, 4, 6],)), ("first_even", ([1, 3],)),
         ("sum_optional", ([1, None, 5, None],)), ("early_exit", (None,)),
         ("early_exit", ("hi",)), ("both", (3, 4)), ("both", (3, None)), ("both", (None, None))]
