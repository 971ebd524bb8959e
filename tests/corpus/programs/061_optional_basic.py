from typing import Dict, List, Optional


def find(xs: List[int], target: int) -> Optional[int]:
    for i, x in enumerate(xs):
        if x == target:
            return i
    return None


def describe(xs: List[int], target: int) -> str:
    idx = find(xs, target)
    if idx is None:
        return "absent"
    return "at " + str(idx * 1)


def default_or(x: Optional[int], d: int) -> int:
    if x is not None:
        return x
    return d


def lookup(d: Dict[str, int], k: str) -> int:
    v = d.get(k)
    return -1 if v is None else v + 100


CASES = [("describe", ([4, 5, 6], 5)), ("describe", ([4, 5, 6], 9)), ("default_or", (None, 3)),
         ("default_or", (7, 3)), ("lookup", ({"a": 1}, "a")), ("lookup", ({"a": 1}, "b"))]
