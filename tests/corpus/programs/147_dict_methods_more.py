from typing import Dict, List


def ops(d: Dict[int, str]) -> List[str]:
    e = d.copy()
    e.clear()
    first = d.setdefault(99, "new")
    again = d.setdefault(99, "other")
    popped = d.pop(1, "none")
    return [first, again, popped, str(len(d)), str(len(e)), str(sorted(list(d.keys())))]


def equal(a: Dict[str, int], b: Dict[str, int]) -> List[bool]:
    return [a == b, a != b]


CASES = [("ops", ({1: "a", 2: "b"},)), ("equal", ({"x": 1}, {"x": 1})), ("equal", ({"x": 1}, {}))]
