# Found by the program fuzzer: the two arms of a conditional expression (or of an if
# statement) with tuple types that differ in one element, e.g. Tuple[str, int] and
# Tuple[None, int], were rejected; tuples are immutable and join element by element.
from typing import List, Optional, Tuple


def ifexp_tuple(c: bool, s: str) -> Tuple[Optional[str], int]:
    return (s, 1) if c else (None, 2)


def if_stmt_tuple(c: bool, xs: List[int]) -> Optional[int]:
    if c:
        t = (None, xs)
    else:
        t = (len(xs), xs)
    return t[0]


def nested_tuple(c: bool) -> Tuple[Tuple[Optional[int], str], float]:
    v: Tuple[Tuple[Optional[int], str], float] = ((1, "a"), 2.0) if c else ((None, "b"), 3.0)
    return v


CASES = [("ifexp_tuple", (True, "x")), ("ifexp_tuple", (False, "x")),
         ("if_stmt_tuple", (True, [1, 2])), ("if_stmt_tuple", (False, [1, 2])),
         ("nested_tuple", (True,)), ("nested_tuple", (False,))]
