# Found by the program fuzzer: canonicalize inlined `if True: raise ...` and erased the
# dead code after it, but ops nested in the erased ops stayed attached to their blocks,
# so later patterns ran on them (IndexError in p_if, p_widen, p_tuple_get, p_for).
from typing import Dict, Optional, Tuple


def dead_if_after_raise(p: bool) -> int:
    if True:
        raise TypeError("always")
    n = 0
    while n < 5 and p:
        n += 1
    return n


def dead_tuple_get_after_assert(t: Tuple[int, float]) -> bool:
    assert False
    for k, v in {0: 0.0}.items():
        if t[0] > k:
            pass
    return t[0] == 1


def dead_optional_after_raise(d: Dict[str, int], k: str) -> Optional[int]:
    if 1:
        raise ValueError("no " + k)
    x: Optional[int] = None
    for i in range(0):
        x = d.get(k)
    return x


CASES = [("dead_if_after_raise", (True,)), ("dead_tuple_get_after_assert", ((1, 2.0),)),
         ("dead_optional_after_raise", ({"a": 1}, "a"))]
