# Found by the program fuzzer: `x: Optional[T] = None` and then `x is not None` gave the
# not-None branch no refinement (the flow type of x was None there), so valid programs
# were rejected ("cannot subtract float and Optional[float]", "cannot iterate over None").
# The dead branch now sees x as the declared type's other members.
from typing import Dict, List, Optional


def ifexp_on_none_valued(a: float) -> float:
    v0: Optional[float] = None
    v1: float = a
    v1 -= v0 if v0 is not None else v1
    return v1


def iterate_when_set(n: int) -> List[int]:
    xs: Optional[List[int]] = None
    out: List[int] = []
    if xs is not None:
        for x in xs:
            out.append(x)
    else:
        out.append(n)
    return out


def key_when_set(d: Dict[str, int]) -> int:
    k: Optional[str] = None
    if k is None:
        return -1
    return d[k]


def assigned_later(flag: bool) -> int:
    v: Optional[int] = None
    if flag:
        v = 4
    return v + 1 if v is not None else 0


CASES = [("ifexp_on_none_valued", (2.0,)), ("iterate_when_set", (3,)),
         ("key_when_set", ({"a": 1},)), ("assigned_later", (True,)),
         ("assigned_later", (False,))]
