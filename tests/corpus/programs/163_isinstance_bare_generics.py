from typing import Dict, List, NamedTuple, Optional, Tuple, Union


class P(NamedTuple):
    a: int
    b: str = "x"


def kinds(x: List[int], d: Dict[str, int], t: Tuple[int, int]) -> List[bool]:
    return [isinstance(x, list), isinstance(d, dict), isinstance(t, tuple),
            isinstance(x, dict), isinstance(d, list), isinstance(t, (list, tuple)),
            isinstance(P(1), tuple), isinstance(x, List), isinstance(d, Dict)]


def describe(v: Union[List[int], str, Dict[str, int]]) -> str:
    if isinstance(v, list):
        return "list of " + str(len(v))
    elif isinstance(v, dict):
        return "dict of " + str(len(v))
    return "str " + v


def first(v: Optional[Tuple[int, str]]) -> int:
    if isinstance(v, tuple):
        return v[0]
    return -1


CASES = [
    ("kinds", ([1], {"a": 1}, (1, 2))),
    ("describe", ([1, 2],)),
    ("describe", ({"a": 1},)),
    ("describe", ("s",)),
    ("first", ((3, "a"),)),
    ("first", (None,)),
]
